package lambdaapp

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/jackc/pgx/v5/pgxpool"

	"pumasi"
	"pumasi/functions"
	"pumasi/internal/testpeer"
	"pumasi/knowledge"
)

// TestKnowledgeConfig: the knowledge functions and the sweep read
// PUMASI_KNOWLEDGE, which must be a postgres:// URL, and a wrong one is
// refused without echoing it.
func TestKnowledgeConfig(t *testing.T) {
	url := "postgres://pumasi:hunter2-secret@db.example:5432/pumasi"
	for _, fn := range []string{"knowledge-contribute", "knowledge-query", "knowledge-counters", "sweep"} {
		cfg, err := LoadConfig(fn, func(k string) string {
			return map[string]string{EnvStorage: "s3://b/p", EnvKnowledge: url}[k]
		})
		if err != nil || cfg.Knowledge != url {
			t.Errorf("%s: Knowledge = %q, %v; want the URL", fn, cfg.Knowledge, err)
		}
	}
	if cfg, _ := LoadConfig("list", func(k string) string {
		return map[string]string{EnvStorage: "s3://b/p", EnvSecret: "0123456789abcdef0123", EnvKnowledge: url}[k]
	}); cfg.Knowledge != "" {
		t.Errorf("list read %s", EnvKnowledge)
	}
	_, err := LoadConfig("knowledge-query", func(k string) string {
		return map[string]string{EnvStorage: "s3://b/p", EnvKnowledge: "mysql://pumasi:hunter2-secret@db"}[k]
	})
	if err == nil || strings.Contains(err.Error(), "hunter2") || !strings.Contains(err.Error(), "postgres://") {
		t.Fatalf("LoadConfig with a mysql URL: %v", err)
	}
}

