package knowledge

import "testing"

// TestDecisionWeight: the injection decision weighs a query whose best
// candidate holds its title and rare words (the finding's own problem)
// above one that shares only the tool's name and a generic word (another
// problem with the same tool), never above 1, and leaves a query without
// features alone.
func TestDecisionWeight(t *testing.T) {
	if got := DecisionWeight(nil); got != 1 {
		t.Fatalf("DecisionWeight(nil) = %v, want 1", got)
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
