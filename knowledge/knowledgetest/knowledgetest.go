package knowledgetest

import (
	"context"
	"fmt"
	"math"
	"sort"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"pumasi/knowledge"
)

// Run is the conformance suite of a knowledge.Driver: it runs
// the one engine (knowledge.Engine) over the driver, so what it pins —
// dedup, ranking, staleness, the sweep — holds alike on every backend. A
// backend runs it with one line:
//
//	knowledgetest.Run(t, func(t *testing.T) knowledge.Driver { ... })
//
// newDriver returns a fresh, empty driver and closes it with t.Cleanup. The
// suite uses hand-made vectors, so it needs no embedder, and its own clock.
func Run(t *testing.T, newDriver func(t *testing.T) knowledge.Driver) {
	newStore := func(t *testing.T) knowledge.Store {
		return knowledge.New(newDriver(t), knowledge.Options{Now: knowClock.now})
	}
	runKnowledgeRanking(t, newDriver)
	t.Run("AcceptThenExactDuplicateMerges", func(t *testing.T) { testKnowExact(t, newStore(t)) })
	t.Run("HivesAndModelsAreSeparate", func(t *testing.T) { testKnowSeparate(t, newStore(t)) })
	t.Run("NearDuplicateMerges", func(t *testing.T) { testKnowNear(t, newStore(t)) })
	t.Run("FiftyRacersOneEntry", func(t *testing.T) { testKnowRace(t, newStore(t)) })
	t.Run("RacingNearDuplicatesConverge", func(t *testing.T) { testKnowNearRace(t, newStore(t)) })
	t.Run("SweepCollapsesForcedRace", func(t *testing.T) { testKnowSweep(t, newStore(t)) })
	t.Run("Counters", func(t *testing.T) { testKnowCounters(t, newStore(t)) })
	t.Run("QueryRanksBySimilarityTimesQuality", func(t *testing.T) { testKnowQuery(t, newStore(t)) })
	t.Run("QueryLooksPastSimilarButPoorEntries", func(t *testing.T) { testKnowQueryDeep(t, newStore(t)) })
	t.Run("Errors", func(t *testing.T) { testKnowErrors(t, newStore(t)) })
	t.Run("BridgeNeverMergesItsEnds", func(t *testing.T) { testKnowBridge(t, newStore) })
	t.Run("UnmergeRestoresCounts", func(t *testing.T) { testKnowUnmerge(t, newStore(t)) })
	t.Run("CiteCountsOncePerDay", func(t *testing.T) { testKnowCiteOncePerDay(t, newStore(t)) })
	t.Run("RedactingASurvivorTakesWhatItAbsorbed", func(t *testing.T) {
		testKnowRedactSurvivor(t, knowledge.New(newDriver(t), knowledge.Options{Now: knowClock.now}))
	})
	t.Run("AbsorbedAsItLandsAnswersMerged", func(t *testing.T) { testKnowAbsorbedAsItLands(t, newDriver) })
	t.Run("LexicalCandidates", func(t *testing.T) { testKnowCandidates(t, newDriver) })
	t.Run("StoredAnalysis", func(t *testing.T) { testKnowAnalysis(t, newDriver) })
	t.Run("ReanalyseStaleAnalyses", func(t *testing.T) { testKnowReanalyse(t, newDriver) })
	t.Run("StoredDetails", func(t *testing.T) { testKnowDetails(t, newDriver) })
	t.Run("RedetailStaleDetails", func(t *testing.T) { testKnowRedetail(t, newDriver) })
	runModeration(t, newDriver)
	runReview(t, newDriver)
	runSweepLineage(t, newDriver)
	runLineage(t, newDriver)
	runProbes(t, newDriver)
	runFaultProbes(t, newDriver)
}

const knowDim = 16

// knowT0 is the suite's "now"; contributions are made a day before it.
var knowT0 = time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)

// knowClock is the suite's clock: tests that age entries move it and put
// it back.
var knowClock = &suiteClock{}

