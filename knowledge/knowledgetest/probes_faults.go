package knowledgetest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"pumasi"
	"pumasi/knowledge"
)

// runFaultProbes are moderation moves met by a fault or a race: a step
// after a committed write that fails and is retried, an unmerge landing
// between the engine's read and the driver's redaction, a failed read.
func runFaultProbes(t *testing.T, newDriver func(t *testing.T) knowledge.Driver) {
	engine := func(t *testing.T) (*knowledge.Engine, *faulty) {
		f := &faulty{Driver: newDriver(t)}
		return knowledge.New(f, knowledge.Options{Now: knowClock.now}), f
	}
	t.Run("SweepKeepsACorrectionApartFromItsTarget", func(t *testing.T) { k, _ := engine(t); testSweepKeepsLineage(t, k) })
	t.Run("RestoreThroughAbsorbedIDThenUnmerge", func(t *testing.T) { k, _ := engine(t); testRestoreThenUnmerge(t, k) })
	t.Run("UnmergeKeepsAQuarantineWithNoFlagPending", func(t *testing.T) { k, _ := engine(t); testUnmergeKeepsRequarantine(t, k) })
	t.Run("RestoreOfAChainThenUnmerge", func(t *testing.T) { k, _ := engine(t); testRestoreChainThenUnmerge(t, k) })
	t.Run("LiftRetriedAfterAFailure", func(t *testing.T) { k, f := engine(t); testLiftRetried(t, k, f) })
	t.Run("RedactAbsorbedWithAStaleHolder", func(t *testing.T) { k, f := engine(t); testRedactStaleHolder(t, k, f) })
	t.Run("UnmergeReportsAFailedRead", func(t *testing.T) { k, f := engine(t); testUnmergeFailedRead(t, k, f) })
	t.Run("QueryReadsSuccessorsStatesWithTheirRows", func(t *testing.T) {
		// Ten candidates: the successor is not among them.
		f := &faulty{Driver: newDriver(t)}
		testSuccessorStates(t, knowledge.New(f, knowledge.Options{Now: knowClock.now, Candidates: 1}), f)
	})
}

// errInjected is the fault faulty answers.
var errInjected = errors.New("injected fault")

// faulty is a driver that fails a chosen call the next n times, or runs a
// hook once before RedactAbsorbed (another admin's move landing there). It
// counts ModStates calls, and passes on whether its driver's entry reads
// carry their states (knowledge.StateReader).
type faulty struct {
	knowledge.Driver
	failUnquarantine, failRedaction atomic.Int32
	modStates                       atomic.Int32
	beforeRedactAbsorbed            func()
}

func (f *faulty) ReadsStates() bool {
	r, ok := f.Driver.(knowledge.StateReader)
	return ok && r.ReadsStates()
}

func (f *faulty) ModStates(ctx context.Context, ids []string) (map[string]knowledge.ModState, error) {
	f.modStates.Add(1)
	return f.Driver.ModStates(ctx, ids)
}

func (f *faulty) Unquarantine(ctx context.Context, id string, ev knowledge.Event) error {
	if f.failUnquarantine.Add(-1) >= 0 {
		return errInjected
	}
	return f.Driver.Unquarantine(ctx, id, ev)
}

func (f *faulty) Redaction(ctx context.Context, id string) (knowledge.Redaction, error) {
	if f.failRedaction.Add(-1) >= 0 {
		return knowledge.Redaction{}, errInjected
	}
	return f.Driver.Redaction(ctx, id)
}

func (f *faulty) RedactAbsorbed(ctx context.Context, holder string, origins []string, r knowledge.Redaction) error {
	if h := f.beforeRedactAbsorbed; h != nil {
		f.beforeRedactAbsorbed = nil
		h()
	}
	return f.Driver.RedactAbsorbed(ctx, holder, origins, r)
}

