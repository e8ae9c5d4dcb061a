package functions

// Many agents on one finding, an API without knowledge, and the sweep over HTTP.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"pumasi"
	"pumasi/adapters/embed"
	"pumasi/adapters/local"
)

// TestFiftyAgentsSameFinding: 50 goroutines POST the same finding at once →
// one entry, contribution_count 50, 50 attributions.
func TestFiftyAgentsSameFinding(t *testing.T) {
	e := newKnowEnv(t)
	const n = 50
	var wg sync.WaitGroup
	statuses := make([]int, n)
	ids := make([]string, n)
	start := make(chan struct{})
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			req, _ := http.NewRequest("POST", e.srv.URL+"/knowledge/contribute",
				bytes.NewReader([]byte(contributeBody(findingTitle, findingContent, "academy"))))
			req.Header.Set("X-Hive-Agent", fmt.Sprintf("agent-%02d", i))
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				return
			}
			defer resp.Body.Close()
			var body struct {
				Data struct {
					Entry struct {
						ID string `json:"id"`
					} `json:"entry"`
				} `json:"data"`
			}
			json.NewDecoder(resp.Body).Decode(&body)
			statuses[i], ids[i] = resp.StatusCode, body.Data.Entry.ID
		}()
	}
	close(start)
	wg.Wait()
	created, merged := 0, 0
	distinct := map[string]bool{}
	for i := range statuses {
		switch statuses[i] {
		case 201:
			created++
		case 200:
			merged++
		default:
			t.Fatalf("request %d: status %d", i, statuses[i])
		}
		distinct[ids[i]] = true
	}
	if created != 1 || merged != n-1 || len(distinct) != 1 {
		t.Fatalf("201×%d 200×%d over %d entries, want 201×1 200×%d over 1", created, merged, len(distinct), n-1)
	}
	var id string
	for k := range distinct {
		id = k
	}
	r := e.do("GET", "/knowledge/"+id, "", "")
	contribs, _ := r.data()["contributions"].([]any)
	agents := map[string]bool{}
	for _, c := range contribs {
		agents[c.(map[string]any)["agent"].(string)] = true
	}
	if r.data()["contribution_count"] != float64(n) || len(contribs) != n || len(agents) != n {
		t.Fatalf("contribution_count %v, %d attributions, %d agents; want %d each", r.data()["contribution_count"], len(contribs), len(agents), n)
	}
}

func TestKnowledgeNotConfigured(t *testing.T) {
	srv := httptest.NewServer((&API{Secret: testSecret}).Handler())
	defer srv.Close()
	e := &knowEnv{t: t, srv: srv}
	for _, c := range []struct{ method, path, agent string }{
		{"POST", "/knowledge/contribute", "agent-x"}, {"GET", "/knowledge/query?q=x", ""},
		{"GET", "/knowledge/abc", ""}, {"POST", "/knowledge/abc/cite", "agent-x"},
	} {
		r := e.do(c.method, c.path, c.agent, contributeBody(findingTitle, findingContent, ""))
		if r.status != 500 || r.errCode() != "internal" || strings.Contains(string(r.raw), "configured") {
			t.Errorf("%s %s unconfigured = %d %s, want a bare 500", c.method, c.path, r.status, r.raw)
		}
	}
	if _, err := (&API{}).SweepKnowledge(context.Background()); err == nil {
		t.Fatal("SweepKnowledge without a store succeeded")
	}
}

