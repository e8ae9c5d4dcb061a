package postgres

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// insertEntry writes an entry the way a driver would, ON CONFLICT on the
// exact-duplicate key, and returns the new seq or 0 when the key existed.
func insertEntry(t *testing.T, pool *pgxpool.Pool, id, hive, title, content string, tags []string, hash, vec string) int64 {
	t.Helper()
	seq, err := tryInsert(pool, id, hive, title, content, tags, hash, vec)
	if err != nil {
		t.Fatalf("insert %s: %v", id, err)
	}
	return seq
}

// tryInsert is insertEntry for goroutines, which must not call t.Fatal.
func tryInsert(pool *pgxpool.Pool, id, hive, title, content string, tags []string, hash, vec string) (int64, error) {
	if tags == nil {
		tags = []string{} // a nil slice is NULL, which tags refuses
	}
	var seq int64
	err := pool.QueryRow(context.Background(), `INSERT INTO knowledge_entries
		(id, hive, title, content, tags, norm_hash, model, embedding, specificity, created_at, last_used_at)
		VALUES ($1, $2, $3, $4, $5, $6, 'test', $7::vector, 0.8, now(), now())
		ON CONFLICT (hive, norm_hash) DO NOTHING RETURNING seq`,
		id, hive, title, content, tags, hash, vec).Scan(&seq)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, nil
	}
	return seq, err
}

func queryIDs(t *testing.T, q interface {
	Query(context.Context, string, ...any) (pgx.Rows, error)
}, sql string, args ...any) []string {
	t.Helper()
	rows, err := q.Query(context.Background(), sql, args...)
	if err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	got, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	return got
}

