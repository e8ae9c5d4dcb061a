package knowledgetest

import (
	"context"
	"testing"

	"pumasi/knowledge"
)

// testFlagsMoveWithMerge pins that an absorbed entry's flags count on its
// survivor (one agent who flagged both once), that the threshold applies
// to the survivor's combined distinct flaggers at the absorb itself, that
// a flag on an absorbed id counts on the survivor, and that unmerge takes
// the absorbed entry's own flags back, idempotently.
func testFlagsMoveWithMerge(t *testing.T, k *knowledge.Engine) {
	ctx := context.Background()
	a, b := portTwins(t, k, "flagmove", 9)
	flag := func(id, agent string) (knowledge.Entry, bool) {
		t.Helper()
		e, counted, err := k.Flag(ctx, knowledge.FlagInput{ID: id, Agent: agent, Reason: knowledge.FlagWrong})
		if err != nil {
			t.Fatalf("Flag(%s, %s): %v", id, agent, err)
		}
		return e, counted
	}
	own := map[string][]string{a: {"flagger-1", "flagger-2"}, b: {"flagger-2", "flagger-3"}}
	for _, id := range []string{a, b} {
		for _, who := range own[id] {
			flag(id, who)
		}
		if e := mustEntry(t, k, id); e.Flags != 2 || e.Quarantined {
			t.Fatalf("%s before the sweep: flags %d quarantined %v, want 2, false", id, e.Flags, e.Quarantined)
		}
	}
	if rep, err := k.SweepKnowledge(ctx, knowledge.DefaultMergeThreshold); err != nil || rep.Merged != 1 {
		t.Fatalf("sweep = %+v, %v; want the twins merged", rep, err)
	}
	keep, gone := a, b
	if mustEntry(t, k, a).MergedInto != "" {
		keep, gone = b, a
	}
	s := mustEntry(t, k, keep)
	if s.Flags != 3 || !s.Quarantined {
		t.Fatalf("survivor after the merge: flags %d quarantined %v, want 3 distinct flaggers (flagger-2 once) and quarantined", s.Flags, s.Quarantined)
	}
	if queried(t, k, knowVec(9, 10, 0), keep, false) {
		t.Fatalf("the survivor quarantined by its combined flaggers still answers a query")
	}
	if _, counted := flag(keep, "flagger-1"); counted {
		t.Fatalf("flagger-1 flagging the survivor again counted")
	}
	e, counted := flag(gone, "flagger-4")
	if !counted || e.ID != keep || e.MergedInto != keep || e.Flags != 4 {
		t.Fatalf("flag on the absorbed id = %s merged_into %q flags %d counted %v; want it on the survivor %s with 4 flags", e.ID, e.MergedInto, e.Flags, counted, keep)
	}
	for pass := range 2 {
		r, err := k.Unmerge(ctx, gone, "admin-x")
		if err != nil {
			t.Fatal(err)
		}
		if r.Flags != 2 {
			t.Fatalf("unmerge pass %d: restored entry flags %d, want its own 2", pass+1, r.Flags)
		}
		// flagger-1 or flagger-3 and flagger-4 (on the survivor since).
		if got := mustEntry(t, k, keep).Flags; got != 3 {
			t.Fatalf("unmerge pass %d: survivor flags %d, want 3 (its own 2 and flagger-4's)", pass+1, got)
		}
	}
	for _, who := range own[gone] {
		if _, counted := flag(gone, who); counted {
			t.Fatalf("%s flagging the restored entry again counted: its flag did not go back", who)
		}
	}
	if _, counted := flag(gone, "flagger-4"); !counted {
		t.Fatalf("flagger-4 (who flagged the survivor through the absorbed id) on the restored entry did not count")
	}
}
