package knowledge

import (
	"math"
	"sort"
	"strings"
	"time"
)

// The ranking formula, in one place: a hit's score is its relevance
// (lexical fused with vector similarity) × its quality × its freshness.
// Every backend's candidates are scored here, so every backend ranks alike.

const (
	// DefaultHalfLife is how long an unused entry takes to lose half of the
	// rank weight it can lose to staleness.
	DefaultHalfLife = 180 * 24 * time.Hour
	// FreshnessFloor is the least freshness weight: staleness can halve an
	// entry's score, never bury it.
	FreshnessFloor = 0.5
	// DefaultVectorWeight is the share of cosine similarity in a hit's
	// relevance; the rest is the lexical match. 0.4 ranked paraphrases best
	// on the labelled corpus with the offline embedder (0.3: 0.75, 0.4: 0.75,
	// 0.5: 0.72, 0.6: 0.67 recall@5); a semantic embedder may want more
	// (PUMASI_KNOWLEDGE_VECTOR_WEIGHT).
	DefaultVectorWeight = 0.4
)

// Relevance is a hit's relevance as Query computed it, before quality and
// freshness weigh in; it lets callers and tests check a score.
func (k *Engine) Relevance(h Hit, hasTerms bool) float64 {
	rel := math.Max(h.Similarity, 0)
	if hasTerms {
		rel = k.vecWeight*rel + (1-k.vecWeight)*h.Lexical
	}
	return rel
}

// LexicalCloseVector is the least cosine at which the vector of a lexical
// model (LexicalModelPrefix: the offline hashed embedder) counts as close
// for an entry that shares no search term with the query. Such a vector sees
// only surface features (stems, thesaurus groups, character n-grams), so
// without a shared term a lower cosine is hashing noise: on
// testdata/knowledge/retrieval, the 4,138 candidates that shared no term with
// a query and were not its target reached 0.28 (99th percentile 0.18), and
// the 3 targets that shared no term sat at 0.03–0.06, inside that noise.
const LexicalCloseVector = 0.30

// Candidate reports whether an entry at cosine sim and lexical match lex
// answers a query embedded by model at all: it shares a search term with
// the query, or its vector is close. For a lexical model, close means
// LexicalCloseVector or more; for a semantic embedder, whose noise level
// depends on the model, any positive cosine (callers threshold with
// min_score).
func Candidate(model string, sim, lex float64) bool {
	switch {
	case lex > 0:
		return true
	case strings.HasPrefix(model, LexicalModelPrefix):
		return sim >= LexicalCloseVector
	}
	return sim > 0
}

// InjectFloor is the least score a hit needs to be injected into an
// agent's prompt by the hooks (`pumasi know hook`) and, by default, by MCP's
// query_knowledge. It is the lowest floor (in steps of 0.005) at which 90 %
// of the prompts with no related entry inject nothing on the tuning part of
// testdata/knowledge/relevance (tuning.jsonl and tuning2.jsonl together),
// with the offline hashed embedder; there 88 % of the related prompts still
// get their entry (functions/relevance_test.go prints every part's
// figures). Chosen again each time the lexicon or the lexical score
// changed: 0.31, 0.305 (issue 23's lexicon), 0.315 (round 2: Korean prompt
// words, bridges at 0.9). Round 3 kept it: on all three tuning files it
// keeps 92.8 % clean and 86.5 % found, and the rule's 0.310 would find
// 1 related prompt of 259 more for 6 unrelated of 223 fewer clean. Round 4
// kept it again: on all four tuning files it keeps 92.7 % clean and 86.3 %
// found, and 0.310 would find 1 related prompt of 314 more for 7 unrelated
// of 260 fewer clean; no other relevance tried there did better
// (testdata/knowledge/relevance/README.md).
const InjectFloor = 0.315

// Score is a hit's rank score: relevance × quality × freshness.
func Score(relevance, quality, freshness float64) float64 {
	return relevance * quality * freshness
}

// Freshness is the staleness weight of an entry last used at last, seen at
// now: 1 when just used, halfway to FreshnessFloor after one half-life, and
// never below the floor.
func Freshness(last, now time.Time, halfLife time.Duration) float64 {
	age := now.Sub(last)
	if age <= 0 || halfLife <= 0 {
		return 1
	}
	return FreshnessFloor + (1-FreshnessFloor)*math.Exp2(-float64(age)/float64(halfLife))
}

// Quality is an entry's rank weight in [0,1]: its specificity lifted a
// little, on a log scale, by independent contributions, citations and
// endorsements, so that a finding many agents confirm outranks a lone one of
// the same relevance without popularity drowning relevance.
func Quality(specificity float64, contributions, citations, endorsements int64) float64 {
	q := specificity
	if contributions > 1 {
		q += 0.05 * math.Log(float64(contributions))
	}
	if citations > 0 {
		q += 0.03 * math.Log1p(float64(citations))
	}
	if endorsements > 0 {
		q += 0.05 * math.Log1p(float64(endorsements))
	}
	return clamp01(q)
}

func clamp01(x float64) float64 {
	switch {
	case x < 0:
		return 0
	case x > 1:
		return 1
	}
	return x
}

// RankHits sorts hits by score, best first, ties broken by similarity, then
// by age (older first) and id so the order is stable, and cuts to limit.
func RankHits(hits []Hit, limit int) []Hit {
	sort.SliceStable(hits, func(i, j int) bool {
		a, b := hits[i], hits[j]
		if a.Score != b.Score {
			return a.Score > b.Score
		}
		if a.Similarity != b.Similarity {
			return a.Similarity > b.Similarity
		}
		if !a.CreatedAt.Equal(b.CreatedAt) {
			return a.CreatedAt.Before(b.CreatedAt)
		}
		return a.ID < b.ID
	})
	if limit >= 0 && len(hits) > limit {
		hits = hits[:limit]
	}
	return hits
}
