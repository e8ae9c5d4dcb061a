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

// portIDs names the entries of portCorpus a test looks at again.
type portIDs struct {
	// merged has two contributors; absorbed was swept into survivor.
	merged, survivor, absorbed string
}

// portCorpus fills the SQLite store of home with what an export must carry:
// a merged entry (two contributors) with citations and an endorsement, a
// flagged and superseded entry, its successor, a redacted one, and an
// entry the sweep absorbed into another after both were cited by one agent
// on one day and endorsed by one agent, and the absorbed one flagged.
func portCorpus(t *testing.T, ctx context.Context, home string) portIDs {
	t.Helper()
	k, closeKnow, err := wire.OpenKnowledge(ctx, nil, wire.KnowledgeConfig{Home: home})
	if err != nil {
		t.Fatal(err)
	}
	defer closeKnow()
	e := k.(*knowledge.Engine)
	threshold := 0.99
	add := func(agent, title, content string, vec []float32, supersedes string) string {
		t.Helper()
		res, err := e.Contribute(ctx, knowledge.ContributeInput{Hive: "academy", Agent: agent, Title: title, Content: content,
			NormHash: knowledge.Hash(title, content), Model: "test-model", Vector: vec, Specificity: 0.7, Threshold: threshold, Supersedes: supersedes})
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
	if _, _, err := e.Flag(ctx, knowledge.FlagInput{ID: c, Agent: "agent-x", Reason: knowledge.FlagPII, Note: "names the token"}); err != nil {
		t.Fatal(err)
	}
	if err := e.Redact(ctx, c, "admin", "not a finding"); err != nil {
		t.Fatal(err)
	}
	// Two near-duplicates written as if racing (no merge on write), then
	// collapsed by the sweep.
	threshold = 1.01
	d1 := add("agent-d1", "Redis KEEPTTL keeps the expiry", "`SET key v KEEPTTL` keeps the TTL on overwrite.", []float32{0.7, 0.7, 0}, "")
	d2 := add("agent-d2", "Redis SET with KEEPTTL keeps TTL", "Overwrite with `SET ... KEEPTTL` and the TTL stays.", []float32{0.7, 0.71, 0}, "")
	bump := func(f func(context.Context, string, string) (knowledge.Bump, error), id, agent string) {
		t.Helper()
		if _, err := f(ctx, id, agent); err != nil {
			t.Fatal(err)
		}
	}
	bump(e.Cite, d1, "agent-x")
	bump(e.Endorse, d1, "agent-e")
	bump(e.Cite, d2, "agent-x")
	bump(e.Cite, d2, "agent-z")
	bump(e.Endorse, d2, "agent-e")
	if _, _, err := e.Flag(ctx, knowledge.FlagInput{ID: d2, Agent: "agent-y", Reason: knowledge.FlagDuplicate, Note: "same as the other"}); err != nil {
		t.Fatal(err)
	}
	if rep, err := e.SweepKnowledge(ctx, knowledge.DefaultMergeThreshold); err != nil || rep.Merged != 1 {
		t.Fatalf("sweep = %+v, %v; want the KEEPTTL twins merged", rep, err)
	}
	survivor, absorbed := d1, d2
	if got, err := e.GetEntry(ctx, d1); err == nil && got.MergedInto != "" {
		survivor, absorbed = d2, d1
	}
	return portIDs{merged: a, survivor: survivor, absorbed: absorbed}
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
			usLifecycle(&x.Lifecycle, us)
		}
		if m := r.Merge; m != nil {
			for _, tm := range []*time.Time{&m.At, &m.UnmergedAt, &m.CreatedAt, &m.LastUsedAt} {
				us(tm)
			}
			usLifecycle(&m.Lifecycle, us)
		}
		if r.Tombstone != nil {
			us(&r.Tombstone.At)
			usLifecycle(&r.Tombstone.Lifecycle, us)
		}
		out = append(out, r)
	}
	return out
}

// usLifecycle applies us to every time of lc.
func usLifecycle(lc *knowledge.Lifecycle, us func(*time.Time)) {
	for i := range lc.Flags {
		us(&lc.Flags[i].At)
	}
	for i := range lc.Events {
		us(&lc.Events[i].At)
	}
	if lc.Moderation != nil {
		us(&lc.Moderation.FlaggedAt)
	}
}

