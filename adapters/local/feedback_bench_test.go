package local

import (
	"context"
	"testing"
	"time"

	"pumasi/adapters/embed"
	"pumasi/knowledge"
)

// BenchmarkQueryFeedback measures a query with and without pseudo-relevance
// feedback (knowledge.Options.Feedback) on the tuning parts' findings, in
// one run so the two can be compared (the machine is noisy): go test
// ./adapters/local -run '^$' -bench QueryFeedback (on/off is the ratio). A query's
// candidates are at most a few hundred whatever the corpus size, so the
// feedback's share of a query's time does not grow with it.
func BenchmarkQueryFeedback(b *testing.B) {
	ctx := context.Background()
	s, err := Open(ctx, b.TempDir(), Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	emb := embed.NewHashed(0)
	now := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	var queries []string
	for _, part := range allParts {
		if part.heldOut {
			continue
		}
		k := knowledge.New(NewKnowledgeDriver(s), knowledge.Options{Now: func() time.Time { return now }})
		for _, f := range readJSONL[qFinding](b, part, "findings.jsonl") {
			if _, err := k.Contribute(ctx, knowledge.ContributeInput{Hive: "academy", Agent: "corpus-loader", Title: f.Title,
				Content: f.Content, Tags: f.Tags, NormHash: knowledge.Hash(f.Title, f.Content), Model: emb.Model(),
				Vector: emb.Vector(knowledge.EmbeddingText(f.Title, f.Content)), Specificity: 0.8, Threshold: 1.01, At: now}); err != nil {
				b.Fatal(err)
			}
		}
		for _, q := range readJSONL[qQuery](b, part, "queries.jsonl") {
			queries = append(queries, q.Q)
		}
	}
	vecs := make([][]float32, len(queries))
	for i, q := range queries {
		vecs[i] = emb.Vector(q)
	}
	off := knowledge.New(NewKnowledgeDriver(s), knowledge.Options{Now: func() time.Time { return now }, Feedback: -1})
	on := knowledge.New(NewKnowledgeDriver(s), knowledge.Options{Now: func() time.Time { return now }})
	query := func(k *knowledge.Engine, j int) time.Duration {
		start := time.Now()
		if _, err := k.Query(ctx, knowledge.QueryInput{Hive: "academy", Text: queries[j], Model: emb.Model(), Vector: vecs[j], Limit: 5}); err != nil {
			b.Fatal(err)
		}
		return time.Since(start)
	}
	for j := range queries { // warm both engines' caches alike
		query(off, j)
		query(on, j)
	}
	// Each query is asked of both engines in turn (in alternating order),
	// so load on the machine falls on both alike.
	var tOff, tOn time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		j := i % len(queries)
		if i%2 == 0 {
			tOff += query(off, j)
			tOn += query(on, j)
		} else {
			tOn += query(on, j)
			tOff += query(off, j)
		}
	}
	b.ReportMetric(float64(tOff.Nanoseconds())/float64(b.N), "ns/query-off")
	b.ReportMetric(float64(tOn.Nanoseconds())/float64(b.N), "ns/query-on")
	b.ReportMetric(float64(tOn)/float64(tOff), "on/off")
}
