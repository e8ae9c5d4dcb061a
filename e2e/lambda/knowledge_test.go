package lambda_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"pumasi/adapters/embed"
	"pumasi/functions"
	"pumasi/functions/lambdaapp"
	"pumasi/internal/testpeer"
)

const (
	knowTitle   = "pgvector HNSW needs a typed column or a cast expression index"
	knowContent = "On a dimension-free `vector` column CREATE INDEX ... USING hnsw fails with 'column does not have dimensions'; index `(embedding::vector(512))` WHERE dims = 512 instead."
)

// contribution is a POST /knowledge/contribute of the finding, reworded
// (a remark added) when reword is set.
func contribution(agent string, reword bool) call {
	content := knowContent
	if reword {
		content += " Verified on PostgreSQL 15."
	}
	body, _ := json.Marshal(map[string]any{"hive": "academy", "tags": []string{"postgres"}, "title": knowTitle, "content": content})
	return call{fn: "knowledge-contribute", method: "POST", pattern: "/knowledge/contribute",
		headers: map[string]string{"Content-Type": "application/json", functions.HeaderAgent: agent}, body: body}
}

// verdict returns a contribute answer's verdict and entry id.
func verdict(t *testing.T, r reply) (string, string) {
	t.Helper()
	var v struct {
		Data struct {
			Verdict string `json:"verdict"`
			Entry   struct {
				ID string `json:"id"`
			} `json:"entry"`
		} `json:"data"`
	}
	if err := json.Unmarshal(r.body, &v); err != nil {
		t.Fatalf("contribute answered %d %s: %v", r.status, r.body, err)
	}
	return v.Data.Verdict, v.Data.Entry.ID
}

// TestKnowledgeKnobsUnderEmulator: the knowledge functions' own bootstraps
// under the real emulator, on MinIO and Postgres, read the tuning as
// localdev does. With the defaults a reworded contribution merges into the
// first; with PUMASI_MERGE_THRESHOLD=1.01 it stays its own entry and the
// query function finds both; an out-of-range value fails the cold start
// with an error naming the variable.
func TestKnowledgeKnobsUnderEmulator(t *testing.T) {
	srv := testpeer.MinIO(t)
	bucket := srv.NewBucket(t)
	env := func(prefix string, kv ...string) []string {
		return append(append(srv.Env(), "PUMASI_STORAGE="+srv.URL(bucket, prefix)), kv...)
	}

	def := emulators(t, env("default", "PUMASI_KNOWLEDGE="+testpeer.Postgres(t)), "knowledge-contribute")
	first := invokeHTTP(t, def["knowledge-contribute"], contribution("agent-1", false))
	again := invokeHTTP(t, def["knowledge-contribute"], contribution("agent-2", true))
	v1, id1 := verdict(t, first)
	v2, id2 := verdict(t, again)
	if first.status != 201 || again.status != 200 || v2 != "merged" || id1 != id2 {
		t.Fatalf("default threshold: %d %s %s then %d %s %s, want 201 accepted then 200 merged into it", first.status, v1, id1, again.status, v2, id2)
	}

	tuned := emulators(t, env("tuned", "PUMASI_KNOWLEDGE="+testpeer.Postgres(t), functions.EnvMergeThreshold+"=1.01",
		functions.EnvKnowledgeHalfLife+"=720h", functions.EnvKnowledgeVectorWeight+"=0.7"),
		"knowledge-contribute", "knowledge-query")
	first = invokeHTTP(t, tuned["knowledge-contribute"], contribution("agent-1", false))
	again = invokeHTTP(t, tuned["knowledge-contribute"], contribution("agent-2", true))
	v1, id1 = verdict(t, first)
	v2, id2 = verdict(t, again)
	if first.status != 201 || again.status != 201 || v2 != "accepted" || id1 == id2 {
		t.Fatalf("threshold 1.01: %d %s %s then %d %s %s, want two accepted entries", first.status, v1, id1, again.status, v2, id2)
	}
	q := invokeHTTP(t, tuned["knowledge-query"], call{fn: "knowledge-query", method: "GET", pattern: "/knowledge/query", query: "q=hnsw+cast+expression+index&hive=academy"})
	if q.status != 200 || !strings.Contains(string(q.body), id1) || !strings.Contains(string(q.body), id2) {
		t.Fatalf("query = %d %s, want both entries %s and %s", q.status, q.body, id1, id2)
	}

	// The half-life and vector weight reach the engine too: the cold start
	// logs the options it built the engine with.
	for _, fn := range []string{"knowledge-contribute", "knowledge-query"} {
		if _, err := tuned[fn].ExpectOutput(10*time.Second, `"half_life":"720h0m0s","vector_weight":0.7`); err != nil {
			t.Errorf("%s did not build its engine with half-life 720h and vector weight 0.7: %v", fn, err)
		}
	}

	// The failed cold start answers the invocation that started it with its
	// reason (the function reports it on the runtime API's init error path),
	// and logs it.
	bad := emulators(t, env("bad", functions.EnvMergeThreshold+"=1.5"), "knowledge-query")
	ev, _ := json.Marshal(call{fn: "knowledge-query", method: "GET", pattern: "/knowledge/query", query: "q=x"}.event())
	res, err := bad["knowledge-query"].Invoke(context.Background(), ev)
	if err == nil {
		t.Fatalf("%s=1.5: the function answered %s, want its cold start to fail", functions.EnvMergeThreshold, res)
	}
	if !strings.Contains(err.Error(), lambdaapp.InitErrorType) || !strings.Contains(err.Error(), functions.EnvMergeThreshold) {
		t.Fatalf("%s=1.5: the invocation answered %v, want the init error (%s) naming the variable", functions.EnvMergeThreshold, err, lambdaapp.InitErrorType)
	}
	if _, err := bad["knowledge-query"].ExpectOutput(10*time.Second, "function init failed", functions.EnvMergeThreshold); err != nil {
		t.Fatalf("%s=1.5: the failed cold start is not logged: %v", functions.EnvMergeThreshold, err)
	}
}