type suiteClock struct{ offset atomic.Int64 }

func (c *suiteClock) now() time.Time { return knowT0.Add(time.Duration(c.offset.Load())) }

func (c *suiteClock) advance(t *testing.T, d time.Duration) {
	c.offset.Add(int64(d))
	t.Cleanup(func() { c.offset.Add(-int64(d)) })
}

// knowVec returns the unit vector along axis a, tilted toward axis b by
// tilt: its cosine to axis a alone is 1/sqrt(1+tilt²).
func knowVec(a, b int, tilt float64) []float32 {
	v := make([]float32, knowDim)
	v[a] = 1
	v[b] += float32(tilt)
	n := math.Sqrt(1 + tilt*tilt)
	if a == b {
		n = 1 + tilt
	}
	for i := range v {
		v[i] = float32(float64(v[i]) / n)
	}
	return v
}

func knowIn(agent, hive, title, content string, vec []float32) knowledge.ContributeInput {
	return knowledge.ContributeInput{
		Hive: hive, Agent: agent, Title: title, Content: content, Tags: []string{"go", "sqlite"},
		NormHash: knowledge.Hash(title, content), Model: "test-model", Vector: vec,
		Specificity: 0.8, Threshold: knowledge.DefaultMergeThreshold,
		At: time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC),
	}
}

func mustContribute(t *testing.T, s knowledge.Store, in knowledge.ContributeInput) knowledge.ContributeResult {
	t.Helper()
	res, err := s.Contribute(context.Background(), in)
	if err != nil {
		t.Fatalf("Contribute(%s, %q): %v", in.Agent, in.Title, err)
	}
	return res
}

func mustEntry(t *testing.T, s knowledge.Store, id string) knowledge.Entry {
	t.Helper()
	e, err := s.GetEntry(context.Background(), id)
	if err != nil {
		t.Fatalf("GetEntry(%s): %v", id, err)
	}
	return e
}

// hiveIDs returns the ids a broad query sees in hive, sorted.
func hiveIDs(t *testing.T, s knowledge.Store, hive string, probe []float32) []string {
	t.Helper()
	hits, err := s.Query(context.Background(), knowledge.QueryInput{Hive: hive, Model: "test-model", Vector: probe, Limit: knowledge.MaxQueryLimit})
	if err != nil {
		t.Fatalf("Query: %v", err)
	}
	ids := make([]string, len(hits))
	for i, h := range hits {
		ids[i] = h.ID
	}
	sort.Strings(ids)
	return ids
}

func testKnowExact(t *testing.T, s knowledge.Store) {
	in := knowIn("agent-one", "academy", "SQLite busy_timeout per connection", "Set `_pragma=busy_timeout(5000)` in the DSN.", knowVec(0, 1, 0))
	r1 := mustContribute(t, s, in)
	if r1.Verdict != knowledge.VerdictAccepted || r1.Entry.ID == "" || r1.Entry.ContributionCount != 1 {
		t.Fatalf("first = %+v, want accepted with count 1", r1)
	}
	if r1.Entry.Title != in.Title || r1.Entry.Content != in.Content || r1.Entry.Hive != "academy" ||
		fmt.Sprint(r1.Entry.Tags) != "[go sqlite]" || r1.Entry.Specificity != 0.8 || !r1.Entry.CreatedAt.Equal(in.At) {
		t.Fatalf("entry = %+v, does not hold what was contributed", r1.Entry)
	}
	// Same text up to case and spacing, another agent, a vector that alone
	// would not merge: the normalised hash decides.
	in2 := knowIn("agent-two", "academy", "sqlite  BUSY_TIMEOUT per connection", "set `_pragma=busy_timeout(5000)`   in the DSN.", knowVec(5, 6, 0))
	in2.At = in.At.Add(time.Minute)
	r2 := mustContribute(t, s, in2)
	if r2.Verdict != knowledge.VerdictMerged || r2.Entry.ID != r1.Entry.ID || r2.Entry.ContributionCount != 2 || r2.Similarity != 1 {
		t.Fatalf("exact duplicate = verdict %s id %s count %d sim %v, want merged into %s with count 2",
			r2.Verdict, r2.Entry.ID, r2.Entry.ContributionCount, r2.Similarity, r1.Entry.ID)
	}
	e := mustEntry(t, s, r1.Entry.ID)
	if e.Title != in.Title || e.Content != in.Content {
		t.Fatalf("entry rewritten by a merge: %q / %q", e.Title, e.Content)
	}
	if len(e.Contributions) != 2 || e.Contributions[0].Agent != "agent-one" || e.Contributions[1].Agent != "agent-two" ||
		e.Contributions[1].Title != in2.Title || !e.Contributions[1].At.Equal(in2.At) {
		t.Fatalf("contributions = %+v, want agent-one then agent-two", e.Contributions)
	}
}

