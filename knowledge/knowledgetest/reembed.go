package knowledgetest

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"pumasi"
	"pumasi/knowledge"
)

// RunReembedder is the conformance suite of a knowledge.Reembedder:
// after a deployment changes its embedder, Knowledge.Reembed must leave
// every entry under the new model, found by vector search and dedup under
// it (and no longer under the old one) by every process at once, compared
// again by the next sweep, and the job must tolerate entries absorbed
// under it and contributions racing it. A backend runs it with one line:
//
//	knowledgetest.RunReembedder(t, func(t *testing.T) func(t *testing.T) knowledge.Driver { ... })
//
// newBackend makes a fresh, empty backend and returns open, which opens a
// driver over it: each call is another process's (its own pool, its own
// index), all sharing the backend's entries. open's drivers must implement
// knowledge.Reembedder and are closed with t.Cleanup. The old model
// has 8 dimensions and the new one 16, so a backend that indexes per
// dimension must move entries between indexes.
func RunReembedder(t *testing.T, newBackend func(t *testing.T) func(t *testing.T) knowledge.Driver) {
	t.Run("FoundUnderTheNewModelOnly", func(t *testing.T) { testReembedFound(t, newBackend(t)) })
	t.Run("AbsorbedMeanwhileIsSkipped", func(t *testing.T) { testReembedAbsorbed(t, newBackend(t)) })
	t.Run("SweepComparesReembeddedEntries", func(t *testing.T) { testReembedSweep(t, newBackend(t)) })
	t.Run("ReembedWhileAnotherContributes", func(t *testing.T) { testReembedRace(t, newBackend(t)) })
}

const (
	reOld, reNew       = "reembed-old-model", "reembed-new-model"
	reOldDim, reNewDim = 8, 16
	reHive             = "reembed"
)

// reFixture holds the suite's findings and the vectors both "embedders"
// give them: the new embedder is a table from embedding text to vector, so
// a test can tell which vector each entry must end with.
type reFixture struct {
	mu     sync.Mutex
	rng    *rand.Rand
	newVec map[string][]float32
	calls  int // texts the new embedder was asked for
}

func newReFixture(seed uint64) *reFixture {
	return &reFixture{rng: rand.New(rand.NewPCG(seed, 7)), newVec: map[string][]float32{}}
}

// unit is a random unit vector of dims dimensions.
func (f *reFixture) unit(dims int) []float32 {
	f.mu.Lock()
	defer f.mu.Unlock()
	v := make([]float32, dims)
	var n float64
	for i := range v {
		x := f.rng.NormFloat64()
		v[i] = float32(x)
		n += x * x
	}
	for i := range v {
		v[i] /= float32(math.Sqrt(n))
	}
	return v
}

// finding makes the i-th finding of tag under model (8 dimensions for the
// old one, 16 for the new), and records the vector the new embedder gives
// its text. Threshold 1.01: each lands as its own entry.
func (f *reFixture) finding(tag string, i int, model, agent string) knowledge.ContributeInput {
	title := fmt.Sprintf("%s finding %d about pgbouncer prepared statements", tag, i)
	content := fmt.Sprintf("Case %s-%d: set `prepare_threshold=%d` behind pgbouncer transaction pooling.", tag, i, i)
	nv := f.unit(reNewDim)
	f.mu.Lock()
	f.newVec[knowledge.EmbeddingText(title, content)] = nv
	f.mu.Unlock()
	v := nv
	if model == reOld {
		v = f.unit(reOldDim)
	}
	return knowledge.ContributeInput{Hive: reHive, Agent: agent, Title: title, Content: content, Tags: []string{"postgres"},
		NormHash: knowledge.Hash(title, content), Model: model, Vector: v, Specificity: 0.8, Threshold: 1.01}
}

// vecOf is the new embedder's vector for in's text.
func (f *reFixture) vecOf(in knowledge.ContributeInput) []float32 {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.newVec[knowledge.EmbeddingText(in.Title, in.Content)]
}