// explain returns the plan of sql with sequential scans off, so that a plan
// naming an index proves the index can serve the query.
func explain(t *testing.T, pool *pgxpool.Pool, sql string, args ...any) string {
	t.Helper()
	var plan []string
	err := pgx.BeginFunc(context.Background(), pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(context.Background(), `SET LOCAL enable_seqscan = off`); err != nil {
			return err
		}
		plan = queryIDs(t, tx, "EXPLAIN "+sql, args...)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(plan, "\n")
}

// TestSchemaKeys: the exact-duplicate key merges race-free, and the
// contributor and endorser keys count an agent once per entry.
func TestSchemaKeys(t *testing.T) {
	pool := migrated(t)
	ctx := context.Background()
	// 20 writers race the same (hive, norm_hash): exactly one row is created.
	var wg sync.WaitGroup
	created := make([]int64, 20)
	errs := make([]error, len(created))
	for i := range created {
		wg.Go(func() {
			created[i], errs[i] = tryInsert(pool, fmt.Sprintf("e%d", i), "academy", "t", "c", nil, "h1", "[1,0,0]")
		})
	}
	wg.Wait()
	var won int
	for i, seq := range created {
		if errs[i] != nil {
			t.Fatalf("racing insert %d: %v", i, errs[i])
		}
		if seq != 0 {
			won++
		}
	}
	if won != 1 {
		t.Fatalf("racing inserts of one norm_hash created %d entries, want 1", won)
	}
	if seq := insertEntry(t, pool, "other-hive", "lab", "t", "c", nil, "h1", "[1,0,0]"); seq == 0 {
		t.Fatalf("the same norm_hash in another hive was refused, want a new entry")
	}
	var id string
	if err := pool.QueryRow(ctx, `SELECT id FROM knowledge_entries WHERE hive = 'academy' AND norm_hash = 'h1'`).Scan(&id); err != nil {
		t.Fatal(err)
	}
	for _, table := range []string{"knowledge_contributors", "knowledge_endorsements"} {
		cols, vals := "(entry_id, agent)", "($1, $2)"
		if table == "knowledge_endorsements" {
			// Keyed by origin too (0002): one agent's row per origin.
			cols, vals = "(entry_id, agent, at, origin)", "($1, $2, now(), $1)"
		}
		var counted []bool
		for _, agent := range []string{"ana", "ana", "bo", "ana"} {
			tag, err := pool.Exec(ctx, "INSERT INTO "+table+" "+cols+" VALUES "+vals+" ON CONFLICT DO NOTHING", id, agent)
			if err != nil {
				t.Fatal(err)
			}
			counted = append(counted, tag.RowsAffected() == 1)
		}
		if want := []bool{true, false, true, false}; !slices.Equal(counted, want) {
			t.Errorf("%s: counted = %v, want %v", table, counted, want)
		}
	}
	_, err := pool.Exec(ctx, `INSERT INTO knowledge_contributors (entry_id, agent) VALUES ('no-such-entry', 'ana')`)
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || pe.Code != "23503" {
		t.Fatalf("contributor of a missing entry: %v, want a foreign-key violation", err)
	}
}

// TestSchemaCounters: 50 concurrent UPDATE ... SET n = n + 1 from two pools
// (two processes) land exactly.
func TestSchemaCounters(t *testing.T) {
	pool := migrated(t)
	other := openTest(t, pool.Config().ConnString())
	insertEntry(t, pool, "e", "academy", "t", "c", nil, "h", "[1,0,0]")
	var wg sync.WaitGroup
	for i := range 50 {
		p := pool
		if i%2 == 1 {
			p = other
		}
		wg.Go(func() {
			if _, err := p.Exec(context.Background(), `UPDATE knowledge_entries SET citation_count = citation_count + 1,
				last_used_at = greatest(last_used_at, now()) WHERE id = 'e'`); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	var n int
	if err := pool.QueryRow(context.Background(), `SELECT citation_count FROM knowledge_entries WHERE id = 'e'`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 50 {
		t.Fatalf("citation_count after 50 concurrent cites = %d, want 50", n)
	}
}

// TestSchemaVectors: HNSW on the dimension-free column is refused, a
// per-dimension partial index is made once (racing callers included),
// serves the cosine query written as migrations/0001 says and answers
// nearest first, while entries of other dimensions live beside it.
func TestSchemaVectors(t *testing.T) {
	pool := migrated(t)
	ctx := context.Background()
	_, err := pool.Exec(ctx, `CREATE INDEX bare ON knowledge_entries USING hnsw (embedding vector_cosine_ops)`)
	if err == nil || !strings.Contains(err.Error(), "column does not have dimensions") {
		t.Fatalf("HNSW on a dimension-free vector column: %v, want pgvector's refusal", err)
	}
	for _, dims := range []int{0, -1, MaxIndexedDims + 1} {
		if err := EnsureVectorIndex(ctx, pool, dims); err == nil {
			t.Errorf("EnsureVectorIndex(%d) succeeded, want an error", dims)
		}
	}
	var wg sync.WaitGroup
	errs := make([]error, 6)
	for i := range errs {
		wg.Go(func() { errs[i] = EnsureVectorIndex(ctx, pool, 3+i%2) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("EnsureVectorIndex #%d: %v", i, err)
		}
	}
	got := queryIDs(t, pool, `SELECT indexname FROM pg_indexes WHERE tablename = 'knowledge_entries' AND indexname LIKE 'knowledge_entries_hnsw_%' ORDER BY 1`)
	if want := []string{VectorIndexName(3), VectorIndexName(4)}; !slices.Equal(got, want) {
		t.Fatalf("vector indexes = %v, want %v", got, want)
	}

	for i, v := range []string{"[1,0,0]", "[0.9,0.1,0]", "[0,1,0]", "[0,0,1]", "[0.7,0.7,0]"} {
		insertEntry(t, pool, fmt.Sprintf("d3-%d", i+1), "academy", "t", "c", nil, fmt.Sprintf("h3-%d", i), v)
	}
	insertEntry(t, pool, "d4", "academy", "t", "c", nil, "h4", "[1,0,0,0]")
	insertEntry(t, pool, "d2", "academy", "t", "c", nil, "h2", "[1,0]") // no index for 2: still stored
	insertEntry(t, pool, "lab", "lab", "t", "c", nil, "h3-lab", "[0.85,0.15,0]")
	knn := `SELECT id FROM knowledge_entries WHERE dims = 3 AND hive = $1 AND model = 'test'
		ORDER BY embedding::vector(3) <=> $2::vector(3) LIMIT 3`
	if plan := explain(t, pool, knn, "academy", "[0.85,0.15,0]"); !strings.Contains(plan, VectorIndexName(3)) {
		t.Fatalf("nearest query does not use %s:\n%s", VectorIndexName(3), plan)
	}
	var ids []string
	err = pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SET LOCAL hnsw.iterative_scan = relaxed_order`); err != nil {
			return err
		}
		ids = queryIDs(t, tx, knn, "academy", "[0.85,0.15,0]")
		return nil
	})
	if err != nil {
		t.Fatalf("hnsw.iterative_scan (pgvector 0.8.0): %v", err)
	}
	if want := []string{"d3-2", "d3-1", "d3-5"}; !slices.Equal(ids, want) {
		t.Fatalf("nearest in academy = %v, want %v", ids, want)
	}
	var dims int
	if err := pool.QueryRow(ctx, `SELECT dims FROM knowledge_entries WHERE id = 'd4'`).Scan(&dims); err != nil || dims != 4 {
		t.Fatalf("dims of a 4-dimensional entry = %d (%v), want 4", dims, err)
	}
}

// TestSchemaLexical: the tsvector knowledge_search indexes matches stemmed English across
// title, content and tags, and the trigram index over knowledge_text finds
// Korean and identifiers, both through their indexes.
func TestSchemaLexical(t *testing.T) {
	pool := migrated(t)
	insertEntry(t, pool, "pgx", "academy", "pgx refuses connection", "dial tcp 127.0.0.1:5432: connection refused when the server is down", []string{"postgres"}, "a", "[1,0,0]")
	insertEntry(t, pool, "norows", "academy", "sql.ErrNoRows from QueryRow", "Scan returns sql.ErrNoRows when no row matched", []string{"database/sql"}, "b", "[1,0,0]")
	insertEntry(t, pool, "ko", "academy", "데이터베이스 연결 오류", "서버가 꺼져 있으면 데이터베이스 연결이 거부됩니다", nil, "c", "[1,0,0]")
	insertEntry(t, pool, "tagged", "academy", "index build memory", "maintenance_work_mem bounds the graph build", []string{"migrations"}, "d", "[1,0,0]")

	fts := `SELECT id FROM knowledge_entries WHERE knowledge_search(title, content, tags) @@ websearch_to_tsquery('english', $1)
		ORDER BY ts_rank(knowledge_search(title, content, tags), websearch_to_tsquery('english', $1)) DESC, id`
	if plan := explain(t, pool, fts, "connections"); !strings.Contains(plan, "knowledge_entries_search") {
		t.Fatalf("full-text query does not use knowledge_entries_search:\n%s", plan)
	}
	trgm := `SELECT id FROM knowledge_entries WHERE $1 <% knowledge_text(title, content, tags)
		ORDER BY word_similarity($1, knowledge_text(title, content, tags)) DESC, id`
	if plan := explain(t, pool, trgm, "ErrNoRows"); !strings.Contains(plan, "knowledge_entries_trgm") {
		t.Fatalf("trigram query does not use knowledge_entries_trgm:\n%s", plan)
	}
	for _, tt := range []struct {
		q, sql string
		want   []string
	}{
		{"refusing connections", fts, []string{"pgx"}},
		{"migration", fts, []string{"tagged"}}, // a tag, stemmed
		{"데이터베이스 연결", trgm, []string{"ko"}},
		{"ErrNoRows", trgm, []string{"norows"}},
		{"maintenance_work_mem", trgm, []string{"tagged"}},
		{"쿠버네티스", trgm, nil},
	} {
		if got := queryIDs(t, pool, tt.sql, tt.q); !slices.Equal(got, tt.want) {
			t.Errorf("%q = %v, want %v", tt.q, got, tt.want)
		}
	}
}

// TestSchemaSweepTables: a sweep's report and mark round-trip.
func TestSchemaSweepTables(t *testing.T) {
	pool := migrated(t)
	ctx := context.Background()
	at := time.Date(2026, 12, 1, 2, 0, 0, 0, time.UTC)
	if _, err := pool.Exec(ctx, `INSERT INTO knowledge_sweeps (at, scanned, merged, aged, batches, took_ms) VALUES ($1, 10, 2, 1, 1, 35)`, at); err != nil {
		t.Fatal(err)
	}
	if _, err := pool.Exec(ctx, `UPDATE knowledge_meta SET value = 42 WHERE key = 'sweep_seq'`); err != nil {
		t.Fatal(err)
	}
	var gotAt time.Time
	var merged int
	var mark int64
	if err := pool.QueryRow(ctx, `SELECT s.at, s.merged, m.value FROM knowledge_sweeps s, knowledge_meta m
		WHERE m.key = 'sweep_seq' ORDER BY s.seq DESC LIMIT 1`).Scan(&gotAt, &merged, &mark); err != nil {
		t.Fatal(err)
	}
	if !gotAt.Equal(at) || merged != 2 || mark != 42 {
		t.Fatalf("sweep row = %v merged %d mark %d, want %v merged 2 mark 42", gotAt, merged, mark, at)
	}
}
