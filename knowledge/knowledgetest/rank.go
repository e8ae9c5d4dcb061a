package knowledgetest

import (
	"context"
	"fmt"
	"math"
	"sync"
	"testing"
	"time"

	"pumasi/knowledge"
)

// runKnowledgeRanking pins what the engine does with a driver's candidates:
// hybrid relevance, quality over similarity, staleness, one count per
// contributor, and a sweep in batches.
func runKnowledgeRanking(t *testing.T, newDriver func(t *testing.T) knowledge.Driver) {
	engine := func(t *testing.T, d knowledge.Driver) *knowledge.Engine {
		return knowledge.New(d, knowledge.Options{Now: knowClock.now, HalfLife: 30 * 24 * time.Hour})
	}
	t.Run("BestEntryPastTheFirstBatch", func(t *testing.T) { testKnowPastBatch(t, engine(t, newDriver(t))) })
	t.Run("WordsDecideBetweenEqualVectors", func(t *testing.T) { testKnowHybrid(t, engine(t, newDriver(t))) })
	t.Run("HostileQueryText", func(t *testing.T) { testKnowHostileText(t, engine(t, newDriver(t))) })
	t.Run("StalenessAgesUnusedEntries", func(t *testing.T) { testKnowStaleness(t, engine(t, newDriver(t))) })
	t.Run("OneContributorCountsOnce", func(t *testing.T) { testKnowOnce(t, engine(t, newDriver(t))) })
	t.Run("SweepInBatchesWhileWriting", func(t *testing.T) { testKnowSweepBatches(t, engine(t, newDriver(t))) })
}

// testKnowPastBatch is the case that broke the first local backend: one old
// entry at similarity 0.05, 40 at 0.9 with low specificity, one at 0.85 with
// specificity 1.0. limit=1 must return the last.
func testKnowPastBatch(t *testing.T, k *knowledge.Engine) {
	old := knowIn("agent-q", "academy", "old and unrelated", "far away", tilted(0.05, 3))
	old.At, old.Specificity, old.Threshold = knowT0.Add(-400*24*time.Hour), 1, 1.01
	mustContribute(t, k, old)
	for i := 0; i < 40; i++ {
		in := knowIn("agent-q", "academy", fmt.Sprintf("similar but vague %02d", i), "vague", tilted(0.9, 4+i%8))
		in.Specificity, in.Threshold = 0.2, 1.01
		mustContribute(t, k, in)
	}
	best := knowIn("agent-q", "academy", "specific", "precise finding", tilted(0.85, 13))
	best.Specificity, best.Threshold = 1, 1.01
	want := mustContribute(t, k, best).Entry.ID
	for _, limit := range []int{1, 5} {
		hits, err := k.Query(context.Background(), knowledge.QueryInput{Hive: "academy", Model: "test-model", Vector: knowVec(0, 0, 0), Limit: limit})
		if err != nil || len(hits) != limit || hits[0].ID != want {
			t.Fatalf("limit %d: top = %+v, %v; want the specific entry (0.85 × 1.0 beats 0.9 × 0.2)", limit, first(hits), err)
		}
		if math.Abs(hits[0].Similarity-0.85) > 1e-3 {
			t.Fatalf("similarity %v, want 0.85", hits[0].Similarity)
		}
	}
}

// tilted is a unit vector at cosine c to axis 0, leaning toward axis b.
func tilted(c float64, b int) []float32 {
	v := make([]float32, knowDim)
	v[0] = float32(c)
	v[b] = float32(math.Sqrt(1 - c*c))
	return v
}

func first(h []knowledge.Hit) any {
	if len(h) == 0 {
		return nil
	}
	return h[0]
}