// embed is the new embedder.
func (f *reFixture) embed(_ context.Context, texts []string) ([][]float32, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := make([][]float32, len(texts))
	for i, s := range texts {
		v, ok := f.newVec[s]
		if !ok {
			return nil, fmt.Errorf("no vector for %q", s)
		}
		out[i] = v
	}
	f.calls += len(texts)
	return out, nil
}

func (f *reFixture) embedded() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.calls
}

func reEngine(d knowledge.Driver) *knowledge.Engine {
	return knowledge.New(d, knowledge.Options{Now: knowClock.now})
}

// reSeed contributes n findings under the old model and returns them with
// their entry ids.
func reSeed(t *testing.T, s *knowledge.Engine, f *reFixture, tag string, n int) ([]knowledge.ContributeInput, []string) {
	t.Helper()
	var ins []knowledge.ContributeInput
	var ids []string
	for i := range n {
		in := f.finding(tag, i, reOld, "old-agent")
		r := mustContribute(t, s, in)
		if r.Verdict != knowledge.VerdictAccepted {
			t.Fatalf("seed %d: %s, want accepted", i, r.Verdict)
		}
		ins, ids = append(ins, in), append(ids, r.Entry.ID)
	}
	return ins, ids
}

// nearestIs checks that d's vector index answers id first for v under model.
func nearestIs(t *testing.T, d knowledge.Driver, model string, v []float32, id string) {
	t.Helper()
	got, err := d.Nearest(context.Background(), reHive, model, v, 1)
	if err != nil || len(got) != 1 || got[0] != id {
		t.Fatalf("Nearest under %s = %v, %v; want [%s]", model, got, err, id)
	}
}

// testReembedFound: entries found under the old model before, under the
// new one only after, by another process's driver too; exact and near
// dedup under the new model merge into them; a second run does nothing.
func testReembedFound(t *testing.T, open func(t *testing.T) knowledge.Driver) {
	ctx := context.Background()
	d1 := open(t)
	s1 := reEngine(d1)
	f := newReFixture(1)
	const n = 70 // more than one of Reembed's batches
	ins, ids := reSeed(t, s1, f, "found", n)
	nearestIs(t, d1, reOld, ins[7].Vector, ids[7])

	got, err := s1.Reembed(ctx, reNew, f.embed)
	if err != nil || got != n {
		t.Fatalf("Reembed = %d, %v; want %d", got, err, n)
	}
	calls := f.embedded()
	if got, err := s1.Reembed(ctx, reNew, f.embed); err != nil || got != 0 || f.embedded() != calls {
		t.Fatalf("second Reembed = %d, %v (%d texts embedded again); want nothing to do", got, err, f.embedded()-calls)
	}

	d2 := open(t) // another process, which saw the entries under the old model
	ents, err := d2.Entries(ctx, ids)
	if err != nil || len(ents) != n {
		t.Fatalf("Entries = %d, %v; want %d", len(ents), err, n)
	}
	for i, id := range ids {
		e := ents[id]
		if e.Model != reNew || !sameVec(e.Vector, f.vecOf(ins[i])) {
			t.Fatalf("entry %d: model %s, %d dimensions; want %s and its new vector", i, e.Model, len(e.Vector), reNew)
		}
	}
	for _, d := range []knowledge.Driver{d1, d2} {
		for _, i := range []int{0, 7, 63, 64, 69} {
			nearestIs(t, d, reNew, f.vecOf(ins[i]), ids[i])
		}
		if old, err := d.Nearest(ctx, reHive, reOld, ins[7].Vector, 5); err != nil || len(old) != 0 {
			t.Fatalf("Nearest under the old model = %v, %v; want none left", old, err)
		}
	}
	s2 := reEngine(d2)
	hits, err := s2.Query(ctx, knowledge.QueryInput{Hive: reHive, Text: ins[9].Title, Model: reNew, Vector: f.vecOf(ins[9]), Limit: 3})
	if err != nil || len(hits) == 0 || hits[0].ID != ids[9] || hits[0].Similarity < 0.99 {
		t.Fatalf("query by the new vector = %v, %v; want entry 9 at similarity 1", first(hits), err)
	}
	lex, err := d2.Match(ctx, reHive, []knowledge.Term{{Text: "pgbouncer"}}, 100)
	if err != nil || len(lex) != 1 || len(lex[0]) != n {
		t.Fatalf("Match = %v, %v; want all %d", lex, err, n)
	}

	exact := ins[3]
	exact.Agent, exact.Model, exact.Vector = "new-agent", reNew, f.vecOf(ins[3])
	if r := mustContribute(t, s2, exact); r.Verdict != knowledge.VerdictMerged || r.Entry.ID != ids[3] || r.Entry.ContributionCount != 2 {
		t.Fatalf("exact repeat under the new model = %s into %s (%d contributors); want merged into %s, 2",
			r.Verdict, r.Entry.ID, r.Entry.ContributionCount, ids[3])
	}
	near := knowledge.ContributeInput{Hive: reHive, Agent: "new-agent", Title: "pgbouncer transaction pooling breaks prepared statements",
		Content: "Behind pgbouncer in transaction mode, set `prepare_threshold=5` or prepared statements fail.",
		Model:   reNew, Vector: tilt(f.vecOf(ins[5]), f.vecOf(ins[6]), 0.1), Specificity: 0.8, Threshold: 0.95}
	near.NormHash = knowledge.Hash(near.Title, near.Content)
	if r := mustContribute(t, s2, near); r.Verdict != knowledge.VerdictMerged || r.Entry.ID != ids[5] || r.Similarity <= 0.95 {
		t.Fatalf("near duplicate under the new model = %s into %s at %.3f; want merged into %s", r.Verdict, r.Entry.ID, r.Similarity, ids[5])
	}
}

