package knowledgetest

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"pumasi"
	"pumasi/knowledge"
)

// runProbes are a careless admin's moves on merged, quarantined and
// redacted entries, each answered the way GET answers the id.
func runProbes(t *testing.T, newDriver func(t *testing.T) knowledge.Driver) {
	engine := func(t *testing.T) *knowledge.Engine {
		return knowledge.New(newDriver(t), knowledge.Options{Now: knowClock.now})
	}
	t.Run("RestoreOnAbsorbedIDRestoresItsSurvivor", func(t *testing.T) { testRestoreAbsorbed(t, engine(t)) })
	t.Run("UnmergeLiftsTheQuarantineItsMergeBrought", func(t *testing.T) { testUnmergeLifts(t, engine(t)) })
	t.Run("UnmergeKeepsAnAdminsQuarantine", func(t *testing.T) { testUnmergeKeepsAdmin(t, engine(t)) })
	t.Run("RedactingTheAbsorbedLiftsItsQuarantine", func(t *testing.T) { testRedactAbsorbedLifts(t, engine(t)) })
	t.Run("UnmergeOutOfASurvivorAbsorbedLater", func(t *testing.T) { testUnmergeChain(t, engine(t)) })
	t.Run("SupersedeTargets", func(t *testing.T) { testSupersedeTargets(t, engine(t)) })
	t.Run("RedactAbsorbedID", func(t *testing.T) { testRedactAbsorbed(t, engine(t)) })
	t.Run("RedactAbsorbedInAChain", func(t *testing.T) { testRedactInChain(t, engine(t)) })
}

// swept runs the sweep and checks it merged want entries.
func swept(t *testing.T, k *knowledge.Engine, want int) {
	t.Helper()
	if rep, err := k.SweepKnowledge(context.Background(), knowledge.DefaultMergeThreshold); err != nil || rep.Merged != want {
		t.Fatalf("sweep = %+v, %v; want %d merged", rep, err, want)
	}
}

// mergedTwins returns two near-duplicates after the sweep merged the
// second (b) into the first (a, the older), with the moves before the
// sweep done by before.
func mergedTwins(t *testing.T, k *knowledge.Engine, hive string, axis int, before func(a, b string)) (string, string) {
	t.Helper()
	a, b := portTwins(t, k, hive, axis)
	if before != nil {
		before(a, b)
	}
	// Each step a minute later, so that history's order is the steps'.
	knowClock.advance(t, time.Minute)
	swept(t, k, 1)
	knowClock.advance(t, time.Minute)
	if got := mustEntry(t, k, b); got.ID != a || got.MergedInto != a {
		t.Fatalf("the younger twin answers %s merged_into %q, want %s", got.ID, got.MergedInto, a)
	}
	return a, b
}

func flagBy(t *testing.T, k *knowledge.Engine, id, agent string, admin bool) knowledge.Entry {
	t.Helper()
	e, _, err := k.Flag(context.Background(), knowledge.FlagInput{ID: id, Agent: agent, Reason: knowledge.FlagWrong, Admin: admin})
	if err != nil {
		t.Fatalf("Flag(%s, %s): %v", id, agent, err)
	}
	return e
}

func historyKinds(t *testing.T, k *knowledge.Engine, id string) []string {
	t.Helper()
	h, err := k.History(context.Background(), id)
	if err != nil {
		t.Fatalf("History(%s): %v", id, err)
	}
	var kinds []string
	for _, ev := range h.Events {
		kinds = append(kinds, ev.Kind)
	}
	return kinds
}

// testRestoreAbsorbed: restore on an absorbed id acts on its survivor (as
// GET, cite and flag do) and says so with merged_into.
func testRestoreAbsorbed(t *testing.T, k *knowledge.Engine) {
	ctx := context.Background()
	a, b := mergedTwins(t, k, "probe-restore", 1, nil)
	flagBy(t, k, a, "the-admin", true)
	r, err := k.Restore(ctx, b, "the-admin")
	if err != nil || r.ID != a || r.MergedInto != a || r.Quarantined {
		t.Fatalf("Restore(absorbed) = %s merged_into %q quarantined %v, %v; want the survivor %s lifted", r.ID, r.MergedInto, r.Quarantined, err, a)
	}
	if got := historyKinds(t, k, a); !slices.Equal(got, []string{"absorbed", "flagged", "quarantined", "restored"}) {
		t.Fatalf("survivor's history = %v", got)
	}
	if !queried(t, k, knowVec(1, 2, 0), a, false) {
		t.Fatalf("the survivor restored through the absorbed id is not queried")
	}
}