// testKnowHybrid: three entries at the same cosine; the query's words pick
// the one that says them, and an entry no vector reaches (another model)
// is still found by its words.
func testKnowHybrid(t *testing.T, k *knowledge.Engine) {
	ctx := context.Background()
	mk := func(title, content string, vec []float32, model string) string {
		in := knowIn("agent-h", "academy", title, content, vec)
		in.Threshold, in.Model = 1.01, model
		return mustContribute(t, k, in).Entry.ID
	}
	pool := mk("pgbouncer transaction pooling breaks prepared statements",
		"Set `prepare_threshold=0` in psycopg or use session pooling.", tilted(0.8, 2), "test-model")
	mk("Redis maxmemory eviction", "allkeys-lru evicts any key; volatile-lru only keys with a TTL.", tilted(0.8, 3), "test-model")
	mk("Kafka consumer rebalancing", "Raise max.poll.interval.ms when processing is slow.", tilted(0.8, 4), "test-model")
	ko := mk("인덱스 생성과 트랜잭션", "CREATE INDEX CONCURRENTLY 는 트랜잭션 블록 안에서 실행할 수 없다.", tilted(0.8, 5), "test-model")
	other := mk("goreleaser needs a tag", "goreleaser refuses to release without a semver git tag on HEAD.", tilted(0.8, 6), "old-model")

	q := func(text string) []knowledge.Hit {
		t.Helper()
		hits, err := k.Query(ctx, knowledge.QueryInput{Hive: "academy", Text: text, Model: "test-model", Vector: knowVec(0, 0, 0), Limit: 5})
		if err != nil {
			t.Fatalf("Query(%q): %v", text, err)
		}
		return hits
	}
	if h := q("prepared statements behind pgbouncer"); len(h) == 0 || h[0].ID != pool || h[0].Lexical <= 0 {
		t.Fatalf("pgbouncer query top = %+v, want the pgbouncer entry by its words", first(h))
	}
	if h := q("인덱스를 트랜잭션 안에서"); len(h) == 0 || h[0].ID != ko {
		t.Fatalf("Korean query top = %+v, want the Korean entry", first(h))
	}
	h := q("goreleaser semver tag")
	found := false
	for _, x := range h {
		if x.ID == other {
			found = x.Similarity == 0 && x.Lexical > 0
		}
	}
	if !found {
		t.Fatalf("an entry of another model was not found by its words: %+v", h)
	}
	for _, x := range h {
		w := knowledge.DefaultVectorWeight
		want := w*math.Max(x.Similarity, 0) + (1-w)*x.Lexical
		if got := k.Relevance(x, true); math.Abs(got-want) > 1e-9 || math.Abs(x.Score-want*x.Quality*x.Freshness) > 1e-9 {
			t.Fatalf("score %v of %s is not (w cos + (1-w) lexical) × quality × freshness = %v", x.Score, x.ID, want*x.Quality*x.Freshness)
		}
	}
}

// testKnowHostileText feeds full-text syntax as query text: it is searched
// as words, never parsed as a query, and never fails.
func testKnowHostileText(t *testing.T, k *knowledge.Engine) {
	in := knowIn("agent-h", "academy", "NEAR operator", `FTS5 "NEAR(a b)" and column:filters`, tilted(0.5, 2))
	mustContribute(t, k, in)
	for _, text := range []string{`"`, `*`, `NEAR(`, `a OR`, `-x`, `title:`, `"unterminated`, `^start`, `AND AND`, `'); DROP TABLE knowledge_entries; --`, "\x00", "한글\"*"} {
		if _, err := k.Query(context.Background(), knowledge.QueryInput{Hive: "academy", Text: text, Model: "test-model", Vector: knowVec(0, 0, 0), Limit: 5}); err != nil {
			t.Fatalf("Query(%q) = %v, want no error", text, err)
		}
	}
	hits, err := k.Query(context.Background(), knowledge.QueryInput{Hive: "academy", Text: `near(" column:`, Model: "nothing", Limit: 5})
	if err != nil || len(hits) != 1 {
		t.Fatalf("words of a hostile text = %d hits, %v; want the entry found by its words", len(hits), err)
	}
}

