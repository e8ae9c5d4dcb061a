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
	"time"

	"pumasi"
	"pumasi/adapters/embed"
	"pumasi/adapters/local"
	"pumasi/functions"
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
	know := local.NewKnowledge(st)
	emb := embed.NewHashed(0)

	// Seed n entries straight into the store (near-dup scan off, so seeding
	// stays linear); keep the same vectors for the brute-force baseline.
	vecs := make([][]float32, 0, n+contribs)
	for i := 0; i < n; i++ {
		title, content := benchFinding(i)
		v := emb.Vector(pumasi.EmbeddingText(title, content))
		_, err := know.Contribute(ctx, pumasi.ContributeInput{Hive: "academy", Agent: "bench-seed", Title: title, Content: content,
			Tags: []string{}, NormHash: pumasi.KnowledgeHash(title, content), Model: emb.Model(), Vector: v,
			Specificity: 0.5 + float64(i%50)/100, Threshold: 1.01})
		if err != nil {
			return nil, fmt.Errorf("seed %d: %w", i, err)
		}
		vecs = append(vecs, v)
	}

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
	// Warm the server's vector cache, as a long-running server would be.
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

	// Baseline: embed the query and scan every vector for the top 5.
	blat := make([]time.Duration, queries)
	for i, q := range qtexts {
		start := time.Now()
		bruteTopK(vecs, emb.Vector(q), 5)
		blat[i] = time.Since(start)
	}
	sortDurations(blat)

	start := time.Now()
	for i := 0; i < contribs; i++ {
		title, content := benchFinding(2_000_000 + i)
		body := fmt.Sprintf(`{"title":%q,"content":%q,"hive":"academy","tags":[]}`, title, content)
		req, _ := http.NewRequestWithContext(ctx, "POST", base+"/knowledge/contribute", bytes.NewReader([]byte(body)))
		req.Header.Set("X-Hive-Agent", "bench-agent")
		resp, err := client.Do(req)
		if err != nil {
			return nil, err
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 201 && resp.StatusCode != 200 {
			return nil, fmt.Errorf("contribute %d: status %d", i, resp.StatusCode)
		}
	}
	contribRate := float64(contribs) / time.Since(start).Seconds()

	start = time.Now()
	for i := 0; i < contribs; i++ {
		title, content := benchFinding(2_000_000 + i)
		bruteTopK(vecs, emb.Vector(pumasi.EmbeddingText(title, content)), 1)
	}
	scanRate := float64(contribs) / time.Since(start).Seconds()

	k := fmt.Sprintf("%dk", n/1000)
	return []row{
		{Metric: "knowledge query p50 @" + k, Value: percentile(qlat, 50), Unit: "ms", Baseline: "brute-force cosine scan p50", Base: percentile(blat, 50)},
		{Metric: "knowledge query p99 @" + k, Value: percentile(qlat, 99), Unit: "ms", Baseline: "brute-force cosine scan p99", Base: percentile(blat, 99)},
		{Metric: "knowledge contribute @" + k, Value: contribRate, Unit: "/s", Baseline: "brute-force scans/s", Base: scanRate, HigherIsBetter: true},
	}, nil
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
