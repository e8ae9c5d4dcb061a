package local

import (
	"context"
	"fmt"
	"math/rand"
	"testing"
	"time"

	"pumasi/knowledge"
)

// TestFirstBuildAnswersExactlyMeanwhile: a process whose first query finds
// more entries than it may index while the query waits (and no saved index)
// builds the index in the background and answers from an exact scan until
// the build is in; entries written during the build are found both ways,
// and closing during a build stops it.
func TestFirstBuildAnswersExactlyMeanwhile(t *testing.T) {
	ctx := context.Background()
	s := openT(t, t.TempDir(), Options{})
	r := rand.New(rand.NewSource(7))
	seed := randomEntries(r, 0, 300)
	vecs := map[string][]float32{}
	for _, e := range seed {
		vecs[e.ID] = e.Vector
	}
	if n, err := NewKnowledgeDriver(s).Import(ctx, seed, "seed"); err != nil || n != 300 {
		t.Fatalf("Import = %d, %v", n, err)
	}

	d := NewKnowledgeDriver(s)
	d.idx.inlineBuild = 100
	release := make(chan struct{})
	started := make(chan struct{})
	d.idx.buildHook = func(ctx context.Context) {
		close(started)
		select {
		case <-release:
		case <-ctx.Done():
		}
	}
	nearestIs := func(v []float32, want string) {
		t.Helper()
		ids, err := d.Nearest(ctx, "academy", "m", v, 3)
		if err != nil || len(ids) == 0 || ids[0] != want {
			t.Fatalf("Nearest(vector of %s) = %v, %v", want, ids, err)
		}
	}
	nearestIs(vecs["e0042"], "e0042") // starts the build, answered exactly
	<-started
	late := randomEntries(r, 300, 1)[0]
	if _, err := d.Import(ctx, []knowledge.NewEntry{late}, "late"); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"e0000", "e0150", "e0299"} {
		nearestIs(vecs[id], id)
	}
	nearestIs(late.Vector, late.ID) // written during the build
	if !d.idx.isBuilding() {
		t.Fatal("the build finished while held")
	}
	close(release)
	if err := d.WaitIndex(ctx); err != nil {
		t.Fatal(err)
	}
	if got, _ := d.IndexStats(); got != 301 {
		t.Fatalf("built index holds %d vectors, want 301", got)
	}
	for id, v := range vecs {
		nearestIs(v, id)
	}
	nearestIs(late.Vector, late.ID)

	// A process closed during its build stops it rather than waiting.
	d2 := NewKnowledgeDriver(s)
	d2.idx.inlineBuild = 100
	held := make(chan struct{})
	d2.idx.buildHook = func(ctx context.Context) { close(held); <-ctx.Done() }
	if _, err := d2.Nearest(ctx, "academy", "m", vecs["e0001"], 1); err != nil {
		t.Fatal(err)
	}
	<-held
	done := make(chan error, 1)
	go func() { done <- d2.Close() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Close waited for a held build")
	}
	if err := d2.WaitIndex(ctx); err == nil {
		t.Fatal("WaitIndex after Close returned nil, want an error rather than a wait for a build that cannot start")
	}
}

// TestSavedIndexFarBehindIsRebuiltInTheBackground: a saved index that a
// bulk load left further behind than it is big is rebuilt in the
// background (queries answered exactly meanwhile); a short catch-up of an
// adopted index runs at once.
func TestSavedIndexFarBehindIsRebuiltInTheBackground(t *testing.T) {
	ctx := context.Background()
	s := openT(t, t.TempDir(), Options{})
	r := rand.New(rand.NewSource(9))
	batch := func(from, n int) []knowledge.NewEntry { return randomEntries(r, from, n) }
	load := func(es []knowledge.NewEntry) {
		t.Helper()
		if n, err := NewKnowledgeDriver(s).Import(ctx, es, "seed"); err != nil || n != len(es) {
			t.Fatalf("Import = %d, %v", n, err)
		}
	}
	saved := func(d *Knowledge) {
		t.Helper()
		if err := d.WaitIndex(ctx); err != nil {
			t.Fatal(err)
		}
		if err := d.Close(); err != nil {
			t.Fatal(err)
		}
	}
	first := batch(0, 300)
	load(first)
	d := NewKnowledgeDriver(s)
	d.idx.inlineBuild = 100
	saved(d) // a background build, then saved at Close

	// 50 more: adopted and caught up while the query waits.
	short := batch(300, 50)
	load(short)
	d = NewKnowledgeDriver(s)
	d.idx.inlineBuild = 100
	ids, err := d.Nearest(ctx, "academy", "m", short[0].Vector, 1)
	if err != nil || len(ids) != 1 || ids[0] != short[0].ID {
		t.Fatalf("Nearest after a short catch-up = %v, %v", ids, err)
	}
	if got, _ := d.IndexStats(); got != 350 || d.idx.savedSeq != 300 {
		t.Fatalf("index holds %d (saved at %d), want the saved 300 adopted and caught up to 350", got, d.idx.savedSeq)
	}
	saved(d)

	// 400 more, more than the saved index holds: rebuilt in the background.
	bulk := batch(350, 400)
	load(bulk)
	d = NewKnowledgeDriver(s)
	defer d.Close()
	d.idx.inlineBuild = 100
	release := make(chan struct{})
	d.idx.buildHook = func(ctx context.Context) {
		select {
		case <-release:
		case <-ctx.Done():
		}
	}
	ids, err = d.Nearest(ctx, "academy", "m", bulk[7].Vector, 1)
	if err != nil || len(ids) != 1 || ids[0] != bulk[7].ID {
		t.Fatalf("Nearest during the rebuild = %v, %v", ids, err)
	}
	if !d.idx.isBuilding() {
		t.Fatal("a saved index 400 entries behind (it holds 350) was caught up while the query waited")
	}
	close(release)
	if err := d.WaitIndex(ctx); err != nil {
		t.Fatal(err)
	}
	if got, _ := d.IndexStats(); got != 750 {
		t.Fatalf("rebuilt index holds %d, want 750", got)
	}
}

// randomEntries makes entries from..from+n-1 (ids e0000...) of hive
// academy and model m, each with a random 16-dimension vector from r.
func randomEntries(r *rand.Rand, from, n int) []knowledge.NewEntry {
	out := make([]knowledge.NewEntry, 0, n)
	for i := from; i < from+n; i++ {
		v := make([]float32, 16)
		for j := range v {
			v[j] = float32(r.NormFloat64())
		}
		title := fmt.Sprintf("entry %d", i)
		out = append(out, knowledge.NewEntry{ID: fmt.Sprintf("e%04d", i), Hive: "academy", Title: title, Content: title + " content",
			NormHash: knowledge.Hash(title, title+" content"), Model: "m", Vector: v, Specificity: 0.8,
			At: time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)})
	}
	return out
}