// testSweepKeepsLineage: the sweep never folds a correction into the entry
// it supersedes (contribute does not either), nor one that an older entry
// names no more because a later correction replaced it as its successor.
func testSweepKeepsLineage(t *testing.T, k *knowledge.Engine) {
	const hive = "probe-sweep-lineage"
	oi := knowIn("agent-old", hive, "Set max_connections to 100", "The old advice for the pool.", knowVec(7, 8, 0))
	old := mustContribute(t, k, oi).Entry.ID
	ni := knowIn("agent-new", hive, "Set max_connections to 200", "The corrected advice for the pool.", knowVec(7, 8, 0.05))
	ni.Supersedes, ni.At = old, oi.At.Add(time.Second)
	nr := mustContribute(t, k, ni)
	if nr.Verdict != knowledge.VerdictAccepted || nr.Entry.ID == old {
		t.Fatalf("a near-duplicate correction = %s into %s, want a new entry", nr.Verdict, nr.Entry.ID)
	}
	li := knowIn("agent-later", hive, "Size max_connections by the pool", "A later, different correction.", knowVec(12, 13, 0))
	li.Supersedes, li.At = old, oi.At.Add(2*time.Second)
	mustContribute(t, k, li)
	knowClock.advance(t, time.Minute)
	swept(t, k, 0)
	if got := mustEntry(t, k, nr.Entry.ID); got.ID != nr.Entry.ID || got.MergedInto != "" || got.Supersedes != old {
		t.Fatalf("the correction after the sweep answers %s merged_into %q supersedes %q, want itself superseding %s",
			got.ID, got.MergedInto, got.Supersedes, old)
	}
}

// testRestoreThenUnmerge: an admin restores a quarantined entry through its
// absorbed id (its flags cleared in the survivor); unmerged later, it comes
// back restored, not quarantined with no flag pending.
func testRestoreThenUnmerge(t *testing.T, k *knowledge.Engine) {
	ctx := context.Background()
	a, b := mergedTwins(t, k, "probe-restore-unmerge", 11, func(a, b string) { flagBy(t, k, b, "the-admin", true) })
	if e := mustEntry(t, k, a); !e.Quarantined {
		t.Fatalf("survivor of a quarantined entry: quarantined false")
	}
	if r, err := k.Restore(ctx, b, "the-admin"); err != nil || r.Quarantined {
		t.Fatalf("Restore(absorbed) = quarantined %v, %v", r.Quarantined, err)
	}
	// Both histories say so: the survivor's restore names the id it was
	// asked through, the absorbed id's names the survivor that held its
	// flags.
	for _, c := range [][2]string{{a, b}, {b, a}} {
		evs, err := k.Driver().Events(ctx, c[0])
		if err != nil || len(evs) == 0 {
			t.Fatalf("events of %s = %v, %v", c[0], evs, err)
		}
		if last := evs[len(evs)-1]; last.Kind != knowledge.EventRestored || last.OtherID != c[1] || last.By != "the-admin" {
			t.Fatalf("last event of %s = %+v, want restored by the-admin naming %s", c[0], last, c[1])
		}
	}
	if got := historyKinds(t, k, b); !slices.Contains(got, knowledge.EventRestored) {
		t.Fatalf("history of the absorbed id restored through = %v, want restored in it", got)
	}
	ub, err := k.Unmerge(ctx, b, "the-admin")
	if err != nil {
		t.Fatal(err)
	}
	if ub.Quarantined || ub.Flags != 1 {
		t.Fatalf("unmerged after its restore: quarantined %v flags %d, want false and its 1 (cleared)", ub.Quarantined, ub.Flags)
	}
	if !queried(t, k, knowVec(11, 12, 0), b, false) {
		t.Fatalf("the restored, unmerged entry is not queried")
	}
	// Its cleared flag does not count: two new ones are not three.
	flagBy(t, k, b, "flagger-1", false)
	if e := flagBy(t, k, b, "flagger-2", false); e.Quarantined {
		t.Fatalf("two flags after the restore quarantined: the restore's clearing was lost")
	}
}

