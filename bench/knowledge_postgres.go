package main

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"pumasi/adapters/embed"
	"pumasi/adapters/local"
	"pumasi/adapters/postgres"
	"pumasi/functions"
	"pumasi/knowledge"
)

func init() {
	register(scenario{name: "knowledge-postgres", run: benchKnowledgePostgres})
}

// benchEmbedder is what the Postgres rows ask of the embedder.
type benchEmbedder interface {
	functions.Embedder
	Vector(text string) []float32
	Dim() int
}

// relabelled is the hashed embedder under another model name.
type relabelled struct {
	*embed.Hashed
	model string
}

func (r relabelled) Model() string { return r.model }

// pgOpts is one size's run of benchKnowledgePostgresAt.
type pgOpts struct {
	n        int
	queries  int   // sequential GET /knowledge/query
	contribs int   // POST /knowledge/contribute per client count
	clients  []int // concurrent contributing clients, one row each
	scans    int   // exact scans timed for the contribute baseline
	mwm      string
	// prewarm loads the HNSW index into shared buffers (pg_prewarm) before
	// the queries, as a server that has been answering would hold it.
	prewarm bool
	// trigramAB measures the queries and contributions again without the
	// trigram index (knowledge_postgres_trigram.go).
	trigramAB bool
	// layout, when set, names the table's storage layout (pgLayouts), set
	// before the seed, for knowledge-postgres-storage.
	layout string
}

// benchKnowledgePostgres runs benchKnowledgePostgresAt at 10,000 and
// 100,000 entries (2,000 with -quick) on a throwaway PostgreSQL cluster.
func benchKnowledgePostgres(ctx context.Context, cfg config) ([]row, error) {
	runs := []pgOpts{
		{n: 10000, queries: 300, contribs: 400, clients: []int{1, 8}, scans: 300, mwm: "512MB"},
		{n: 100000, queries: 300, contribs: 400, clients: []int{1, 8}, scans: 100, mwm: "1GB"},
	}
	if cfg.quick {
		runs = []pgOpts{{n: 2000, queries: 50, contribs: 48, clients: []int{1, 8}, scans: 50, mwm: "256MB"}}
	}
	if len(cfg.pgSizes) > 0 {
		runs = slices.DeleteFunc(runs, func(o pgOpts) bool { return !cfg.pgSizes[o.n] })
	}
	cl, err := openCluster(cfg)
	if err != nil {
		return nil, err
	}
	defer cl.stop()
	// 1 GB of shared buffers, as a server sized for 100,000 entries (about
	// 700 MB with their indexes) would have: with the default 128 MB, each
	// query read some 500 blocks of the HNSW index from the OS's cache
	// (pg_stat_statements).
	settings := map[string]string{"shared_buffers": "1GB"}
	for k, v := range statSettings {
		settings[k] = v
	}
	if err := cl.set(ctx, settings); err != nil {
		return nil, err
	}
	var rows []row
	for _, o := range runs {
		r, err := benchKnowledgePostgresAt(ctx, cfg, cl, o)
		if err != nil {
			return nil, fmt.Errorf("postgres, %d entries: %w", o.n, err)
		}
		rows = append(rows, r...)
	}
	return rows, nil
}

// warmQueries are the queries a measurement makes before it times any.
const warmQueries = 20

