package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/aws/aws-lambda-go/events"

	"pumasi"
	"pumasi/adapters/embed"
	"pumasi/adapters/local"
	"pumasi/adapters/postgres"
	"pumasi/functions"
	"pumasi/internal/rie"
	"pumasi/internal/testpeer"
	"pumasi/knowledge"
)

func init() {
	register(scenario{name: "lambda-knowledge-postgres", run: benchLambdaKnowledge, long: true})
}

// benchLambdaKnowledge measures the knowledge-query and knowledge-contribute
// Lambda functions under the Runtime Interface Emulator over Postgres at
// 100,000 entries (2,000 with -quick), their 2-connection pool per warm
// container as deployed, beside the same requests over HTTP to the API in
// this process with the default pool (localdev's wiring), in one run on one
// database (#29.4).
func benchLambdaKnowledge(ctx context.Context, cfg config) ([]row, error) {
	n, queries := 100000, 100
	if cfg.quick {
		n, queries = 2000, 20
	}
	rieBin := rie.Binary(testpeer.ToolsDir())
	if _, err := os.Stat(rieBin); err != nil {
		return nil, fmt.Errorf("aws-lambda-rie not found at %s: run scripts/tools.sh rie", rieBin)
	}
	root, err := rie.ModuleRoot()
	if err != nil {
		return nil, err
	}
	bins, err := rie.Build(ctx, root, filepath.Join(cfg.tmp, "bin"), runtime.GOARCH, "knowledge-query", "knowledge-contribute")
	if err != nil {
		return nil, err
	}
	cl, err := openCluster(cfg)
	if err != nil {
		return nil, err
	}
	defer cl.stop()
	if err := cl.set(ctx, map[string]string{"shared_buffers": "1GB"}); err != nil {
		return nil, err
	}
	dbURL, reused, err := cl.database(ctx, fmt.Sprint(n))
	if err != nil {
		return nil, err
	}
	pool, err := openMigrated(ctx, dbURL)
	if err != nil {
		return nil, err
	}
	defer pool.Close()
	emb := embed.NewHashed(0)
	_, ids, _, _, err := seedPostgres(ctx, dbURL, n, emb, "1GB", reused)
	if err != nil {
		return nil, err
	}
	if cfg.seedOnly {
		return nil, nil
	}
	qtexts := make([]string, queries)
	for i := range qtexts {
		t, c := benchFinding(1_000_000 + i)
		qtexts[i] = t + " " + c
	}

	// localdev's way: the API in this process over the default pool.
	st, err := local.Open(ctx, filepath.Join(cfg.tmp, "home"), local.Options{})
	if err != nil {
		return nil, err
	}
	defer st.Close()
	api := &functions.API{Store: st, Secret: benchSecret, Knowledge: postgres.NewKnowledge(pool, knowledge.Options{}), Embedder: emb,
		RateLimits: functions.RateLimits{Disabled: true}}
	base, stop, err := serve(api.Handler())
	if err != nil {
		return nil, err
	}
	defer stop()
	client := &http.Client{Timeout: time.Minute}

	// The function under the emulator, on MinIO for its file store (a
	// Lambda refuses local storage) and this database for knowledge.
	srv, bucket, err := startBucket(ctx)
	if err != nil {
		return nil, err
	}
	defer srv.Stop()
	env := append(srv.Env(), "PUMASI_STORAGE="+srv.URL(bucket, "bench"), "PUMASI_SECRET="+string(benchSecret),
		"PUMASI_KNOWLEDGE="+dbURL)
	em, err := rie.Start(ctx, rieBin, bins["knowledge-query"], env)
	if err != nil {
		return nil, err
	}
	defer em.Stop()
	tok, err := pumasi.SignToken(benchSecret, "bench", []string{pumasi.ScopeAdmin}, time.Hour, time.Now())
	if err != nil {
		return nil, err
	}
	invoke := func(q string) (time.Duration, error) {
		ev, err := lambdaQueryEvent(q, "Bearer "+tok)
		if err != nil {
			return 0, err
		}
		return timedInvoke(ctx, em, "knowledge-query", ev)
	}
	get := func(q string) (time.Duration, error) {
		start := time.Now()
		err := benchGet(ctx, client, base+"/knowledge/query?limit=5&q="+url.QueryEscape(q))
		return time.Since(start), err
	}
	for i := 0; i < 3; i++ { // warm both: the container's pool, the driver's statements
		if _, err := invoke("warm"); err != nil {
			return nil, err
		}
		if _, err := get("warm"); err != nil {
			return nil, err
		}
	}
	// Alternate the two query by query, so the machine's load falls on both.
	var lam, dev []time.Duration
	for i, q := range qtexts {
		first, second := invoke, get
		if i%2 == 1 {
			first, second = get, invoke
		}
		a, err := first(q)
		if err != nil {
			return nil, err
		}
		b, err := second(q)
		if err != nil {
			return nil, err
		}
		if i%2 == 1 {
			a, b = b, a
		}
		lam, dev = append(lam, a), append(dev, b)
	}
	sortDurations(lam)
	sortDurations(dev)
	k := fmt.Sprintf("%dk", n/1000)
	rows := []row{
		{Metric: "lambda knowledge-query warm p50 under the RIE, Postgres (pool 2) @" + k, Value: percentile(lam, 50), Unit: "ms",
			Baseline: "localdev's API over HTTP, pool 16, p50", Base: percentile(dev, 50)},
		{Metric: "lambda knowledge-query warm p99 under the RIE, Postgres (pool 2) @" + k, Value: percentile(lam, 99), Unit: "ms",
			Baseline: "localdev's API over HTTP, pool 16, p99", Base: percentile(dev, 99)},
	}
	progress(rows...)
	// Entries earlier runs on a kept database contributed: this run's
	// findings start past them, so each is new (an exact duplicate would
	// take the cheaper merge path).
	r, err := lambdaContributeAB(ctx, rieBin, bins["knowledge-contribute"], env, tok, client, base, queries, 5_000_000+len(ids)-n, k)
	if err != nil {
		return nil, err
	}
	return append(rows, r...), nil
}