// TestPreflightUnderEmulator: the query function's bootstrap under the
// emulator answers a browser's preflight (the API Gateway v2 event with
// method OPTIONS, which the template routes to it) as localdev does: 204
// with the CORS headers for an allowed origin, none for another, following
// PUMASI_CORS_ORIGINS; and its GET answers carry Allow-Origin. No knowledge
// database is needed: the preflight never reaches the engine.
func TestPreflightUnderEmulator(t *testing.T) {
	srv := testpeer.MinIO(t)
	bucket := srv.NewBucket(t)
	app := "https://app.example"
	ems := emulators(t, append(srv.Env(), "PUMASI_STORAGE="+srv.URL(bucket, "cors"), "PUMASI_CORS_ORIGINS="+app), "knowledge-query")
	policy, err := functions.ParseCORS(app, "")
	if err != nil {
		t.Fatal(err)
	}
	ref := httptest.NewServer((&functions.API{CORS: policy, Embedder: embed.NewHashed(0)}).Handler())
	defer ref.Close()

	preflight := func(origin, pattern string, params map[string]string) call {
		return call{fn: "knowledge-query", method: "OPTIONS", pattern: pattern, params: params,
			headers: map[string]string{"Origin": origin, "Access-Control-Request-Method": "GET"}}
	}
	corsHeaders := []string{"Access-Control-Allow-Origin", "Access-Control-Allow-Methods", "Access-Control-Allow-Headers", "Access-Control-Max-Age", "Allow", "Vary"}
	for _, tc := range []struct {
		name   string
		c      call
		origin string // the Allow-Origin wanted, "" for none
	}{
		{"query from the app", preflight(app, "/knowledge/query", nil), app},
		{"entry from the app", preflight(app, "/knowledge/{id}", map[string]string{"id": "0190f0aa-0000-7000-8000-000000000000"}), app},
		{"query from elsewhere", preflight("https://evil.example", "/knowledge/query", nil), ""},
	} {
		got := invokeHTTP(t, ems["knowledge-query"], tc.c)
		want := doHTTP(t, ref.URL, tc.c)
		if got.status != 204 || got.header.Get("Access-Control-Allow-Origin") != tc.origin {
			t.Fatalf("%s: lambda preflight = %d %v, want 204 with Allow-Origin %q", tc.name, got.status, got.header, tc.origin)
		}
		if tc.origin != "" && !strings.Contains(got.header.Get("Access-Control-Allow-Methods"), "GET") {
			t.Errorf("%s: Allow-Methods = %q, want GET in it", tc.name, got.header.Get("Access-Control-Allow-Methods"))
		}
		if got.status != want.status {
			t.Errorf("%s: lambda %d, localdev's handler %d", tc.name, got.status, want.status)
		}
		for _, k := range corsHeaders {
			if got.header.Get(k) != want.header.Get(k) {
				t.Errorf("%s: lambda %s = %q, localdev's handler %q", tc.name, k, got.header.Get(k), want.header.Get(k))
			}
		}
	}
	// The read itself (500: no knowledge database here) still carries
	// Allow-Origin, so the browser can read the error.
	get := invokeHTTP(t, ems["knowledge-query"], call{fn: "knowledge-query", method: "GET", pattern: "/knowledge/query", query: "q=x", headers: map[string]string{"Origin": app}})
	if got := get.header.Get("Access-Control-Allow-Origin"); got != app {
		t.Fatalf("GET query from the app = %d, Allow-Origin %q, want %q", get.status, got, app)
	}
}