func testKnowSeparate(t *testing.T, s knowledge.Store) {
	a := mustContribute(t, s, knowIn("agent-one", "academy", "Title", "Same content in two hives.", knowVec(0, 1, 0)))
	b := mustContribute(t, s, knowIn("agent-one", "backend", "Title", "Same content in two hives.", knowVec(0, 1, 0)))
	if a.Verdict != knowledge.VerdictAccepted || b.Verdict != knowledge.VerdictAccepted || a.Entry.ID == b.Entry.ID {
		t.Fatalf("two hives: %s %s / %s %s, want two accepted entries", a.Verdict, a.Entry.ID, b.Verdict, b.Entry.ID)
	}
	other := knowIn("agent-one", "academy", "Other text", "Same vector, other embedder.", knowVec(0, 1, 0))
	other.Model = "other-model"
	c := mustContribute(t, s, other)
	if c.Verdict != knowledge.VerdictAccepted || c.Entry.ID == a.Entry.ID {
		t.Fatalf("other model merged into %s", c.Entry.ID)
	}
}

func testKnowNear(t *testing.T, s knowledge.Store) {
	base := mustContribute(t, s, knowIn("agent-one", "academy", "pgbouncer prepared statements", "Disable prepared statements behind pgbouncer.", knowVec(2, 3, 0)))
	near := mustContribute(t, s, knowIn("agent-two", "academy", "pgbouncer and prepared statements", "Turn off prepared statements with pgbouncer.", knowVec(2, 3, 0.1)))
	want := 1 / math.Sqrt(1.01)
	if near.Verdict != knowledge.VerdictMerged || near.Entry.ID != base.Entry.ID || near.Entry.ContributionCount != 2 ||
		math.Abs(near.Similarity-want) > 1e-3 {
		t.Fatalf("near duplicate (cos %.3f) = %s into %s count %d sim %.4f, want merged into %s",
			want, near.Verdict, near.Entry.ID, near.Entry.ContributionCount, near.Similarity, base.Entry.ID)
	}
	far := mustContribute(t, s, knowIn("agent-three", "academy", "pgbouncer pool modes", "Transaction mode breaks session features.", knowVec(2, 3, 0.5)))
	if far.Verdict != knowledge.VerdictAccepted || far.Entry.ID == base.Entry.ID {
		t.Fatalf("cos 0.894 contribution = %s into %s, want a new entry", far.Verdict, far.Entry.ID)
	}
	e := mustEntry(t, s, base.Entry.ID)
	if len(e.Contributions) != 2 || math.Abs(e.Contributions[1].Similarity-want) > 1e-3 || e.Contributions[0].Similarity != 1 {
		t.Fatalf("contributions = %+v, want the merge's similarity kept", e.Contributions)
	}
	// A threshold above 1 turns near merging off; exact merging stays.
	off := knowIn("agent-four", "academy", "pgbouncer prepared statements, again", "Disable them.", knowVec(2, 3, 0.01))
	off.Threshold = 1.01
	if r := mustContribute(t, s, off); r.Verdict != knowledge.VerdictAccepted {
		t.Fatalf("threshold 1.01 merged: %+v", r)
	}
}