// testUnmergeLifts: a survivor quarantined only by its merge (the absorbed
// entry was quarantined, or its flaggers tipped the threshold) is lifted by
// the unmerge, which clears no flag: the survivor's own pending flags still
// count toward the next quarantine.
func testUnmergeLifts(t *testing.T, k *knowledge.Engine) {
	ctx := context.Background()
	probe := knowVec(3, 4, 0)
	// The absorbed entry was quarantined.
	a, b := mergedTwins(t, k, "probe-lift", 3, func(a, b string) { flagBy(t, k, b, "the-admin", true) })
	if e := mustEntry(t, k, a); !e.Quarantined {
		t.Fatalf("survivor of a quarantined entry: quarantined false")
	}
	if _, err := k.Unmerge(ctx, b, "the-admin"); err != nil {
		t.Fatal(err)
	}
	if e := mustEntry(t, k, a); e.Quarantined {
		t.Fatalf("after the unmerge the survivor is still quarantined, though only the merge put it there")
	}
	if e := mustEntry(t, k, b); !e.Quarantined {
		t.Fatalf("the unmerged entry lost its own quarantine")
	}
	if !queried(t, k, probe, a, false) || queried(t, k, probe, b, false) {
		t.Fatalf("after the unmerge: survivor queried %v (want true), unmerged queried %v (want false)",
			queried(t, k, probe, a, false), queried(t, k, probe, b, false))
	}
	if got := historyKinds(t, k, a); !slices.Equal(got, []string{"absorbed", "quarantined", "unmerged", "unquarantined"}) {
		t.Fatalf("survivor's history = %v", got)
	}

	// The absorbed entry's flaggers tipped the threshold.
	c, d := mergedTwins(t, k, "probe-tip", 5, func(c, d string) {
		flagBy(t, k, c, "flagger-1", false)
		flagBy(t, k, d, "flagger-2", false)
		flagBy(t, k, d, "flagger-3", false)
	})
	if e := mustEntry(t, k, c); !e.Quarantined || e.Flags != 3 {
		t.Fatalf("survivor with 3 flaggers combined: quarantined %v flags %d", e.Quarantined, e.Flags)
	}
	if _, err := k.Unmerge(ctx, d, "the-admin"); err != nil {
		t.Fatal(err)
	}
	if e := mustEntry(t, k, c); e.Quarantined || e.Flags != 1 {
		t.Fatalf("after the unmerge: survivor quarantined %v flags %d, want lifted with its own 1", e.Quarantined, e.Flags)
	}
	// flagger-1's flag was not cleared: two more make three.
	flagBy(t, k, c, "flagger-4", false)
	if e := flagBy(t, k, c, "flagger-5", false); !e.Quarantined {
		t.Fatalf("three pending flaggers after the lift (one from before it) did not quarantine: the lift cleared flags")
	}
}

// testUnmergeKeepsAdmin: a survivor an admin quarantined, before the merge
// or after it, stays quarantined when the merge is undone.
func testUnmergeKeepsAdmin(t *testing.T, k *knowledge.Engine) {
	ctx := context.Background()
	a, b := mergedTwins(t, k, "probe-own", 7, func(a, b string) {
		flagBy(t, k, a, "the-admin", true)
		flagBy(t, k, b, "the-admin", true)
	})
	if _, err := k.Unmerge(ctx, b, "the-admin"); err != nil {
		t.Fatal(err)
	}
	if e := mustEntry(t, k, a); !e.Quarantined {
		t.Fatalf("an admin's quarantine of the survivor (before the merge) was lifted by the unmerge")
	}
	c, d := mergedTwins(t, k, "probe-after", 9, func(c, d string) { flagBy(t, k, d, "the-admin", true) })
	flagBy(t, k, c, "other-admin", true) // already quarantined by the merge: now the admin's own
	if _, err := k.Unmerge(ctx, d, "the-admin"); err != nil {
		t.Fatal(err)
	}
	if e := mustEntry(t, k, c); !e.Quarantined {
		t.Fatalf("an admin's flag of the survivor after its merge quarantine was undone by the unmerge")
	}
}

