package main

import (
	"context"
	"fmt"
)

func init() {
	register(scenario{name: "knowledge-postgres-1m", run: benchKnowledgePostgres1M, long: true})
	register(scenario{name: "knowledge-postgres-storage", run: benchKnowledgePostgresStorage, long: true})
}

// pgLayouts are the storage layouts of knowledge_entries that
// knowledge-postgres-storage compares, each the statement that sets it
// before the seed. toast is the layout before migration 0009: the vector
// column has pgvector's EXTERNAL storage and the table the default
// toast_tuple_target (about 2 kB), so a 512-dimension row puts its vector
// (2,052 bytes) in TOAST. main keeps the vector in the row by STORAGE MAIN
// alone: the row still passes the target, so the toaster moves every other
// value longer than a TOAST pointer (id, title, content, analysis, ...) out
// instead. inline is 0009's: the row's target at a page (8160 bytes), so
// nothing leaves a row that fits a page.
var pgLayouts = map[string]string{
	"toast": `ALTER TABLE knowledge_entries RESET (toast_tuple_target);
		ALTER TABLE knowledge_entries ALTER COLUMN embedding SET STORAGE EXTERNAL`,
	"main": `ALTER TABLE knowledge_entries RESET (toast_tuple_target);
		ALTER TABLE knowledge_entries ALTER COLUMN embedding SET STORAGE MAIN`,
	"inline": `ALTER TABLE knowledge_entries SET (toast_tuple_target = 8160);
		ALTER TABLE knowledge_entries ALTER COLUMN embedding SET STORAGE EXTERNAL`,
}

// benchKnowledgePostgresStorage compares the storage layouts (pgLayouts)
// at 100,000 entries (2,000 with -quick), in one run on one cluster, each
// on a seed of its own: whether reading candidates' vectors in the row
// pays for heap pages that hold fewer rows. With -pgdir the seeds are kept,
// so runs repeated alternate the layouts on the same seeds.
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
	settings := map[string]string{"shared_buffers": "1GB"} // as knowledge-postgres
	for k, v := range statSettings {
		settings[k] = v
	}
	if err := cl.set(ctx, settings); err != nil {
		return nil, err
	}
	var rows []row
	for _, layout := range []string{"toast", "main", "inline"} {
		o.layout = layout
		r, err := benchKnowledgePostgresAt(ctx, cfg, cl, o)
		if err != nil {
			return nil, fmt.Errorf("postgres, %d entries, layout %s: %w", o.n, layout, err)
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
	o.trigramAB = o.trigramAB && !cfg.noTrigramAB
	r, err := benchKnowledgePostgresAt(ctx, cfg, cl, o)
	if err != nil {
		return nil, fmt.Errorf("postgres, %d entries: %w", o.n, err)
	}
	return r, nil
}