// requarantinedChain builds B quarantined by an admin again (flagged,
// restored, flagged again: the repeat renews the admin's flag), merged
// into A, then A into an older C, and returns a, b, c;
// each survivor is quarantined by its merge.
func requarantinedChain(t *testing.T, k *knowledge.Engine, hive string, axis int) (string, string, string) {
	t.Helper()
	a, b := mergedTwins(t, k, hive, axis, func(a, b string) {
		flagBy(t, k, b, "the-admin", true)
		if r, err := k.Restore(context.Background(), b, "the-admin"); err != nil || r.Quarantined {
			t.Fatalf("Restore(%s) = quarantined %v, %v", b, r.Quarantined, err)
		}
		if e := flagBy(t, k, b, "the-admin", true); !e.Quarantined || e.Flags != 1 {
			t.Fatalf("the admin's second flag: quarantined %v flags %d, want quarantined with its 1", e.Quarantined, e.Flags)
		}
	})
	ci := knowIn("agent-c", hive, "Redis KEEPTTL on SET keeps the expiry", "`SET k v KEEPTTL`: the TTL survives an overwrite.", knowVec(axis, axis+1, 0.02))
	ci.Threshold, ci.At = 1.01, ci.At.Add(-time.Hour)
	c := mustContribute(t, k, ci).Entry.ID
	swept(t, k, 1)
	knowClock.advance(t, time.Minute)
	if got := mustEntry(t, k, a); got.ID != c || !got.Quarantined {
		t.Fatalf("A answers %s quarantined %v, want absorbed into the older C %s, quarantined", got.ID, got.Quarantined, c)
	}
	return a, b, c
}

// testUnmergeKeepsRequarantine: an unmerged entry comes back as
// quarantined as it went in when no restore happened since, though no
// flag of its own is pending: B's quarantine is an admin's (a repeat flag
// after a restore), A's is B's, still inside it.
func testUnmergeKeepsRequarantine(t *testing.T, k *knowledge.Engine) {
	ctx := context.Background()
	a, b, c := requarantinedChain(t, k, "probe-requarantine", 13)
	ua, err := k.Unmerge(ctx, a, "the-admin")
	if err != nil || !ua.Quarantined {
		t.Fatalf("unmerged A holding a quarantined B: quarantined %v, %v; want quarantined", ua.Quarantined, err)
	}
	if e := mustEntry(t, k, c); e.Quarantined {
		t.Fatalf("C still quarantined after the unmerge of A, whose merge alone brought it")
	}
	ub, err := k.Unmerge(ctx, b, "the-admin")
	if err != nil || !ub.Quarantined {
		t.Fatalf("unmerged admin-quarantined B: quarantined %v, %v; want quarantined (no restore since)", ub.Quarantined, err)
	}
	if probe := knowVec(13, 14, 0.05); queried(t, k, probe, b, false) || !queried(t, k, probe, b, true) {
		t.Fatalf("the quarantined, unmerged B is queried, or missing from an admin's review")
	}
}

// testRestoreChainThenUnmerge: a restore of C reviews the flags of every
// entry in it, through the chain, so A and B come back restored.
func testRestoreChainThenUnmerge(t *testing.T, k *knowledge.Engine) {
	ctx := context.Background()
	a, b, c := requarantinedChain(t, k, "probe-restore-chain", 5)
	if r, err := k.Restore(ctx, b, "the-admin"); err != nil || r.ID != c || r.Quarantined {
		t.Fatalf("Restore(B inside A inside C) = %s quarantined %v, %v; want C restored", r.ID, r.Quarantined, err)
	}
	for _, id := range []string{a, b} {
		u, err := k.Unmerge(ctx, id, "the-admin")
		if err != nil || u.Quarantined {
			t.Fatalf("unmerged %s after C's restore: quarantined %v, %v; want restored", id, u.Quarantined, err)
		}
	}
	if !queried(t, k, knowVec(5, 6, 0.05), b, false) {
		t.Fatalf("B, restored with C and unmerged, is not queried")
	}
}

