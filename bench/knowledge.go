package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand"
	"net/http"
	"net/url"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"pumasi"
	"pumasi/adapters/embed"
	"pumasi/adapters/local"
	"pumasi/functions"
	"pumasi/knowledge"
)

func init() {
	register(scenario{name: "knowledge", run: benchKnowledge})
}

// benchKnowledge measures, at 10,000 and 100,000 entries (2,000 with
// -quick), the latency of GET /knowledge/query and the throughput of POST
// /knowledge/contribute (gate, embedding, exact and near-duplicate dedup)
// over HTTP against the local backend, each beside a brute-force cosine
// top-k scan over the same vectors held in a plain slice.
func benchKnowledge(ctx context.Context, cfg config) ([]row, error) {
	sizes := []int{10000, 100000}
	queries, contribs := 300, 300
	if cfg.quick {
		sizes, queries, contribs = []int{2000}, 50, 50
	}
	var rows []row
	for _, n := range sizes {
		r, err := benchKnowledgeAt(ctx, cfg, n, queries, contribs)
		if err != nil {
			return nil, fmt.Errorf("%d entries: %w", n, err)
		}
		rows = append(rows, r...)
	}
	return rows, nil
}

var (
	benchTools  = []string{"postgres", "sqlite", "redis", "nginx", "docker", "kubectl", "terraform", "pnpm", "cargo", "gradle", "vite", "django", "prisma", "kafka", "envoy", "helm"}
	benchVerbs  = []string{"fails", "hangs", "times out", "crashes", "leaks memory", "returns 500", "drops rows", "rejects the config"}
	benchFlags  = []string{"max-conns", "timeout", "workers", "cache-dir", "log-level", "pool-size", "retries", "buffer"}
	benchErrors = []string{"ECONNRESET", "EADDRINUSE", "ERR_INVALID_ARG", "SQLITE_BUSY", "OOMKilled", "ETIMEDOUT", "EPIPE", "ENOSPC"}
	benchWords  = []string{"cluster", "replica", "index", "cursor", "socket", "volume", "lockfile", "schema", "shard", "queue", "token", "tenant", "snapshot", "manifest", "sidecar", "webhook"}
)

// benchFinding returns a distinct, gate-passing finding for seed i.
func benchFinding(i int) (string, string) {
	r := rand.New(rand.NewSource(int64(i)*7919 + 17))
	pick := func(s []string) string { return s[r.Intn(len(s))] }
	tool, word := pick(benchTools), pick(benchWords)
	title := fmt.Sprintf("%s %d.%d %s %s with %s #%d", tool, 1+r.Intn(20), r.Intn(30), word, pick(benchVerbs), pick(benchErrors), i)
	content := fmt.Sprintf("%s %d.%d: `%s --%s=%d` %s with %s when the %s %s exceeds %d; set `%s_%s=%d` in /etc/%s/%s.conf (case %d).",
		tool, 1+r.Intn(20), r.Intn(30), tool, pick(benchFlags), 2+r.Intn(90), pick(benchVerbs), pick(benchErrors),
		word, pick(benchWords), 10+r.Intn(900), word, pick(benchFlags), 1+r.Intn(64), tool, word, i)
	return title, content
}