// testPort exports a SQLite corpus, imports it twice into the store
// importEnv names, and checks the second import changed nothing, the
// target's own export equals the source's, the target counts as the
// source did (a repeated endorsement, or a cite the same day, still does
// not count), and an entry absorbed before the move can be unmerged after
// it with its own contributions, counts and flags.
func testPort(t *testing.T, importEnv map[string]string, target string) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	src := t.TempDir()
	ids := portCorpus(t, ctx, src)
	corpus, note := portCLI(t, ctx, map[string]string{"PUMASI_HOME": src}, "", "know", "export")
	if want := "4 entries, 1 merge record, 1 tombstone from SQLite in "; !strings.Contains(note, want) {
		t.Fatalf("export says %q, want %q", note, want)
	}
	for _, want := range []string{`"reason":"outdated"`, `"superseded_by":"`, `"supersedes":"`, `"endorsements":[{"agent":"agent-b"`,
		`"contributors":["agent-a","agent-b"]`, `"tombstone":{`, `"merge":{"entry_id":"` + ids.absorbed + `"`, `"origin":"` + ids.absorbed + `"`,
		`"cites":[{"agent":"agent-x","day":"`, `"reason":"duplicate"`, `"reason":"pii"`} {
		if !strings.Contains(corpus, want) {
			t.Errorf("the export lacks %s:\n%s", want, corpus)
		}
	}
	if strings.Contains(corpus, "the staging token was rotated") || strings.Contains(corpus, "names the token") {
		t.Fatalf("the export carries the redacted entry's text or its flag's note:\n%s", corpus)
	}
	out, _ := portCLI(t, ctx, importEnv, corpus, "know", "import")
	if want := "imported 4 entries, 1 merge record and 1 tombstone into " + target; !strings.HasPrefix(out, want) {
		t.Fatalf("import says %q, want it to start %q", out, want)
	}
	nothing := func(what string) {
		t.Helper()
		again, _ := portCLI(t, ctx, importEnv, corpus, "know", "import")
		if !strings.HasPrefix(again, "imported 0 entries, 0 merge records and 0 tombstones into "+target) ||
			!strings.Contains(again, "; 4 entries, 1 merge record and 1 tombstone were there already") {
			t.Fatalf("import %s says %q, want nothing imported and everything there already", what, again)
		}
	}
	nothing("again")
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
	got, err := e.GetEntry(ctx, ids.merged)
	if err != nil || got.ContributionCount != 2 || got.CitationCount != 2 || got.EndorsementCount != 1 {
		t.Fatalf("imported entry %s: %+v, %v; want 2 contributions, 2 citations, 1 endorsement", ids.merged, got, err)
	}
	if again, err := e.Endorse(ctx, ids.merged, "agent-b"); err != nil || again.EndorsementCount != 1 {
		t.Fatalf("agent-b endorsing again after the import: %d endorsements, %v; want 1 (its endorsement moved with the entry)", again.EndorsementCount, err)
	}
	if again, err := e.Cite(ctx, ids.merged, "agent-x"); err != nil || again.Counted || again.CitationCount != 2 {
		t.Fatalf("agent-x citing again the same day after the import: counted %v, %d citations, %v; want not counted (its cite row moved)",
			again.Counted, again.CitationCount, err)
	}
	hits, err := e.Query(ctx, knowledge.QueryInput{Text: "sqlite busy timeout", Model: "test-model", Vector: []float32{1, 0, 0}, Limit: 5})
	if err != nil || len(hits) == 0 || hits[0].ID != ids.merged {
		t.Fatalf("query on the target: %+v, %v; want %s first (its indexes hold the imported entries)", hits, err, ids.merged)
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
	if h, err := e.History(ctx, tomb.ID); err != nil || len(h.Events) != 2 || h.Events[0].Kind != knowledge.EventFlagged ||
		h.Events[len(h.Events)-1].Kind != knowledge.EventRedacted {
		t.Fatalf("the redacted id's history on the target: %+v, %v; want its flag, then its redaction", h, err)
	}

	// The absorbed entry answers with its survivor, then unmerges with
	// exactly what it had: one contributor, two citers (agent-x's day on
	// both counted once while merged), its own endorsement row and its flag.
	if got, err := e.GetEntry(ctx, ids.absorbed); err != nil || got.ID != ids.survivor || got.MergedInto != ids.survivor ||
		got.ContributionCount != 2 || got.CitationCount != 2 || got.EndorsementCount != 1 {
		t.Fatalf("absorbed id on the target: %+v, %v; want its survivor %s with 2 contributions, 2 citations, 1 endorsement", got, err, ids.survivor)
	}
	r, err := e.Unmerge(ctx, ids.absorbed, "admin")
	if err != nil || r.ID != ids.absorbed || r.MergedInto != "" || r.ContributionCount != 1 || r.CitationCount != 2 || r.EndorsementCount != 1 ||
		len(r.Contributions) != 1 || r.Contributions[0].Agent != "agent-d2" {
		t.Fatalf("unmerge on the target: %+v, %v; want %s back with agent-d2's contribution, 2 citations, 1 endorsement", r, err, ids.absorbed)
	}
	if s, err := e.GetEntry(ctx, ids.survivor); err != nil || s.ContributionCount != 1 || s.CitationCount != 1 || s.EndorsementCount != 1 ||
		len(s.Contributions) != 1 || s.Contributions[0].Agent != "agent-d1" {
		t.Fatalf("survivor after the unmerge: %+v, %v; want agent-d1's contribution, 1 citation, 1 endorsement", s, err)
	}
	if again, err := e.Endorse(ctx, ids.absorbed, "agent-e"); err != nil || again.Counted {
		t.Fatalf("agent-e endorsing the restored entry again: counted %v, %v; want not counted (its row went back)", again.Counted, err)
	}
	if _, counted, err := e.Flag(ctx, knowledge.FlagInput{ID: ids.absorbed, Agent: "agent-y", Reason: knowledge.FlagDuplicate}); err != nil || counted {
		t.Fatalf("agent-y flagging the restored entry again: counted %v, %v; want not counted (its flag moved)", counted, err)
	}
	h, err := e.History(ctx, ids.absorbed)
	kinds := []string{}
	for _, ev := range h.Events {
		kinds = append(kinds, ev.Kind)
	}
	if want := []string{knowledge.EventFlagged, knowledge.EventMergedInto, knowledge.EventUnmerged}; err != nil || !reflect.DeepEqual(kinds, want) {
		t.Fatalf("the restored entry's history: %v, %v; want %v", kinds, err, want)
	}
	nothing("after the unmerge")
	if r, err := e.GetEntry(ctx, ids.absorbed); err != nil || r.ID != ids.absorbed || r.ContributionCount != 1 || r.CitationCount != 2 {
		t.Fatalf("the restored entry after a third import: %+v, %v; want it unchanged", r, err)
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
