package localdev_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"sync"
	"testing"
	"time"

	"pumasi/internal/testpeer"
	"pumasi/knowledge"
)

// TestKnowledgeTwoLocaldevsOneHome: two real localdev processes on one
// SQLite home take 50 concurrent contributions of the same finding, split
// between them → one entry, contribution_count 50, 50 attributions.
func TestKnowledgeTwoLocaldevsOneHome(t *testing.T) {
	if testing.Short() {
		t.Skip("starts real processes")
	}
	home := t.TempDir()
	a := startLocaldev(t, home)
	b := startLocaldev(t, home)
	fiftySameFindings(t, a, b)
}

// TestKnowledgeTwoLocaldevsOneBucket: the same across two localdev
// processes on one MinIO bucket (PUMASI_STORAGE=s3://...), each with its own
// home, and one PostgreSQL database for their knowledge.
func TestKnowledgeTwoLocaldevsOneBucket(t *testing.T) {
	if testing.Short() {
		t.Skip("starts real processes")
	}
	// The S3 backend keeps no knowledge of its own: processes sharing a
	// bucket share knowledge through PUMASI_KNOWLEDGE.
	m := testpeer.MinIO(t)
	bucket := m.NewBucket(t)
	env := append(m.Env(), "PUMASI_STORAGE="+m.URL(bucket, "pumasi"), "PUMASI_KNOWLEDGE="+testpeer.Postgres(t))
	a := startLocaldev(t, t.TempDir(), env...)
	b := startLocaldev(t, t.TempDir(), env...)
	fiftySameFindings(t, a, b)
}

// corpusFinding returns the title and content of a labelled corpus case.
func corpusFinding(t *testing.T, id string) (string, string) {
	t.Helper()
	f, err := os.Open("../testdata/knowledge/corpus.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var c struct{ ID, Want, Title, Content string }
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatal(err)
		}
		if c.ID == id {
			if c.Want != knowledge.VerdictAccepted {
				t.Fatalf("corpus case %s is labelled %q, want an accepted finding", id, c.Want)
			}
			return c.Title, c.Content
		}
	}
	t.Fatalf("corpus case %s not found (%v)", id, sc.Err())
	return "", ""
}

// hiveEntry is the part of a Hive-shaped entry the test reads.
type hiveEntry struct {
	ID                string `json:"id"`
	ContributionCount int64  `json:"contribution_count"`
	Contributions     []struct {
		Agent string `json:"agent"`
	} `json:"contributions"`
}

func knowContribute(ctx context.Context, base, agent string, body []byte) (int, string, hiveEntry, error) {
	req, _ := http.NewRequestWithContext(ctx, "POST", base+"/knowledge/contribute", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Hive-Agent", agent)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, "", hiveEntry{}, err
	}
	defer resp.Body.Close()
	var out struct {
		Data struct {
			Verdict string    `json:"verdict"`
			Entry   hiveEntry `json:"entry"`
		} `json:"data"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		return resp.StatusCode, "", hiveEntry{}, fmt.Errorf("decode answer: %w", err)
	}
	return resp.StatusCode, out.Data.Verdict, out.Data.Entry, nil
}

func knowGetJSON(t *testing.T, u string, v any) {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("GET %s = %d, want 200", u, resp.StatusCode)
	}
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		t.Fatalf("GET %s: decode: %v", u, err)
	}
}

// fiftySameFindings sends 50 concurrent POST /knowledge/contribute of one
// finding, The Hive client's exact request, alternating between a and b, and
// checks the outcome from both processes.
func fiftySameFindings(t *testing.T, a, b *proc) {
	t.Helper()
	const n = 50
	title, content := corpusFinding(t, "spec-en-pg-concurrently")
	body, err := json.Marshal(map[string]any{"title": title, "content": content, "hive": "academy", "tags": []string{}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	statuses := make([]int, n)
	verdicts := make([]string, n)
	entries := make([]hiveEntry, n)
	errs := make([]error, n)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range n {
		base := a.base
		if i%2 == 1 {
			base = b.base
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			statuses[i], verdicts[i], entries[i], errs[i] = knowContribute(ctx, base, fmt.Sprintf("agent-%02d", i), body)
		}()
	}
	began := time.Now()
	close(start)
	wg.Wait()
	took := time.Since(began)
	created, merged := 0, 0
	ids := map[string]bool{}
	for i := range n {
		if errs[i] != nil {
			t.Fatalf("contribution %d: %v", i, errs[i])
		}
		switch {
		case statuses[i] == 201 && verdicts[i] == knowledge.VerdictAccepted:
			created++
		case statuses[i] == 200 && verdicts[i] == knowledge.VerdictMerged:
			merged++
		default:
			t.Fatalf("contribution %d: status %d verdict %q, want 201 accepted or 200 merged", i, statuses[i], verdicts[i])
		}
		ids[entries[i].ID] = true
	}
	if created != 1 || merged != n-1 || len(ids) != 1 {
		t.Fatalf("%d accepted, %d merged, %d distinct entries; want 1, %d, 1", created, merged, len(ids), n-1)
	}
	var id string
	for k := range ids {
		id = k
	}
	for _, p := range []*proc{a, b} {
		var got struct {
			Data hiveEntry `json:"data"`
		}
		knowGetJSON(t, p.base+"/knowledge/"+url.PathEscape(id), &got)
		agents := map[string]bool{}
		for _, c := range got.Data.Contributions {
			agents[c.Agent] = true
		}
		if got.Data.ID != id || got.Data.ContributionCount != n || len(got.Data.Contributions) != n || len(agents) != n {
			t.Fatalf("%s: entry %s has contribution_count %d, %d attributions from %d agents; want %d each",
				p.base, got.Data.ID, got.Data.ContributionCount, len(got.Data.Contributions), len(agents), n)
		}
		for i := range n {
			if !agents[fmt.Sprintf("agent-%02d", i)] {
				t.Fatalf("%s: agent-%02d is not attributed", p.base, i)
			}
		}
		var q struct {
			Data []hiveEntry `json:"data"`
		}
		knowGetJSON(t, p.base+"/knowledge/query?q="+url.QueryEscape(title)+"&limit=5", &q)
		if len(q.Data) != 1 || q.Data[0].ID != id || q.Data[0].ContributionCount != n {
			t.Fatalf("%s: query answered %+v, want the one entry with count %d", p.base, q.Data, n)
		}
	}
	t.Logf("50 concurrent contributions over 2 localdevs: %v", took.Round(time.Millisecond))
}
