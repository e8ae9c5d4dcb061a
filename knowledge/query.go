package knowledge

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"pumasi"
)

// Query ranks the entries of q.Hive (every hive when empty) for q:
//
//  1. candidates: the driver's approximate nearest neighbours of q.Vector
//     (embedded by q.Model) and the entries holding the rarest of
//     LexicalTerms(q.Text) (the engine chooses them by the driver's counts
//     and fuses the driver's matches: candidates.go), each side
//     max(Candidates, 10 × limit) deep (the text search also looks for the
//     other words of the terms' thesaurus groups);
//  2. relevance, computed here for every candidate: w × cosine + (1 − w) ×
//     lexical, where cosine is exact (from the stored vector; 0 for another
//     model's entry), lexical is the IDF-weighted share of the query's terms
//     the entry holds (a term held only through its thesaurus group counts
//     0.6), and w is VectorWeight (the cosine alone when the query
//     has no terms); for a lexical model, then moved by the words of the
//     best candidates (feedback.go: pseudo-relevance feedback, the best
//     relevance kept);
//  3. score = relevance × support × Quality × Freshness, where support is
//     the query's (QuerySupport: how much the terms the best-matching
//     candidate shares weigh, times IntentWeight: less for a how-to
//     prompt, intent.go, and for a lexical model DecisionWeight: the
//     injection decision over the query's evidence features,
//     decision.go; the same for every hit, so it never reorders
//     them); candidates that share no
//     term with the query and whose vector is not close (Candidate) are
//     dropped, and so are those scoring below q.MinScore, after feedback
//     or before it (a hit clears the floor on its own words, never on
//     feedback's); the rest are
//     ranked by RankHits, and every hit after the first must also
//     score q.LaterMinScore without DecisionWeight (AfterFirst, rank.go).
//
// Because the scores are the engine's, every backend ranks its candidates
// alike, and since the engine chooses the terms and fuses the matches, every
// backend sees the same candidates for the same entries.
func (k *Engine) Query(ctx context.Context, q QueryInput) ([]Hit, error) {
	if q.Hive != "" && !pumasi.ValidID(q.Hive) {
		return nil, pumasi.Errorf(pumasi.EInvalidRequest, "hive id must match ^[a-z0-9][a-z0-9._-]{0,62}$")
	}
	limit := q.Limit
	if limit <= 0 {
		limit = DefaultQueryLimit
	}
	pool := max(k.candidates, 10*limit)
	terms := LexicalTerms(q.Text)

	var ids []string
	seen := map[string]bool{}
	add := func(list []string) {
		for _, id := range list {
			if !seen[id] {
				seen[id] = true
				ids = append(ids, id)
			}
		}
	}
	// The two candidate searches are independent: ask them at once (for
	// a networked driver, two round trips overlap).
	var vids, lids []string
	var vents map[string]StoredEntry
	var verr, lerr error
	var wg sync.WaitGroup
	if Norm(q.Vector) > 0 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			vids, vents, verr = k.queryNearest(ctx, q, pool)
		}()
	}
	if len(terms) > 0 {
		lids, lerr = k.lexicalCandidates(ctx, q.Hive, terms, pool)
	}
	wg.Wait()
	if verr != nil {
		return nil, fmt.Errorf("query vectors: %w", verr)
	}
	if lerr != nil {
		return nil, fmt.Errorf("query text: %w", lerr)
	}
	add(vids) // vector candidates first, as before
	add(lids)
	// The entries not read with the vector candidates, and every
	// candidate's moderation state, at once: in one statement from a
	// StateReader, else in two that overlap.
	var need []string
	for _, id := range ids {
		if _, ok := vents[id]; !ok {
			need = append(need, id)
		}
	}
	var ents map[string]StoredEntry
	var sts map[string]ModState
	var eerr, serr error
	stated := readsStates(k.d)
	if len(ids) > 0 && !stated {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sts, serr = k.mod().ModStates(ctx, ids)
		}()
	}
	ents = vents
	if len(need) > 0 {
		var more map[string]StoredEntry
		more, eerr = k.queryEntries(ctx, q, need)
		if ents == nil {
			ents = more
		} else {
			for id, e := range more {
				ents[id] = e
			}
		}
	}
	wg.Wait()
	if eerr != nil {
		return nil, fmt.Errorf("read candidates: %w", eerr)
	}
	if serr != nil {
		return nil, fmt.Errorf("read moderation of candidates: %w", serr)
	}
	if stated {
		sts = statesOf(ents)
	}

	cands := make([]StoredEntry, 0, len(ents))
	for _, id := range ids { // in candidate order, so ties break the same way
		if e, ok := ents[id]; ok && (q.Hive == "" || e.Hive == q.Hive) {
			cands = append(cands, e)
		}
	}
	// Moderation: quarantined entries are left out, and an entry whose
	// successor is live gives its place to it (lineage.go).
	sc, err := k.screen(ctx, cands, sts, q.IncludeQuarantined)
	if err != nil {
		return nil, err
	}
	cands = sc.cands
	docs := make([]lexDoc, len(cands))
	for i, e := range cands {
		docs[i] = k.lexDocOf(e)
	}
	lex, evidence, whole := lexicalMatch(terms, docs)
	best := 0.0
	for _, e := range evidence {
		best = max(best, e)
	}
	support := QuerySupport(q.Model, len(terms) > 0, best, whole) * IntentWeight(q.Model, q.Text)
	sims := make([]float64, len(cands))
	rels := make([]float64, len(cands))
	for i, e := range cands {
		switch {
		case e.Scored:
			sims[i] = e.Similarity
		case e.Model == q.Model:
			sims[i] = Cosine(q.Vector, e.Vector)
		}
		rels[i] = k.Relevance(Hit{Similarity: sims[i], Lexical: lex[i]}, len(terms) > 0)
	}
	firsts := rels
	var feats []float64
	if strings.HasPrefix(q.Model, LexicalModelPrefix) {
		titles := make([]string, len(cands))
		for i, e := range cands {
			titles[i] = e.Title
		}
		feats = queryFeatures(q.Text, terms, docs, titles, firsts, sims)
		support *= DecisionWeight(feats)                        // decision.go
		rels = feedbackRelevance(terms, docs, rels, k.feedback) // feedback.go
	}
	now := k.now()
	type scored struct {
		h   Hit
		rel float64
		// first is the relevance before feedback of the candidate that
		// gave rel: feedback ranks, but a hit clears a floor on its own
		// evidence.
		first float64
		ok    bool
	}
	byID := make(map[string]*scored, len(cands))
	order := make([]string, 0, len(cands))
	for i, e := range cands {
		sim, rel, first := sims[i], rels[i], firsts[i]
		h := Hit{Similarity: sim, Lexical: lex[i]}
		match := rel > 1e-12 && Candidate(q.Model, sim, lex[i])
		into := e.ID
		if r, ok := sc.replacedBy[e.ID]; ok {
			into = r
		}
		s := byID[into]
		if s == nil {
			s = &scored{}
			byID[into] = s
			order = append(order, into)
		}
		if into == e.ID {
			s.h = h
			s.h.Entry = withState(k.public(e), sc.states[e.ID])
		}
		// An older entry's relevance carries over to its successor: it
		// answers where the older would have.
		if match && (!s.ok || rel > s.rel) {
			s.rel, s.first, s.ok = rel, first, true
		}
	}
	hits := make([]Hit, 0, len(order))
	for _, id := range order {
		s := byID[id]
		if !s.ok || s.h.ID == "" {
			continue
		}
		h := s.h
		h.Freshness = Freshness(h.LastUsedAt, now, k.halfLife)
		h.Score = Score(s.rel*support, h.Quality, h.Freshness)
		h.Features = feats
		if h.Score < q.MinScore || Score(s.first*support, h.Quality, h.Freshness) < q.MinScore {
			continue
		}
		hits = append(hits, h)
	}
	return AfterFirst(RankHits(hits, limit), q.LaterMinScore), nil
}