func testKnowRace(t *testing.T, s knowledge.Store) {
	const n = 50
	var wg sync.WaitGroup
	results := make([]knowledge.ContributeResult, n)
	errs := make([]error, n)
	start := make(chan struct{})
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			results[i], errs[i] = s.Contribute(context.Background(),
				knowIn(fmt.Sprintf("racer-%02d", i), "academy", "Go 1.22 loop variables", "Each iteration of `for i := range` has its own `i` since Go 1.22.", knowVec(4, 5, 0)))
		}()
	}
	close(start)
	wg.Wait()
	ids := map[string]bool{}
	accepted := 0
	for i := range results {
		if errs[i] != nil {
			t.Fatalf("racer %d: %v", i, errs[i])
		}
		ids[results[i].Entry.ID] = true
		if results[i].Verdict == knowledge.VerdictAccepted {
			accepted++
		}
	}
	if len(ids) != 1 || accepted != 1 {
		t.Fatalf("%d racers made %d entries with %d accepted verdicts, want 1 and 1", n, len(ids), accepted)
	}
	var id string
	for k := range ids {
		id = k
	}
	e := mustEntry(t, s, id)
	if e.ContributionCount != n || len(e.Contributions) != n {
		t.Fatalf("contribution_count = %d with %d attributions, want %d and %d", e.ContributionCount, len(e.Contributions), n, n)
	}
	agents := map[string]bool{}
	for _, c := range e.Contributions {
		agents[c.Agent] = true
	}
	if len(agents) != n {
		t.Fatalf("%d distinct agents attributed, want %d", len(agents), n)
	}
}

// testKnowNearRace lets 20 near-duplicates with different texts race. A
// backend may let several in; after a sweep exactly one entry remains and
// holds all 20 contributions.
func testKnowNearRace(t *testing.T, s knowledge.Store) {
	const n = 20
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			in := knowIn(fmt.Sprintf("near-%02d", i), "academy", fmt.Sprintf("Variant %d of one finding", i),
				fmt.Sprintf("Wording %d of the same fact.", i), knowVec(6, 7, 0.01*float64(i%5)))
			in.At = in.At.Add(time.Duration(i) * time.Millisecond)
			_, errs[i] = s.Contribute(context.Background(), in)
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("contributor %d: %v", i, err)
		}
	}
	if _, err := s.SweepKnowledge(context.Background(), knowledge.DefaultMergeThreshold); err != nil {
		t.Fatal(err)
	}
	ids := hiveIDs(t, s, "academy", knowVec(6, 7, 0))
	if len(ids) != 1 {
		t.Fatalf("after the sweep %d entries remain, want 1", len(ids))
	}
	e := mustEntry(t, s, ids[0])
	if e.ContributionCount != n || len(e.Contributions) != n {
		t.Fatalf("count %d, attributions %d, want %d", e.ContributionCount, len(e.Contributions), n)
	}
}