func benchKnowledgeAt(ctx context.Context, cfg config, n, queries, contribs int) ([]row, error) {
	st, err := local.Open(ctx, filepath.Join(cfg.tmp, fmt.Sprintf("home-%d", n)), local.Options{})
	if err != nil {
		return nil, err
	}
	defer st.Close()
	drv := local.NewKnowledgeDriver(st)
	know := knowledge.New(drv, knowledge.Options{})
	emb := embed.NewHashed(0)

	// Seed n entries in bulk (Import: one transaction per 5,000); keep the
	// same vectors for the brute-force baseline.
	vecs := make([][]float32, 0, n)
	ids := make([]string, 0, n)
	seed := make([]knowledge.NewEntry, 0, n)
	at := time.Now().Add(-time.Hour)
	for i := 0; i < n; i++ {
		title, content := benchFinding(i)
		v := emb.Vector(knowledge.EmbeddingText(title, content))
		id := fmt.Sprintf("bench-%08d", i)
		seed = append(seed, knowledge.NewEntry{ID: id, Hive: "academy", Title: title, Content: content, Tags: []string{},
			NormHash: knowledge.Hash(title, content), Model: emb.Model(), Vector: v,
			Specificity: 0.5 + float64(i%50)/100, At: at, Analysis: knowledge.Analysis(title, content, []string{}),
			Details: knowledge.Details(title, content)})
		vecs = append(vecs, v)
		ids = append(ids, id)
	}
	seedStart := time.Now()
	if _, err := drv.Import(ctx, seed, "bench-seed"); err != nil {
		return nil, fmt.Errorf("seed: %w", err)
	}
	seedRate := float64(n) / time.Since(seedStart).Seconds()

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
	// The first query starts loading the vector index (8-bit codes) from
	// the database in the background, as a process's first query after a
	// start does; it is answered by an exact scan of the stored vectors
	// meanwhile.
	buildStart := time.Now()
	if err := benchGet(ctx, &http.Client{Timeout: time.Hour}, base+"/knowledge/query?q=warm"); err != nil {
		return nil, err
	}
	firstQuery := time.Since(buildStart)
	if err := drv.WaitIndex(ctx); err != nil {
		return nil, err
	}
	buildTook := time.Since(buildStart)
	qlat := make([]time.Duration, queries)
	for i, q := range qtexts {
		start := time.Now()
		if err := benchGet(ctx, client, base+"/knowledge/query?limit=5&q="+url.QueryEscape(q)); err != nil {
			return nil, err
		}
		qlat[i] = time.Since(start)
	}
	sortDurations(qlat)

	// Baseline: embed the query and scan every vector for the top 5.
	blat := make([]time.Duration, queries)
	for i, q := range qtexts {
		start := time.Now()
		bruteTopK(vecs, emb.Vector(q), 5)
		blat[i] = time.Since(start)
	}
	sortDurations(blat)

	// recall@10 of the index against the exact scan, for the same queries.
	var hit, want int
	for _, q := range qtexts {
		v := emb.Vector(q)
		exact := bruteTopK(vecs, v, 10)
		got, err := drv.Nearest(ctx, "academy", emb.Model(), v, 10)
		if err != nil {
			return nil, err
		}
		in := map[string]bool{}
		for _, id := range got {
			in[id] = true
		}
		for _, i := range exact {
			want++
			if in[ids[i]] {
				hit++
			}
		}
	}
	recall := float64(hit) / float64(max(want, 1))
	entries, idxBytes, _ := drv.IndexStats()

	contribRate, scanRate, err := benchContribute(ctx, client, base, emb, vecs, contribs)
	if err != nil {
		return nil, err
	}

	sweep, err := benchSweep(ctx, drv, know, emb, vecs, n)
	if err != nil {
		return nil, err
	}
	uploads, err := benchUploadsDuringSweep(ctx, client, base, drv, know, emb, n)
	if err != nil {
		return nil, err
	}

	k := fmt.Sprintf("%dk", n/1000)
	rows := []row{
		{Metric: "knowledge query p50 @" + k, Value: percentile(qlat, 50), Unit: "ms", Baseline: "brute-force cosine scan p50", Base: percentile(blat, 50)},
		{Metric: "knowledge query p99 @" + k, Value: percentile(qlat, 99), Unit: "ms", Baseline: "brute-force cosine scan p99", Base: percentile(blat, 99)},
		{Metric: "knowledge index recall@10 @" + k, Value: recall, Unit: "", Baseline: "exact scan", Base: 1, HigherIsBetter: true},
		{Metric: "knowledge contribute @" + k, Value: contribRate, Unit: "/s", Baseline: "brute-force scans/s", Base: scanRate, HigherIsBetter: true},
		{Metric: "knowledge index bytes/entry @" + k, Value: float64(idxBytes) / float64(max(entries, 1)), Unit: "B", Baseline: "float32 vector alone", Base: float64(4 * emb.Dim())},
		{Metric: "knowledge index load @" + k, Value: ms(buildTook), Unit: "ms", Baseline: "seeding the entries", Base: float64(n) / seedRate * 1000},
		{Metric: "first query while the index loads @" + k, Value: ms(firstQuery), Unit: "ms", Baseline: "index load", Base: ms(buildTook)},
	}
	rows = append(rows, sweep...)
	return append(rows, uploads...), nil
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// benchSweep marks every seeded entry swept, adds 1,000 new entries (half
// of them rewordings of seeded ones, forced in with merging off, as racing
// writers would) and times the sweep, beside the exact way: scanning every
// vector for each new entry.
func benchSweep(ctx context.Context, drv *local.Knowledge, know *knowledge.Engine, emb *embed.Hashed, vecs [][]float32, n int) ([]row, error) {
	const fresh = 1000
	if err := markAllSwept(ctx, drv); err != nil {
		return nil, err
	}
	newVecs, err := addForSweep(ctx, know, emb, n, fresh, 3_000_000)
	if err != nil {
		return nil, err
	}
	start := time.Now()
	rep, err := know.SweepKnowledge(ctx, emb.MergeThreshold())
	if err != nil {
		return nil, err
	}
	took := time.Since(start)
	start = time.Now()
	for _, v := range newVecs {
		bruteTopK(vecs, v, 16)
	}
	exact := time.Since(start)
	k := fmt.Sprintf("%dk", n/1000)
	return []row{{Metric: fmt.Sprintf("knowledge sweep of 1k new @%s (merged %d)", k, rep.Merged), Value: ms(took), Unit: "ms",
		Baseline: "1k exact scans", Base: ms(exact)}}, nil
}

// markAllSwept moves the sweep mark past every entry.
func markAllSwept(ctx context.Context, drv *local.Knowledge) error {
	for mark := int64(0); ; {
		batch, err := drv.Since(ctx, mark, 10000)
		if err != nil {
			return err
		}
		if len(batch) == 0 {
			return drv.SetSweepMark(ctx, mark)
		}
		mark = batch[len(batch)-1].Seq
	}
}

// addForSweep adds count entries: even ones reword seeded entry i (a word
// changed, details kept), odd ones are new findings.
func addForSweep(ctx context.Context, know *knowledge.Engine, emb *embed.Hashed, n, count, seed int) ([][]float32, error) {
	var out [][]float32
	for i := 0; i < count; i++ {
		var title, content string
		if i%2 == 0 {
			title, content = benchFinding((i * 7919) % n)
			title = strings.Replace(title, " with ", " along with ", 1)
		} else {
			title, content = benchFinding(seed + i)
		}
		v := emb.Vector(knowledge.EmbeddingText(title, content))
		_, err := know.Contribute(ctx, knowledge.ContributeInput{Hive: "academy", Agent: fmt.Sprintf("racer-%d", i%7), Title: title,
			Content: content, Tags: []string{}, NormHash: knowledge.Hash(title, content), Model: emb.Model(),
			Vector: v, Specificity: 0.7, Threshold: 1.01})
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// benchUploadsDuringSweep compares upload latency while a sweep of 1,000
// new entries runs with the same uploads on an idle server.
func benchUploadsDuringSweep(ctx context.Context, client *http.Client, base string, drv *local.Knowledge, know *knowledge.Engine, emb *embed.Hashed, n int) ([]row, error) {
	tok, _ := pumasi.SignToken(benchSecret, "bench", []string{pumasi.ScopeAdmin}, time.Hour, time.Now())
	body := bytes.Repeat([]byte("x"), 4096)
	upload := func(i int) (time.Duration, error) {
		b := append([]byte(fmt.Sprintf("%d\n", i)), body...)
		start := time.Now()
		err := postFile(ctx, client, base, tok, "sweep-room", fmt.Sprintf("f%03d.md", i%500), b)
		return time.Since(start), err
	}
	var idle []time.Duration
	for i := 0; i < 200; i++ {
		d, err := upload(i)
		if err != nil {
			return nil, err
		}
		idle = append(idle, d)
	}
	if err := markAllSwept(ctx, drv); err != nil {
		return nil, err
	}
	if _, err := addForSweep(ctx, know, emb, n, 1000, 4_000_000); err != nil {
		return nil, err
	}
	done := make(chan error, 1)
	go func() {
		_, err := know.SweepKnowledge(ctx, emb.MergeThreshold())
		done <- err
	}()
	var during []time.Duration
	for i := 0; ; i++ {
		select {
		case err := <-done:
			if err != nil {
				return nil, err
			}
			if len(during) < 20 {
				return nil, fmt.Errorf("the sweep ended after %d uploads: too few to compare", len(during))
			}
			sortDurations(idle)
			sortDurations(during)
			k := fmt.Sprintf("%dk", n/1000)
			return []row{{Metric: fmt.Sprintf("upload 4 KiB p99 during a sweep @%s (%d uploads)", k, len(during)), Value: percentile(during, 99),
				Unit: "ms", Baseline: "upload p99 idle", Base: percentile(idle, 99)}}, nil
		default:
		}
		d, err := upload(1000 + i)
		if err != nil {
			return nil, err
		}
		during = append(during, d)
	}
}

func benchGet(ctx context.Context, c *http.Client, u string) error {
	req, _ := http.NewRequestWithContext(ctx, "GET", u, nil)
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	io.Copy(io.Discard, resp.Body)
	if resp.StatusCode != 200 {
		return fmt.Errorf("GET %s: status %d", u, resp.StatusCode)
	}
	return nil
}

// bruteTopK is the baseline: a cosine (dot product of unit vectors) against
// every vector, then a sort for the top k.
func bruteTopK(vecs [][]float32, q []float32, k int) []int {
	type cand struct {
		i   int
		sim float32
	}
	cs := make([]cand, len(vecs))
	for i, v := range vecs {
		var dot float32
		for j, x := range q {
			dot += x * v[j]
		}
		cs[i] = cand{i, dot}
	}
	sort.Slice(cs, func(a, b int) bool { return cs[a].sim > cs[b].sim })
	out := make([]int, 0, k)
	for _, c := range cs[:min(k, len(cs))] {
		out = append(out, c.i)
	}
	return out
}

// benchContribute posts contribs new findings over HTTP and returns their
// rate beside the exact way's: one scan of every vector per contribution.
func benchContribute(ctx context.Context, client *http.Client, base string, emb *embed.Hashed, vecs [][]float32, contribs int) (rate, scanRate float64, err error) {
	start := time.Now()
	for i := 0; i < contribs; i++ {
		title, content := benchFinding(2_000_000 + i)
		body := fmt.Sprintf(`{"title":%q,"content":%q,"hive":"academy","tags":[]}`, title, content)
		req, _ := http.NewRequestWithContext(ctx, "POST", base+"/knowledge/contribute", bytes.NewReader([]byte(body)))
		req.Header.Set("X-Hive-Agent", "bench-agent")
		resp, err := client.Do(req)
		if err != nil {
			return 0, 0, err
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 201 && resp.StatusCode != 200 {
			return 0, 0, fmt.Errorf("contribute %d: status %d", i, resp.StatusCode)
		}
	}
	rate = float64(contribs) / time.Since(start).Seconds()
	start = time.Now()
	for i := 0; i < contribs; i++ {
		title, content := benchFinding(2_000_000 + i)
		bruteTopK(vecs, emb.Vector(knowledge.EmbeddingText(title, content)), 1)
	}
	return rate, float64(contribs) / time.Since(start).Seconds(), nil
}
