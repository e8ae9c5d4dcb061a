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

	"pumasi/knowledge"
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
	copyEntries(ctx, t, k, rows)
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
	// NearestEntries' and NearestScored's own statements: the same index
	// scan under the join that reads each row's moderation state.
	for i, limit := range []int{16, 100, 16, 100} {
		sql := NearestEntriesSQL(dims)
		if i >= 2 {
			sql = NearestScoredSQL(dims)
		}
		rows, err := k.pool.Query(ctx, `EXPLAIN `+sql, "m", "academy", pgvector.NewVector(q), limit)
		if err != nil {
			t.Fatal(err)
		}
		lines, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			t.Fatal(err)
		}
		plan := strings.Join(lines, "\n")
		if !strings.Contains(plan, "Index Scan using "+VectorIndexName(dims)) || strings.Contains(plan, "Seq Scan on knowledge_entries") {
			t.Fatalf("%.60s (limit %d) does not use the HNSW index:\n%s", sql, limit, plan)
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

// TestTermCountsInALargeTable: past knowledge.CommonTerm entries, a term
// every entry holds counts above the limit whichever way the planner
// reads it (before and after ANALYZE), a rare one counts exactly, Match
// lists the newest first, and the engine's query, choosing by those
// counts, finds its candidates by the rare terms rather than whichever
// rows come first among all of them.
func TestTermCountsInALargeTable(t *testing.T) {
	k := newKnowledgeDriver(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	const n = 10000
	rows := make([][]any, n)
	at := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	rare := map[string]bool{}
	var newest []string
	r := rand.New(rand.NewPCG(3, 4))
	for i := range rows {
		id := fmt.Sprintf("e%05d", i)
		content := "the replica lagged behind the primary on pg14"
		if r.IntN(100) == 0 || i == 0 { // 1%, spread at random (the statistics sample)
			content = "the replica lagged behind the primary during a vacuum freeze on pg15"
			rare[id] = true
			newest = append([]string{id}, newest...)
		}
		rows[i] = []any{id, "academy", fmt.Sprintf("finding %d", i), content, []string{}, id, "m",
			pgvector.NewVector([]float32{1, 0}), 0.5, at, at}
	}
	copyEntries(ctx, t, k, rows)
	terms := []knowledge.Term{{Text: "replica"}, {Text: "vacuum"}, {Text: "pg14", Substring: true}, {Text: "pg15", Substring: true}, {Text: "absent"}}
	want := fmt.Sprint([]int{knowledge.CommonTerm + 1, len(rare), knowledge.CommonTerm + 1, len(rare), 0})
	for _, analyzed := range []bool{false, true} {
		if analyzed {
			if _, err := k.pool.Exec(ctx, `ANALYZE knowledge_entries`); err != nil {
				t.Fatal(err)
			}
		}
		start := time.Now()
		got, err := k.TermCounts(ctx, terms, knowledge.CommonTerm)
		t.Logf("TermCounts of %d terms at %d entries (analyzed %v): %v", len(terms), n, analyzed, time.Since(start))
		if err != nil || fmt.Sprint(got) != want {
			t.Fatalf("TermCounts (analyzed %v) = %v, %v; want %s", analyzed, got, err, want)
		}
	}
	lists, err := k.Match(ctx, "academy", terms[1:2], 5)
	if err != nil || len(lists) != 1 || fmt.Sprint(lists[0]) != fmt.Sprint(newest[:5]) {
		t.Fatalf("Match(vacuum) = %v, %v; want the newest five %v", lists, err, newest[:5])
	}
	eng := knowledge.New(k, knowledge.Options{})
	hits, err := eng.Query(ctx, knowledge.QueryInput{Hive: "academy", Text: "replica lagged vacuum freeze pg14 pg15", Model: "m", Limit: 20})
	if err != nil || len(hits) != 20 {
		t.Fatalf("Query = %d hits, %v; want 20", len(hits), err)
	}
	for _, h := range hits {
		if !rare[h.ID] {
			t.Fatalf("Query found %s, which lacks the rare terms", h.ID)
		}
	}
	// Only common terms: the engine searches by them all the same.
	if hits, err := eng.Query(ctx, knowledge.QueryInput{Hive: "academy", Text: "replica pg14", Model: "m", Limit: 20}); err != nil || len(hits) != 20 {
		t.Fatalf("only common terms: Query = %d hits, %v; want 20", len(hits), err)
	}
}

// TestMatchRecentIsOneIndexScan: the search for a common word among the
// newest entries (matchRecentSQL) is one scan of knowledge_entries_search
// with both the word and the seq bound (migration 0011), not a BitmapAnd
// that reads the word's whole posting list, and it lists the newest first.
func TestMatchRecentIsOneIndexScan(t *testing.T) {
	k := newKnowledgeDriver(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	const n = 10000
	rows := make([][]any, n)
	at := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	var newest []string
	for i := range rows {
		id := fmt.Sprintf("e%05d", i)
		content := "the replica lagged behind the primary"
		if i%4 == 0 {
			content = "the replica lagged behind the primary during a vacuum freeze"
			newest = append([]string{id}, newest...)
		}
		rows[i] = []any{id, "academy", fmt.Sprintf("finding %d", i), content, []string{}, id, "m",
			pgvector.NewVector([]float32{1, 0}), 0.5, at, at}
	}
	copyEntries(ctx, t, k, rows)
	if _, err := k.pool.Exec(ctx, `ANALYZE knowledge_entries`); err != nil {
		t.Fatal(err)
	}
	plan := explain(t, k.pool, matchRecentSQL, termArg(knowledge.Term{Text: "vacuum"}), "academy", 20, int64(200))
	if !strings.Contains(plan, "knowledge_entries_search") || strings.Contains(plan, "BitmapAnd") {
		t.Fatalf("matchRecentSQL is not one scan of knowledge_entries_search:\n%s", plan)
	}
	got, err := k.ids(ctx, matchRecentSQL, termArg(knowledge.Term{Text: "vacuum"}), "academy", 20, int64(200))
	if err != nil || fmt.Sprint(got) != fmt.Sprint(newest[:20]) {
		t.Fatalf("matchRecentSQL(vacuum) = %v, %v; want the newest 20 %v", got, err, newest[:20])
	}
}

// copyEntries loads rows (id, hive, title, content, tags, norm_hash, model,
// embedding, specificity, created_at, last_used_at) into knowledge_entries
// by COPY, as a large table is seeded.
func copyEntries(ctx context.Context, t *testing.T, k *Knowledge, rows [][]any) {
	t.Helper()
	if _, err := k.pool.CopyFrom(ctx, pgx.Identifier{"knowledge_entries"},
		[]string{"id", "hive", "title", "content", "tags", "norm_hash", "model", "embedding", "specificity", "created_at", "last_used_at"},
		pgx.CopyFromRows(rows)); err != nil {
		t.Fatal(err)
	}
}