func testKnowSweep(t *testing.T, s knowledge.Store) {
	ctx := context.Background()
	// Force the race: merging off, so two near-duplicates both get in, the
	// way two backends' racing writers would.
	first := knowIn("agent-one", "academy", "MinIO needs path-style URLs", "Set `UsePathStyle: true`.", knowVec(8, 9, 0))
	first.Threshold = 1.01
	second := knowIn("agent-two", "academy", "MinIO requires path style", "Use `UsePathStyle` = true in the S3 client.", knowVec(8, 9, 0.05))
	second.Threshold = 1.01
	second.At = first.At.Add(time.Second)
	a := mustContribute(t, s, first)
	b := mustContribute(t, s, second)
	if a.Entry.ID == b.Entry.ID {
		t.Fatal("forced race did not produce two entries")
	}
	// A third, unrelated entry must survive untouched.
	c := mustContribute(t, s, knowIn("agent-three", "academy", "Unrelated", "Something else entirely.", knowVec(10, 11, 0)))
	// Counters on both before the sweep: b cited by three agents, a by
	// one of them (the same day: one day's cite of the merged entry).
	for _, who := range []string{"agent-four", "agent-nine", "agent-ten"} {
		if _, err := s.Cite(ctx, b.Entry.ID, who); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.Cite(ctx, a.Entry.ID, "agent-four"); err != nil {
		t.Fatal(err)
	}
	for _, who := range []string{"agent-five", "agent-six"} {
		if _, err := s.Endorse(ctx, b.Entry.ID, who); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.Endorse(ctx, a.Entry.ID, "agent-five"); err != nil {
		t.Fatal(err)
	}
	// One more exact contribution to the newer one.
	again := second
	again.Agent = "agent-seven"
	if r := mustContribute(t, s, again); r.Entry.ID != b.Entry.ID || r.Verdict != knowledge.VerdictMerged {
		t.Fatalf("exact contribution to the newer entry = %+v", r)
	}

	rep, err := s.SweepKnowledge(ctx, knowledge.DefaultMergeThreshold)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Merged != 1 {
		t.Fatalf("sweep merged %d, want 1 (report %+v)", rep.Merged, rep)
	}
	kept := mustEntry(t, s, a.Entry.ID)
	if got := mustEntry(t, s, b.Entry.ID); got.ID != a.Entry.ID || got.MergedInto != a.Entry.ID {
		t.Fatalf("absorbed id answers %s merged_into %q, want the survivor %s", got.ID, got.MergedInto, a.Entry.ID)
	}
	if kept.MergedInto != "" {
		t.Fatalf("survivor asked by its own id says merged_into %q", kept.MergedInto)
	}
	if kept.Title != first.Title || kept.ContributionCount != 3 || kept.CitationCount != 3 || kept.EndorsementCount != 2 {
		t.Fatalf("kept = title %q contributions %d citations %d endorsements %d, want the older entry with 3, 3, 2 (endorsers and one agent's day counted once)",
			kept.Title, kept.ContributionCount, kept.CitationCount, kept.EndorsementCount)
	}
	agents := []string{}
	for _, c := range kept.Contributions {
		agents = append(agents, c.Agent)
	}
	sort.Strings(agents)
	if fmt.Sprint(agents) != "[agent-one agent-seven agent-two]" {
		t.Fatalf("attributions after sweep = %v", agents)
	}
	// Endorsing again with a moved endorser changes nothing.
	if e, err := s.Endorse(ctx, a.Entry.ID, "agent-six"); err != nil || e.EndorsementCount != 2 {
		t.Fatalf("re-endorse after sweep = %d, %v; want 2", e.EndorsementCount, err)
	}
	if got := hiveIDs(t, s, "academy", knowVec(8, 9, 0)); len(got) != 1 || got[0] != a.Entry.ID {
		t.Fatalf("entries near the pair after sweep = %v, want only the kept %s", got, a.Entry.ID)
	}
	if u := mustEntry(t, s, c.Entry.ID); u.ContributionCount != 1 {
		t.Fatalf("unrelated entry changed: %+v", u)
	}

	rep, err = s.SweepKnowledge(ctx, knowledge.DefaultMergeThreshold)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Merged != 0 {
		t.Fatalf("second sweep merged %d, want 0 (idempotent)", rep.Merged)
	}
	if again := mustEntry(t, s, a.Entry.ID); again.ContributionCount != 3 || again.CitationCount != 3 || len(again.Contributions) != 3 {
		t.Fatalf("second sweep changed the kept entry: %+v", again)
	}
	// A later contribution near the kept entry merges normally.
	late := knowIn("agent-eight", "academy", "MinIO path style", "Path-style addressing for MinIO.", knowVec(8, 9, 0.02))
	if r := mustContribute(t, s, late); r.Verdict != knowledge.VerdictMerged || r.Entry.ID != a.Entry.ID || r.Entry.ContributionCount != 4 {
		t.Fatalf("contribution after sweep = %s into %s count %d", r.Verdict, r.Entry.ID, r.Entry.ContributionCount)
	}
}
