package knowledge

import (
	"context"
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/google/uuid"

	"pumasi"
)

// Defaults of the knowledge engine.
const (
	// DefaultCandidates is how many candidates each side of a query (vector
	// and lexical) hands to exact rescoring, at least; a query asks for ten
	// per result when that is more.
	DefaultCandidates = 100
	// dedupCandidates is how many index neighbours a contribution's dedup
	// and the sweep rescore exactly.
	dedupCandidates = 16
	// sweepBatch is how many new entries one sweep batch looks at.
	sweepBatch = 256
)

// Options tune the engine. Zero values take the defaults above.
type Options struct {
	// Now is the clock (time.Now when nil).
	Now func() time.Time
	// HalfLife is the staleness half-life (DefaultHalfLife when zero).
	HalfLife time.Duration
	// Candidates is the per-side candidate pool of a query.
	Candidates int
	// VectorWeight is the share of cosine similarity in relevance, in
	// (0, 1]; 1 ranks by the vector alone.
	VectorWeight float64
	// QuarantineFlags is how many distinct flaggers quarantine an entry
	// (DefaultQuarantineFlags when zero).
	QuarantineFlags int
	// Feedback is how many of a query's best candidates feed their words
	// back into its ranking (feedback.go; DefaultFeedbackDocs when zero,
	// none when negative).
	Feedback int
}

// Engine is the collective-knowledge engine: one implementation of
// Store over any Driver. It decides what a contribution
// merges into, how a query ranks, what staleness costs and what the sweep
// collapses; the driver only stores, counts and finds candidates.
type Engine struct {
	d          Driver
	now        func() time.Time
	halfLife   time.Duration
	candidates int
	vecWeight  float64
	docs       docCache
	counts     termCounts
	// quarantineFlags is Options.QuarantineFlags (moderation.go).
	quarantineFlags int
	// feedback is Options.Feedback (feedback.go).
	feedback int
}

var _ Store = (*Engine)(nil)

// NewKnowledge returns the engine over d.
func New(d Driver, opt Options) *Engine {
	k := &Engine{d: d, now: opt.Now, halfLife: opt.HalfLife, candidates: opt.Candidates, vecWeight: opt.VectorWeight,
		quarantineFlags: opt.QuarantineFlags, feedback: opt.Feedback}
	if k.feedback == 0 {
		k.feedback = DefaultFeedbackDocs
	}
	if k.quarantineFlags <= 0 {
		k.quarantineFlags = DefaultQuarantineFlags
	}
	if k.now == nil {
		k.now = time.Now
	}
	if k.halfLife <= 0 {
		k.halfLife = DefaultHalfLife
	}
	if k.candidates <= 0 {
		k.candidates = DefaultCandidates
	}
	if k.vecWeight <= 0 || k.vecWeight > 1 {
		k.vecWeight = DefaultVectorWeight
	}
	return k
}

// Driver returns the driver under the engine.
func (k *Engine) Driver() Driver { return k.d }

// Contribute merges in into its hive's entry with the same normalised text,
// else into the nearest entry of the same model whose exact cosine exceeds
// in.Threshold, else writes a new entry. The exact case is race-free through
// the driver's unique key; near-duplicates that race past each other are
// collapsed by the sweep.
func (k *Engine) Contribute(ctx context.Context, in ContributeInput) (ContributeResult, error) {
	if err := in.Validate(); err != nil {
		return ContributeResult{}, err
	}
	if in.At.IsZero() {
		in.At = k.now()
	}
	in.At = in.At.UTC()
	if in.Supersedes != "" {
		old, err := k.checkSupersedes(ctx, in)
		if err != nil {
			return ContributeResult{}, err
		}
		in.Supersedes = old
	}
	// An entry can be swept away between finding it and merging into it
	// (merge then writes nothing and answers not_found); then decide again:
	// a sweep leaves the older twin in place.
	for attempt := 0; ; attempt++ {
		res, err := k.contributeOnce(ctx, in)
		if pumasi.ErrorCode(err) == pumasi.ENotFound && attempt < 3 {
			continue
		}
		if err == nil && in.Supersedes != "" {
			res.Entry, err = k.supersede(ctx, in.Supersedes, res.Entry)
		}
		return res, err
	}
}