// tilt is a unit vector near a, moved toward b by w.
func tilt(a, b []float32, w float32) []float32 {
	v := make([]float32, len(a))
	var n float64
	for i := range a {
		v[i] = a[i] + w*b[i]
		n += float64(v[i]) * float64(v[i])
	}
	for i := range v {
		v[i] /= float32(math.Sqrt(n))
	}
	return v
}

func sameVec(a, b []float32) bool {
	if len(a) != len(b) || len(a) == 0 {
		return false
	}
	for i := range a {
		if math.Abs(float64(a[i]-b[i])) > 1e-6 {
			return false
		}
	}
	return true
}

// absorbingReembedder absorbs the second entry of the first batch it
// lists into the first, before Reembed stores their vectors: a sweep in
// another process doing its work meanwhile.
type absorbingReembedder struct {
	knowledge.Driver
	r    knowledge.Reembedder
	gone string
}

func (d *absorbingReembedder) OtherModel(ctx context.Context, model string, limit int) ([]knowledge.StoredEntry, error) {
	es, err := d.r.OtherModel(ctx, model, limit)
	if err == nil && d.gone == "" && len(es) >= 2 {
		d.gone = es[1].ID
		err = d.Absorb(ctx, knowledge.Merge{EntryID: es[1].ID, MergedInto: es[0].ID, At: knowClock.now(), Similarity: 0.99, Via: knowledge.MergeViaSweep})
	}
	return es, err
}

func (d *absorbingReembedder) SetVector(ctx context.Context, id, model string, v []float32) error {
	return d.r.SetVector(ctx, id, model, v)
}

