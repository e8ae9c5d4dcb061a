package knowledge

import (
	"math"
	"strings"
	"testing"
)

// TestDecisionWeight: the injection decision weighs a query whose best
// candidate holds its title and rare words (the finding's own problem)
// above one that shares only the tool's name and a generic word (another
// problem with the same tool), never above 1, and leaves a query without
// features alone.
func TestDecisionWeight(t *testing.T) {
	if got := DecisionWeight(nil); got != 1 {
		t.Fatalf("DecisionWeight(nil) = %v, want 1", got)
	}
	// A feature that is no number weighs nothing either way: never a NaN
	// weight, which would make the score NaN.
	for _, bad := range []float64{math.NaN(), math.Inf(1)} {
		f := make([]float64, nFeatures)
		f[featCosine] = bad
		f[featMargin] = math.Inf(-1)
		if bad != bad {
			f[featMargin] = 0
		}
		if got := DecisionWeight(f); got != 1 {
			t.Errorf("DecisionWeight with %v = %v, want 1", f, got)
		}
	}
	// A weight that underflows to 0 (its score 0) leaves 0, not 0/0.
	under := make([]float64, nFeatures)
	under[featMargin] = -1000
	if w, u := DecisionWeight(under), Unweighted(Hit{Score: 0, Features: under}); w != 0 || u != 0 {
		t.Errorf("underflowing weight %v: Unweighted = %v, want 0", w, u)
	}
	ents := []Entry{
		{Title: "nginx 502 after upstream keepalive timeout shorter than proxy", Content: "Set keepalive_timeout on the upstream longer than nginx's proxy_read_timeout; the upstream closed idle connections and nginx reused them, giving intermittent 502 Bad Gateway."},
		{Title: "Postgres autovacuum falls behind on hot tables", Content: "Dead tuples pile up and the table bloats; lower autovacuum_vacuum_scale_factor per table."},
		{Title: "Redis lock released by another client", Content: "SET NX PX without a token lets a slow client delete a lock another holds; compare the token in a Lua script before DEL."},
	}
	docs := make([]lexDoc, len(ents))
	titles := make([]string, len(ents))
	for i, e := range ents {
		docs[i], titles[i] = newLexDoc(e), e.Title
	}
	weight := func(q string) float64 {
		terms := LexicalTerms(q)
		lex, _, _ := lexicalMatch(terms, docs)
		first := make([]float64, len(docs))
		for i := range first {
			first[i] = 0.6 * lex[i]
		}
		return DecisionWeight(queryFeatures(q, terms, docs, titles, first, make([]float64, len(docs))))
	}
	related := weight("intermittent 502 Bad Gateway from nginx, the upstream keepalive timeout closes idle connections")
	nearMiss := weight("how do I write an nginx config that serves static files")
	t.Logf("weights: related %.3g, near miss %.3g", related, nearMiss)
	if !(related > nearMiss) || related > 1 || nearMiss <= 0 {
		t.Fatalf("weights: related %v, near miss %v; want 1 >= related > near miss > 0", related, nearMiss)
	}
	if w := weight("zzzqqq"); w > nearMiss {
		t.Fatalf("a query no candidate holds weighs %v, above the near miss's %v", w, nearMiss)
	}
}

// TestAfterFirst: min_score=floor's later floor holds the hits after a
// query's first to their score without the decision's weight. With a
// weight of 1 a later hit at 0.117 (the first at 0.788) is left out and
// one at 0.21 kept; with a weight of 0.5 a later hit at 0.11 (0.22 its
// own) is kept, the near miss the weighted score alone would drop; the
// first hit is never left out, and a later floor of 0 leaves all.
func TestAfterFirst(t *testing.T) {
	half := make([]float64, nFeatures)
	half[featCosine] = (decisionK + math.Log(0.5)) / decisionBeta[featCosine]
	if w := DecisionWeight(half); math.Abs(w-0.5) > 1e-9 {
		t.Fatalf("weight of the half features = %v, want 0.5", w)
	}
	ids := func(hits []Hit) string {
		var s []string
		for _, h := range hits {
			s = append(s, h.ID)
		}
		return strings.Join(s, ",")
	}
	hit := func(id string, score float64, f []float64) Hit {
		return Hit{Entry: Entry{ID: id}, Score: score, Features: f}
	}
	for _, c := range []struct {
		name  string
		hits  []Hit
		later float64
		want  string
	}{
		{"weight 1", []Hit{hit("a", 0.788, nil), hit("b", 0.21, nil), hit("c", 0.117, nil)}, LexicalLaterFloor, "a,b"},
		{"weight 0.5", []Hit{hit("a", 0.4, half), hit("b", 0.11, half), hit("c", 0.1, half)}, LexicalLaterFloor, "a,b"},
		{"first alone", []Hit{hit("a", 0.15, nil), hit("b", 0.12, nil)}, LexicalLaterFloor, "a"},
		{"no later floor", []Hit{hit("a", 0.15, nil), hit("b", 0.12, nil)}, 0, "a,b"},
	} {
		if got := ids(AfterFirst(c.hits, c.later)); got != c.want {
			t.Errorf("%s: AfterFirst = %s, want %s", c.name, got, c.want)
		}
	}
	if LaterFloorFor("text-embedding-3-small") != 0 || LaterFloorFor(LexicalModelPrefix+"x") != LexicalLaterFloor {
		t.Errorf("LaterFloorFor: semantic %v, lexical %v", LaterFloorFor("text-embedding-3-small"), LaterFloorFor(LexicalModelPrefix+"x"))
	}
}
