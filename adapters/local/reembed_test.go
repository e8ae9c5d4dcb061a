package local

import (
	"context"
	"fmt"
	"testing"

	"pumasi/adapters/embed"
	"pumasi/knowledge"
	"pumasi/knowledge/knowledgetest"
)

// TestReembedderConformance: each open is another Store on one home, as another process's would be.
func TestReembedderConformance(t *testing.T) {
	knowledgetest.RunReembedder(t, func(t *testing.T) func(t *testing.T) knowledge.Driver {
		home := t.TempDir()
		return func(t *testing.T) knowledge.Driver {
			s, err := Open(context.Background(), home, Options{})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { s.Close() })
			return NewKnowledgeDriver(s)
		}
	})
}

// TestReembedAfterModelChange: entries embedded by an old model are
// embedded again under the new one, found by the vector index under the new
// model and still by their words, and a near-duplicate under the new model
// merges into them.
func TestReembedAfterModelChange(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, t.TempDir(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	k := NewKnowledge(s)
	emb := embed.NewHashed(0)
	var ids []string
	for i := 0; i < 70; i++ { // more than one batch
		title := fmt.Sprintf("Finding %d about pgbouncer prepared statements", i)
		content := fmt.Sprintf("Case %d: set `prepare_threshold=%d` behind pgbouncer transaction pooling.", i, i)
		old := make([]float32, 8)
		old[i%8] = 1
		r, err := k.Contribute(ctx, knowledge.ContributeInput{Hive: "academy", Agent: "old-agent", Title: title, Content: content,
			NormHash: knowledge.Hash(title, content), Model: "hashed-ngram-v1-512", Vector: old, Specificity: 0.8, Threshold: 1.01})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, r.Entry.ID)
	}
	n, err := k.Reembed(ctx, emb.Model(), emb.Embed)
	if err != nil || n != 70 {
		t.Fatalf("Reembed = %d, %v; want 70", n, err)
	}
	if n, err := k.Reembed(ctx, emb.Model(), emb.Embed); err != nil || n != 0 {
		t.Fatalf("second Reembed = %d, %v; want nothing left", n, err)
	}
	q := "Finding 7 about pgbouncer prepared statements"
	hits, err := k.Query(ctx, knowledge.QueryInput{Hive: "academy", Text: q, Model: emb.Model(), Vector: emb.Vector(q), Limit: 3})
	if err != nil || len(hits) == 0 || hits[0].ID != ids[7] || hits[0].Similarity <= 0.5 {
		t.Fatalf("query after re-embedding = %+v, %v; want entry 7 by its new vector", first3(hits), err)
	}
	d := NewKnowledgeDriver(s) // a fresh process's index
	got, err := d.Nearest(ctx, "academy", emb.Model(), emb.Vector(knowledge.EmbeddingText("Finding 7 about pgbouncer prepared statements",
		"Case 7: set `prepare_threshold=7` behind pgbouncer transaction pooling.")), 1)
	if err != nil || len(got) != 1 || got[0] != ids[7] {
		t.Fatalf("fresh index Nearest = %v, %v", got, err)
	}
	if old, _ := d.Nearest(ctx, "academy", "hashed-ngram-v1-512", []float32{0, 0, 0, 0, 0, 0, 0, 1}, 5); len(old) != 0 {
		t.Fatalf("old model still indexed: %v", old)
	}
	lex, err := d.Match(ctx, "academy", []knowledge.Term{{Text: "prepare_threshold"}}, 100)
	if err != nil || len(lex) != 1 || len(lex[0]) != 70 {
		t.Fatalf("full-text after re-embedding = %v, %v; want all 70 (the rows moved seq)", lex, err)
	}
	title, content := "Finding 7 about pgbouncer prepared statement", "Case 7: set `prepare_threshold=7` behind pgbouncer transaction pooling."
	r, err := k.Contribute(ctx, knowledge.ContributeInput{Hive: "academy", Agent: "new-agent", Title: title, Content: content,
		NormHash: knowledge.Hash(title, content), Model: emb.Model(), Vector: emb.Vector(knowledge.EmbeddingText(title, content)),
		Specificity: 0.8, Threshold: emb.MergeThreshold()})
	if err != nil || r.Verdict != knowledge.VerdictMerged || r.Entry.ID != ids[7] {
		t.Fatalf("near-duplicate under the new model = %s into %s, %v; want merged into %s", r.Verdict, r.Entry.ID, err, ids[7])
	}
}

func first3(h []knowledge.Hit) []string {
	var out []string
	for _, x := range h[:min(3, len(h))] {
		out = append(out, fmt.Sprintf("%s %.2f", x.Title, x.Score))
	}
	return out
}