// testReembedAbsorbed: an entry absorbed between the listing and its new
// vector is skipped without error; SetVector on it answers not_found.
func testReembedAbsorbed(t *testing.T, open func(t *testing.T) knowledge.Driver) {
	ctx := context.Background()
	d := open(t)
	r, ok := d.(knowledge.Reembedder)
	if !ok {
		t.Fatalf("%T is not a knowledge.Reembedder", d)
	}
	f := newReFixture(2)
	ins, ids := reSeed(t, reEngine(d), f, "absorbed", 5)
	ad := &absorbingReembedder{Driver: d, r: r}
	if _, err := reEngine(ad).Reembed(ctx, reNew, f.embed); err != nil {
		t.Fatalf("Reembed with an entry absorbed under it: %v", err)
	}
	if ad.gone != ids[1] {
		t.Fatalf("absorbed %q, want the second entry %s (OtherModel not oldest first?)", ad.gone, ids[1])
	}
	if err := r.SetVector(ctx, ids[1], reNew, f.vecOf(ins[1])); pumasi.ErrorCode(err) != pumasi.ENotFound {
		t.Fatalf("SetVector on the absorbed entry = %v, want not_found", err)
	}
	ents, err := d.Entries(ctx, ids)
	if err != nil || len(ents) != 4 {
		t.Fatalf("Entries = %d, %v; want the 4 not absorbed", len(ents), err)
	}
	for i, id := range ids {
		if e, ok := ents[id]; ok && (e.Model != reNew || !sameVec(e.Vector, f.vecOf(ins[i]))) {
			t.Fatalf("entry %d still under %s", i, e.Model)
		}
	}
	if e := ents[ids[0]]; e.ContributionCount != 1 || len(mustContributions(t, d, ids[0])) != 2 {
		t.Fatalf("the absorbing entry has %d contributors, want the absorbed one's contribution moved to it", e.ContributionCount)
	}
	if n, err := reEngine(d).Reembed(ctx, reNew, f.embed); err != nil || n != 0 {
		t.Fatalf("second Reembed = %d, %v; want nothing left", n, err)
	}
}

