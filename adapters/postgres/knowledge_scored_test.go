package postgres

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/pgvector/pgvector-go"

	"pumasi/knowledge"
)

// TestScoredReadsMatchTheEngine: the scored reads answer what the engine
// would compute from the vectors they leave out — NearestScored the rows
// of NearestEntries in the same order, each with its Cosine to the query;
// EntriesScored the same for any ids, 0 for an entry of another model or
// dimension (no error for the mismatch) — and every row its moderation
// state.
func TestScoredReadsMatchTheEngine(t *testing.T) {
	k := newKnowledgeDriver(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	const dims = 32
	if err := k.ensureIndex(ctx, dims); err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(5, 6))
	at := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	var rows [][]any
	var ids []string
	for i := 0; i < 200; i++ {
		model, n := "m", dims
		switch i % 10 {
		case 0:
			model = "other" // same dimension, another model
		case 1:
			model, n = "small", 3 // another dimension
		}
		v := make([]float32, n)
		for j := range v {
			v[j] = float32(r.NormFloat64())
		}
		id := fmt.Sprintf("e%03d", i)
		ids = append(ids, id)
		rows = append(rows, []any{id, "academy", "t", "c", []string{}, id, model, pgvector.NewVector(unit(v)), 0.5, at, at})
	}
	copyEntries(ctx, t, k, rows)
	if _, err := k.pool.Exec(ctx, `INSERT INTO knowledge_moderation (entry_id, hive, flags, quarantined) VALUES ('e002', 'academy', 2, true)`); err != nil {
		t.Fatal(err)
	}
	q := make([]float32, dims)
	for j := range q {
		q[j] = float32(r.NormFloat64())
	}
	q = unit(q)

	plain, err := k.Entries(ctx, ids)
	if err != nil {
		t.Fatal(err)
	}
	check := func(what string, e knowledge.StoredEntry) {
		t.Helper()
		want := 0.0
		if p := plain[e.ID]; p.Model == "m" {
			want = knowledge.Cosine(q, p.Vector)
		}
		if !e.Scored || e.Vector != nil || math.Abs(e.Similarity-want) > 1e-6 {
			t.Fatalf("%s %s: scored %v, vector %d, similarity %v; want scored, no vector, %v", what, e.ID, e.Scored, len(e.Vector), e.Similarity, want)
		}
		wantState := e.ID == "e002"
		if e.State == nil || e.State.Quarantined != wantState || e.State.ID != e.ID {
			t.Fatalf("%s %s: state %+v; want quarantined %v", what, e.ID, e.State, wantState)
		}
	}
	scored, err := k.EntriesScored(ctx, ids, "m", q)
	if err != nil || len(scored) != len(ids) {
		t.Fatalf("EntriesScored = %d entries, %v; want %d", len(scored), err, len(ids))
	}
	for _, e := range scored {
		check("EntriesScored", e)
	}
	near, err := k.NearestEntries(ctx, "academy", "m", q, 40)
	if err != nil {
		t.Fatal(err)
	}
	nearScored, err := k.NearestScored(ctx, "academy", "m", q, 40)
	if err != nil || len(nearScored) != len(near) || len(near) != 40 {
		t.Fatalf("NearestScored = %d entries, %v; NearestEntries %d; want 40 each", len(nearScored), err, len(near))
	}
	for i, e := range nearScored {
		if e.ID != near[i].ID {
			t.Fatalf("NearestScored[%d] = %s, NearestEntries[%d] = %s: another order", i, e.ID, i, near[i].ID)
		}
		check("NearestScored", e)
	}
}
