package s3_test

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"pumasi"
	"pumasi/adapters/embed"
	s3store "pumasi/adapters/s3"
	"pumasi/adapters/storagetest"
)

// TestKnowledgeConformance runs the knowledge suite, unchanged, against a
// real MinIO; every store gets its own prefix.
func TestKnowledgeConformance(t *testing.T) {
	storagetest.RunKnowledge(t, func(t *testing.T) pumasi.KnowledgeStore { return newEnv(t).open(t, s3store.Options{}) })
}

// keys lists the object keys under prefix in the env's bucket, with sizes.
func (e env) keys(t *testing.T, under string) map[string]int64 {
	t.Helper()
	out := map[string]int64{}
	p := s3.NewListObjectsV2Paginator(e.srv.Client(), &s3.ListObjectsV2Input{
		Bucket: aws.String(e.bucket), Prefix: aws.String(e.prefix + "/" + under),
	})
	for p.HasMorePages() {
		page, err := p.NextPage(context.Background())
		if err != nil {
			t.Fatalf("list %s: %v", under, err)
		}
		for _, o := range page.Contents {
			out[strings.TrimPrefix(aws.ToString(o.Key), e.prefix+"/")] = aws.ToInt64(o.Size)
		}
	}
	return out
}

func hashedIn(t *testing.T, agent, title, content string) pumasi.ContributeInput {
	t.Helper()
	h := embed.NewHashed(0)
	vecs, err := h.Embed(context.Background(), []string{pumasi.EmbeddingText(title, content)})
	if err != nil {
		t.Fatal(err)
	}
	return pumasi.ContributeInput{Hive: "academy", Agent: agent, Title: title, Content: content, Tags: []string{},
		NormHash: pumasi.KnowledgeHash(title, content), Model: h.Model(), Vector: vecs[0], Specificity: 0.8,
		Threshold: pumasi.DefaultMergeThreshold, At: time.Now()}
}

// TestKnowledgeFiftyRacersTwoStores: two Stores (two processes' worth of
// state: caches, views) on one bucket, 50 goroutines split between them
// contributing the same finding → one entry, contribution_count 50, 50
// attributions, and no unindexed entry object left behind.
func TestKnowledgeFiftyRacersTwoStores(t *testing.T) {
	e := newEnv(t)
	a, b := e.open(t, s3store.Options{}), e.open(t, s3store.Options{})
	const n = 50
	title := "MinIO honours If-Match on PutObject"
	content := "Conditional writes (`If-Match: <etag>`, `If-None-Match: *`) answer 412 on MinIO RELEASE.2024-11 and later; retry with jitter."
	results := make([]pumasi.ContributeResult, n)
	errs := make([]error, n)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range n {
		st := a
		if i%2 == 1 {
			st = b
		}
		in := hashedIn(t, fmt.Sprintf("agent-%02d", i), title, content)
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			results[i], errs[i] = st.Contribute(context.Background(), in)
		}()
	}
	began := time.Now()
	close(start)
	wg.Wait()
	took := time.Since(began)
	ids := map[string]bool{}
	accepted := 0
	for i := range n {
		if errs[i] != nil {
			t.Fatalf("racer %d: %v", i, errs[i])
		}
		ids[results[i].Entry.ID] = true
		if results[i].Verdict == pumasi.VerdictAccepted {
			accepted++
		}
	}
	if len(ids) != 1 || accepted != 1 {
		t.Fatalf("%d racers made %d entries with %d accepted, want 1 and 1", n, len(ids), accepted)
	}
	var id string
	for k := range ids {
		id = k
	}
	for _, st := range []*s3store.Store{a, b} {
		got, err := st.GetEntry(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		agents := map[string]bool{}
		for _, c := range got.Contributions {
			agents[c.Agent] = true
		}
		if got.ContributionCount != n || len(got.Contributions) != n || len(agents) != n {
			t.Fatalf("contribution_count %d, %d attributions from %d agents; want %d each", got.ContributionCount, len(got.Contributions), len(agents), n)
		}
		in := hashedIn(t, "probe-agent", title, content)
		hits, err := st.Query(context.Background(), pumasi.QueryInput{Hive: "academy", Model: in.Model, Vector: in.Vector, Limit: 50})
		if err != nil || len(hits) != 1 || hits[0].ID != id || hits[0].ContributionCount != n {
			t.Fatalf("query = %+v, %v; want the one entry with count %d", hits, err, n)
		}
	}
	if objs := e.keys(t, "knowledge/entries/"); len(objs) != 1 {
		t.Fatalf("%d entry objects in the bucket, want 1 (losers delete theirs): %v", len(objs), objs)
	}
	t.Logf("50 racers over 2 stores: %v, %d CAS conflicts retried (a %d, b %d), worst single write lost %d times",
		took.Round(time.Millisecond), a.Conflicts()+b.Conflicts(), a.Conflicts(), b.Conflicts(), max(s3store.MaxLosses(a), s3store.MaxLosses(b)))
}

