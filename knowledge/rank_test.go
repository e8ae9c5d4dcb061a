package knowledge

import "testing"

// TestCandidate: an entry answers a query when it shares a term with it, or
// when its vector is close: for the hashed model from LexicalCloseVector
// on (below is n-gram noise), for another model at any positive cosine.
func TestCandidate(t *testing.T) {
	const hashed, semantic = LexicalModelPrefix + "ngram-v2-512", "text-embedding-3-small"
	for _, c := range []struct {
		model    string
		sim, lex float64
		want     bool
	}{
		{hashed, 0.28, 0, false},
		{hashed, 0.05, 0, false},
		{hashed, LexicalCloseVector, 0, true},
		{hashed, 0.05, 0.1, true},
		{hashed, -0.2, 0.3, true},
		{semantic, 0.05, 0, true},
		{semantic, 0, 0, false},
		{semantic, -0.1, 0, false},
	} {
		if got := Candidate(c.model, c.sim, c.lex); got != c.want {
			t.Errorf("Candidate(%s, sim %v, lex %v) = %v, want %v", c.model, c.sim, c.lex, got, c.want)
		}
	}
}

// TestQuerySupport: a lexical model's query is weighed by its best
// evidence against EvidenceFull, or its whole weight when less, never to
// nothing; a semantic model's, or a query without terms, is not weighed.
func TestQuerySupport(t *testing.T) {
	const hashed, semantic = LexicalModelPrefix + "ngram-v2-512", "text-embedding-3-small"
	for _, c := range []struct {
		model           string
		terms           bool
		evidence, whole float64
		want            float64
	}{
		{hashed, true, EvidenceFull, 3 * EvidenceFull, 1},
		{hashed, true, 2 * EvidenceFull, 3 * EvidenceFull, 1},
		{hashed, true, EvidenceFull / 2, 3 * EvidenceFull, 0.25},
		{hashed, true, 4, 4, 1},
		{hashed, true, 2, 4, 0.25},
		{hashed, true, 0, 3 * EvidenceFull, minSupport},
		{hashed, false, 0, 0, 1},
		{semantic, true, 0, 3 * EvidenceFull, 1},
		{semantic, true, EvidenceFull / 2, 3 * EvidenceFull, 1},
	} {
		if got := QuerySupport(c.model, c.terms, c.evidence, c.whole); got != c.want {
			t.Errorf("QuerySupport(%s, %v, %v, %v) = %v, want %v", c.model, c.terms, c.evidence, c.whole, got, c.want)
		}
	}
}

// TestInjectFloorFor: the offline hashed embedder's floor is the one
// measured on testdata/knowledge/relevance; any other model's is the floor
// before QuerySupport lowered the hashed embedder's scale, so that a
// semantic embedder, whose scores QuerySupport leaves whole, does not
// inject more than it did.
func TestInjectFloorFor(t *testing.T) {
	for _, c := range []struct {
		model string
		want  float64
	}{
		{LexicalModelPrefix + "ngram-v3-512-1196ccfc9bbf", 0.1},
		{LexicalModelPrefix + "ngram-v2-512", 0.1},
		{"text-embedding-3-small", 0.315},
		{"nomic-embed-text", 0.315},
		{"", 0.315},
	} {
		if got := InjectFloorFor(c.model); got != c.want {
			t.Errorf("InjectFloorFor(%q) = %v, want %v", c.model, got, c.want)
		}
	}
}