// benchKnowledgePostgresAt measures the Postgres knowledge engine with o.n
// entries, the same findings and HTTP requests as benchKnowledgeAt: GET
// /knowledge/query p50/p99 and POST /knowledge/contribute per second from
// 1 and 8 concurrent clients, each beside the brute-force cosine scan over
// the same vectors in Go, and recall@10 of the driver's HNSW candidates
// (Nearest) against that exact scan. The engine is wired as
// cloud.OpenPostgres wires it (pool, migrations, retrying driver) with a
// timing wrapper around the driver, whose per-call figures say where a
// request's time goes. The entries are seeded by COPY and the indexes built
// after, as a bulk load would be (seedPostgres).
func benchKnowledgePostgresAt(ctx context.Context, cfg config, cl pgCluster, o pgOpts) ([]row, error) {
	dbURL, reused, err := cl.database(ctx, fmt.Sprintf("%d%s", o.n, o.layout))
	if err != nil {
		return nil, err
	}
	pool, err := openMigrated(ctx, dbURL)
	if err != nil {
		return nil, err
	}
	defer pool.Close()
	if o.layout != "" {
		if _, err := pool.Exec(ctx, pgLayouts[o.layout]); err != nil {
			return nil, err
		}
	}
	raw := postgres.Retrying(postgres.NewKnowledgeDriver(pool))
	timed := newTimedDriver(raw)
	know := knowledge.New(timed, knowledge.Options{})
	hashed := embed.NewHashed(0)
	k := fmt.Sprintf("%dk", o.n/1000)
	if o.n >= 1000000 {
		k = fmt.Sprintf("%dM", o.n/1000000)
	}
	if o.layout != "" {
		k += ", layout " + o.layout
	}

	vecs, ids, seed, model, err := seedPostgres(ctx, dbURL, o.n, hashed, o.mwm, reused)
	if err != nil {
		return nil, err
	}
	// A kept seed made by an earlier build is labelled with that build's
	// model name: queries and contributions take it, or they would find
	// no vector candidates (the vectors differ a little; the exact
	// baseline uses the stored ones).
	var emb benchEmbedder = hashed
	if model != hashed.Model() {
		fmt.Fprintf(os.Stderr, "bench: the seed's vectors are labelled %s; this build's embedder is %s: using the seed's name\n", model, hashed.Model())
		emb = relabelled{hashed, model}
	}
	rows := []row{
		{Metric: "postgres knowledge seed: COPY @" + k, Value: seed.copy.Seconds(), Unit: "s"},
		{Metric: "postgres knowledge seed: GIN, trigram, b-tree indexes @" + k, Value: seed.indexes.Seconds(), Unit: "s"},
		{Metric: "postgres knowledge seed: HNSW build (mwm " + o.mwm + ") @" + k, Value: seed.hnsw.Seconds(), Unit: "s", Baseline: "COPY", Base: seed.copy.Seconds()},
	}
	progress(rows...)
	if cfg.seedOnly {
		return rows, nil
	}
	// A kept seed made by a build with another details extractor or
	// lexicon would have every contribution's dedup probe parse its 16
	// candidates' texts again (1.1-1.4 ms of CPU a contribution at
	// detailsVersion 8 over a seed of 6), which a server does only until
	// its sweep stores the current details (Engine.Redetail): store them
	// first, as a fresh seed has them.
	if reused {
		start := time.Now()
		n, err := knowledge.New(raw, knowledge.Options{}).Redetail(ctx)
		if err != nil {
			return nil, fmt.Errorf("redetail the kept seed: %w", err)
		}
		if n > 0 {
			fmt.Fprintf(os.Stderr, "bench: stored this build's details with %d entries of the kept seed in %s\n", n, time.Since(start).Round(time.Millisecond))
		}
	}
	// A kept database holds earlier runs' contributions, some still in
	// the GIN indexes' pending lists, which every text search reads whole:
	// merge them, as a fresh seed starts.
	if reused {
		if _, err := pool.Exec(ctx, `VACUUM (ANALYZE) knowledge_entries`); err != nil {
			return nil, err
		}
	}
	// Entries that earlier runs on a kept database contributed: this run's
	// contributions start past them, so none is an exact duplicate.
	extra := len(ids) - o.n
	if o.prewarm {
		start := time.Now()
		var blocks int64
		if _, err := pool.Exec(ctx, `CREATE EXTENSION IF NOT EXISTS pg_prewarm`); err != nil {
			return nil, err
		}
		if err := pool.QueryRow(ctx, `SELECT pg_prewarm($1::regclass)`, postgres.VectorIndexName(emb.Dim())).Scan(&blocks); err != nil {
			return nil, err
		}
		fmt.Fprintf(os.Stderr, "bench: prewarmed %d blocks of the HNSW index in %s\n", blocks, time.Since(start).Round(time.Millisecond))
	}

	// The API needs a file store for its other routes; knowledge is Postgres.
	st, err := local.Open(ctx, filepath.Join(cfg.tmp, fmt.Sprintf("pg-home-%d", o.n)), local.Options{})
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
	client := &http.Client{Timeout: time.Minute, Transport: &http.Transport{MaxIdleConnsPerHost: 32}}

	qtexts := make([]string, o.queries)
	for i := range qtexts {
		t, c := benchFinding(1_000_000 + i)
		qtexts[i] = t + " " + c
	}
	// Warm-up: queries like the timed ones but not among them. The first
	// few after the seed and the index build are cold (pages not yet in
	// shared buffers, each pool connection's first statements): at 100k the
	// first 8 of 300 took 26-175 ms against a p50 of 5.8, and alone they
	// made the p99. They get a row of their own (the slowest of them); the
	// p50 and p99 are the steady state's.
	cold := make([]time.Duration, warmQueries)
	for i := range cold {
		t, c := benchFinding(2_000_000 + i)
		start := time.Now()
		if err := benchGet(ctx, client, base+"/knowledge/query?limit=5&q="+url.QueryEscape(t+" "+c)); err != nil {
			return nil, err
		}
		cold[i] = time.Since(start)
	}
	sortDurations(cold)
	timed.take()
	stats := newStatements(ctx, pool)
	qcpu := newCPUMeter(ctx, pool)
	qlat := make([]time.Duration, o.queries)
	for i, q := range qtexts {
		start := time.Now()
		if err := benchGet(ctx, client, base+"/knowledge/query?limit=5&q="+url.QueryEscape(q)); err != nil {
			return nil, err
		}
		qlat[i] = time.Since(start)
	}
	sortDurations(qlat)
	qcpuRows := qcpu.rows(ctx, "query", k, o.queries)
	qcalls := timed.take()
	fmt.Fprintf(os.Stderr, "bench: query driver calls @%s: %s\n", k, callSummary(qcalls))
	stats.print(ctx, "queries @"+k)
	explainQuery(ctx, pool, emb, qtexts[0])

	// The exact top 10 of each query, timed as the baseline, and the
	// driver's HNSW candidates against it (untimed: not a request).
	blat := make([]time.Duration, o.queries)
	// recallPool is the same for the query's vector candidates: the top
	// 10 by exact similarity of the DefaultCandidates that NearestScored
	// answers (at the ef_search it sets for the table's size), the vector
	// side of what the engine ranks.
	var recall, recallPool float64
	scoring := raw.(knowledge.ScoringReader)
	for i, q := range qtexts {
		v := emb.Vector(q)
		start := time.Now()
		exact := bruteTopK(vecs, v, 10)
		blat[i] = time.Since(start)
		got, err := raw.Nearest(ctx, "academy", emb.Model(), v, 10)
		if err != nil {
			return nil, err
		}
		scored, err := scoring.NearestScored(ctx, "academy", emb.Model(), v, knowledge.DefaultCandidates)
		if err != nil {
			return nil, err
		}
		slices.SortStableFunc(scored, func(a, b knowledge.StoredEntry) int { return cmp.Compare(b.Similarity, a.Similarity) })
		var top []string
		for _, e := range scored[:min(10, len(scored))] {
			top = append(top, e.ID)
		}
		recall += overlap(got, exact, ids)
		recallPool += overlap(top, exact, ids)
	}
	recall /= float64(o.queries)
	recallPool /= float64(o.queries)
	sortDurations(blat)
	two, one, err := nearestAB(ctx, raw, emb, qtexts)
	if err != nil {
		return nil, err
	}
	reads, err := readsAB(ctx, raw, emb, qtexts)
	if err != nil {
		return nil, err
	}
	qp50 := percentile(qlat, 50)
	r := []row{
		{Metric: "postgres knowledge query p50 @" + k, Value: qp50, Unit: "ms", Baseline: "brute-force cosine scan p50", Base: percentile(blat, 50)},
		{Metric: "postgres knowledge query p99 @" + k, Value: percentile(qlat, 99), Unit: "ms", Baseline: "brute-force cosine scan p99", Base: percentile(blat, 99)},
		{Metric: fmt.Sprintf("postgres knowledge query, slowest of the first %d after the seed (cold) @%s", warmQueries, k), Value: percentile(cold, 100), Unit: "ms",
			Baseline: "query p99 (warm)", Base: percentile(qlat, 99)},
		{Metric: fmt.Sprintf("postgres recall@10 of a query's vector candidates (top 10 of %d by exact similarity, NearestScored) @%s",
			knowledge.DefaultCandidates, k), Value: recallPool, Unit: "", Baseline: "exact scan", Base: 1, HigherIsBetter: true},
		{Metric: "  HNSW index alone, recall@10 of Nearest(10) at ef_search 40 @" + k, Value: recall, Unit: "", Baseline: "exact scan", Base: 1, HigherIsBetter: true},
		{Metric: "  driver NearestEntries(100) p50, the vector candidates' rows in one statement @" + k, Value: percentile(one, 50), Unit: "ms",
			Baseline: "Nearest(100) then Entries", Base: percentile(two, 50)},
		{Metric: "  engine query p50 (no HTTP), rows scored in the database with their moderation states @" + k, Value: percentile(reads[0], 50), Unit: "ms",
			Baseline: "vectors back, ModStates apart", Base: percentile(reads[2], 50)},
		{Metric: "  engine query p99 (no HTTP), rows scored in the database with their moderation states @" + k, Value: percentile(reads[0], 99), Unit: "ms",
			Baseline: "vectors back, ModStates apart", Base: percentile(reads[2], 99)},
		{Metric: "  engine query p50 (no HTTP), vectors back with the moderation states @" + k, Value: percentile(reads[1], 50), Unit: "ms",
			Baseline: "vectors back, ModStates apart", Base: percentile(reads[2], 50)},
	}
	r = append(r, driverRows("query", k, qcalls, o.queries, qp50)...)
	r = append(r, qcpuRows...)
	progress(r...)
	rows = append(rows, r...)

	scanRate := exactScanRate(emb, vecs, o.scans)
	with := [3]float64{qp50, percentile(qlat, 99), 0}
	for ci, c := range o.clients {
		before := pool.Stat()
		stats := newStatements(ctx, pool)
		cpu := newCPUMeter(ctx, pool)
		rate, lat, err := benchContributeClients(ctx, client, base, o.contribs, c, 2_000_000+ci*500_000+extra)
		if err != nil {
			return nil, err
		}
		if c == 8 {
			with[2] = rate
		}
		after := pool.Stat()
		cpuRows := cpu.rows(ctx, fmt.Sprintf("contribute (%d clients)", c), k, o.contribs)
		calls := timed.take()
		// Time the driver's calls spent waiting for a pooled connection.
		acquires := after.AcquireCount() - before.AcquireCount()
		wait := (after.AcquireDuration() - before.AcquireDuration()) / time.Duration(max(acquires, 1))
		fmt.Fprintf(os.Stderr, "bench: contribute driver calls @%s, %d clients: %s\n", k, c, callSummary(calls))
		stats.print(ctx, fmt.Sprintf("contributions from %d clients @%s", c, k))
		phase := fmt.Sprintf("contribute (%d clients)", c)
		r := []row{
			{Metric: fmt.Sprintf("postgres knowledge contribute, %d client(s) @%s", c, k), Value: rate, Unit: "/s", Baseline: "brute-force scans/s", Base: scanRate, HigherIsBetter: true},
			{Metric: fmt.Sprintf("postgres knowledge contribute p50, %d client(s) @%s", c, k), Value: percentile(lat, 50), Unit: "ms"},
		}
		r = append(r, driverRows(phase, k, calls, o.contribs, percentile(lat, 50))...)
		r = append(r, cpuRows...)
		r = append(r, row{Metric: fmt.Sprintf("  pool wait per connection acquire (%d conns) in %s @%s", pool.Stat().MaxConns(), phase, k),
			Value: ms(wait), Unit: "ms", Baseline: phase + " p50 over HTTP", Base: percentile(lat, 50)})
		progress(r...)
		rows = append(rows, r...)
	}

	if o.trigramAB {
		r, err := trigramAB(ctx, pool, client, base, qtexts, k, with, 3_000_000+extra)
		if err != nil {
			return nil, err
		}
		rows = append(rows, r...)
	}
	fp, err := footprint(ctx, pool, emb.Dim())
	if err != nil {
		return nil, err
	}
	n := float64(o.n)
	r = []row{
		{Metric: "postgres bytes/entry on disk, table with all indexes and TOAST @" + k, Value: float64(fp.total) / n, Unit: "B", Baseline: "float32 vector alone", Base: float64(4 * emb.Dim())},
		{Metric: "postgres bytes/entry on disk, heap with TOAST @" + k, Value: float64(fp.heap) / n, Unit: "B", Baseline: "float32 vector alone", Base: float64(4 * emb.Dim())},
		{Metric: "postgres bytes/entry on disk, HNSW index @" + k, Value: float64(fp.hnsw) / n, Unit: "B", Baseline: "float32 vector alone", Base: float64(4 * emb.Dim())},
	}
	if fp.bufferCacheAvailable {
		r = append(r,
			row{Metric: fmt.Sprintf("postgres bytes/entry in shared buffers (%s) after the run @%s", fp.sharedBuffers, k), Value: float64(fp.cached) / n, Unit: "B", Baseline: "on disk", Base: float64(fp.total) / n},
			row{Metric: fmt.Sprintf("postgres HNSW bytes/entry in shared buffers (%s) @%s", fp.sharedBuffers, k), Value: float64(fp.cachedHNSW) / n, Unit: "B", Baseline: "on disk", Base: float64(fp.hnsw) / n})
	}
	progress(r...)
	return append(rows, r...), nil
}