// testLiftRetried: the lift of a survivor's merge quarantine runs after the
// unmerge (or the redaction) committed; when it fails, the caller's retry
// lifts it, though the unmerge itself has nothing left to do.
func testLiftRetried(t *testing.T, k *knowledge.Engine, f *faulty) {
	ctx := context.Background()
	a, b := mergedTwins(t, k, "probe-lift-retry", 1, func(a, b string) { flagBy(t, k, b, "the-admin", true) })
	f.failUnquarantine.Store(1)
	if _, err := k.Unmerge(ctx, b, "the-admin"); !errors.Is(err, errInjected) {
		t.Fatalf("unmerge with a failing lift = %v, want the fault", err)
	}
	if got := mustEntry(t, k, b); got.MergedInto != "" {
		t.Fatalf("the unmerge did not commit before the lift")
	}
	if _, err := k.Unmerge(ctx, b, "the-admin"); err != nil {
		t.Fatal(err)
	}
	if e := mustEntry(t, k, a); e.Quarantined {
		t.Fatalf("after the retried unmerge the survivor is still quarantined by the merge undone")
	}

	c, d := mergedTwins(t, k, "probe-lift-retry-redact", 5, func(c, d string) { flagBy(t, k, d, "the-admin", true) })
	f.failUnquarantine.Store(1)
	if err := k.Redact(ctx, d, "the-admin", "harmful"); !errors.Is(err, errInjected) {
		t.Fatalf("redaction with a failing lift = %v, want the fault", err)
	}
	if err := k.Redact(ctx, d, "the-admin", "harmful"); err != nil {
		t.Fatal(err)
	}
	if e := mustEntry(t, k, c); e.Quarantined {
		t.Fatalf("after the retried redaction the survivor is still quarantined by what was redacted")
	}
}

// redactChain builds B (holding secret) merged into A, then A into an older
// C, and returns a, b, c.
func redactChain(t *testing.T, k *knowledge.Engine, hive, secret string, axis int) (string, string, string) {
	t.Helper()
	ai := knowIn("agent-a", hive, "Token in a header", "The chain's middle entry.", knowVec(axis, axis+1, 0))
	bi := knowIn("agent-b", hive, "Token "+secret+" in a header", "Chained "+secret+" text.", knowVec(axis, axis+1, 0.05))
	bi.Threshold, bi.At = 1.01, ai.At.Add(time.Second)
	a, b := mustContribute(t, k, ai).Entry.ID, mustContribute(t, k, bi).Entry.ID
	swept(t, k, 1)
	ci := knowIn("agent-c", hive, "Token in a header, first", "The chain's oldest entry.", knowVec(axis, axis+1, 0.02))
	ci.Threshold, ci.At = 1.01, ai.At.Add(-time.Hour)
	c := mustContribute(t, k, ci).Entry.ID
	swept(t, k, 1)
	if got := mustEntry(t, k, b); got.ID != c {
		t.Fatalf("B answers %s, want C %s", got.ID, c)
	}
	return a, b, c
}

// holdsText reports whether entry id (live) holds s in a contribution.
func holdsText(t *testing.T, k *knowledge.Engine, id, s string) bool {
	t.Helper()
	for _, c := range mustEntry(t, k, id).Contributions {
		if strings.Contains(c.Title, s) || strings.Contains(c.Content, s) {
			return true
		}
	}
	return false
}

