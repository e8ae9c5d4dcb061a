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
