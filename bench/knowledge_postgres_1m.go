package main

import (
	"context"
	"fmt"
)

func init() {
	register(scenario{name: "knowledge-postgres-1m", run: benchKnowledgePostgres1M, long: true})
	register(scenario{name: "knowledge-postgres-storage", run: benchKnowledgePostgresStorage, long: true})
}

// benchKnowledgePostgresStorage compares, at 100,000 entries (2,000 with
// -quick), the embedding column's default storage (pgvector's EXTERNAL: a
// 512-dimension vector goes to TOAST) with MAIN (kept in the row), in one
// run on one cluster: whether reading candidates' vectors inline pays for
// heap pages that hold fewer rows.
func benchKnowledgePostgresStorage(ctx context.Context, cfg config) ([]row, error) {
	o := pgOpts{n: 100000, queries: 300, contribs: 200, clients: []int{8}, scans: 10, mwm: "1GB"}
	if cfg.quick {
		o = pgOpts{n: 2000, queries: 50, contribs: 48, clients: []int{8}, scans: 10, mwm: "256MB"}
	}
	cl, err := openCluster(cfg)
	if err != nil {
		return nil, err
	}
	defer cl.stop()
	var rows []row
	for _, storage := range []string{"", "MAIN"} {
		o.storage = storage
		r, err := benchKnowledgePostgresAt(ctx, cfg, cl, o)
		if err != nil {
			return nil, fmt.Errorf("postgres, %d entries, storage %q: %w", o.n, storage, err)
		}
		rows = append(rows, r...)
	}
	return rows, nil
}

// benchKnowledgePostgres1M is benchKnowledgePostgresAt at 1,000,000
// entries (#29.3; 20,000 with -quick) on a cluster of its own with 3 GB of
// shared buffers, so the HNSW index (about 2 GB) can stay in them as a
// server sized for a million entries would keep it. Seeding (COPY, the
// indexes, the HNSW build with maintenance_work_mem 4 GB) takes tens of
// minutes on 2 cores, so it is a long scenario: `make bench
// BENCH='-only knowledge-postgres-1m'` runs it; plain `make bench` does not.
// The exact scan of a million vectors takes about a second, so fewer
// queries and scans are timed than at 100k. The HNSW index is prewarmed
// into shared buffers before the queries.
func benchKnowledgePostgres1M(ctx context.Context, cfg config) ([]row, error) {
	o := pgOpts{n: 1000000, queries: 100, contribs: 400, clients: []int{1, 8}, scans: 20, mwm: "4GB", prewarm: true, trigramAB: true}
	if cfg.quick {
		o = pgOpts{n: 20000, queries: 50, contribs: 48, clients: []int{1, 8}, scans: 20, mwm: "256MB", prewarm: true, trigramAB: true}
	}
	cl, err := openCluster(cfg)
	if err != nil {
		return nil, err
	}
	defer cl.stop()
	settings := map[string]string{"shared_buffers": "3GB"}
	for k, v := range statSettings {
		settings[k] = v
	}
	if err := cl.set(ctx, settings); err != nil {
		return nil, err
	}
	r, err := benchKnowledgePostgresAt(ctx, cfg, cl, o)
	if err != nil {
		return nil, fmt.Errorf("postgres, %d entries: %w", o.n, err)
	}
	return r, nil
}