// testRedactStaleHolder: B in A in C, and A unmerged (B's rows back in A)
// between the engine's resolve and the driver's redaction. The driver,
// handed C as the holder, answers not_found and touches nothing; the engine
// looks again and takes B's text out of A.
func testRedactStaleHolder(t *testing.T, k *knowledge.Engine, f *faulty) {
	ctx := context.Background()
	const secret = "zqxvkwpmchained"
	a, b, c := redactChain(t, k, "probe-stale-holder", secret, 3)
	if _, err := k.Unmerge(ctx, a, "admin-2"); err != nil {
		t.Fatal(err)
	}
	r := knowledge.Redaction{ID: b, Hive: "probe-stale-holder", At: knowClock.now(), Reason: "a live token", By: "admin-1"}
	if err := f.Driver.RedactAbsorbed(ctx, c, []string{b}, r); pumasi.ErrorCode(err) != pumasi.ENotFound {
		t.Fatalf("RedactAbsorbed(holder C, which no longer holds B) = %v, want not_found", err)
	}
	if _, err := k.GetEntry(ctx, b); err != nil {
		t.Fatalf("B after a refused redaction = %v, want it answered by A", err)
	}
	if err := k.Redact(ctx, b, "admin-1", "a live token"); err != nil {
		t.Fatal(err)
	}
	if holdsText(t, k, a, secret) {
		t.Fatalf("redacted B's text survives in A")
	}

	// The same race through the engine: the unmerge lands just before the
	// driver's redaction.
	const secret2 = "qqvzxkwmracing"
	a2, b2, _ := redactChain(t, k, "probe-stale-race", secret2, 9)
	f.beforeRedactAbsorbed = func() {
		if _, err := k.Unmerge(ctx, a2, "admin-2"); err != nil {
			t.Errorf("unmerge A: %v", err)
		}
	}
	if err := k.Redact(ctx, b2, "admin-1", "a live token"); err != nil {
		t.Fatal(err)
	}
	if _, err := k.GetEntry(ctx, b2); pumasi.ErrorCode(err) != pumasi.EGone {
		t.Fatalf("B after its redaction = %v, want gone", err)
	}
	if e := mustEntry(t, k, a2); holdsText(t, k, a2, secret2) || e.ContributionCount != 1 {
		t.Fatalf("A after B's redaction: %d contributions, B's text kept %v; want its own 1 and no B", e.ContributionCount, holdsText(t, k, a2, secret2))
	}
}

// testUnmergeFailedRead: a read that fails while unmerge checks the id is
// answered as the failure it is, not passed over.
func testUnmergeFailedRead(t *testing.T, k *knowledge.Engine, f *faulty) {
	ctx := context.Background()
	a, b := mergedTwins(t, k, "probe-unmerge-read", 13, nil)
	f.failRedaction.Store(1)
	if _, err := k.Unmerge(ctx, b, "the-admin"); !errors.Is(err, errInjected) {
		t.Fatalf("unmerge with a failing read = %v, want the fault", err)
	}
	if got := mustEntry(t, k, b); got.ID != a {
		t.Fatalf("after the failed unmerge B answers %s, want still merged into %s", got.ID, a)
	}
}

// testSuccessorStates: a query that puts a successor (not among its
// candidates) in its target's place reads the successor's state with its
// row when the driver reads them together (knowledge.StateReader), asking
// ModStates nothing; every driver answers the successor.
func testSuccessorStates(t *testing.T, k *knowledge.Engine, f *faulty) {
	ctx := context.Background()
	const hive = "probe-successor-states"
	old := mustContribute(t, k, knowIn("agent-old", hive, "Pool size 10", "The old advice.", knowVec(2, 3, 0))).Entry.ID
	for j := 4; j < 14; j++ {
		fi := knowIn("agent-filler", hive, fmt.Sprintf("Filler finding %d", j), fmt.Sprintf("Nearer the query than the successor, %d.", j), knowVec(2, j, 0.3))
		fi.Threshold = 1.01
		mustContribute(t, k, fi)
	}
	ni := knowIn("agent-new", hive, "Pool size by cores", "Far from the old one's vector.", knowVec(14, 15, 0))
	ni.Supersedes = old
	nr := mustContribute(t, k, ni)
	f.modStates.Store(0)
	hits, err := k.Query(ctx, knowledge.QueryInput{Hive: hive, Model: "test-model", Vector: knowVec(2, 3, 0), Limit: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) == 0 || hits[0].ID != nr.Entry.ID {
		t.Fatalf("query along the superseded entry = %v, want its successor %s first", hits, nr.Entry.ID)
	}
	if n := f.modStates.Load(); f.ReadsStates() && n != 0 {
		t.Fatalf("a query on a driver that reads states with rows asked ModStates %d times", n)
	}
}
