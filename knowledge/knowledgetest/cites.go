package knowledgetest

import (
	"context"
	"testing"
	"time"

	"pumasi/knowledge"
)

// RunCitePrune pins knowledge.CitePruner: the sweep drops per-day citation
// rows older than their window, keeps today's (a same-day repeat still
// does not count) and a survivor's (its unmerge still gives back exactly).
func RunCitePrune(t *testing.T, newDriver func(t *testing.T) knowledge.Driver) {
	t.Run("SweepPrunesOldCiteRows", func(t *testing.T) { testCitePrune(t, newDriver) })
}

// citeRows returns each entry's exported per-day citation rows.
func citeRows(t *testing.T, k *knowledge.Engine) map[string][]knowledge.Cite {
	t.Helper()
	out := map[string][]knowledge.Cite{}
	if err := k.Export(context.Background(), "", func(r knowledge.Record) error {
		if r.Entry != nil {
			out[r.Entry.ID] = r.Entry.Cites
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return out
}

func testCitePrune(t *testing.T, newDriver func(t *testing.T) knowledge.Driver) {
	ctx := context.Background()
	k := knowledge.New(newDriver(t), knowledge.Options{Now: knowClock.now})
	if _, ok := k.Driver().(knowledge.CitePruner); !ok {
		t.Skip("the driver keeps every citation row")
	}
	a, b := portTwins(t, k, "prune", 9)
	lone := mustContribute(t, k, knowIn("agent-lone", "prune", "pgx pool_max_conns", "pgx v5: set pool_max_conns=10 in the DSN.", knowVec(12, 13, 0))).Entry.ID
	cite := func(id, who string) knowledge.Bump {
		t.Helper()
		r, err := k.Cite(ctx, id, who)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	for _, id := range []string{a, b, lone} {
		cite(id, "citer-c1")
	}
	if rep, err := k.SweepKnowledge(ctx, knowledge.DefaultMergeThreshold); err != nil || rep.Merged != 1 || rep.CitesPruned != 0 {
		t.Fatalf("sweep = %+v, %v; want the twins merged, no cite row pruned", rep, err)
	}
	if e := mustEntry(t, k, a); e.MergedInto != "" {
		a, b = b, a
	}
	if got := mustEntry(t, k, a).CitationCount; got != 1 {
		t.Fatalf("survivor citations = %d, want 1 (citer-c1's one day on both)", got)
	}

	knowClock.advance(t, 3*24*time.Hour)
	if r := cite(lone, "citer-c1"); !r.Counted || r.CitationCount != 2 {
		t.Fatalf("cite three days later = counted %v (%d), want counted (2)", r.Counted, r.CitationCount)
	}
	if rep, err := k.SweepKnowledge(ctx, knowledge.DefaultMergeThreshold); err != nil || rep.CitesPruned != 1 {
		t.Fatalf("sweep three days later = %+v, %v; want the lone entry's 1 old row pruned", rep, err)
	}
	rows := citeRows(t, k)
	today := knowClock.now().UTC().Format(time.DateOnly)
	if got := rows[lone]; len(got) != 1 || got[0].Day != today {
		t.Fatalf("the lone entry's rows after the sweep = %+v, want only today's", got)
	}
	if got := rows[a]; len(got) != 2 {
		t.Fatalf("the survivor's rows after the sweep = %+v, want both kept (its unmerge gives back by them)", got)
	}
	if r := cite(lone, "citer-c1"); r.Counted || r.CitationCount != 2 {
		t.Fatalf("a repeat the same day after the prune = counted %v (%d), want not counted", r.Counted, r.CitationCount)
	}
	if r, err := k.Unmerge(ctx, b, "admin-x"); err != nil || r.CitationCount != 1 {
		t.Fatalf("unmerge after the prune = %+v, %v; want its 1 citation back", r.CitationCount, err)
	}
	if got := mustEntry(t, k, a).CitationCount; got != 1 {
		t.Fatalf("survivor citations after the unmerge = %d, want 1", got)
	}
	// Apart again, the two are pruned like any other entry.
	if rep, err := k.SweepKnowledge(ctx, knowledge.DefaultMergeThreshold); err != nil || rep.CitesPruned != 2 {
		t.Fatalf("sweep after the unmerge = %+v, %v; want the pair's 2 old rows pruned", rep, err)
	}
	if got := citeRows(t, k)[a]; len(got) != 0 {
		t.Fatalf("the former survivor's old rows after the next sweep = %+v, want none", got)
	}
}