// queryNearest is nearestEntries for a query: scored where they are
// stored, without their vectors, by a ScoringReader.
func (k *Engine) queryNearest(ctx context.Context, q QueryInput, n int) ([]string, map[string]StoredEntry, error) {
	r, ok := k.d.(ScoringReader)
	if !ok {
		return k.nearestEntries(ctx, q.Hive, q.Model, q.Vector, n)
	}
	list, err := r.NearestScored(ctx, q.Hive, q.Model, q.Vector, n)
	if err != nil {
		return nil, nil, err
	}
	ids, ents := byID(list)
	return ids, ents, nil
}

// queryEntries is Entries for a query's candidates: scored by a
// ScoringReader when the query has a vector.
func (k *Engine) queryEntries(ctx context.Context, q QueryInput, ids []string) (map[string]StoredEntry, error) {
	if r, ok := k.d.(ScoringReader); ok && Norm(q.Vector) > 0 {
		return r.EntriesScored(ctx, ids, q.Model, q.Vector)
	}
	return k.d.Entries(ctx, ids)
}

// docCache keeps the lexical stems of recently ranked entries: an entry's
// text never changes, so its stems can be reused until the cache is full,
// when it starts over.
type docCache struct {
	mu   sync.Mutex
	docs map[string]lexDoc
}

const docCacheSize = 20000

func (c *docCache) get(e Entry) lexDoc {
	c.mu.Lock()
	d, ok := c.docs[e.ID]
	c.mu.Unlock()
	if ok {
		return d
	}
	d = newLexDoc(e)
	c.mu.Lock()
	if c.docs == nil || len(c.docs) >= docCacheSize {
		c.docs = make(map[string]lexDoc, 1024)
	}
	c.docs[e.ID] = d
	c.mu.Unlock()
	return d
}
