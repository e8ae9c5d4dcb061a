package knowledgetest

import (
	"context"
	"math"
	"testing"
	"time"

	"pumasi/knowledge"
)

// bridgeAngle is the angle between A and B of the bridge cases: cosine
// 0.81, under the merge threshold; C halfway is at cosine ~0.951 to each,
// above it.
var bridgeAngle = math.Acos(0.81)

// arc returns the unit vector at angle theta in the plane of axes 14 and 15.
func arc(theta float64) []float32 {
	v := make([]float32, knowDim)
	v[14], v[15] = float32(math.Cos(theta)), float32(math.Sin(theta))
	return v
}

// bridge returns the contributions A, C and B of a bridge: A and B apart,
// C near each.
func bridge(hive string) (a, c, b knowledge.ContributeInput) {
	a = knowIn("agent-aaa", hive, "Bridge end A: pgbouncer pool_mode", "Set pool_mode to transaction for short queries.", arc(0))
	c = knowIn("agent-ccc", hive, "Bridge middle C: pgbouncer pooling", "Transaction pooling suits short queries; session pooling keeps state.", arc(bridgeAngle/2))
	b = knowIn("agent-bbb", hive, "Bridge end B: pgbouncer session state", "Session pooling keeps prepared statements across queries.", arc(bridgeAngle))
	c.At = a.At.Add(2 * time.Second)
	b.At = a.At.Add(time.Second)
	return a, c, b
}

// testKnowBridge pins that merges are decided pairwise against the entry
// that survives, never through a chain: A~C and C~B with A and B apart must
// never leave A and B in one entry, whatever order the bridge forms in.
func testKnowBridge(t *testing.T, newStore func(t *testing.T) knowledge.Store) {
	ctx := context.Background()
	sweep := func(t *testing.T, s knowledge.Store) knowledge.SweepReport {
		t.Helper()
		rep, err := s.SweepKnowledge(ctx, knowledge.DefaultMergeThreshold)
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	// apart fails when A's and B's contributions end up in one entry.
	apart := func(t *testing.T, s knowledge.Store, a, b knowledge.ContributeResult) {
		t.Helper()
		ea, eb := mustEntry(t, s, a.Entry.ID), mustEntry(t, s, b.Entry.ID)
		if ea.ID == eb.ID {
			t.Fatalf("A and B merged into %s through the bridge", ea.ID)
		}
		for _, c := range ea.Contributions {
			if c.Agent == "agent-bbb" {
				t.Fatalf("A's entry %s holds B's contribution", ea.ID)
			}
		}
		for _, c := range eb.Contributions {
			if c.Agent == "agent-aaa" {
				t.Fatalf("B's entry %s holds A's contribution", eb.ID)
			}
		}
	}
	t.Run("SweepOrder", func(t *testing.T) {
		// A and B accepted and swept; C races in past contribute's check
		// (merging off, as two writers racing would) and the sweep meets
		// it with both ends visible.
		s := newStore(t)
		ai, ci, bi := bridge("bridge")
		a, b := mustContribute(t, s, ai), mustContribute(t, s, bi)
		if a.Verdict != knowledge.VerdictAccepted || b.Verdict != knowledge.VerdictAccepted {
			t.Fatalf("ends = %s, %s; want both accepted (cosine 0.81)", a.Verdict, b.Verdict)
		}
		if rep := sweep(t, s); rep.Merged != 0 {
			t.Fatalf("first sweep merged %d, want 0", rep.Merged)
		}
		ci.Threshold = 1.01
		c := mustContribute(t, s, ci)
		if c.Verdict != knowledge.VerdictAccepted {
			t.Fatalf("forced C = %s, want accepted", c.Verdict)
		}
		if rep := sweep(t, s); rep.Merged != 1 {
			t.Fatalf("sweep merged %d, want 1 (C into A, the older end)", rep.Merged)
		}
		apart(t, s, a, b)
		if got := mustEntry(t, s, a.Entry.ID); got.ContributionCount != 2 {
			t.Fatalf("A counts %d contributors, want 2 (A and C)", got.ContributionCount)
		}
		if rep := sweep(t, s); rep.Merged != 0 {
			t.Fatalf("sweep again merged %d, want 0", rep.Merged)
		}
		apart(t, s, a, b)
	})
	t.Run("OneBatch", func(t *testing.T) {
		// All three race in before any sweep, C last.
		s := newStore(t)
		ai, ci, bi := bridge("bridge")
		ai.Threshold, bi.Threshold, ci.Threshold = 1.01, 1.01, 1.01
		a, b := mustContribute(t, s, ai), mustContribute(t, s, bi)
		mustContribute(t, s, ci)
		if rep := sweep(t, s); rep.Merged != 1 {
			t.Fatalf("sweep merged %d, want 1", rep.Merged)
		}
		apart(t, s, a, b)
	})
	t.Run("ContributeOrder", func(t *testing.T) {
		// C contributed normally after A and B: it merges into one end,
		// and neither contribute nor the sweep after it joins the ends.
		s := newStore(t)
		ai, ci, bi := bridge("bridge")
		a, b := mustContribute(t, s, ai), mustContribute(t, s, bi)
		c := mustContribute(t, s, ci)
		if c.Verdict != knowledge.VerdictMerged || (c.Entry.ID != a.Entry.ID && c.Entry.ID != b.Entry.ID) {
			t.Fatalf("C = %s into %s, want merged into A or B", c.Verdict, c.Entry.ID)
		}
		apart(t, s, a, b)
		if rep := sweep(t, s); rep.Merged != 0 {
			t.Fatalf("sweep merged %d, want 0", rep.Merged)
		}
		apart(t, s, a, b)
	})
}
