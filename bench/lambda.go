package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/aws/aws-lambda-go/events"

	"pumasi"
	s3store "pumasi/adapters/s3"
	"pumasi/functions/lambdaapp"
	"pumasi/internal/rie"
	"pumasi/internal/testpeer"
)

func init() {
	register(scenario{name: "lambda", run: benchLambda})
}

// benchLambda runs every Lambda function's bootstrap under the real Runtime
// Interface Emulator against MinIO and measures its cold init and its warm
// invocation time (p50 of the wall time of an invoke through the emulator).
// Cold init is the first invoke's wall time (process start, config, store
// and SDK setup, then the work) less the warm p50: the emulator's own "Init
// Duration" stops before the runtime has started, so it cannot tell. The
// baseline of both is the health function, which opens no store: the ratio
// is what the function's own setup and work cost.
func benchLambda(ctx context.Context, cfg config) ([]row, error) {
	warmN := 30
	if cfg.quick {
		warmN = 5
	}
	rieBin := rie.Binary(testpeer.ToolsDir())
	if _, err := os.Stat(rieBin); err != nil {
		return nil, fmt.Errorf("aws-lambda-rie not found at %s: run scripts/tools.sh rie", rieBin)
	}
	root, err := rie.ModuleRoot()
	if err != nil {
		return nil, err
	}
	var names []string
	for _, f := range lambdaapp.Functions() {
		names = append(names, f.Name)
	}
	bins, err := rie.Build(ctx, root, filepath.Join(cfg.tmp, "bin"), runtime.GOARCH, names...)
	if err != nil {
		return nil, err
	}
	srv, bucket, err := startBucket(ctx)
	if err != nil {
		return nil, err
	}
	defer srv.Stop()
	storage := srv.URL(bucket, "bench")
	st, err := s3store.Open(ctx, storage, s3store.Options{Credentials: srv.Credentials()})
	if err != nil {
		return nil, err
	}
	defer st.Close()
	// Seed what the reading functions read and the deleting one deletes.
	for i := 0; i <= warmN; i++ {
		for _, name := range []string{"notes.md", fmt.Sprintf("del-%03d.md", i)} {
			if _, err := st.PutFile(ctx, pumasi.PutFileInput{Room: "r1", Name: name, Body: []byte("# bench " + name + "\n"), ContentType: "text/markdown"}); err != nil {
				return nil, err
			}
		}
	}
	if _, _, err := st.PlaceAgent(ctx, "r1", "a1", "m1"); err != nil {
		return nil, err
	}
	tok, err := pumasi.SignToken(benchSecret, "bench", []string{pumasi.ScopeAdmin}, time.Hour, time.Now())
	if err != nil {
		return nil, err
	}
	// The knowledge functions keep knowledge in Postgres (a Lambda has no
	// local disk for SQLite): without PUMASI_KNOWLEDGE they answer 500.
	cl, err := openCluster(cfg)
	if err != nil {
		return nil, err
	}
	defer cl.stop()
	dbURL, _, err := cl.database(ctx, "lambda")
	if err != nil {
		return nil, err
	}
	pool, err := openMigrated(ctx, dbURL)
	if err != nil {
		return nil, err
	}
	pool.Close()
	env := append(srv.Env(), "PUMASI_STORAGE="+storage, "PUMASI_SECRET="+string(benchSecret), "PUMASI_SWEEP_GRACE=1h",
		"PUMASI_KNOWLEDGE="+dbURL)

	type timing struct{ cold, warm float64 }
	results := map[string]timing{}
	for _, name := range names {
		em, err := rie.Start(ctx, rieBin, bins[name], env)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		var warm []time.Duration
		var first time.Duration
		for i := 0; i <= warmN; i++ {
			ev, err := lambdaEvent(name, i, "Bearer "+tok)
			if err != nil {
				em.Stop()
				return nil, err
			}
			d, err := timedInvoke(ctx, em, name, ev)
			if err != nil {
				em.Stop()
				return nil, fmt.Errorf("invocation %d: %w", i, err)
			}
			if i == 0 {
				first = d
			} else {
				warm = append(warm, d)
			}
		}
		inits := em.InitDurations()
		em.Stop()
		if len(inits) != 1 {
			return nil, fmt.Errorf("%s: emulator reported %d cold starts, want 1", name, len(inits))
		}
		p50 := percentile(sortDurations(warm), 50)
		results[name] = timing{cold: float64(first)/float64(time.Millisecond) - p50, warm: p50}
	}
	base := results["health"]
	var rows []row
	for _, name := range names {
		r := results[name]
		rows = append(rows,
			row{Metric: "lambda " + name + " cold init (first invoke - warm p50)", Value: r.cold, Unit: "ms",
				Baseline: "health cold init, same run", Base: base.cold},
			row{Metric: fmt.Sprintf("lambda %s warm invoke p50 (%d calls)", name, warmN), Value: r.warm, Unit: "ms",
				Baseline: "health warm p50, same run", Base: base.warm})
	}
	return rows, nil
}

