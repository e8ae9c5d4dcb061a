package knowledge

import (
	"fmt"
	"testing"
)

// BenchmarkQueryFeatures compares the decision's features with the
// lexical share they sit beside (lexicalMatch) on 100 candidates: the
// hooks ask both on every prompt.
func BenchmarkQueryFeatures(b *testing.B) {
	docs := make([]lexDoc, 100)
	titles := make([]string, len(docs))
	for i := range docs {
		titles[i] = fmt.Sprintf("nginx upstream %d keepalive timeout gives 502 behind proxy", i)
		docs[i] = newLexDoc(Entry{Title: titles[i], Content: fmt.Sprintf("Set keepalive_timeout %d longer than proxy_read_timeout; idle connections closed by the upstream make nginx answer 502 Bad Gateway now and then.", i)})
	}
	q := "intermittent 502 Bad Gateway from nginx when the upstream closes idle keepalive connections after a deploy"
	terms := LexicalTerms(q)
	first := make([]float64, len(docs))
	for i := range first {
		first[i] = float64(i) / 100
	}
	sims := make([]float64, len(docs))
	b.Run("lexicalMatch", func(b *testing.B) {
		for b.Loop() {
			lexicalMatch(terms, docs)
		}
	})
	b.Run("queryFeatures", func(b *testing.B) {
		for b.Loop() {
			queryFeatures(q, terms, docs, titles, first, sims)
		}
	})
}
