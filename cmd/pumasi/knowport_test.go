package main

import (
	"bytes"
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"pumasi"
	"pumasi/internal/testpeer"
	"pumasi/internal/wire"
	"pumasi/knowledge"
)

// portCorpus fills the SQLite store of home with what an export must carry:
// a merged entry (two contributors) with citations and an endorsement, a
// flagged and superseded entry, its successor, and a redacted one. It
// returns the merged entry's id.
func portCorpus(t *testing.T, ctx context.Context, home string) string {
	t.Helper()
	k, closeKnow, err := wire.OpenKnowledge(ctx, nil, wire.KnowledgeConfig{Home: home})
	if err != nil {
		t.Fatal(err)
	}
	defer closeKnow()
	e := k.(*knowledge.Engine)
	add := func(agent, title, content string, vec []float32, supersedes string) string {
		t.Helper()
		res, err := e.Contribute(ctx, knowledge.ContributeInput{Hive: "academy", Agent: agent, Title: title, Content: content,
			NormHash: knowledge.Hash(title, content), Model: "test-model", Vector: vec, Specificity: 0.7, Threshold: 0.99, Supersedes: supersedes})
		if err != nil {
			t.Fatal(err)
		}
		return res.Entry.ID
	}
	a := add("agent-a", "sqlite busy timeout", "modernc sqlite needs busy_timeout per connection: set it in the DSN", []float32{1, 0, 0}, "")
	add("agent-b", "sqlite busy timeout", "modernc sqlite needs busy_timeout per connection: set it in the DSN", []float32{1, 0, 0}, "")
	b := add("agent-a", "pgx pool size", "pgx v5: set pool_max_conns=10 in the DSN", []float32{0, 1, 0}, "")
	add("agent-c", "pgx pool size in v5.5", "pgx v5.5: set pool_max_conns=20 in the DSN for Lambda", []float32{0.6, 0, 0.8}, b)
	c := add("agent-c", "leaked token", "the staging token was rotated after the incident", []float32{0, 0, 1}, "")
	for _, agent := range []string{"agent-x", "agent-y"} {
		if _, err := e.Cite(ctx, a, agent); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := e.Endorse(ctx, a, "agent-b"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := e.Flag(ctx, knowledge.FlagInput{ID: b, Agent: "agent-x", Reason: knowledge.FlagOutdated, Note: "v5.5 changed it"}); err != nil {
		t.Fatal(err)
	}
	if err := e.Redact(ctx, c, "admin", "not a finding"); err != nil {
		t.Fatal(err)
	}
	return a
}

// portCLI runs a pumasi command with env and stdin.
func portCLI(t *testing.T, ctx context.Context, env map[string]string, stdin string, args ...string) (string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	e := &cliEnv{stdin: strings.NewReader(stdin), stdout: &stdout, stderr: &stderr, getenv: func(k string) string { return env[k] }}
	if err := run(ctx, e, args); err != nil {
		t.Fatalf("pumasi %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return stdout.String(), stderr.String()
}

// normalized decodes an export with every time cut to the microsecond
// (PostgreSQL's precision), so exports of two backends compare equal.
func normalized(t *testing.T, corpus string) []knowledge.Record {
	t.Helper()
	var out []knowledge.Record
	for _, line := range strings.Split(strings.TrimSpace(corpus), "\n") {
		var r knowledge.Record
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("export line %q: %v", line, err)
		}
		us := func(tm *time.Time) { *tm = tm.Truncate(time.Microsecond).UTC() }
		if x := r.Entry; x != nil {
			us(&x.CreatedAt)
			us(&x.LastUsedAt)
			for i := range x.Contributions {
				us(&x.Contributions[i].At)
			}
			for i := range x.Endorsements {
				us(&x.Endorsements[i].At)
			}
			for i := range x.Flags {
				us(&x.Flags[i].At)
			}
			for i := range x.Events {
				us(&x.Events[i].At)
			}
			if x.Moderation != nil {
				us(&x.Moderation.FlaggedAt)
			}
		}
		if r.Tombstone != nil {
			us(&r.Tombstone.At)
		}
		out = append(out, r)
	}
	return out
}

// testPort exports a SQLite corpus, imports it twice into the store
// importEnv names, and checks the second import changed nothing, the
// target's own export equals the source's, and the target counts as the
// source did (a repeated endorsement still does not count).
func testPort(t *testing.T, importEnv map[string]string, target string) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	src := t.TempDir()
	a := portCorpus(t, ctx, src)
	corpus, note := portCLI(t, ctx, map[string]string{"PUMASI_HOME": src}, "", "know", "export")
	if want := "3 entries, 1 tombstone from SQLite in "; !strings.Contains(note, want) {
		t.Fatalf("export says %q, want %q", note, want)
	}
	for _, want := range []string{`"reason":"outdated"`, `"superseded_by":"`, `"supersedes":"`, `"endorsements":[{"agent":"agent-b"`, `"contributors":["agent-a","agent-b"]`, `"tombstone":{`} {
		if !strings.Contains(corpus, want) {
			t.Errorf("the export lacks %s:\n%s", want, corpus)
		}
	}
	if strings.Contains(corpus, "the staging token was rotated") {
		t.Fatalf("the export carries the redacted entry's text:\n%s", corpus)
	}
	out, _ := portCLI(t, ctx, importEnv, corpus, "know", "import")
	if want := "imported 3 entries and 1 tombstone into " + target; !strings.HasPrefix(out, want) {
		t.Fatalf("import says %q, want it to start %q", out, want)
	}
	again, _ := portCLI(t, ctx, importEnv, corpus, "know", "import")
	if !strings.HasPrefix(again, "imported 0 entries and 0 tombstones into "+target) || !strings.Contains(again, "; 3 entries and 1 tombstone were there already") {
		t.Fatalf("second import says %q, want 0 imported and 3 entries and 1 tombstone there already", again)
	}
	back, _ := portCLI(t, ctx, importEnv, "", "know", "export")
	if got, want := normalized(t, back), normalized(t, corpus); !reflect.DeepEqual(got, want) {
		t.Fatalf("the target's export differs from the source's:\ngot  %s\nwant %s", back, corpus)
	}

	k, closeKnow, err := wire.OpenKnowledge(ctx, nil, wire.KnowledgeConfig{URL: importEnv["PUMASI_KNOWLEDGE"], Home: importEnv["PUMASI_HOME"]})
	if err != nil {
		t.Fatal(err)
	}
	defer closeKnow()
	e := k.(*knowledge.Engine)
	got, err := e.GetEntry(ctx, a)
	if err != nil || got.ContributionCount != 2 || got.CitationCount != 2 || got.EndorsementCount != 1 {
		t.Fatalf("imported entry %s: %+v, %v; want 2 contributions, 2 citations, 1 endorsement", a, got, err)
	}
	if again, err := e.Endorse(ctx, a, "agent-b"); err != nil || again.EndorsementCount != 1 {
		t.Fatalf("agent-b endorsing again after the import: %d endorsements, %v; want 1 (its endorsement moved with the entry)", again.EndorsementCount, err)
	}
	hits, err := e.Query(ctx, knowledge.QueryInput{Text: "sqlite busy timeout", Model: "test-model", Vector: []float32{1, 0, 0}, Limit: 5})
	if err != nil || len(hits) == 0 || hits[0].ID != a {
		t.Fatalf("query on the target: %+v, %v; want %s first (its indexes hold the imported entries)", hits, err, a)
	}
	var tomb *knowledge.Tombstone
	for _, r := range normalized(t, corpus) {
		if r.Tombstone != nil {
			tomb = r.Tombstone
		}
	}
	if _, err := e.GetEntry(ctx, tomb.ID); pumasi.ErrorCode(err) != pumasi.EGone {
		t.Fatalf("the redacted id on the target: %v, want gone", err)
	}
}

// TestKnowExportImportSQLite moves a corpus from one home's SQLite store
// to another's.
func TestKnowExportImportSQLite(t *testing.T) {
	dst := t.TempDir()
	testPort(t, map[string]string{"PUMASI_HOME": dst}, "SQLite in "+dst)
}

// TestKnowExportImportPostgres moves a corpus from SQLite to PostgreSQL,
// as the README's Postgres section does.
func TestKnowExportImportPostgres(t *testing.T) {
	url := testpeer.Postgres(t)
	testPort(t, map[string]string{"PUMASI_HOME": t.TempDir(), "PUMASI_KNOWLEDGE": url}, "PostgreSQL ")
}