func (k *Engine) contributeOnce(ctx context.Context, in ContributeInput) (ContributeResult, error) {
	c := Contribution{Agent: in.Agent, Title: in.Title, Content: in.Content, At: in.At, Similarity: 1}
	// The exact and the near-duplicate probes are independent reads: ask
	// them at once (for a networked driver, two round trips overlap); the
	// near one is used only when there is no exact duplicate. A finding
	// that supersedes an entry replaces it, so it never folds into that
	// one (checkSupersedes refused its exact text).
	var near StoredEntry
	var sim float64
	var nerr error
	// The probe parses the text's details once: for the decision, and for
	// the new entry's stored details.
	probe := newMergeProbe(in.Model, in.Threshold, EmbeddingText(in.Title, in.Content))
	var wg sync.WaitGroup
	if in.Threshold <= 1 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// A panic on this goroutine would end the whole process, not
			// the one request, as net/http's recovery does for handlers:
			// answer it as an internal error instead.
			defer func() {
				if r := recover(); r != nil {
					nerr = fmt.Errorf("near-duplicate probe: panic: %v", r)
				}
			}()
			near, sim, nerr = k.nearest(ctx, in, in.Supersedes, probe)
		}()
	}
	id, err := k.d.FindExact(ctx, in.Hive, in.NormHash)
	wg.Wait()
	switch {
	case err == nil:
		return k.merge(ctx, in, id, c)
	case pumasi.ErrorCode(err) != pumasi.ENotFound:
		return ContributeResult{}, fmt.Errorf("find exact duplicate: %w", err)
	}
	if in.Threshold <= 1 {
		if nerr != nil {
			return ContributeResult{}, nerr
		}
		if near.ID != "" {
			c.Similarity = sim
			return k.merge(ctx, in, near.ID, c)
		}
	}
	id, created, err := k.d.Insert(ctx, NewEntry{
		ID: uuid.NewString(), Hive: in.Hive, Title: in.Title, Content: in.Content, Tags: nonNil(in.Tags),
		NormHash: in.NormHash, Model: in.Model, Vector: in.Vector, Specificity: in.Specificity, At: in.At,
		Analysis: analysisOf(in.Title, in.Content, in.Tags), Details: probe.encoded(),
	}, c)
	if err != nil {
		return ContributeResult{}, fmt.Errorf("insert entry: %w", err)
	}
	if !created { // another writer got the same text in first
		return k.merge(ctx, in, id, c)
	}
	return k.landed(ctx, in, id, c, ContributeResult{Verdict: VerdictAccepted, Similarity: 1})
}

// merge folds c into entry id. A repeat contributor is recorded for
// attribution but not counted again. Returns not_found, having written
// nothing, when the entry is gone.
func (k *Engine) merge(ctx context.Context, in ContributeInput, id string, c Contribution) (ContributeResult, error) {
	_, err := k.d.AddContribution(ctx, id, c)
	if pumasi.ErrorCode(err) == pumasi.ENotFound {
		// An absorbed entry's exact text (FindExact) goes where it went.
		var e StoredEntry
		if e, err = k.resolve(ctx, id); err == nil {
			id = e.ID
			if c.Similarity < 1 {
				c.Similarity = Cosine(in.Vector, e.Vector)
			}
			_, err = k.d.AddContribution(ctx, id, c)
		}
	}
	if err != nil {
		return ContributeResult{}, err
	}
	return k.landed(ctx, in, id, c, ContributeResult{Verdict: VerdictMerged, Similarity: c.Similarity})
}

// landed reads back the entry contribution c was just written to and
// answers res with it. A sweep may have absorbed that entry in between: the
// contribution then lives on in the entry that absorbed it, which the
// answer names (merged, with its similarity), so a client never gets an
// error for a write that landed, nor retries it into a second count.
func (k *Engine) landed(ctx context.Context, in ContributeInput, id string, c Contribution, res ContributeResult) (ContributeResult, error) {
	e, err := k.entry(ctx, id)
	if pumasi.ErrorCode(err) == pumasi.ENotFound {
		var live StoredEntry
		if live, err = k.resolve(ctx, id); err == nil {
			e, err = k.entry(ctx, live.ID)
		}
		if err != nil {
			// Not not_found (%v, not %w): the contribution landed, and
			// Contribute must not retry it into a second count.
			return ContributeResult{}, fmt.Errorf("read back the entry a sweep absorbed: %v", err)
		}
		res = ContributeResult{Verdict: VerdictMerged, Similarity: Cosine(in.Vector, live.Vector)}
	} else if err != nil {
		return ContributeResult{}, err
	}
	res.Entry = e
	return res, nil
}

