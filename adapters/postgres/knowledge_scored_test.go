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

// TestScoredEFSearchGrowsWithTheTable: NearestScored searches at the
// connection's ef_search up to scoredEFFrom entries (or an unknown size),
// then harder in proportion, up to scoredEFMax.
func TestScoredEFSearchGrowsWithTheTable(t *testing.T) {
	for _, c := range []struct {
		rows float64
		want int
	}{
		{0, 40}, {3000, 40}, {100000, 40}, {scoredEFFrom, 40}, {600000, 120}, {scoredEFAt, 200}, {1000000, 200}, {5e7, 200},
	} {
		if got := ScoredEFSearch(c.rows); got != c.want {
			t.Fatalf("ScoredEFSearch(%v) = %d, want %d", c.rows, got, c.want)
		}
	}
}

// TestNearestScoredHarderSearch: in a table the driver takes for a large
// one, NearestScored answers the same rows as at ef_search 40 where both
// find the exact nearest (200 entries), its ef_search set for that one
// statement: every pooled connection is at 40 afterwards, and no
// transaction is left open.
func TestNearestScoredHarderSearch(t *testing.T) {
	k := newKnowledgeDriver(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	const dims = 16
	if err := k.ensureIndex(ctx, dims); err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(7, 8))
	at := time.Date(2026, 12, 4, 12, 0, 0, 0, time.UTC)
	var rows [][]any
	for i := 0; i < 200; i++ {
		v := make([]float32, dims)
		for j := range v {
			v[j] = float32(r.NormFloat64())
		}
		id := fmt.Sprintf("e%03d", i)
		rows = append(rows, []any{id, "academy", "t", "c", []string{}, id, "m", pgvector.NewVector(unit(v)), 0.5, at, at})
	}
	copyEntries(ctx, t, k, rows)
	q := make([]float32, dims)
	q[0] = 1
	plain, err := k.NearestScored(ctx, "academy", "m", q, 20)
	if err != nil || len(plain) != 20 {
		t.Fatalf("NearestScored at ef_search 40 = %d entries, %v; want 20", len(plain), err)
	}
	k.size.mu.Lock()
	k.size.at, k.size.est = time.Now(), 2e6
	k.size.mu.Unlock()
	for round := 0; round < 3; round++ {
		hard, err := k.NearestScored(ctx, "academy", "m", q, 20)
		if err != nil || len(hard) != len(plain) {
			t.Fatalf("NearestScored at ef_search %d = %d entries, %v; want %d", ScoredEFSearch(2e6), len(hard), err, len(plain))
		}
		for i := range hard {
			if hard[i].ID != plain[i].ID || hard[i].Similarity != plain[i].Similarity || hard[i].State == nil {
				t.Fatalf("NearestScored[%d] at ef_search %d = %s (%v), want %s (%v)", i, ScoredEFSearch(2e6), hard[i].ID, hard[i].Similarity, plain[i].ID, plain[i].Similarity)
			}
		}
	}
	conns := k.pool.AcquireAllIdle(ctx)
	if len(conns) == 0 {
		t.Fatal("no idle connection to look at")
	}
	for _, c := range conns {
		var ef string
		if err := c.QueryRow(ctx, `SHOW hnsw.ef_search`).Scan(&ef); err != nil || ef != "40" || c.Conn().PgConn().TxStatus() != 'I' {
			t.Fatalf("a pooled connection after NearestScored: ef_search %q, %v, transaction status %c; want 40, idle", ef, err, c.Conn().PgConn().TxStatus())
		}
		c.Release()
	}
}