// randVec returns a random unit-free gaussian vector of dim components.
func randVec(r *rand.Rand, dim int) []float32 {
	v := make([]float32, dim)
	for i := range v {
		v[i] = float32(r.NormFloat64())
	}
	return v
}

// TestKnowledgeIndexSegments fills one hive past two index tails, so the
// head seals segments, then checks from a cold Store that every entry is
// still found by exact hash and by similarity, that the float16 vectors
// keep cosines within 1e-3 of float32, and that the head stays small.
func TestKnowledgeIndexSegments(t *testing.T) {
	e := newEnv(t)
	a := e.open(t, s3store.Options{})
	ctx := context.Background()
	r := rand.New(rand.NewPCG(7, 11))
	const n, dim = 300, 512
	vecs := make([][]float32, n)
	ids := make([]string, n)
	began := time.Now()
	for i := range n {
		vecs[i] = randVec(r, dim)
		in := pumasi.ContributeInput{Hive: "academy", Agent: "filler-agent", Title: fmt.Sprintf("finding %03d", i),
			Content: fmt.Sprintf("content %03d", i), NormHash: pumasi.KnowledgeHash(fmt.Sprintf("finding %03d", i), fmt.Sprintf("content %03d", i)),
			Model: "m512", Vector: vecs[i], Specificity: 0.7, Threshold: pumasi.DefaultMergeThreshold, At: time.Now()}
		res, err := a.Contribute(ctx, in)
		if err != nil {
			t.Fatal(err)
		}
		if res.Verdict != pumasi.VerdictAccepted {
			t.Fatalf("random vector %d merged into %s at %v", i, res.Entry.ID, res.Similarity)
		}
		ids[i] = res.Entry.ID
	}
	fill := time.Since(began)
	segs := e.keys(t, "knowledge/hives/academy/segments/")
	if len(segs) != 2 {
		t.Fatalf("%d segments after %d entries, want 2 (tails of 128 sealed): %v", len(segs), n, segs)
	}
	head := e.keys(t, "knowledge/hives/academy/index.json")["knowledge/hives/academy/index.json"]
	if head == 0 || head > 250_000 {
		t.Fatalf("index head is %d bytes, want a tail of at most 128 records (< 250 KB)", head)
	}

	cold := e.open(t, s3store.Options{})
	maxErr := 0.0
	for _, i := range []int{0, 127, 128, 200, 256, 299} {
		// Exact duplicate, found in a segment or the tail: merged into it.
		in := pumasi.ContributeInput{Hive: "academy", Agent: "dup-agent", Title: fmt.Sprintf("FINDING  %03d", i),
			Content: fmt.Sprintf("Content %03d", i), NormHash: pumasi.KnowledgeHash(fmt.Sprintf("FINDING  %03d", i), fmt.Sprintf("Content %03d", i)),
			Model: "m512", Vector: randVec(r, dim), Specificity: 0.7, Threshold: pumasi.DefaultMergeThreshold}
		res, err := cold.Contribute(ctx, in)
		if err != nil || res.Verdict != pumasi.VerdictMerged || res.Entry.ID != ids[i] || res.Entry.ContributionCount != 2 {
			t.Fatalf("exact duplicate of %d = %+v, %v; want merged into %s with count 2", i, res, err, ids[i])
		}
		// A near duplicate (noise of 0.2σ, cosine ≈ 0.98): merged, with the
		// float32 cosine reproduced from the float16 index.
		near := make([]float32, dim)
		for j := range near {
			near[j] = vecs[i][j] + 0.2*float32(r.NormFloat64())
		}
		want := pumasi.Cosine(vecs[i], near)
		in.Title, in.Content = fmt.Sprintf("near %03d", i), "reworded"
		in.NormHash, in.Vector = pumasi.KnowledgeHash(in.Title, in.Content), near
		res, err = cold.Contribute(ctx, in)
		if err != nil || res.Verdict != pumasi.VerdictMerged || res.Entry.ID != ids[i] {
			t.Fatalf("near duplicate of %d (cos %.4f) = %+v, %v", i, want, res, err)
		}
		maxErr = max(maxErr, math.Abs(res.Similarity-want))
		hits, err := cold.Query(ctx, pumasi.QueryInput{Hive: "academy", Model: "m512", Vector: vecs[i], Limit: 1})
		if err != nil || len(hits) != 1 || hits[0].ID != ids[i] {
			t.Fatalf("query for %d = %+v, %v", i, hits, err)
		}
		maxErr = max(maxErr, math.Abs(hits[0].Similarity-1))
	}
	if maxErr > 1e-3 {
		t.Fatalf("float16 index moved a cosine by %.5f, want < 1e-3", maxErr)
	}
	t.Logf("%d entries of %d dims in %v (%.0f/s sequential); head %d bytes, %d segments %v; worst cosine error %.6f",
		n, dim, fill.Round(time.Millisecond), float64(n)/fill.Seconds(), head, len(segs), segs, maxErr)
}

