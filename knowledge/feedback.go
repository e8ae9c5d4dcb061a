package knowledge

import (
	"math"
	"slices"
	"strings"
)

// Pseudo-relevance feedback (RM3's shape, on the engine's own candidates):
// a paraphrase shares few words with its finding, but the best candidates
// of a first ranking are often its finding's neighbours, and the words they
// share say what the query is about. The candidates holding those words
// move up. The best first candidate keeps its place and its score, so
// feedback reorders the hits after it; it lifts no hit over a floor
// (min_score, the hooks' injection floor): Query checks the floor against
// each hit's score before feedback too.

const (
	// DefaultFeedbackDocs is how many of a query's best candidates feed
	// back their words (Options.Feedback).
	DefaultFeedbackDocs = 5
	// feedbackTerms is how many of their words are fed back: the ones
	// weighing most, summed over the feedback candidates as each one's
	// first relevance × the word's IDF among all candidates.
	feedbackTerms = 10
	// feedbackWeight is the share of a candidate's relevance that is the
	// feedback: the share it holds of the fed-back words' weight, scaled to
	// the best first relevance.
	feedbackWeight = 0.3
	// feedbackPool is how many of the best first candidates the feedback
	// counts words among and reranks: one further down does not reach the
	// first hits, and reading its words costs a query's time for nothing
	// (the feedback is about a sixth of a query's CPU with this pool).
	feedbackPool = 100
)

// feedbackRelevance returns each candidate's relevance after feedback from
// the fb best of them by first (their relevance before feedback):
// (1 − feedbackWeight) × first + feedbackWeight × best × held, where held is
// the candidate's share of the fed-back words' weight, then scaled so that
// the best of them equals the best first relevance again; the best first
// candidate keeps that relevance, and every other stays below it. The words fed back are
// the feedback candidates' stems (as written, or as a Korean word's English
// reading) that are not the query's own and that at least two candidates
// hold (a word only one holds lifts nothing), counted and weighed among the
// feedbackPool best first candidates, the only ones feedback lifts. first is returned as it is
// when fb <= 0 or there are fewer than three candidates.
func feedbackRelevance(terms []string, docs []lexDoc, first []float64, fb int) []float64 {
	if fb <= 0 || len(docs) < 3 || len(terms) == 0 {
		return first
	}
	order := make([]int, len(docs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmpDesc(first[a], first[b]) })
	best := first[order[0]]
	if best <= 0 {
		return first
	}
	l := lex()
	own := map[string]bool{}
	for _, t := range terms {
		a := l.analyze(t)
		own[a.stem] = true
		for _, b := range a.bridgeStems {
			own[b] = true
		}
	}
	// The feedback candidates' words, then how many of the pool hold each:
	// one pass over the pool's stems.
	pool := order[:min(feedbackPool, len(order))]
	top := order[:min(fb, len(order))]
	df := map[string]float64{}
	for _, j := range top {
		for s := range docs[j].stems {
			if !own[s] {
				df[s] = 0
			}
		}
	}
	for _, j := range pool {
		for s := range docs[j].stems {
			if _, ok := df[s]; ok {
				df[s]++
			}
		}
	}
	n := float64(len(pool))
	weight := map[string]float64{}
	for _, j := range top {
		for s := range docs[j].stems {
			if c, ok := df[s]; ok && c >= 2 && first[j] > 0 {
				weight[s] += first[j] * math.Log(1+(n+1)/(c+0.5))
			}
		}
	}
	type word struct {
		stem string
		w    float64
	}
	words := make([]word, 0, len(weight))
	for s, w := range weight {
		words = append(words, word{s, w})
	}
	slices.SortFunc(words, func(a, b word) int {
		if c := cmpDesc(a.w, b.w); c != 0 {
			return c
		}
		return strings.Compare(a.stem, b.stem)
	})
	words = words[:min(feedbackTerms, len(words))]
	var total float64
	for _, x := range words {
		total += x.w
	}
	if total == 0 {
		return first
	}
	out := make([]float64, len(docs))
	for j := range docs {
		out[j] = (1 - feedbackWeight) * first[j]
	}
	top2 := 0.0
	for _, j := range pool {
		var held float64
		for _, x := range words {
			if docs[j].stems[x.stem] != 0 {
				held += x.w
			}
		}
		out[j] += feedbackWeight * best * held / total
		top2 = max(top2, out[j])
	}
	// The best first candidate keeps its relevance and its place: the
	// feedback ranks what follows it.
	for j := range out {
		out[j] = min(out[j]*best/top2, best*(1-1e-9))
	}
	out[order[0]] = best
	return out
}

// cmpDesc orders larger first.
func cmpDesc(a, b float64) int {
	switch {
	case a > b:
		return -1
	case a < b:
		return 1
	}
	return 0
}