// lambdaEvent is invocation i of function name: an API Gateway event of the
// kind the function takes, doing that function's usual work.
func lambdaEvent(name string, i int, auth string) ([]byte, error) {
	h := func(method, pattern string, params map[string]string, query string, body []byte) ([]byte, error) {
		return apiEvent(method, pattern, params, query, body, auth)
	}
	ws := func(route, body string) ([]byte, error) {
		return json.Marshal(events.APIGatewayWebsocketProxyRequest{
			Headers:               map[string]string{"Authorization": auth},
			QueryStringParameters: map[string]string{"machine": "m1"},
			Body:                  body,
			RequestContext:        events.APIGatewayWebsocketProxyRequestContext{RouteKey: route, ConnectionID: fmt.Sprintf("bench-%03d=", i)},
		})
	}
	room := map[string]string{"room": "r1"}
	switch name {
	case "upload":
		return h("POST", "/rooms/{room}/files", room, fmt.Sprintf("name=up-%03d.md", i), []byte(fmt.Sprintf("# upload %d\n", i)))
	case "list":
		return h("GET", "/rooms/{room}/files", room, "", nil)
	case "get":
		return h("GET", "/rooms/{room}/files/{name}", map[string]string{"room": "r1", "name": "notes.md"}, "", nil)
	case "delete":
		return h("DELETE", "/rooms/{room}/files/{name}", map[string]string{"room": "r1", "name": fmt.Sprintf("del-%03d.md", i)}, "", nil)
	case "resolve":
		return h("POST", "/rooms/{room}/resolve", room, "", []byte(`{"text":"see $notes.md and $missing.md"}`))
	case "placements":
		return h("GET", "/rooms/{room}/agents", room, "", nil)
	case "assignments":
		return h("GET", "/machines/{machine}/assignments", map[string]string{"machine": "m1"}, "", nil)
	case "status":
		return h("POST", "/machines/{machine}/status", map[string]string{"machine": "m1"}, "", []byte(`{"agents":[{"agent_id":"a1","files":[{"name":"notes.md","sha256":"00"}]}]}`))
	case "knowledge-contribute":
		return h("POST", "/knowledge/contribute", nil, "", []byte(fmt.Sprintf(`{"title":"aws-lambda-rie needs a free --runtime-api-address per emulator (%d)","content":"Two aws-lambda-rie processes both default to 127.0.0.1:9001 for the runtime API; pass --runtime-api-address 127.0.0.1:<free port> and --runtime-interface-emulator-address per process, else the second fails with bind: address already in use (%d).","tags":["lambda","rie"]}`, i, i)))
	case "knowledge-query":
		return h("GET", "/knowledge/query", nil, "q="+url.QueryEscape("aws-lambda-rie runtime api address")+"&limit=5", nil)
	case "knowledge-counters":
		return h("POST", "/knowledge/{id}/cite", map[string]string{"id": "no-such-entry"}, "", nil)
	case "knowledge-moderate":
		return h("GET", "/knowledge/moderation", nil, "limit=20", nil)
	case "health":
		return h("GET", "/healthz", nil, "", nil)
	case "ws-connect":
		return ws("$connect", "")
	case "ws-default":
		return ws("$default", `{"action":"ping"}`)
	case "ws-disconnect":
		return ws("$disconnect", "")
	case "sweep":
		return json.Marshal(events.EventBridgeEvent{DetailType: "Scheduled Event", Source: "aws.scheduler", Detail: json.RawMessage(`{}`)})
	}
	return nil, fmt.Errorf("no bench event for function %s", name)
}

// apiEvent is an API Gateway (HTTP API, payload 2.0) event of a request to
// pattern with its path parameters filled in.
func apiEvent(method, pattern string, params map[string]string, query string, body []byte, auth string) ([]byte, error) {
	p := pattern
	for k, v := range params {
		p = strings.Replace(p, "{"+k+"}", url.PathEscape(v), 1)
	}
	return json.Marshal(events.APIGatewayV2HTTPRequest{
		Version: "2.0", RouteKey: method + " " + pattern, RawPath: p, RawQueryString: query,
		Headers:        map[string]string{"authorization": auth, "content-type": "text/markdown", "x-hive-agent": "bench-agent"},
		PathParameters: params,
		RequestContext: events.APIGatewayV2HTTPRequestContext{RouteKey: method + " " + pattern, Stage: "$default",
			HTTP: events.APIGatewayV2HTTPRequestContextHTTPDescription{Method: method, Path: p, SourceIP: "127.0.0.1"}},
		Body: base64.StdEncoding.EncodeToString(body), IsBase64Encoded: true,
	})
}

// timedInvoke invokes the function name under em with the event ev and
// returns how long the invocation took, or an error with the emulator's
// output when it failed or the function did not do its work (lambdaOK).
func timedInvoke(ctx context.Context, em *rie.Emulator, name string, ev []byte) (time.Duration, error) {
	start := time.Now()
	out, err := em.Invoke(ctx, ev)
	d := time.Since(start)
	if err == nil {
		err = lambdaOK(name, out)
	}
	if err != nil {
		return 0, fmt.Errorf("%s: %w\n%s", name, err, em.Output())
	}
	return d, nil
}

// lambdaOK checks that a function did its work rather than fail fast, which
// would flatter its timing.
func lambdaOK(name string, out []byte) error {
	var res struct {
		StatusCode int    `json:"statusCode"`
		Body       string `json:"body"`
	}
	if err := json.Unmarshal(out, &res); err != nil {
		return fmt.Errorf("response %q: %w", out, err)
	}
	if name == "sweep" {
		if !bytes.Contains(out, []byte(`"files"`)) {
			return fmt.Errorf("sweep answered %s", out)
		}
		return nil
	}
	want := map[string]int{"knowledge-counters": 404}[name]
	if (want != 0 && res.StatusCode != want) || (want == 0 && (res.StatusCode < 200 || res.StatusCode > 299)) {
		return fmt.Errorf("status %d: %s", res.StatusCode, res.Body)
	}
	return nil
}
