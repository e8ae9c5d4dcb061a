package main

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/pgvector/pgvector-go"

	"pumasi/adapters/postgres"
)

// statSettings load pg_stat_statements, whose per-statement figures say
// where a phase's time went in the server.
var statSettings = map[string]string{"shared_preload_libraries": "pg_stat_statements"}

// statements is pg_stat_statements since newStatements (nil when the
// extension is not loaded).
type statements struct{ pool *pgxpool.Pool }

func newStatements(ctx context.Context, pool *pgxpool.Pool) *statements {
	if _, err := pool.Exec(ctx, `CREATE EXTENSION IF NOT EXISTS pg_stat_statements`); err != nil {
		fmt.Fprintf(os.Stderr, "bench: no pg_stat_statements: %v\n", err)
		return nil
	}
	if _, err := pool.Exec(ctx, `SELECT pg_stat_statements_reset()`); err != nil {
		fmt.Fprintf(os.Stderr, "bench: no pg_stat_statements: %v\n", err)
		return nil
	}
	return &statements{pool: pool}
}

// print writes the statements that took the most server time since
// newStatements, to stderr.
func (s *statements) print(ctx context.Context, phase string) {
	if s == nil {
		return
	}
	rows, err := s.pool.Query(ctx, `SELECT calls, total_exec_time, mean_exec_time, total_plan_time / GREATEST(plans, 1),
			shared_blks_hit, shared_blks_read, regexp_replace(query, '\s+', ' ', 'g')
		FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
		  AND query NOT LIKE '%pg_stat_statements%'
		ORDER BY total_exec_time DESC LIMIT 8`)
	if err != nil {
		fmt.Fprintf(os.Stderr, "bench: pg_stat_statements: %v\n", err)
		return
	}
	defer rows.Close()
	fmt.Fprintf(os.Stderr, "bench: pg_stat_statements, %s (calls, exec total/mean, plan mean, blocks hit/read):\n", phase)
	for rows.Next() {
		var calls, hit, read int64
		var total, mean, plan float64
		var q string
		if err := rows.Scan(&calls, &total, &mean, &plan, &hit, &read, &q); err != nil {
			fmt.Fprintf(os.Stderr, "bench: pg_stat_statements: %v\n", err)
			return
		}
		if len(q) > 150 {
			q = q[:150] + "…"
		}
		fmt.Fprintf(os.Stderr, "bench:   %6d  %8.1f ms %7.3f ms  plan %6.3f ms  %8d/%-6d %s\n", calls, total, mean, plan, hit/max(calls, 1), read/max(calls, 1), q)
	}
}

// explainQuery prints EXPLAIN (ANALYZE, BUFFERS) of a query's nearest
// neighbour search, as the engine asks the driver for it (NearestScored:
// the rows scored where their vectors are stored), to stderr.
func explainQuery(ctx context.Context, pool *pgxpool.Pool, emb benchEmbedder, text string) {
	v := emb.Vector(text)
	// At the ef_search the driver sets for a table of this size.
	var est float64
	tx, err := pool.Begin(ctx)
	if err == nil {
		defer tx.Rollback(ctx)
		err = tx.QueryRow(ctx, `SELECT reltuples FROM pg_class WHERE oid = 'knowledge_entries'::regclass`).Scan(&est)
	}
	if err == nil {
		_, err = tx.Exec(ctx, `SELECT set_config('hnsw.ef_search', $1, true)`, fmt.Sprint(postgres.ScoredEFSearch(est)))
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "bench: explain: %v\n", err)
		return
	}
	rows, err := tx.Query(ctx, `EXPLAIN (ANALYZE, BUFFERS) `+postgres.NearestScoredSQL(len(v)),
		emb.Model(), "academy", pgvector.NewVector(v), 100)
	if err != nil {
		fmt.Fprintf(os.Stderr, "bench: explain: %v\n", err)
		return
	}
	defer rows.Close()
	var lines []string
	for rows.Next() {
		var l string
		if rows.Scan(&l) == nil {
			lines = append(lines, "bench:   "+l)
		}
	}
	fmt.Fprintf(os.Stderr, "bench: EXPLAIN (ANALYZE, BUFFERS) of NearestScored(100) at ef_search %d:\n%s\n", postgres.ScoredEFSearch(est), strings.Join(lines, "\n"))
}