// TestKnowledgeConcurrentSweeps runs the sweep from two Stores at once over
// a forced near-duplicate pair: the counts are summed once, one entry
// remains, and a third sweep finds nothing.
func TestKnowledgeConcurrentSweeps(t *testing.T) {
	e := newEnv(t)
	a, b := e.open(t, s3store.Options{}), e.open(t, s3store.Options{})
	ctx := context.Background()
	r := rand.New(rand.NewPCG(3, 5))
	base := randVec(r, 64)
	mk := func(st *s3store.Store, agent, title string, noise float32, at time.Time) pumasi.ContributeResult {
		v := make([]float32, len(base))
		for i := range v {
			v[i] = base[i] + noise*float32(r.NormFloat64())
		}
		in := pumasi.ContributeInput{Hive: "academy", Agent: agent, Title: title, Content: title + " content",
			NormHash: pumasi.KnowledgeHash(title, title+" content"), Model: "m64", Vector: v, Specificity: 0.7,
			Threshold: 1.01, At: at}
		res, err := st.Contribute(ctx, in)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	t0 := time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)
	older := mk(a, "agent-one", "older wording", 0.05, t0)
	newer := mk(b, "agent-two", "newer wording", 0.05, t0.Add(time.Minute))
	mk(b, "agent-three", "newer wording", 0.05, t0.Add(2*time.Minute)) // exact: merged into newer
	if older.Entry.ID == newer.Entry.ID {
		t.Fatal("forced race made one entry")
	}
	for range 3 {
		if _, err := a.Cite(ctx, newer.Entry.ID, "citer-one"); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := b.Endorse(ctx, newer.Entry.ID, "fan-one"); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Endorse(ctx, older.Entry.ID, "fan-one"); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	reps := make([]pumasi.KnowledgeSweepReport, 2)
	errs := make([]error, 2)
	for i, st := range []*s3store.Store{a, b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			reps[i], errs[i] = st.SweepKnowledge(ctx, pumasi.DefaultMergeThreshold)
		}()
	}
	wg.Wait()
	for i := range errs {
		if errs[i] != nil {
			t.Fatalf("sweep %d: %v", i, errs[i])
		}
	}
	kept, err := a.GetEntry(ctx, older.Entry.ID)
	if err != nil {
		t.Fatal(err)
	}
	if kept.ContributionCount != 3 || len(kept.Contributions) != 3 || kept.CitationCount != 3 || kept.EndorsementCount != 1 {
		t.Fatalf("kept after two concurrent sweeps: contributions %d (%d attributions), citations %d, endorsements %d; want 3, 3, 3, 1",
			kept.ContributionCount, len(kept.Contributions), kept.CitationCount, kept.EndorsementCount)
	}
	if _, err := b.GetEntry(ctx, newer.Entry.ID); pumasi.ErrorCode(err) != pumasi.ENotFound {
		t.Fatalf("absorbed entry = %v, want not_found", err)
	}
	if objs := e.keys(t, "knowledge/entries/"); len(objs) != 1 {
		t.Fatalf("%d entry objects remain, want 1", len(objs))
	}
	rep, err := b.SweepKnowledge(ctx, pumasi.DefaultMergeThreshold)
	if err != nil || rep.Merged != 0 {
		t.Fatalf("third sweep = %+v, %v; want nothing merged", rep, err)
	}
	t.Logf("concurrent sweeps reported %+v and %+v", reps[0], reps[1])
}

