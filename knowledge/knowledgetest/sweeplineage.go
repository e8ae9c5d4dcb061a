package knowledgetest

import (
	"context"
	"testing"
	"time"

	"pumasi"
	"pumasi/knowledge"
)

// runSweepLineage pins that the sweep never folds a correction and the
// entry it corrects into one, through chains of supersessions and of
// merges, and that the driver checks it inside the absorb (a supersede
// committed after the engine read the states is seen).
func runSweepLineage(t *testing.T, newDriver func(t *testing.T) knowledge.Driver) {
	engine := func(d knowledge.Driver) *knowledge.Engine {
		return knowledge.New(d, knowledge.Options{Now: knowClock.now})
	}
	t.Run("SweepKeepsACorrectionOutOfItsTargetsSurvivor", func(t *testing.T) { testSweepLineageTree(t, engine(newDriver(t))) })
	t.Run("SweepKeepsASupersessionChainApart", func(t *testing.T) { testSweepLineageChain(t, engine(newDriver(t))) })
	t.Run("AbsorbFollowsMergesInsideAChain", func(t *testing.T) { testLineageThroughAMerge(t, newDriver(t)) })
	t.Run("AbsorbChecksLineageInItsTransaction", func(t *testing.T) {
		d := &supersedeBeforeAbsorb{Driver: newDriver(t)}
		testSweepLineageRace(t, engine(d), d)
	})
}

// lineageTriplet contributes three near-duplicates of one finding, a
// second apart and never merged at contribute time, the later ones
// superseding what sup says (an index of an earlier one, or -1).
func lineageTriplet(t *testing.T, k *knowledge.Engine, hive string, axis int, sup [3]int) [3]string {
	t.Helper()
	texts := [3][2]string{
		{"Redis KEEPTTL keeps the expiry", "`SET key v KEEPTTL` keeps the TTL on overwrite."},
		{"Redis SET with KEEPTTL keeps TTL", "Overwrite with `SET ... KEEPTTL` and the TTL stays."},
		{"Redis KEEPTTL keeps the key's TTL", "`SET key v KEEPTTL` keeps the TTL when a value is overwritten."},
	}
	var ids [3]string
	for i, tx := range texts {
		in := knowIn("agent-"+hive, hive, tx[0], tx[1], knowVec(axis, axis+1, 0.04*float64(i)))
		in.Agent = in.Agent + string(rune('a'+i))
		in.Threshold, in.At = 1.01, in.At.Add(time.Duration(i)*time.Second)
		if sup[i] >= 0 {
			in.Supersedes = ids[sup[i]]
		}
		r := mustContribute(t, k, in)
		if r.Verdict != knowledge.VerdictAccepted {
			t.Fatalf("entry %d = %s, want accepted", i, r.Verdict)
		}
		ids[i] = r.Entry.ID
	}
	return ids
}

// live reports whether id answers as itself (not merged into another).
func liveEntry(t *testing.T, k *knowledge.Engine, id string) bool {
	t.Helper()
	e := mustEntry(t, k, id)
	return e.ID == id && e.MergedInto == ""
}

// testSweepLineageTree: K, G1 and G2, G2 correcting G1, all near-duplicates
// of K. G1 folds into K; G2 then may not, though it neither supersedes K
// nor is superseded by it: K holds G1.
func testSweepLineageTree(t *testing.T, k *knowledge.Engine) {
	ids := lineageTriplet(t, k, "probe-lineage-tree", 1, [3]int{-1, -1, 1})
	knowClock.advance(t, time.Minute)
	swept(t, k, 1)
	if e := mustEntry(t, k, ids[1]); e.ID != ids[0] {
		t.Fatalf("G1 after the sweep answers %s, want merged into K %s", e.ID, ids[0])
	}
	if !liveEntry(t, k, ids[2]) {
		t.Fatalf("G2, which corrects G1, was folded into K, which holds G1")
	}
}

// testSweepLineageChain: A, B correcting A, C correcting B: none is folded
// into another, though C is linked to A only through B.
func testSweepLineageChain(t *testing.T, k *knowledge.Engine) {
	ids := lineageTriplet(t, k, "probe-lineage-chain", 4, [3]int{-1, 0, 1})
	knowClock.advance(t, time.Minute)
	swept(t, k, 0)
	for i, id := range ids {
		if !liveEntry(t, k, id) {
			t.Fatalf("entry %d of the chain A ← B ← C was merged by the sweep", i)
		}
	}
}