// testKnowStaleness: of two equal entries, the one nobody used for two
// half-lives ranks below the one cited; the sweep counts it as aged.
func testKnowStaleness(t *testing.T, k *knowledge.Engine) {
	ctx := context.Background()
	a := knowIn("agent-s", "academy", "entry a", "same relevance", tilted(0.9, 2))
	b := knowIn("agent-s", "academy", "entry b", "same relevance", tilted(0.9, 3))
	a.Threshold, b.Threshold = 1.01, 1.01
	ea := mustContribute(t, k, a).Entry
	eb := mustContribute(t, k, b).Entry
	if !ea.LastUsedAt.Equal(a.At) {
		t.Fatalf("last_used_at of a new entry = %v, want its creation %v", ea.LastUsedAt, a.At)
	}
	knowClock.advance(t, 60*24*time.Hour) // two half-lives
	cited, err := k.Cite(ctx, eb.ID, "agent-c")
	if err != nil {
		t.Fatal(err)
	}
	if !cited.LastUsedAt.Equal(knowClock.now()) {
		t.Fatalf("cite set last_used_at %v, want %v", cited.LastUsedAt, knowClock.now())
	}
	hits, err := k.Query(ctx, knowledge.QueryInput{Hive: "academy", Model: "test-model", Vector: knowVec(0, 0, 0), Limit: 2})
	if err != nil || len(hits) != 2 {
		t.Fatalf("query = %v, %v", hits, err)
	}
	if hits[0].ID != eb.ID || hits[1].ID != ea.ID {
		t.Fatalf("order = %s, %s; want the cited entry first", hits[0].ID, hits[1].ID)
	}
	wantStale := knowledge.FreshnessFloor + (1-knowledge.FreshnessFloor)*0.25*math.Exp2(-1.0/30) // 61 days unused
	if hits[0].Freshness != 1 || math.Abs(hits[1].Freshness-wantStale) > 1e-6 {
		t.Fatalf("freshness = %v and %v, want 1 and %v", hits[0].Freshness, hits[1].Freshness, wantStale)
	}
	rep, err := k.SweepKnowledge(ctx, knowledge.DefaultMergeThreshold)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Aged != 1 || rep.Scanned != 2 || rep.Merged != 0 || rep.Batches != 1 {
		t.Fatalf("sweep report %+v, want 2 scanned, 1 aged, none merged, 1 batch", rep)
	}
	// Endorsing and contributing are uses too.
	knowClock.advance(t, time.Hour)
	if e, err := k.Endorse(ctx, ea.ID, "agent-e"); err != nil || !e.LastUsedAt.Equal(knowClock.now()) {
		t.Fatalf("endorse last_used_at = %v, %v", e.LastUsedAt, err)
	}
	knowClock.advance(t, time.Hour)
	again := b
	again.Agent, again.At = "agent-t", knowClock.now()
	if r := mustContribute(t, k, again); r.Verdict != knowledge.VerdictMerged || !r.Entry.LastUsedAt.Equal(again.At) {
		t.Fatalf("merge last_used_at = %v (%s)", r.Entry.LastUsedAt, r.Verdict)
	}
}

// testKnowOnce: the same handle posting the same finding again is recorded
// but counted once, and so is a near-duplicate from it.
func testKnowOnce(t *testing.T, k *knowledge.Engine) {
	in := knowIn("agent-o", "academy", "Go map order", "Iteration order of Go maps is randomised.", tilted(0.7, 2))
	r1 := mustContribute(t, k, in)
	in.At = in.At.Add(time.Minute)
	r2 := mustContribute(t, k, in)
	near := knowIn("agent-o", "academy", "Go map iteration order", "Map iteration in Go is randomised on purpose.", tilted(0.71, 2))
	r3 := mustContribute(t, k, near)
	if r2.Verdict != knowledge.VerdictMerged || r3.Verdict != knowledge.VerdictMerged || r3.Entry.ID != r1.Entry.ID {
		t.Fatalf("repeat verdicts %s / %s into %s, want merged into %s", r2.Verdict, r3.Verdict, r3.Entry.ID, r1.Entry.ID)
	}
	if r3.Entry.ContributionCount != 1 || r3.Entry.Quality != r1.Entry.Quality {
		t.Fatalf("one agent three times: count %d quality %v, want 1 and %v", r3.Entry.ContributionCount, r3.Entry.Quality, r1.Entry.Quality)
	}
	other := in
	other.Agent = "agent-p"
	if r := mustContribute(t, k, other); r.Entry.ContributionCount != 2 {
		t.Fatalf("a second agent: count %d, want 2", r.Entry.ContributionCount)
	}
	if e := mustEntry(t, k, r1.Entry.ID); len(e.Contributions) != 4 {
		t.Fatalf("%d attributions, want all 4 recorded", len(e.Contributions))
	}
}