// TestKnowledgeFunctionsOnPostgres: two cold starts (contribute, then
// query) on one S3 bucket and one knowledge database, through the Lambda
// HTTP adapter: the entry one function writes, the other finds; each holds
// a pool of KnowledgePoolSize connections.
func TestKnowledgeFunctionsOnPostgres(t *testing.T) {
	m := testpeer.MinIO(t)
	for _, kv := range m.Env() {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	const secret = "0123456789abcdef0123456789abcdef"
	env := map[string]string{EnvStorage: m.URL(m.NewBucket(t), "pumasi"), EnvKnowledge: testpeer.Postgres(t), EnvSecret: secret}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	open := func(fn string) func(context.Context, events.APIGatewayV2HTTPRequest) (events.APIGatewayV2HTTPResponse, error) {
		cfg, err := LoadConfig(fn, func(k string) string { return env[k] })
		if err != nil {
			t.Fatal(err)
		}
		api, err := Open(ctx, cfg, log)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { api.Store.Close() })
		k, ok := api.Knowledge.(*knowledge.Engine)
		if !ok {
			t.Fatalf("%s knowledge = %T, want the engine", fn, api.Knowledge)
		}
		pool := k.Driver().(interface{ Pool() *pgxpool.Pool }).Pool()
		t.Cleanup(pool.Close)
		if got := pool.Config().MaxConns; got != KnowledgePoolSize {
			t.Errorf("%s pool MaxConns = %d, want %d", fn, got, KnowledgePoolSize)
		}
		return HTTPHandler(api, fn, functions.AllowedHosts{})
	}
	contribute, query := open("knowledge-contribute"), open("knowledge-query")

	body, _ := json.Marshal(map[string]any{"hive": "academy", "tags": []string{"postgres"},
		"title":   "pgvector HNSW needs a typed column or a cast expression index",
		"content": "On a dimension-free `vector` column CREATE INDEX ... USING hnsw fails with 'column does not have dimensions'; index `(embedding::vector(512))` WHERE dims = 512 instead."})
	ev := events.APIGatewayV2HTTPRequest{Version: "2.0", RouteKey: "POST /knowledge/contribute", RawPath: "/knowledge/contribute",
		Headers: map[string]string{"content-type": "application/json", "x-hive-agent": "lambda-test"}, Body: string(body)}
	ev.RequestContext.HTTP.Method = "POST"
	res, err := contribute(ctx, ev)
	if err != nil || res.StatusCode != 201 {
		t.Fatalf("contribute = %d %s, %v", res.StatusCode, res.Body, err)
	}
	var created struct {
		Data struct {
			Entry struct{ ID string } `json:"entry"`
		} `json:"data"`
	}
	if err := json.Unmarshal([]byte(res.Body), &created); err != nil || created.Data.Entry.ID == "" {
		t.Fatalf("contribute answered %s (%v)", res.Body, err)
	}
	ev = events.APIGatewayV2HTTPRequest{Version: "2.0", RouteKey: "GET /knowledge/query", RawPath: "/knowledge/query",
		RawQueryString: "q=hnsw+cast+expression+index&hive=academy"}
	ev.RequestContext.HTTP.Method = "GET"
	res, err = query(ctx, ev)
	if err != nil || res.StatusCode != 200 || !strings.Contains(res.Body, created.Data.Entry.ID) {
		t.Fatalf("query = %d %s, %v; want entry %s", res.StatusCode, res.Body, err, created.Data.Entry.ID)
	}

	// knowledge-moderate: history is public, unmerge an admin's only.
	moderate := open("knowledge-moderate")
	call := func(method, route, path, bearer string) events.APIGatewayV2HTTPResponse {
		t.Helper()
		ev := events.APIGatewayV2HTTPRequest{Version: "2.0", RouteKey: method + " " + route, RawPath: path,
			Headers: map[string]string{}, PathParameters: map[string]string{"id": created.Data.Entry.ID}}
		if bearer != "" {
			ev.Headers["authorization"] = "Bearer " + bearer
		}
		ev.RequestContext.HTTP.Method = method
		res, err := moderate(ctx, ev)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	id := created.Data.Entry.ID
	if res := call("GET", "/knowledge/{id}/history", "/knowledge/"+id+"/history", ""); res.StatusCode != 200 || !strings.Contains(res.Body, `"events":[]`) {
		t.Fatalf("history = %d %s, want 200 with no events", res.StatusCode, res.Body)
	}
	token := func(scope string) string {
		tok, err := pumasi.SignToken([]byte(secret), "lambda-test", []string{scope}, time.Hour, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		return tok
	}
	for _, c := range []struct {
		bearer string
		want   int
	}{{"", 401}, {token("room:r1"), 403}, {token("machine:m1"), 403}, {token(pumasi.ScopeAdmin), 200}} {
		if res := call("POST", "/knowledge/{id}/unmerge", "/knowledge/"+id+"/unmerge", c.bearer); res.StatusCode != c.want {
			t.Errorf("unmerge with %.12q = %d %s, want %d", c.bearer, res.StatusCode, res.Body, c.want)
		}
	}
	// An admin restores and redacts; the redacted id answers 410 to both after.
	admin := token(pumasi.ScopeAdmin)
	for _, c := range []struct {
		method, route, path string
		want                int
	}{
		{"POST", "/knowledge/{id}/restore", "/knowledge/" + id + "/restore", 200},
		{"DELETE", "/knowledge/{id}", "/knowledge/" + id, 204},
		{"DELETE", "/knowledge/{id}", "/knowledge/" + id, 204},
		{"POST", "/knowledge/{id}/restore", "/knowledge/" + id + "/restore", 410},
		{"POST", "/knowledge/{id}/unmerge", "/knowledge/" + id + "/unmerge", 410},
	} {
		if res := call(c.method, c.route, c.path, admin); res.StatusCode != c.want {
			t.Errorf("%s %s = %d %s, want %d", c.method, c.path, res.StatusCode, res.Body, c.want)
		}
	}
	if res := call("GET", "/knowledge/{id}/history", "/knowledge/"+id+"/history", ""); res.StatusCode != 200 || !strings.Contains(res.Body, `"kind":"redacted"`) {
		t.Fatalf("history after the redaction = %d %s, want its redaction", res.StatusCode, res.Body)
	}
}

// TestKnowledgeTuningConfig: the knowledge functions and the sweep read the
// tuning knobs with functions.ReadKnowledgeTuning (as localdev does) and
// hand them to the engine and the API; a bad value fails the cold start;
// functions that build no engine do not read them.
func TestKnowledgeTuningConfig(t *testing.T) {
	knobs := map[string]string{EnvStorage: "s3://b/p", EnvSecret: "0123456789abcdef0123",
		functions.EnvMergeThreshold: "1.01", functions.EnvKnowledgeHalfLife: "720h", functions.EnvKnowledgeVectorWeight: "0.7",
		functions.EnvQuarantineFlags: "5"}
	want := functions.KnowledgeTuning{MergeThreshold: 1.01, HalfLife: 720 * time.Hour, VectorWeight: 0.7, QuarantineFlags: 5}
	for _, fn := range []string{"knowledge-contribute", "knowledge-query", "knowledge-counters", "knowledge-moderate", "sweep"} {
		cfg, err := LoadConfig(fn, func(k string) string { return knobs[k] })
		if err != nil || cfg.Tuning != want {
			t.Errorf("%s: Tuning = %+v, %v; want %+v", fn, cfg.Tuning, err, want)
		}
		_, err = LoadConfig(fn, func(k string) string {
			return map[string]string{EnvStorage: "s3://b/p", functions.EnvMergeThreshold: "0,9"}[k]
		})
		if err == nil || !strings.Contains(err.Error(), functions.EnvMergeThreshold) || !strings.Contains(err.Error(), fn) {
			t.Errorf("%s with %s=0,9: err = %v, want it refused naming both", fn, functions.EnvMergeThreshold, err)
		}
	}
	if cfg, err := LoadConfig("list", func(k string) string { return knobs[k] }); err != nil || cfg.Tuning != (functions.KnowledgeTuning{}) {
		t.Errorf("list: Tuning = %+v, %v; want none read", cfg.Tuning, err)
	}
	// Open hands the threshold to the API (the engine options are checked
	// by their effect under the emulator, e2e/lambda).
	// health needs no store, so Open builds its API offline.
	cfg, err := LoadConfig("health", func(k string) string {
		return map[string]string{EnvCORSOrigins: "https://app.example", EnvCORSRoutes: "knowledge"}[k]
	})
	if err != nil {
		t.Fatal(err)
	}
	cfg.Tuning.MergeThreshold = 0.9
	api, err := Open(context.Background(), cfg, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	if api.MergeThreshold != 0.9 || api.CORS.Routes != functions.CORSKnowledge || len(api.CORS.Origins) != 1 {
		t.Errorf("api MergeThreshold %v CORS %+v, want 0.9 and knowledge routes for one origin", api.MergeThreshold, api.CORS)
	}
	if _, err := LoadConfig("health", func(k string) string { return map[string]string{EnvCORSRoutes: "everything"}[k] }); err == nil {
		t.Errorf("health accepted %s=everything", EnvCORSRoutes)
	}
}