// supersedeBeforeAbsorb is a driver on which, the first time the sweep
// absorbs, a supersession linking the two entries commits first: after the
// engine read whatever it read, before the absorb's transaction.
type supersedeBeforeAbsorb struct {
	knowledge.Driver
	done bool
}

func (d *supersedeBeforeAbsorb) Absorb(ctx context.Context, m knowledge.Merge) error {
	if !d.done {
		d.done = true
		if err := d.Driver.Supersede(ctx, m.MergedInto, m.EntryID, m.At); err != nil {
			return err
		}
	}
	return d.Driver.Absorb(ctx, m)
}

// testSweepLineageRace: the twins are apart when the sweep reads them; a
// supersession between them commits before the absorb, which refuses.
func testSweepLineageRace(t *testing.T, k *knowledge.Engine, d *supersedeBeforeAbsorb) {
	a, b := portTwins(t, k, "probe-lineage-race", 7)
	knowClock.advance(t, time.Minute)
	swept(t, k, 0)
	if !d.done {
		t.Fatalf("the sweep never tried to absorb the twins")
	}
	if !liveEntry(t, k, a) || !liveEntry(t, k, b) {
		t.Fatalf("twins that a supersession linked before the absorb were merged")
	}
	// The driver says why, when asked to keep the lineage apart.
	err := d.Driver.Absorb(context.Background(), knowledge.Merge{EntryID: b, MergedInto: a, Hive: "probe-lineage-race", At: knowClock.now(),
		Similarity: 0.99, Via: knowledge.MergeViaSweep, Apart: true})
	if pumasi.ErrorCode(err) != pumasi.EPreconditionFailed {
		t.Fatalf("Absorb of a correction into its target with Apart = %v, want precondition_failed", err)
	}
}

// testLineageThroughAMerge: U corrects K and was then absorbed into V; G
// corrects V. G and K are linked through V's tree (G ← V ∋ U → K), so an
// absorb of G into K that is to keep lineages apart refuses; one of an
// unrelated entry into K goes on.
func testLineageThroughAMerge(t *testing.T, d knowledge.Driver) {
	ctx := context.Background()
	k := knowledge.New(d, knowledge.Options{Now: knowClock.now})
	const hive = "probe-lineage-mid"
	names := []string{"K", "U", "V", "G", "X"}
	ids := map[string]string{}
	for i, n := range names {
		title := "Lineage probe entry " + n + " about flag --lineage-" + n
		in := knowIn("agent-"+n, hive, title, title+" holds a concrete detail: port 70"+string(rune('0'+i)), knowVec(i, i+1, 0))
		in.Threshold = 1.01
		r := mustContribute(t, k, in)
		if r.Verdict != knowledge.VerdictAccepted {
			t.Fatalf("entry %s = %s, want accepted", n, r.Verdict)
		}
		ids[n] = r.Entry.ID
	}
	at := knowClock.now()
	if err := d.Supersede(ctx, ids["K"], ids["U"], at); err != nil {
		t.Fatal(err)
	}
	if err := d.Absorb(ctx, knowledge.Merge{EntryID: ids["U"], MergedInto: ids["V"], Hive: hive, At: at, Similarity: 0.99,
		Via: knowledge.MergeViaSweep}); err != nil {
		t.Fatal(err)
	}
	if err := d.Supersede(ctx, ids["V"], ids["G"], at); err != nil {
		t.Fatal(err)
	}
	err := d.Absorb(ctx, knowledge.Merge{EntryID: ids["G"], MergedInto: ids["K"], Hive: hive, At: at, Similarity: 0.99,
		Via: knowledge.MergeViaSweep, Apart: true})
	if pumasi.ErrorCode(err) != pumasi.EPreconditionFailed {
		t.Fatalf("Absorb of G into K, linked through U inside V, with Apart = %v, want precondition_failed", err)
	}
	if err := d.Absorb(ctx, knowledge.Merge{EntryID: ids["X"], MergedInto: ids["K"], Hive: hive, At: at, Similarity: 0.99,
		Via: knowledge.MergeViaSweep, Apart: true}); err != nil {
		t.Fatalf("Absorb of an unrelated X into K with Apart = %v, want done", err)
	}
}
