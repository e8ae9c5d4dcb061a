package knowledgetest

import (
	"context"
	"testing"

	"pumasi/knowledge"
)

// absorbingDriver is a driver whose next write is absorbed into keep by a
// "sweep" the moment it lands, before the engine reads it back: the window
// a daily sweep opens for every contribution made while it runs.
type absorbingDriver struct {
	knowledge.Driver
	keep string // when set, the next write's entry is absorbed into it
}

func (d *absorbingDriver) absorb(ctx context.Context, gone string) error {
	keep := d.keep
	d.keep = ""
	if keep == "" || keep == gone {
		return nil
	}
	return d.Absorb(ctx, knowledge.Merge{EntryID: gone, MergedInto: keep, At: knowClock.now(), Similarity: 0.99, Via: knowledge.MergeViaSweep})
}

func (d *absorbingDriver) Insert(ctx context.Context, e knowledge.NewEntry, first knowledge.Contribution) (string, bool, error) {
	id, created, err := d.Driver.Insert(ctx, e, first)
	if err == nil && created {
		err = d.absorb(ctx, id)
	}
	return id, created, err
}

func (d *absorbingDriver) AddContribution(ctx context.Context, id string, c knowledge.Contribution) (bool, error) {
	counted, err := d.Driver.AddContribution(ctx, id, c)
	if err == nil {
		err = d.absorb(ctx, id)
	}
	return counted, err
}

// testKnowAbsorbedAsItLands checks that a contribution whose entry a sweep
// absorbs between the write and the engine's read-back is answered as
// merged into the entry that absorbed it, counted once: an error there
// would make a client retry a write that landed into a second count.
func testKnowAbsorbedAsItLands(t *testing.T, newDriver func(t *testing.T) knowledge.Driver) {
	d := &absorbingDriver{Driver: newDriver(t)}
	s := knowledge.New(d, knowledge.Options{Now: knowClock.now})
	ctx := context.Background()
	old := mustContribute(t, s, knowIn("agent-old", "absorb", "Go 1.26 vet flags copylocks",
		"`go vet` reports a `sync.Mutex` copied by value.", knowVec(0, 1, 0)))

	// A near twin written as a new entry (merging off for this write), then
	// absorbed into the old one as it lands.
	in := knowIn("agent-new", "absorb", "go vet flags copied locks in Go 1.26",
		"`go vet` flags a `sync.Mutex` passed by value.", knowVec(0, 1, 0.1))
	in.Threshold = 1.01
	d.keep = old.Entry.ID
	res, err := s.Contribute(ctx, in)
	if err != nil {
		t.Fatalf("contribution absorbed as it landed: %v", err)
	}
	if res.Verdict != knowledge.VerdictMerged || res.Entry.ID != old.Entry.ID {
		t.Fatalf("answered %s into %s, want merged into %s", res.Verdict, res.Entry.ID, old.Entry.ID)
	}
	if res.Similarity < 0.99 || res.Similarity > 1 {
		t.Errorf("similarity %.3f, want the twins' cosine (~0.995)", res.Similarity)
	}
	if res.Entry.ContributionCount != 2 {
		t.Errorf("contribution_count %d, want 2", res.Entry.ContributionCount)
	}

	// A merge into an entry that is then absorbed: answered with the
	// survivor too.
	twin := knowIn("agent-x", "absorb", "Go vet copylocks check on sync.Mutex values",
		"`go vet -copylocks` finds a `sync.Mutex` copied by value.", knowVec(0, 1, 0.2))
	twin.Threshold = 1.01
	x := mustContribute(t, s, twin)
	if x.Verdict != knowledge.VerdictAccepted {
		t.Fatalf("third twin was %s, want accepted (merging off)", x.Verdict)
	}
	again := twin
	again.Agent = "agent-y" // the exact text again: merged into x, then x absorbed
	d.keep = old.Entry.ID
	res, err = s.Contribute(ctx, again)
	if err != nil {
		t.Fatalf("merge absorbed as it landed: %v", err)
	}
	if res.Verdict != knowledge.VerdictMerged || res.Entry.ID != old.Entry.ID {
		t.Fatalf("answered %s into %s (x was %s), want merged into %s", res.Verdict, res.Entry.ID, x.Entry.ID, old.Entry.ID)
	}
	var ys int
	for _, c := range mustEntry(t, s, old.Entry.ID).Contributions {
		if c.Agent == "agent-y" {
			ys++
		}
	}
	if ys != 1 || res.Entry.ContributionCount != 4 {
		t.Errorf("survivor holds %d contributions of agent-y and counts %d, want 1 and 4", ys, res.Entry.ContributionCount)
	}
}