// TestKnowledgeSweepCollectsOrphans: an entry object whose writer died
// before indexing it is invisible, kept while young (a contribution may be in
// flight) and removed by the sweep once older than an hour.
func TestKnowledgeSweepCollectsOrphans(t *testing.T) {
	e := newEnv(t)
	a := e.open(t, s3store.Options{})
	ctx := context.Background()
	kept, err := a.Contribute(ctx, hashedIn(t, "agent-one", "Indexed entry", "`go test -count=1` disables the test cache."))
	if err != nil {
		t.Fatal(err)
	}
	orphan := "0b7e2f4a-1111-4c2d-9e3f-5a6b7c8d9e0f"
	e.putRaw(t, "knowledge/entries/"+orphan+".json",
		[]byte(`{"entry":{"id":"`+orphan+`","hive":"academy","title":"t","content":"c","contribution_count":1},"model":"m","norm_hash":"x","contributions":[]}`))
	if _, err := a.SweepKnowledge(ctx, pumasi.DefaultMergeThreshold); err != nil {
		t.Fatal(err)
	}
	if objs := e.keys(t, "knowledge/entries/"); len(objs) != 2 {
		t.Fatalf("young orphan removed: %v", objs)
	}
	later := e.open(t, s3store.Options{Now: func() time.Time { return time.Now().Add(2 * time.Hour) }})
	if _, err := later.SweepKnowledge(ctx, pumasi.DefaultMergeThreshold); err != nil {
		t.Fatal(err)
	}
	objs := e.keys(t, "knowledge/entries/")
	if _, ok := objs["knowledge/entries/"+kept.Entry.ID+".json"]; len(objs) != 1 || !ok {
		t.Fatalf("after the late sweep the entry objects are %v, want only %s", objs, kept.Entry.ID)
	}
	if got, err := later.GetEntry(ctx, kept.Entry.ID); err != nil || got.ContributionCount != 1 {
		t.Fatalf("indexed entry after sweep = %+v, %v", got, err)
	}
}

// TestKnowledgeSweepResumesAfterCrash: a sweep that died right after
// freezing the newer entry (merged_into set, nothing moved) leaves writes
// redirected to the keeper, and the next sweep finishes the job exactly once.
func TestKnowledgeSweepResumesAfterCrash(t *testing.T) {
	e := newEnv(t)
	a := e.open(t, s3store.Options{})
	ctx := context.Background()
	vec := func(tilt float32) []float32 {
		v := make([]float32, 16)
		v[0], v[1] = 1, tilt
		return v
	}
	in := func(agent, title string, v []float32, at time.Time) pumasi.ContributeInput {
		return pumasi.ContributeInput{Hive: "academy", Agent: agent, Title: title, Content: title + "!",
			NormHash: pumasi.KnowledgeHash(title, title+"!"), Model: "m16", Vector: v, Specificity: 0.7, Threshold: 1.01, At: at}
	}
	t0 := time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)
	older, err := a.Contribute(ctx, in("agent-one", "older", vec(0), t0))
	if err != nil {
		t.Fatal(err)
	}
	newer, err := a.Contribute(ctx, in("agent-two", "newer", vec(0.05), t0.Add(time.Minute)))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Cite(ctx, newer.Entry.ID, "citer-one"); err != nil {
		t.Fatal(err)
	}
	// The crash: newer frozen toward older, nothing else done.
	key := "knowledge/entries/" + newer.Entry.ID + ".json"
	body := e.getRaw(t, key)
	body = bytes.Replace(body, []byte(`"merged_into"`), []byte(`"ignored"`), 1)
	body = append(body[:len(body)-1], []byte(`,"merged_into":"`+older.Entry.ID+`"}`)...)
	e.putRaw(t, key, body)

	// A fresh process: writes to the frozen entry land on the keeper.
	b := e.open(t, s3store.Options{})
	if _, err := b.GetEntry(ctx, newer.Entry.ID); pumasi.ErrorCode(err) != pumasi.ENotFound {
		t.Fatalf("frozen entry readable: %v", err)
	}
	if got, err := b.Cite(ctx, newer.Entry.ID, "citer-two"); err != nil || got.ID != older.Entry.ID || got.CitationCount != 1 {
		t.Fatalf("cite of the frozen entry = %+v, %v; want it on the keeper", got, err)
	}
	if r, err := b.Contribute(ctx, in("agent-three", "newer", vec(0.05), t0.Add(2*time.Minute))); err != nil ||
		r.Verdict != pumasi.VerdictMerged || r.Entry.ID != older.Entry.ID || r.Entry.ContributionCount != 2 {
		t.Fatalf("exact duplicate of the frozen entry = %+v, %v; want merged into the keeper", r, err)
	}
	for range 2 {
		if _, err := b.SweepKnowledge(ctx, pumasi.DefaultMergeThreshold); err != nil {
			t.Fatal(err)
		}
	}
	got, err := a.GetEntry(ctx, older.Entry.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.ContributionCount != 3 || len(got.Contributions) != 3 || got.CitationCount != 2 {
		t.Fatalf("keeper after the resumed sweep: contributions %d (%d attributions), citations %d; want 3, 3, 2",
			got.ContributionCount, len(got.Contributions), got.CitationCount)
	}
	if objs := e.keys(t, "knowledge/entries/"); len(objs) != 1 {
		t.Fatalf("entry objects after the sweep: %v, want the keeper only", objs)
	}
}

