package local

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"

	"pumasi/adapters/embed"
	"pumasi/knowledge"
)

// TestFeedbackLiftsNoHitOverTheFloor: pseudo-relevance feedback may rank a
// hit higher than its own words do, but a hit clears min_score only on the
// score it has without feedback: with a floor between a lifted hit's score
// before and after feedback, the hit is left out.
func TestFeedbackLiftsNoHitOverTheFloor(t *testing.T) {
	ctx := context.Background()
	d := NewKnowledgeDriver(openT(t, t.TempDir(), Options{}))
	defer d.Close()
	emb := embed.NewHashed(0)
	texts := []string{
		"Postgres autovacuum cannot remove dead tuples while a session idles in transaction",
		"Long transactions hold back the xmin horizon so vacuum leaves dead tuples and tables bloat",
		"Replication slots that nobody reads hold back the xmin horizon and bloat tables",
		"A stale xmin horizon from an abandoned replication slot keeps vacuum from cleaning tables",
		"Kubernetes liveness probes restart pods that are only slow to start",
		"Unlogged tables skip the WAL, so a crash truncates them and replicas never see them",
	}
	at := time.Now().UTC()
	for i, s := range texts {
		e := knowledge.NewEntry{ID: uuid.NewString(), Hive: "academy", Title: s, Content: s,
			NormHash: knowledge.Hash(s, s), Model: emb.Model(), Vector: emb.Vector(s), Specificity: 0.8, At: at,
			Analysis: knowledge.Analysis(s, s, nil)}
		if _, _, err := d.Insert(ctx, e, knowledge.Contribution{Agent: "writer", Title: s, Content: s, Similarity: 1, At: at}); err != nil {
			t.Fatalf("insert %d: %v", i, err)
		}
	}
	q := knowledge.QueryInput{Hive: "academy", Text: "autovacuum dead tuples", Model: emb.Model(),
		Vector: emb.Vector("autovacuum dead tuples"), Limit: 10}
	scores := func(fb int, min float64) map[string]float64 {
		q := q
		q.MinScore = min
		hits, err := knowledge.New(d, knowledge.Options{Feedback: fb}).Query(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		m := map[string]float64{}
		for _, h := range hits {
			m[h.Title] = h.Score
		}
		return m
	}
	with, without := scores(0, 0), scores(-1, 0)
	lifted, floor := "", 0.0
	for title, s := range with {
		if b, ok := without[title]; ok && s > b*1.05 && title != texts[0] {
			lifted, floor = title, (s+b)/2
			break
		}
	}
	if lifted == "" {
		t.Fatalf("no hit moved up by feedback (with %v, without %v): the case no longer tests anything", with, without)
	}
	got := scores(0, floor)
	if s, ok := got[lifted]; ok {
		t.Fatalf("%q: score %.3f with feedback, %.3f without; floor %.3f returned it (%.3f)", lifted, with[lifted], without[lifted], floor, s)
	}
	if _, ok := got[texts[0]]; !ok && without[texts[0]] >= floor {
		t.Fatalf("the best hit, %.3f without feedback, was left out under floor %.3f", without[texts[0]], floor)
	}
}