func TestSweepThroughAPI(t *testing.T) {
	st, err := local.Open(context.Background(), t.TempDir(), local.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	k := local.NewKnowledge(st)
	// Threshold above 1 forces the race: near-duplicates both get in.
	racy := &API{Knowledge: k, Embedder: embed.NewHashed(0), MergeThreshold: 1.01, Secret: testSecret}
	srv := httptest.NewServer(racy.Handler())
	defer srv.Close()
	e := &knowEnv{t: t, srv: srv, know: k}
	a := e.do("POST", "/knowledge/contribute", "agent-a", contributeBody(findingTitle, findingContent, ""))
	b := e.do("POST", "/knowledge/contribute", "agent-b", contributeBody(findingTitle, findingContent+" Confirmed on 0.7.", ""))
	if a.status != 201 || b.status != 201 {
		t.Fatalf("forced race = %d, %d, want two 201", a.status, b.status)
	}
	rep, err := (&API{Knowledge: k}).SweepKnowledge(context.Background())
	if err != nil || rep.Merged != 1 {
		t.Fatalf("sweep = %+v, %v; want 1 merged", rep, err)
	}
	keep := a.data()["entry"].(map[string]any)["id"].(string)
	r := e.do("GET", "/knowledge/"+keep, "", "")
	if r.data()["contribution_count"] != 2.0 {
		t.Fatalf("kept entry after sweep = %s", r.raw)
	}
	gone := b.data()["entry"].(map[string]any)["id"].(string)
	// The id contribute handed out lives: it answers with its survivor.
	if r := e.do("GET", "/knowledge/"+gone, "", ""); r.status != 200 || r.data()["id"] != keep || r.data()["merged_into"] != keep {
		t.Fatalf("absorbed entry = %d %s, want 200 with the survivor %s and merged_into", r.status, r.raw, keep)
	}
	if r := e.do("GET", "/knowledge/"+keep, "", ""); r.data()["merged_into"] != nil {
		t.Fatalf("survivor by its own id says merged_into: %s", r.raw)
	}
	// Counts on the absorbed id go to the survivor.
	if r := e.do("POST", "/knowledge/"+gone+"/cite", "reader-1", ""); r.status != 200 || r.data()["id"] != keep ||
		r.data()["citation_count"] != 1.0 || r.data()["counted"] != true || r.data()["merged_into"] != keep {
		t.Fatalf("cite on the absorbed id = %d %s, want counted on %s", r.status, r.raw, keep)
	}
	if r := e.do("POST", "/knowledge/"+gone+"/endorse", "reader-1", ""); r.status != 200 || r.data()["id"] != keep || r.data()["endorsement_count"] != 1.0 {
		t.Fatalf("endorse on the absorbed id = %d %s, want counted on %s", r.status, r.raw, keep)
	}
	r = e.do("GET", "/knowledge/"+gone+"/history", "", "")
	events, _ := r.data()["events"].([]any)
	if r.status != 200 || r.data()["entry_id"] != gone || len(events) != 1 {
		t.Fatalf("history of the absorbed id = %d %s, want one event", r.status, r.raw)
	}
	ev := events[0].(map[string]any)
	if ev["kind"] != "merged_into" || ev["other_id"] != keep || ev["via"] != "sweep" || ev["similarity"].(float64) < 0.5 {
		t.Fatalf("merge event = %v", ev)
	}
	hasKeys(t, "event", ev, "kind", "at", "other_id", "similarity", "via")

	// Only an admin unmerges.
	roomTok, err := pumasi.SignToken(testSecret, "tester", []string{"room:r1"}, time.Hour, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	adminTok, err := pumasi.SignToken(testSecret, "moderator", []string{pumasi.ScopeAdmin}, time.Hour, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if r := e.doAs("POST", "/knowledge/"+gone+"/unmerge", "agent-a", "", ""); r.status != 401 {
		t.Fatalf("unmerge without a token = %d %s, want 401", r.status, r.raw)
	}
	if r := e.doAs("POST", "/knowledge/"+gone+"/unmerge", "", roomTok, ""); r.status != 403 || r.errCode() != "forbidden" {
		t.Fatalf("unmerge with a room token = %d %s, want 403", r.status, r.raw)
	}
	for i := 0; i < 2; i++ { // idempotent: the second changes nothing
		r = e.doAs("POST", "/knowledge/"+gone+"/unmerge", "", adminTok, "")
		if r.status != 200 || r.data()["id"] != gone || r.data()["contribution_count"] != 1.0 || r.data()["merged_into"] != nil {
			t.Fatalf("unmerge %d = %d %s, want the restored entry, 1 contributor", i, r.status, r.raw)
		}
		contribs, _ := r.data()["contributions"].([]any)
		if len(contribs) != 1 || contribs[0].(map[string]any)["agent"] != "agent-b" {
			t.Fatalf("restored contributions = %v, want agent-b's own", contribs)
		}
		kept := e.do("GET", "/knowledge/"+keep, "", "")
		if kept.data()["contribution_count"] != 1.0 || kept.data()["citation_count"] != 1.0 || kept.data()["endorsement_count"] != 1.0 {
			t.Fatalf("survivor after unmerge %d = %s, want its own contributor and the counts made since", i, kept.raw)
		}
	}
	r = e.do("GET", "/knowledge/"+gone+"/history", "", "")
	events, _ = r.data()["events"].([]any)
	if len(events) != 2 || events[1].(map[string]any)["kind"] != "unmerged" || events[1].(map[string]any)["by"] != "moderator" {
		t.Fatalf("history after unmerge = %s, want merged_into then unmerged by moderator", r.raw)
	}
	if r := e.do("GET", "/knowledge/no-such-entry/history", "", ""); r.status != 404 {
		t.Fatalf("history of an unknown id = %d", r.status)
	}
	if rep, _ := (&API{Knowledge: k}).SweepKnowledge(context.Background()); rep.Merged != 0 {
		t.Fatalf("second sweep merged %d (an unmerged pair stays apart)", rep.Merged)
	}
}
