package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"pumasi/adapters/embed"
	"pumasi/adapters/local"
	"pumasi/functions"
	"pumasi/gate"
	"pumasi/knowledge"
	"pumasi/prompt"
)

// knowServer serves the real knowledge API over a real local store.
func knowServer(t *testing.T) *httptest.Server {
	t.Helper()
	st, err := local.Open(context.Background(), t.TempDir(), local.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	api := &functions.API{Store: st, Knowledge: local.NewKnowledge(st), Embedder: embed.NewHashed(0)}
	srv := httptest.NewServer(api.Handler())
	t.Cleanup(srv.Close)
	return srv
}

const knowTestContent = "Postgres 15 `now()` returns the transaction start time; inside a long BEGIN block use `clock_timestamp()` to measure elapsed time."

func TestKnowCommands(t *testing.T) {
	srv := knowServer(t)
	env := map[string]string{"PUMASI_SERVER": srv.URL, "PUMASI_AGENT": "cli-agent"}

	out, _, err := runCLI(t, env, "know", "contribute", "--title", "Postgres now() is frozen in a transaction",
		"--content", knowTestContent, "--tags", "postgres, time")
	if err != nil || !strings.HasPrefix(out, "accepted: new entry ") || !strings.Contains(out, "hive academy") {
		t.Fatalf("contribute = %q, %v", out, err)
	}
	// Same finding, another handle via --agent, JSON output: merged.
	out, _, err = runCLI(t, env, "know", "contribute", "--agent", "other-agent", "--json",
		"--title", "Postgres now() is frozen in a transaction", "--content", knowTestContent)
	if err != nil || !strings.Contains(out, `"verdict": "merged"`) || !strings.Contains(out, `"contribution_count": 2`) {
		t.Fatalf("duplicate = %q, %v", out, err)
	}
	// Flags after the words; the hit shows its counts and id.
	out, _, err = runCLI(t, env, "know", "query", "postgres", "clock_timestamp", "elapsed", "--limit", "3")
	if err != nil || !strings.HasPrefix(out, "1. Postgres now() is frozen in a transaction\n") ||
		!strings.Contains(out, "2 contributions") || !strings.Contains(out, "clock_timestamp()") {
		t.Fatalf("query = %q, %v", out, err)
	}
	out, _, err = runCLI(t, env, "know", "query", "--hive", "backend", "postgres")
	if err != nil || out != "no knowledge matches\n" {
		t.Fatalf("query other hive = %q, %v", out, err)
	}

	// A rejected contribution prints stage and reason, exits 1.
	out, _, err = runCLI(t, env, "know", "contribute", "--title", "My day", "--content", "Today I spent hours and finally fixed it. I was so happy.")
	if exitCode(err) != 1 || !strings.HasPrefix(out, "rejected at narrative: ") {
		t.Fatalf("narrative = %q, %v (exit %d)", out, err, exitCode(err))
	}
	// Usage errors exit 2 without calling the server.
	for _, args := range [][]string{
		{"know", "query"},
		{"know", "contribute", "--title", "t"},
		{"know", "contribute", "--agent", "x", "--title", "t", "--content", "c"},
		{"know", "contribute", "--title", "t", "--content", "c", "stray"},
	} {
		if _, _, err := runCLI(t, env, args...); exitCode(err) != 2 {
			t.Errorf("%q: exit %d (%v), want 2", args, exitCode(err), err)
		}
	}
	// Server errors surface with their code.
	_, _, err = runCLI(t, env, "know", "query", "x", "--hive", "Bad Hive")
	if err == nil || !strings.Contains(err.Error(), "invalid_request") {
		t.Fatalf("bad hive err = %v", err)
	}
}

func TestKnowContributeFromStdin(t *testing.T) {
	srv := knowServer(t)
	var stdout, stderr strings.Builder
	env := &cliEnv{stdin: strings.NewReader(knowTestContent), stdout: &stdout, stderr: &stderr,
		getenv: func(k string) string { return map[string]string{"PUMASI_SERVER": srv.URL}[k] }}
	err := run(context.Background(), env, []string{"know", "contribute", "--agent", "stdin-agent", "--hive", "backend",
		"--title", "now() vs clock_timestamp()", "--content", "-"})
	if err != nil || !strings.Contains(stdout.String(), "hive backend") {
		t.Fatalf("stdin contribute = %q, %v", stdout.String(), err)
	}
}

// mcpSession connects an in-memory client to server.
func mcpSession(t *testing.T, ctx context.Context, server *mcp.Server) *mcp.ClientSession {
	t.Helper()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := server.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// hiveAnswer is a knowledge tool's structured result: the HTTP body.
type hiveAnswer struct {
	Success bool            `json:"success"`
	Data    json.RawMessage `json:"data"`
}

// TestKnowMCPTools calls query_knowledge and contribute_knowledge through a
// real MCP client session against the real API: they answer exactly what
// the HTTP API answers, with The Hive's fields.
func TestKnowMCPTools(t *testing.T) {
	srv := knowServer(t)
	fs := newFlags("mcp")
	knowMCPFlags(fs)
	// A one-character agent id gets a valid default handle.
	if err := fs.Parse([]string{"--server", srv.URL}); err != nil {
		t.Fatal(err)
	}
	server := newMCPServer()
	if err := addKnowledgeTools(server, &mcpConfig{env: &cliEnv{getenv: func(string) string { return "" }}, agent: "a"}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs := mcpSession(t, ctx, server)

	var ans hiveAnswer
	var d functions.ContributeData
	res := callTool(t, ctx, cs, "contribute_knowledge", map[string]any{
		"title": "Postgres now() is frozen", "content": knowTestContent, "hive": "academy", "tags": []string{"postgres", "time"}})
	decodeStructured(t, res, &ans)
	if err := json.Unmarshal(ans.Data, &d); err != nil || res.IsError || !ans.Success || d.Verdict != knowledge.VerdictAccepted || d.EntryID == "" || d.Entry == nil {
		t.Fatalf("contribute_knowledge = %s (isError %v)", resultText(t, res), res.IsError)
	}
	entryID := d.EntryID
	if got := d.Entry.Tags; len(got) != 2 {
		t.Fatalf("tags = %q, want the two sent as a plain array", got)
	}
	entry, err := http.Get(srv.URL + "/knowledge/" + d.EntryID)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(entry.Body)
	entry.Body.Close()
	if !strings.Contains(string(raw), `"agent":"agent-a"`) {
		t.Fatalf("contribution of agent a attributed as %s, want agent-a", raw)
	}

	res = callTool(t, ctx, cs, "contribute_knowledge", map[string]any{
		"title": "Ask ops", "content": "Mail ops@acme-corp.com about `kubectl drain` hanging on 1.29."})
	decodeStructured(t, res, &ans)
	d = functions.ContributeData{}
	_ = json.Unmarshal(ans.Data, &d)
	if !res.IsError || ans.Success || d.Verdict != knowledge.VerdictRejected || d.Stage != gate.StagePII || len(d.Reasons) != 1 || len(d.Hints) == 0 || strings.Contains(resultText(t, res), "acme") {
		t.Fatalf("PII via MCP = %s (isError %v), want a tool error holding the 422 body", resultText(t, res), res.IsError)
	}

	// query_knowledge's structured result is GET /knowledge/query with the
	// relevance floor, byte for byte; limit defaults to 5. Its text is the
	// <collective-knowledge> block a hook injects, framed as reference data.
	res = callTool(t, ctx, cs, "query_knowledge", map[string]any{"query": "postgres clock_timestamp"})
	resp, err := http.Get(srv.URL + "/knowledge/query?limit=5&q=postgres+clock_timestamp&min_score=floor")
	if err != nil {
		t.Fatal(err)
	}
	raw, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	structured, _ := json.Marshal(res.StructuredContent)
	// Byte for byte but for the ranking's clock-driven figures.
	if !sameAnswer(t, string(structured), string(raw)) || res.IsError {
		t.Fatalf("query_knowledge =\n%s\nHTTP =\n%s", structured, raw)
	}
	if text := resultText(t, res); !strings.HasPrefix(text, "<collective-knowledge>\n"+prompt.KnowledgeHeader+"\n") ||
		!strings.Contains(text, `<entry id="`+entryID+`" hive="academy"`) || !strings.Contains(text, `contributors="1"`) ||
		!strings.Contains(text, "clock_timestamp()") || !strings.Contains(text, ` last_used="`) {
		t.Fatalf("query_knowledge text =\n%s", text)
	}
	// Nothing related: no entry, and a text that says so; min_score 0
	// asks for every match.
	res = callTool(t, ctx, cs, "query_knowledge", map[string]any{"query": "zzzqqq nothingmatches"})
	if text := resultText(t, res); res.IsError || strings.Contains(text, "<entry") {
		t.Fatalf("unrelated query_knowledge = %q", text)
	}
	res = callTool(t, ctx, cs, "query_knowledge", map[string]any{"query": "postgres clock_timestamp", "min_score": 0})
	if text := resultText(t, res); res.IsError || !strings.Contains(text, entryID) {
		t.Fatalf("min_score 0 query_knowledge = %q", text)
	}
	var hits []map[string]any
	decodeStructured(t, res, &ans)
	if err := json.Unmarshal(ans.Data, &hits); err != nil || len(hits) != 1 || hits[0]["id"] != entryID || hits[0]["summary"] == "" || hits[0]["summary"] == nil {
		t.Fatalf("hits = %s", ans.Data)
	}
	for _, args := range []map[string]any{
		{"query": "x", "limit": 0}, {"query": "x", "limit": 1000}, {"query": "x", "hive": "Bad Hive"}, {"query": " "},
		{"query": "x", "min_score": 2}, {"query": "x", "min_score": -1},
	} {
		res := callTool(t, ctx, cs, "query_knowledge", args)
		text := resultText(t, res)
		if !res.IsError || !(strings.Contains(text, "limit") || strings.Contains(text, "invalid_request")) {
			t.Errorf("query_knowledge %v = %q (isError %v), want a clear tool error", args, text, res.IsError)
		}
	}
}

// sameAnswer compares two query answers with the time-dependent fields of
// each hit (freshness, score, last_used_at) dropped.
func sameAnswer(t *testing.T, a, b string) bool {
	t.Helper()
	norm := func(s string) string {
		var v struct {
			Success bool             `json:"success"`
			Data    []map[string]any `json:"data"`
		}
		if err := json.Unmarshal([]byte(s), &v); err != nil {
			t.Fatalf("answer %q: %v", s, err)
		}
		for _, h := range v.Data {
			delete(h, "freshness")
			delete(h, "score")
			delete(h, "last_used_at")
		}
		out, _ := json.Marshal(v)
		return string(out)
	}
	return norm(a) == norm(b)
}

func TestMCPBadHandleStillServes(t *testing.T) {
	fs := newFlags("mcp")
	knowMCPFlags(fs)
	if err := fs.Parse([]string{"--server", "http://127.0.0.1:1", "--handle", "a b"}); err != nil {
		t.Fatal(err)
	}
	server := newMCPServer()
	if err := addKnowledgeTools(server, &mcpConfig{env: &cliEnv{getenv: func(string) string { return "" }}, agent: "a"}); err != nil {
		t.Fatalf("a bad handle stopped the server: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	res := callTool(t, ctx, mcpSession(t, ctx, server), "contribute_knowledge", map[string]any{"title": "t", "content": "c"})
	if text := resultText(t, res); !res.IsError || !strings.HasPrefix(text, "agent_required: ") || !strings.Contains(text, "--handle") {
		t.Fatalf("contribute with a bad handle = %q (isError %v)", text, res.IsError)
	}
}

func TestMCPHandle(t *testing.T) {
	for _, id := range []string{"a", "a1", "a.b", "abc", strings.Repeat("x", 63)} {
		h := mcpHandle(id)
		if !knowledge.ValidHandle(h) || (len(id) >= 3 && h != id) {
			t.Errorf("mcpHandle(%q) = %q", id, h)
		}
	}
}