// testUnmergeChain: B merged into A, then A into an older C. Unmerging B
// first is refused, naming A; unmerging A brings A back holding B; then B
// comes back too; a second unmerge changes nothing; each history says so.
func testUnmergeChain(t *testing.T, k *knowledge.Engine) {
	ctx := context.Background()
	a, b := mergedTwins(t, k, "probe-chain", 11, nil)
	ci := knowIn("agent-chain-c", "probe-chain", "Redis KEEPTTL on SET keeps the expiry", "`SET k v KEEPTTL`: the TTL survives an overwrite.", knowVec(11, 12, 0.02))
	ci.Threshold, ci.At = 1.01, ci.At.Add(-time.Hour)
	c := mustContribute(t, k, ci).Entry.ID
	swept(t, k, 1)
	knowClock.advance(t, time.Minute)
	if got := mustEntry(t, k, a); got.ID != c {
		t.Fatalf("A answers %s, want absorbed into the older C %s", got.ID, c)
	}
	if got := mustEntry(t, k, b); got.ID != c || got.MergedInto != c || countsOf(got).contributions != 3 {
		t.Fatalf("B answers %s merged_into %q with %+v, want C holding all three", got.ID, got.MergedInto, countsOf(got))
	}
	_, err := k.Unmerge(ctx, b, "the-admin")
	if pumasi.ErrorCode(err) != pumasi.EPreconditionFailed || !strings.Contains(pumasi.ErrorMessage(err), a) {
		t.Fatalf("unmerge of B inside A inside C = %v, want precondition_failed naming %s", err, a)
	}
	ra, err := k.Unmerge(ctx, a, "the-admin")
	if err != nil || ra.ID != a || ra.MergedInto != "" || ra.ContributionCount != 2 {
		t.Fatalf("unmerge of A = %s merged_into %q contributions %d, %v; want A live with B's contributor inside", ra.ID, ra.MergedInto, ra.ContributionCount, err)
	}
	if got := mustEntry(t, k, b); got.ID != a {
		t.Fatalf("after A's unmerge B answers %s, want A", got.ID)
	}
	if got := mustEntry(t, k, c); got.ContributionCount != 1 {
		t.Fatalf("C after A's unmerge: %d contributions, want its own 1", got.ContributionCount)
	}
	knowClock.advance(t, time.Minute)
	for pass := range 2 {
		rb, err := k.Unmerge(ctx, b, "the-admin")
		if err != nil || rb.ID != b || rb.MergedInto != "" || rb.ContributionCount != 1 {
			t.Fatalf("unmerge of B (pass %d) = %s merged_into %q contributions %d, %v", pass+1, rb.ID, rb.MergedInto, rb.ContributionCount, err)
		}
		if got := mustEntry(t, k, a); got.ContributionCount != 1 {
			t.Fatalf("A after B's unmerge (pass %d): %d contributions, want 1", pass+1, got.ContributionCount)
		}
	}
	want := map[string][]string{
		b: {"merged_into", "unmerged"},
		a: {"absorbed", "merged_into", "unmerged", "unmerged"},
		c: {"absorbed", "unmerged"},
	}
	for id, kinds := range want {
		if got := historyKinds(t, k, id); !slices.Equal(got, kinds) {
			t.Errorf("history of %s = %v, want %v", id, got, kinds)
		}
	}
}

// testRedactAbsorbedLifts: redacting a quarantined entry absorbed into a
// survivor that its merge alone quarantined lifts the survivor's quarantine.
func testRedactAbsorbedLifts(t *testing.T, k *knowledge.Engine) {
	ctx := context.Background()
	a, b := mergedTwins(t, k, "probe-redlift", 13, func(a, b string) { flagBy(t, k, b, "the-admin", true) })
	if e := mustEntry(t, k, a); !e.Quarantined {
		t.Fatalf("survivor of a quarantined entry: quarantined false")
	}
	if err := k.Redact(ctx, b, "the-admin", "harmful"); err != nil {
		t.Fatal(err)
	}
	if e := mustEntry(t, k, a); e.Quarantined || e.Flags != 0 {
		t.Fatalf("survivor after the redaction of what quarantined it: quarantined %v flags %d, want lifted, 0", e.Quarantined, e.Flags)
	}
	if got := historyKinds(t, k, a); !slices.Equal(got, []string{"absorbed", "quarantined", "unquarantined"}) {
		t.Fatalf("survivor's history = %v", got)
	}
}