// overlap is the fraction of exact (indexes into ids) that got holds.
func overlap(got []string, exact []int, ids []string) float64 {
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
	return float64(hit) / float64(len(exact))
}

// exactScanRate is the exact way of a contribution's dedup probe: scans of
// every vector per second, over scans queries.
func exactScanRate(emb benchEmbedder, vecs [][]float32, scans int) float64 {
	start := time.Now()
	for i := 0; i < scans; i++ {
		title, content := benchFinding(2_000_000 + i)
		bruteTopK(vecs, emb.Vector(knowledge.EmbeddingText(title, content)), 1)
	}
	return float64(scans) / time.Since(start).Seconds()
}

// benchContributeClients posts total new findings (seeds from seed on)
// over HTTP from clients concurrent clients, each as its own agent, and
// returns their rate and each request's latency, sorted.
func benchContributeClients(ctx context.Context, client *http.Client, base string, total, clients, seed int) (float64, []time.Duration, error) {
	lat := make([]time.Duration, total)
	errs := make(chan error, clients)
	var wg sync.WaitGroup
	start := time.Now()
	for c := 0; c < clients; c++ {
		wg.Add(1)
		go func(c int) {
			defer wg.Done()
			for i := c; i < total; i += clients {
				title, content := benchFinding(seed + i)
				body := fmt.Sprintf(`{"title":%q,"content":%q,"hive":"academy","tags":[]}`, title, content)
				req, _ := http.NewRequestWithContext(ctx, "POST", base+"/knowledge/contribute", bytes.NewReader([]byte(body)))
				req.Header.Set("X-Hive-Agent", fmt.Sprintf("bench-agent-%d", c))
				t := time.Now()
				resp, err := client.Do(req)
				if err != nil {
					errs <- err
					return
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				lat[i] = time.Since(t)
				if resp.StatusCode != 201 && resp.StatusCode != 200 {
					errs <- fmt.Errorf("contribute %d: status %d", i, resp.StatusCode)
					return
				}
			}
		}(c)
	}
	wg.Wait()
	rate := float64(total) / time.Since(start).Seconds()
	close(errs)
	if err := <-errs; err != nil {
		return 0, nil, err
	}
	return rate, sortDurations(lat), nil
}
