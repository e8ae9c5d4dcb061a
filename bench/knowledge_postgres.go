package main

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/pgvector/pgvector-go"

	"pumasi/adapters/embed"
	"pumasi/adapters/local"
	"pumasi/adapters/postgres"
	"pumasi/functions"
	"pumasi/internal/testpeer"
	"pumasi/internal/wire/cloud"
	"pumasi/knowledge"
)

func init() {
	register(scenario{name: "knowledge-postgres", run: benchKnowledgePostgres})
}

// benchKnowledgePostgres runs benchKnowledgePostgresAt at 10,000 and
// 100,000 entries (2,000 with -quick) on a throwaway PostgreSQL cluster.
func benchKnowledgePostgres(ctx context.Context, cfg config) ([]row, error) {
	sizes := []int{10000, 100000}
	queries, contribs := 300, 300
	if cfg.quick {
		sizes, queries, contribs = []int{2000}, 50, 50
	}
	srv, err := testpeer.StartPostgres()
	if err != nil {
		return nil, fmt.Errorf("start postgres (scripts/postgres.sh install): %w", err)
	}
	defer srv.Stop()
	var rows []row
	for _, n := range sizes {
		r, err := benchKnowledgePostgresAt(ctx, cfg, srv, n, queries, contribs)
		if err != nil {
			return nil, fmt.Errorf("postgres, %d entries: %w", n, err)
		}
		for _, x := range r { // progress, since a 100k run takes minutes
			fmt.Fprintf(os.Stderr, "bench: %s = %s %s\n", x.Metric, num(x.Value), x.Unit)
		}
		rows = append(rows, r...)
	}
	return rows, nil
}

// benchKnowledgePostgresAt measures the Postgres knowledge engine with n
// entries, the same findings and HTTP requests as benchKnowledgeAt: GET
// /knowledge/query p50/p99 and POST /knowledge/contribute per second, each
// beside the brute-force cosine scan, and recall@10 of the driver's HNSW
// candidates (Nearest) against that exact scan. The entries are seeded by
// COPY and the index built after, as a bulk load would be.
func benchKnowledgePostgresAt(ctx context.Context, cfg config, srv *testpeer.PostgresServer, n, queries, contribs int) ([]row, error) {
	dbURL, _, err := srv.CreateDatabase(ctx)
	if err != nil {
		return nil, err
	}
	// A roomier maintenance_work_mem keeps the HNSW build in memory. The
	// engine is wired as localdev and the Lambdas wire it; the seed goes
	// straight to its pool.
	know, closeKnow, err := cloud.OpenPostgres(ctx, cloud.PostgresConfig{URL: dbURL + "&maintenance_work_mem=512MB"})
	if err != nil {
		return nil, err
	}
	defer closeKnow()
	driver := know.Driver()
	pool := driver.(interface{ Pool() *pgxpool.Pool }).Pool()
	emb := embed.NewHashed(0)

	vecs := make([][]float32, 0, n)
	ids := make([]string, 0, n)
	at := time.Now().UTC()
	entries := make([][]any, 0, n)
	for i := 0; i < n; i++ {
		title, content := benchFinding(i)
		v := emb.Vector(knowledge.EmbeddingText(title, content))
		id := uuid.NewString()
		entries = append(entries, []any{id, "academy", title, content, []string{}, knowledge.Hash(title, content),
			emb.Model(), pgvector.NewVector(v), 0.5 + float64(i%50)/100, at, at})
		vecs, ids = append(vecs, v), append(ids, id)
	}
	seedStart := time.Now()
	if _, err := pool.CopyFrom(ctx, pgx.Identifier{"knowledge_entries"},
		[]string{"id", "hive", "title", "content", "tags", "norm_hash", "model", "embedding", "specificity", "created_at", "last_used_at"},
		pgx.CopyFromRows(entries)); err != nil {
		return nil, fmt.Errorf("seed: %w", err)
	}
	if _, err := pool.Exec(ctx, `INSERT INTO knowledge_contributors (entry_id, agent) SELECT id, 'bench-seed' FROM knowledge_entries`); err != nil {
		return nil, fmt.Errorf("seed contributors: %w", err)
	}
	if err := postgres.EnsureVectorIndex(ctx, pool, len(vecs[0])); err != nil {
		return nil, err
	}
	if _, err := pool.Exec(ctx, `ANALYZE knowledge_entries`); err != nil {
		return nil, err
	}
	seedTook := time.Since(seedStart)

	// The API needs a file store for its other routes; knowledge is Postgres.
	st, err := local.Open(ctx, filepath.Join(cfg.tmp, fmt.Sprintf("pg-home-%d", n)), local.Options{})
	if err != nil {
		return nil, err
	}
	defer st.Close()
	api := &functions.API{Store: st, Secret: benchSecret, Knowledge: know, Embedder: emb, RateLimits: functions.RateLimits{Disabled: true}}
	base, stop, err := serve(api.Handler())
	if err != nil {
		return nil, err
	}
	defer stop()
	client := &http.Client{Timeout: time.Minute}

	qtexts := make([]string, queries)
	for i := range qtexts {
		t, c := benchFinding(1_000_000 + i)
		qtexts[i] = t + " " + c
	}
	if err := benchGet(ctx, client, base+"/knowledge/query?q=warm"); err != nil {
		return nil, err
	}
	qlat := make([]time.Duration, queries)
	for i, q := range qtexts {
		start := time.Now()
		if err := benchGet(ctx, client, base+"/knowledge/query?limit=5&q="+url.QueryEscape(q)); err != nil {
			return nil, err
		}
		qlat[i] = time.Since(start)
	}
	sortDurations(qlat)

	blat := make([]time.Duration, queries)
	var recall float64
	for i, q := range qtexts {
		v := emb.Vector(q)
		start := time.Now()
		exact := bruteTopK(vecs, v, 10)
		blat[i] = time.Since(start)
		got, err := driver.Nearest(ctx, "academy", emb.Model(), v, 10)
		if err != nil {
			return nil, err
		}
		in := map[string]bool{}
		for _, id := range got {
			in[id] = true
		}
		hit := 0
		for _, j := range exact {
			if in[ids[j]] {
				hit++
			}
		}
		recall += float64(hit) / float64(len(exact))
	}
	recall /= float64(queries)
	sortDurations(blat)

	contribRate, scanRate, err := benchContribute(ctx, client, base, emb, vecs, contribs)
	if err != nil {
		return nil, err
	}

	k := fmt.Sprintf("%dk", n/1000)
	return []row{
		{Metric: "postgres knowledge seed (COPY + HNSW build) @" + k, Value: seedTook.Seconds(), Unit: "s"},
		{Metric: "postgres knowledge query p50 @" + k, Value: percentile(qlat, 50), Unit: "ms", Baseline: "brute-force cosine scan p50", Base: percentile(blat, 50)},
		{Metric: "postgres knowledge query p99 @" + k, Value: percentile(qlat, 99), Unit: "ms", Baseline: "brute-force cosine scan p99", Base: percentile(blat, 99)},
		{Metric: "postgres HNSW recall@10 @" + k, Value: recall, Unit: "", Baseline: "exact scan", Base: 1, HigherIsBetter: true},
		{Metric: "postgres knowledge contribute @" + k, Value: contribRate, Unit: "/s", Baseline: "brute-force scans/s", Base: scanRate, HigherIsBetter: true},
	}, nil
}