// lambdaContributeAB posts total new findings (seeds from seed on) to the
// knowledge-contribute function under the emulator and as many to the API
// at base, alternating request by request, and rows their p50 and p99.
func lambdaContributeAB(ctx context.Context, rieBin, bootstrap string, env []string, tok string, client *http.Client, base string, total, seed int, k string) ([]row, error) {
	em, err := rie.Start(ctx, rieBin, bootstrap, env)
	if err != nil {
		return nil, err
	}
	defer em.Stop()
	// Each finding from its own agent: the function keeps the per-handle
	// write limit (60 a burst), which the API here has off.
	invoke := func(i int) (time.Duration, error) {
		title, content := benchFinding(seed + i)
		body, _ := json.Marshal(map[string]any{"title": title, "content": content, "hive": "academy", "tags": []string{}})
		ev, err := json.Marshal(events.APIGatewayV2HTTPRequest{Version: "2.0", RouteKey: "POST /knowledge/contribute", RawPath: "/knowledge/contribute",
			Headers: map[string]string{"authorization": "Bearer " + tok, "content-type": "application/json", "x-hive-agent": fmt.Sprintf("bench-agent-%d", i)},
			RequestContext: events.APIGatewayV2HTTPRequestContext{RouteKey: "POST /knowledge/contribute", Stage: "$default",
				HTTP: events.APIGatewayV2HTTPRequestContextHTTPDescription{Method: "POST", Path: "/knowledge/contribute", SourceIP: "127.0.0.1"}},
			Body: string(body)})
		if err != nil {
			return 0, err
		}
		return timedInvoke(ctx, em, "knowledge-contribute", ev)
	}
	post := func(i int) (time.Duration, error) {
		_, lat, err := benchContributeClients(ctx, client, base, 1, 1, seed+i)
		if err != nil {
			return 0, err
		}
		return lat[0], nil
	}
	// Warm the container (its pool, the driver's statements) with findings
	// of their own, then alternate which goes first.
	for i := 0; i < 3; i++ {
		if _, err := invoke(2*total + 2*i); err != nil {
			return nil, err
		}
		if _, err := post(2*total + 2*i + 1); err != nil {
			return nil, err
		}
	}
	var lam, dev []time.Duration
	for i := 0; i < total; i++ {
		first, second := invoke, post
		if i%2 == 1 {
			first, second = post, invoke
		}
		a, err := first(2 * i)
		if err != nil {
			return nil, err
		}
		b, err := second(2*i + 1)
		if err != nil {
			return nil, err
		}
		if i%2 == 1 {
			a, b = b, a
		}
		lam, dev = append(lam, a), append(dev, b)
	}
	sortDurations(lam)
	sortDurations(dev)
	rows := []row{
		{Metric: "lambda knowledge-contribute warm p50 under the RIE, Postgres (pool 2) @" + k, Value: percentile(lam, 50), Unit: "ms",
			Baseline: "localdev's API over HTTP, pool 16, p50", Base: percentile(dev, 50)},
		{Metric: "lambda knowledge-contribute warm p99 under the RIE, Postgres (pool 2) @" + k, Value: percentile(lam, 99), Unit: "ms",
			Baseline: "localdev's API over HTTP, pool 16, p99", Base: percentile(dev, 99)},
	}
	progress(rows...)
	return rows, nil
}

// lambdaQueryEvent is an API Gateway event of GET /knowledge/query?q=q.
func lambdaQueryEvent(q, auth string) ([]byte, error) {
	return apiEvent("GET", "/knowledge/query", nil, "q="+url.QueryEscape(q)+"&limit=5", nil, auth)
}