// TestKnowledgeDistinctRacersLoseNothing: 100 different findings contributed
// at once through two Stores all serialise on the hive's index head; every
// one must end up indexed (found by a cold Store) and none merged.
func TestKnowledgeDistinctRacersLoseNothing(t *testing.T) {
	e := newEnv(t)
	a, b := e.open(t, s3store.Options{}), e.open(t, s3store.Options{})
	ctx := context.Background()
	const n, dim = 100, 512
	r := rand.New(rand.NewPCG(1, 2))
	ins := make([]pumasi.ContributeInput, n)
	for i := range ins {
		title, content := fmt.Sprintf("distinct %03d", i), fmt.Sprintf("body %03d", i)
		ins[i] = pumasi.ContributeInput{Hive: "academy", Agent: fmt.Sprintf("agent-%03d", i), Title: title, Content: content,
			NormHash: pumasi.KnowledgeHash(title, content), Model: "m512", Vector: randVec(r, dim), Specificity: 0.7,
			Threshold: pumasi.DefaultMergeThreshold, At: time.Now()}
	}
	results := make([]pumasi.ContributeResult, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	began := time.Now()
	for i := range n {
		st := a
		if i%2 == 1 {
			st = b
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i], errs[i] = st.Contribute(ctx, ins[i])
		}()
	}
	wg.Wait()
	took := time.Since(began)
	ids := map[string]bool{}
	for i := range n {
		if errs[i] != nil {
			t.Fatalf("contributor %d: %v", i, errs[i])
		}
		if results[i].Verdict != pumasi.VerdictAccepted {
			t.Fatalf("contributor %d: %s into %s, want accepted", i, results[i].Verdict, results[i].Entry.ID)
		}
		ids[results[i].Entry.ID] = true
	}
	if len(ids) != n {
		t.Fatalf("%d distinct ids for %d accepted findings", len(ids), n)
	}
	cold := e.open(t, s3store.Options{})
	for i := range n {
		hits, err := cold.Query(ctx, pumasi.QueryInput{Hive: "academy", Model: "m512", Vector: ins[i].Vector, Limit: 1})
		if err != nil || len(hits) != 1 || hits[0].ID != results[i].Entry.ID {
			t.Fatalf("finding %d not found by a cold store: %+v, %v", i, hits, err)
		}
	}
	if objs := e.keys(t, "knowledge/entries/"); len(objs) != n {
		t.Fatalf("%d entry objects, want %d (losers of a head race re-insert, they do not duplicate)", len(objs), n)
	}
	t.Logf("%d distinct findings at once over 2 stores: %v (%.0f/s), %d index conflicts retried, worst insert lost %d times",
		n, took.Round(time.Millisecond), float64(n)/took.Seconds(), a.Conflicts()+b.Conflicts(), max(s3store.MaxLosses(a), s3store.MaxLosses(b)))
}