func mustContributions(t *testing.T, d knowledge.Driver, id string) []knowledge.Contribution {
	t.Helper()
	cs, err := d.Contributions(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

// testReembedSweep: two entries far apart under the old model but twins
// under the new one, already swept past, are compared by the next sweep
// once embedded again, and the younger folds into the older.
func testReembedSweep(t *testing.T, open func(t *testing.T) knowledge.Driver) {
	ctx := context.Background()
	s := reEngine(open(t))
	f := newReFixture(3)
	a := f.finding("sweep", 1, reOld, "agent-a")
	b := f.finding("sweep", 2, reOld, "agent-b")
	a.Vector, b.Vector = knowVec(0, 1, 0)[:reOldDim], knowVec(4, 5, 0)[:reOldDim] // orthogonal
	a.At, b.At = knowT0.Add(-2*time.Hour), knowT0.Add(-time.Hour)
	f.newVec[knowledge.EmbeddingText(b.Title, b.Content)] = tilt(f.vecOf(a), f.unit(reNewDim), 0.05)
	ra, rb := mustContribute(t, s, a), mustContribute(t, s, b)
	if rep, err := s.SweepKnowledge(ctx, 0.95); err != nil || rep.Merged != 0 {
		t.Fatalf("sweep under the old model = %+v, %v; want nothing merged", rep, err)
	}
	if n, err := s.Reembed(ctx, reNew, f.embed); err != nil || n != 2 {
		t.Fatalf("Reembed = %d, %v; want 2", n, err)
	}
	rep, err := s.SweepKnowledge(ctx, 0.95)
	if err != nil || rep.Merged != 1 {
		t.Fatalf("sweep after Reembed = %+v, %v; want the twins merged (the re-embedded entries were not revisited)", rep, err)
	}
	if e := mustEntry(t, s, ra.Entry.ID); e.ContributionCount != 2 {
		t.Fatalf("kept entry has %d contributors, want 2", e.ContributionCount)
	}
	if e := mustEntry(t, s, rb.Entry.ID); e.ID != ra.Entry.ID || e.MergedInto != ra.Entry.ID {
		t.Fatalf("younger twin answers %s merged_into %q, want the kept %s", e.ID, e.MergedInto, ra.Entry.ID)
	}
}

// testReembedRace: one process embeds again while another contributes new
// findings under the new model, exact repeats of old ones, and a few
// findings under the old model (a process not yet upgraded), and sweeps.
// Nothing fails, and once a second Reembed has picked up the stragglers
// every entry holds the new vector of its own text.
func testReembedRace(t *testing.T, open func(t *testing.T) knowledge.Driver) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	d1, d2 := open(t), open(t)
	s1, s2 := reEngine(d1), reEngine(d2)
	f := newReFixture(4)
	const seeded, fresh, lagging, repeats = 100, 30, 10, 20
	ins, ids := reSeed(t, s1, f, "race", seeded)

	// The other process's writes, in order: every third an exact repeat of
	// a seeded finding, then one in six of the rest under the old model.
	type write struct {
		in     knowledge.ContributeInput
		repeat string // the seeded entry an exact repeat must merge into
	}
	var writes []write
	var added []knowledge.ContributeInput
	for i := range fresh + lagging + repeats {
		switch {
		case i%3 == 2:
			j := (i / 3) * 5 % seeded
			in := ins[j]
			in.Agent, in.Model, in.Vector = "late-agent", reNew, f.vecOf(in)
			writes = append(writes, write{in: in, repeat: ids[j]})
			continue
		case i%6 == 1:
			writes = append(writes, write{in: f.finding("lagging", i, reOld, "old-agent")})
		default:
			writes = append(writes, write{in: f.finding("fresh", i, reNew, "new-agent")})
		}
		added = append(added, writes[len(writes)-1].in)
	}

	var wg sync.WaitGroup
	errs := make(chan error, 2)
	reembedded := 0
	wg.Add(2)
	go func() {
		defer wg.Done()
		n, err := s1.Reembed(ctx, reNew, f.embed)
		reembedded = n
		if err != nil {
			errs <- fmt.Errorf("Reembed: %w", err)
		}
	}()
	go func() {
		defer wg.Done()
		for i, w := range writes {
			r, err := s2.Contribute(ctx, w.in)
			if err != nil {
				errs <- fmt.Errorf("contribution %d: %w", i, err)
				return
			}
			if w.repeat != "" && (r.Verdict != knowledge.VerdictMerged || r.Entry.ID != w.repeat) {
				errs <- fmt.Errorf("exact repeat %d: %s into %s, want merged into %s", i, r.Verdict, r.Entry.ID, w.repeat)
				return
			}
		}
	}()
	stop := make(chan struct{})
	swept := make(chan error, 1)
	go func() { // a sweep that merges nothing, walking seqs beside the writers
		for {
			if _, err := s2.SweepKnowledge(ctx, 1.01); err != nil {
				swept <- err
				return
			}
			select {
			case <-stop:
				swept <- nil
				return
			case <-time.After(5 * time.Millisecond):
			}
		}
	}()
	wg.Wait()
	close(stop)
	if err := <-swept; err != nil {
		t.Fatalf("sweep beside Reembed: %v", err)
	}
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	more, err := s1.Reembed(ctx, reNew, f.embed)
	if err != nil || reembedded+more != seeded+lagging {
		t.Fatalf("Reembed during writes %d + after %d = %d, %v; want the %d seeded and %d lagging entries once each",
			reembedded, more, reembedded+more, err, seeded, lagging)
	}
	all, err := d2.Since(ctx, 0, 10*(seeded+len(added)))
	if err != nil || len(all) != seeded+len(added) {
		t.Fatalf("Since(0) = %d entries, %v; want %d", len(all), err, seeded+len(added))
	}
	for _, e := range all {
		want := f.newVec[knowledge.EmbeddingText(e.Title, e.Content)]
		if e.Model != reNew || !sameVec(e.Vector, want) {
			t.Fatalf("entry %q: model %s, %d dimensions; want %s and its text's new vector", e.Title, e.Model, len(e.Vector), reNew)
		}
		nearestIs(t, d1, reNew, e.Vector, e.ID)
	}
	t.Logf("%d entries embedded again (%d while %d contributions and sweeps ran), %d under the new model in all",
		reembedded+more, reembedded, len(added)+repeats, len(all))
}
