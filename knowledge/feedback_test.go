package knowledge

import "testing"

// TestFeedbackRelevance: the best first candidate keeps its relevance and
// its place; a candidate sharing the best candidates' words moves up past
// one that shares none; a candidate-less or feedback-less query is left
// as it was.
func TestFeedbackRelevance(t *testing.T) {
	texts := []string{
		"Postgres autovacuum cannot remove dead tuples while a session idles in transaction",
		"Long transactions hold back the xmin horizon so vacuum leaves dead tuples and tables bloat",
		"Replication slots that nobody reads hold back the xmin horizon and bloat tables",
		"Kubernetes liveness probes restart pods that are only slow to start",
		"A stale xmin horizon from an abandoned replication slot keeps vacuum from cleaning tables",
	}
	docs := make([]lexDoc, len(texts))
	for i, s := range texts {
		docs[i] = newLexDoc(Entry{Title: s})
	}
	terms := LexicalTerms("autovacuum dead tuples")
	first := []float64{0.6, 0.3, 0.1, 0.1, 0.1}
	got := feedbackRelevance(terms, docs, first, DefaultFeedbackDocs)
	if got[0] != first[0] {
		t.Fatalf("best candidate's relevance = %v, want %v kept", got[0], first[0])
	}
	for j := 1; j < len(got); j++ {
		if got[j] >= got[0] {
			t.Fatalf("candidate %d = %v, at or above the best %v", j, got[j], got[0])
		}
	}
	if !(got[4] > got[3]) {
		t.Fatalf("a candidate sharing the best candidates' words (xmin horizon, vacuum, tables) = %v, not above an unrelated one = %v", got[4], got[3])
	}
	if !(got[2] > got[3]) {
		t.Fatalf("replication slots bloat = %v, not above liveness probes = %v", got[2], got[3])
	}
	if off := feedbackRelevance(terms, docs, first, -1); &off[0] != &first[0] {
		t.Fatalf("feedback off changed the relevances: %v", off)
	}
	if none := feedbackRelevance(nil, docs, first, DefaultFeedbackDocs); &none[0] != &first[0] {
		t.Fatalf("a query without terms got feedback: %v", none)
	}
	two := feedbackRelevance(terms, docs[:2], first[:2], DefaultFeedbackDocs)
	if two[0] != first[0] || two[1] != first[1] {
		t.Fatalf("two candidates got feedback: %v", two)
	}
}
