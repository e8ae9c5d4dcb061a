package main

import (
	"context"
	"flag"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"pumasi"
	"pumasi/adapters/embed"
	"pumasi/adapters/local"
	"pumasi/functions"
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

// TestKnowMCPTools calls query_knowledge and contribute_knowledge through a
// real MCP client session against the real API.
func TestKnowMCPTools(t *testing.T) {
	srv := knowServer(t)
	fs := flag.NewFlagSet("mcp", flag.ContinueOnError)
	knowMCPFlags(fs)
	if err := fs.Parse([]string{"--server", srv.URL, "--handle", "mcp-agent"}); err != nil {
		t.Fatal(err)
	}
	server := newMCPServer()
	if err := addKnowledgeTools(server, &mcpConfig{env: &cliEnv{getenv: func(string) string { return "" }}, agent: "a1"}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := server.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()

	var d functions.ContributeData
	decodeStructured(t, callTool(t, ctx, cs, "contribute_knowledge", map[string]any{
		"title": "Postgres now() is frozen", "content": knowTestContent, "hive": "academy", "tags": []string{}}), &d)
	if d.Verdict != pumasi.VerdictAccepted || d.Entry == nil {
		t.Fatalf("contribute_knowledge = %+v", d)
	}
	decodeStructured(t, callTool(t, ctx, cs, "contribute_knowledge", map[string]any{
		"title": "Ask ops", "content": "Mail ops@acme-corp.com about `kubectl drain` hanging on 1.29."}), &d)
	if d.Verdict != pumasi.VerdictRejected || d.Stage != pumasi.StagePII || strings.Contains(d.Reason, "acme") {
		t.Fatalf("PII via MCP = %+v", d)
	}
	var q queryKnowledgeOutput
	decodeStructured(t, callTool(t, ctx, cs, "query_knowledge", map[string]any{"query": "postgres clock_timestamp", "limit": 5}), &q)
	if len(q.Results) != 1 || q.Results[0].Title != "Postgres now() is frozen" || q.Results[0].Score <= 0 {
		t.Fatalf("query_knowledge = %+v", q)
	}
	res := callTool(t, ctx, cs, "query_knowledge", map[string]any{"query": "x", "hive": "Bad Hive"})
	if !res.IsError {
		t.Fatal("bad hive did not error")
	}
}