// testKnowSweepBatches forces 150 pairs of near-duplicates among 450
// entries (more than one batch survives) while a writer keeps contributing, then checks the sweep collapsed
// every pair into its older half, counted batches and is idempotent.
func testKnowSweepBatches(t *testing.T, k *knowledge.Engine) {
	ctx := context.Background()
	const pairs = 150
	var olds, news []string
	for i := 0; i < pairs; i++ {
		v := spread(i)
		a := knowIn(fmt.Sprintf("agent-%03d", i), "academy", fmt.Sprintf("finding %d", i), fmt.Sprintf("first wording %d", i), v)
		a.Threshold = 1.01
		olds = append(olds, mustContribute(t, k, a).Entry.ID)
	}
	// As many entries again that nothing merges with, so more than one
	// batch's worth survives whatever the first batch absorbs.
	for i := pairs; i < 2*pairs; i++ {
		a := knowIn(fmt.Sprintf("agent-%03d", i), "academy", fmt.Sprintf("finding %d", i), fmt.Sprintf("lone wording %d", i), spread(i))
		a.Threshold = 1.01
		mustContribute(t, k, a)
	}
	for i := 0; i < pairs; i++ {
		v := spread(i)
		v[len(v)-1] += 0.01
		b := knowIn(fmt.Sprintf("twin-%03d", i), "academy", fmt.Sprintf("finding %d again", i), fmt.Sprintf("second wording %d", i), v)
		b.Threshold, b.At = 1.01, b.At.Add(time.Second)
		news = append(news, mustContribute(t, k, b).Entry.ID)
	}
	var wg sync.WaitGroup
	stop := make(chan struct{})
	var writes atomic64
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			// spread has 560 vectors: a writer that outlasts them (a slow
			// sweep on a loaded machine lets it write over 1,200) moves to
			// a new hive, so nothing it writes is a duplicate the sweep
			// would rightly merge (it did: w 1107 into w 547, cosine 1).
			hive := fmt.Sprintf("other-hive-%d", i/560)
			in := knowIn("writer-w", hive, fmt.Sprintf("w %d", i), "written during the sweep", spread(i))
			if _, err := k.Contribute(ctx, in); err != nil {
				t.Errorf("write during sweep: %v", err)
				return
			}
			writes.add()
		}
	}()
	rep, err := k.SweepKnowledge(ctx, knowledge.DefaultMergeThreshold)
	close(stop)
	wg.Wait()
	if err != nil {
		t.Fatal(err)
	}
	if rep.Merged != pairs || rep.Batches < 2 {
		t.Fatalf("sweep report %+v, want %d merged in at least 2 batches", rep, pairs)
	}
	for i := range olds {
		e := mustEntry(t, k, olds[i])
		if e.ContributionCount != 2 {
			t.Fatalf("pair %d kept entry has %d contributors, want 2", i, e.ContributionCount)
		}
		if e := mustEntry(t, k, news[i]); e.ID != olds[i] || e.MergedInto != olds[i] {
			t.Fatalf("pair %d newer entry answers %s merged_into %q, want %s", i, e.ID, e.MergedInto, olds[i])
		}
	}
	again, err := k.SweepKnowledge(ctx, knowledge.DefaultMergeThreshold)
	if err != nil || again.Merged != 0 {
		t.Fatalf("second sweep = %+v, %v; want nothing merged", again, err)
	}
	t.Logf("%d contributions landed while the sweep ran", writes.load())
}

// spread is a unit vector for finding i: the i-th triple of axes, so two
// findings share at most two axes (cosine at most 2/3).
func spread(i int) []float32 {
	n := 0
	for a := 0; a < knowDim; a++ {
		for b := a + 1; b < knowDim; b++ {
			for c := b + 1; c < knowDim; c++ {
				if n == i%560 {
					v := make([]float32, knowDim)
					s := float32(1 / math.Sqrt(3))
					v[a], v[b], v[c] = s, s, s
					return v
				}
				n++
			}
		}
	}
	panic("unreachable")
}

type atomic64 struct {
	mu sync.Mutex
	n  int64
}

func (a *atomic64) add() { a.mu.Lock(); a.n++; a.mu.Unlock() }
func (a *atomic64) load() int64 {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.n
}