// nearest returns the entry of in's hive and model most cosine-similar to
// in's vector, rescored exactly among the index's neighbours, that in may
// merge into (see mergeable), by probe (in's text's); skip is left out. It
// returns no entry when none qualifies.
func (k *Engine) nearest(ctx context.Context, in ContributeInput, skip string, probe *mergeProbe) (StoredEntry, float64, error) {
	ids, ents, err := k.nearestEntries(ctx, in.Hive, in.Model, in.Vector, dedupCandidates)
	if err != nil {
		return StoredEntry{}, 0, fmt.Errorf("find near duplicates: %w", err)
	}
	var best StoredEntry
	bestSim := math.Inf(-1)
	for _, id := range ids {
		e, ok := ents[id]
		if !ok || id == skip || e.Hive != in.Hive || e.Model != in.Model {
			continue
		}
		sim := Cosine(in.Vector, e.Vector)
		if sim > bestSim && probe.mergeableEntry(sim, e) {
			best, bestSim = e, sim
		}
	}
	return best, bestSim, nil
}

// nearestEntries returns the ids of the driver's n nearest entries to v and
// the entries themselves: in one call from a NearestReader, else Nearest
// then Entries.
func (k *Engine) nearestEntries(ctx context.Context, hive, model string, v []float32, n int) ([]string, map[string]StoredEntry, error) {
	if r, ok := k.d.(NearestReader); ok {
		list, err := r.NearestEntries(ctx, hive, model, v, n)
		if err != nil {
			return nil, nil, err
		}
		ids, ents := byID(list)
		return ids, ents, nil
	}
	ids, err := k.d.Nearest(ctx, hive, model, v, n)
	if err != nil {
		return nil, nil, err
	}
	ents, err := k.d.Entries(ctx, ids)
	if err != nil {
		return nil, nil, fmt.Errorf("read nearest entries: %w", err)
	}
	return ids, ents, nil
}

// entry reads one entry with its quality filled in. Returns not_found.
func (k *Engine) entry(ctx context.Context, id string) (Entry, error) {
	// The row and its moderation state at once: in one statement from a
	// StateReader, else in two round trips that overlap.
	var sts map[string]ModState
	var serr error
	done := make(chan struct{})
	stated := readsStates(k.d)
	if stated {
		close(done)
	} else {
		go func() {
			defer close(done)
			sts, serr = k.mod().ModStates(ctx, []string{id})
		}()
	}
	ents, err := k.d.Entries(ctx, []string{id})
	<-done
	if stated {
		sts = statesOf(ents)
	}
	if err != nil {
		return Entry{}, fmt.Errorf("read entry %s: %w", id, err)
	}
	e, ok := ents[id]
	if !ok {
		return Entry{}, pumasi.Errorf(pumasi.ENotFound, "no knowledge entry %q", id)
	}
	if serr != nil {
		return Entry{}, fmt.Errorf("read moderation of %s: %w", id, serr)
	}
	return withState(k.public(e), sts[id]), nil
}

// public is the Entry of a stored one, with its quality computed.
func (k *Engine) public(s StoredEntry) Entry {
	e := s.Entry
	e.Tags = nonNil(e.Tags)
	e.Quality = Quality(e.Specificity, e.ContributionCount, e.CitationCount, e.EndorsementCount)
	return e
}

// GetEntry returns an entry with its contributions, oldest first. For an
// absorbed id it answers the live entry that holds it, MergedInto set.
func (k *Engine) GetEntry(ctx context.Context, id string) (Entry, error) {
	for attempt := 0; ; attempt++ {
		live, err := k.resolve(ctx, id)
		if err != nil {
			return Entry{}, err
		}
		e, err := k.answer(ctx, id, live.ID)
		if err == nil {
			e.Contributions, err = k.d.Contributions(ctx, live.ID)
		}
		if pumasi.ErrorCode(err) == pumasi.ENotFound && attempt < 3 {
			continue // absorbed in between: follow it
		}
		if err != nil {
			return Entry{}, err
		}
		if e.Contributions == nil {
			e.Contributions = []Contribution{}
		}
		return e, nil
	}
}

func nonNil(t []string) []string {
	if t == nil {
		return []string{}
	}
	return t
}

// byID returns a nearest-first list's ids in order and its entries by id.
func byID(list []StoredEntry) ([]string, map[string]StoredEntry) {
	ids := make([]string, len(list))
	ents := make(map[string]StoredEntry, len(list))
	for i, e := range list {
		ids[i] = e.ID
		ents[e.ID] = e
	}
	return ids, ents
}
