package postgres

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/pgvector/pgvector-go"
)

// TestNearestUsesHNSWIndex: with a few thousand entries the planner answers
// Nearest's statement (as Nearest spells it) from the dimension's HNSW
// index, filtering hive and model after it, rather than scanning the table
// and sorting.
func TestNearestUsesHNSWIndex(t *testing.T) {
	k := newKnowledgeDriver(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	const n, dims = 3000, 64
	if err := k.ensureIndex(ctx, dims); err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 2))
	rows := make([][]any, n)
	at := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	for i := range rows {
		v := make([]float32, dims)
		for j := range v {
			v[j] = float32(r.NormFloat64())
		}
		hive := "academy"
		if i%3 == 0 {
			hive = "backend"
		}
		rows[i] = []any{fmt.Sprintf("e%05d", i), hive, "t", "c", []string{}, fmt.Sprintf("h%05d", i), "m",
			pgvector.NewVector(unit(v)), 0.5, at, at}
	}
	if _, err := k.pool.CopyFrom(ctx, pgx.Identifier{"knowledge_entries"},
		[]string{"id", "hive", "title", "content", "tags", "norm_hash", "model", "embedding", "specificity", "created_at", "last_used_at"},
		pgx.CopyFromRows(rows)); err != nil {
		t.Fatal(err)
	}
	if _, err := k.pool.Exec(ctx, `ANALYZE knowledge_entries`); err != nil {
		t.Fatal(err)
	}
	q := make([]float32, dims)
	q[0] = 1
	// 16 is a contribution's dedup probe, 100 a query's candidate pool;
	// NearestEntries reads every column in the same scan.
	for _, cols := range []string{"id", storedCols} {
		for _, limit := range []int{16, 100} {
			plan := explainNearest(t, k, cols, "academy", "m", q, limit)
			t.Logf("EXPLAIN of Nearest (%.20s) at %d entries, limit %d:\n%s", cols, n, limit, plan)
			if !strings.Contains(plan, "Index Scan using "+VectorIndexName(dims)) || strings.Contains(plan, "Seq Scan") {
				t.Fatalf("Nearest (%.20s, limit %d) does not use the HNSW index:\n%s", cols, limit, plan)
			}
		}
	}
	ids, err := k.Nearest(ctx, "academy", "m", q, 16)
	if err != nil || len(ids) != 16 {
		t.Fatalf("Nearest = %d ids, %v; want 16 (iterative scan past the filtered-out hive)", len(ids), err)
	}
}

// explainNearest returns the plan of the statement Nearest runs, under the
// same settings.
func explainNearest(t *testing.T, k *Knowledge, cols, hive, model string, v []float32, n int) string {
	t.Helper()
	ctx := context.Background()
	rows, err := k.pool.Query(ctx, `EXPLAIN `+NearestSQL(len(v), cols), model, hive, pgvector.NewVector(v), n)
	if err != nil {
		t.Fatal(err)
	}
	lines, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(lines, "\n")
}

// TestLexicalDropsCommonTermsInALargeTable: past commonTerm entries, a
// term every entry holds is left out of the searches (by the planner's
// statistics), so the lexical candidates are the entries with the rare
// terms rather than whichever rows rank first among all of them.
func TestLexicalDropsCommonTermsInALargeTable(t *testing.T) {
	k := newKnowledgeDriver(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	const n = 10000
	rows := make([][]any, n)
	at := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	rare := map[string]bool{}
	r := rand.New(rand.NewPCG(3, 4))
	for i := range rows {
		id := fmt.Sprintf("e%05d", i)
		content := "the replica lagged behind the primary on pg14"
		if r.IntN(100) == 0 || i == 0 { // 1%, spread at random (the statistics sample)
			content = "the replica lagged behind the primary during a vacuum freeze on pg15"
			rare[id] = true
		}
		rows[i] = []any{id, "academy", fmt.Sprintf("finding %d", i), content, []string{}, id, "m",
			pgvector.NewVector([]float32{1, 0}), 0.5, at, at}
	}
	if _, err := k.pool.CopyFrom(ctx, pgx.Identifier{"knowledge_entries"},
		[]string{"id", "hive", "title", "content", "tags", "norm_hash", "model", "embedding", "specificity", "created_at", "last_used_at"},
		pgx.CopyFromRows(rows)); err != nil {
		t.Fatal(err)
	}
	terms := []string{"replica", "lagged", "vacuum", "freeze", "pg14", "pg15"}
	tri := []string{"pg14", "pg15"}
	fts, sub, err := k.rareTerms(ctx, terms, tri)
	if err != nil || len(fts) != searchTerms || len(sub) != len(tri) {
		t.Fatalf("before ANALYZE rareTerms = %v %v, %v; want the first %d terms and both trigram terms", fts, sub, err, searchTerms)
	}
	if _, err := k.pool.Exec(ctx, `ANALYZE knowledge_entries`); err != nil {
		t.Fatal(err)
	}
	k.terms.forget() // a process sees new statistics within termStatsTTL
	if fts, sub, err = k.rareTerms(ctx, terms, tri); err != nil || strings.Join(fts, ",") != "vacuum,freeze,pg15" || strings.Join(sub, ",") != "pg15" {
		t.Fatalf("rareTerms = %v %v, %v; want [vacuum freeze pg15] and [pg15]", fts, sub, err)
	}
	ids, err := k.Lexical(ctx, "academy", terms, 20)
	if err != nil || len(ids) != 20 {
		t.Fatalf("Lexical = %d ids, %v; want 20", len(ids), err)
	}
	for _, id := range ids {
		if !rare[id] {
			t.Fatalf("Lexical returned %s, which lacks the rare terms: %v", id, ids)
		}
	}
	if ids, err := k.Lexical(ctx, "academy", []string{"replica", "pg14"}, 20); err != nil || len(ids) != 0 {
		t.Fatalf("only common terms: Lexical = %v, %v; want nothing (the vector side finds those)", ids, err)
	}
}
