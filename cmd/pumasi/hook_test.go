package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"pumasi/prompt"
)

// Claude Code's documented hook events (stdin of a command hook).
const (
	userPromptSubmit = `{"session_id":"abc123","transcript_path":"/home/u/.claude/projects/p/abc123.jsonl","cwd":"/home/u/src/shop","permission_mode":"default","hook_event_name":"UserPromptSubmit","prompt":"Why does now() stay the same inside my long Postgres transaction?"}`
	sessionStart     = `{"session_id":"abc123","transcript_path":"/home/u/.claude/projects/p/abc123.jsonl","cwd":"/home/u/src/postgres","hook_event_name":"SessionStart","source":"startup"}`
)

func runHook(t *testing.T, server, stdin string, args ...string) (stdout, stderr string, err error, took time.Duration) {
	t.Helper()
	var out, errb bytes.Buffer
	env := &cliEnv{stdin: strings.NewReader(stdin), stdout: &out, stderr: &errb, getenv: func(string) string { return "" }}
	start := time.Now()
	err = run(context.Background(), env, append([]string{"know", "hook", "--server", server}, args...))
	return out.String(), errb.String(), err, time.Since(start)
}

// closedPort is a loopback address nobody listens on.
func closedPort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return "http://" + addr
}

func TestKnowHook(t *testing.T) {
	srv := knowServer(t)
	env := map[string]string{"PUMASI_SERVER": srv.URL, "PUMASI_AGENT": "hook-agent"}
	out, _, err := runCLI(t, env, "know", "contribute", "--json", "--title", "Postgres now() is frozen in a transaction", "--content", knowTestContent)
	if err != nil {
		t.Fatalf("contribute: %v", err)
	}
	var d struct {
		EntryID string `json:"entry_id"`
	}
	if err := json.Unmarshal([]byte(out), &d); err != nil || d.EntryID == "" {
		t.Fatalf("contribute printed %q", out)
	}

	// UserPromptSubmit: the prompt finds the entry; its id is in the block.
	stdout, stderr, err, _ := runHook(t, srv.URL, userPromptSubmit)
	if err != nil || stderr != "" {
		t.Fatalf("hook = %v, stderr %q", err, stderr)
	}
	stdout = hostContext(t, "UserPromptSubmit", stdout)
	if !strings.HasPrefix(stdout, "<collective-knowledge>\n") || !strings.Contains(stdout, `<entry id="`+d.EntryID+`"`) ||
		!strings.Contains(stdout, "clock_timestamp()") || !strings.HasSuffix(stdout, "</collective-knowledge>\n") {
		t.Fatalf("hook printed:\n%s", stdout)
	}
	// SessionStart has no prompt: the project folder's name is the query.
	stdout, _, err, _ = runHook(t, srv.URL, sessionStart)
	if err != nil || !strings.Contains(stdout, d.EntryID) {
		t.Fatalf("SessionStart hook = %q, %v", stdout, err)
	}
	// --query overrides; a tight budget still shows the id.
	stdout, _, err, _ = runHook(t, srv.URL, sessionStart, "--query", "postgres clock_timestamp", "--budget", "256")
	if stdout = hostContext(t, "SessionStart", stdout); err != nil || len(stdout) > 256 || !strings.Contains(stdout, d.EntryID) {
		t.Fatalf("budget 256 hook = %q (%d bytes), %v", stdout, len(stdout), err)
	}
	// The block is reference data with provenance.
	stdout, _, _, _ = runHook(t, srv.URL, userPromptSubmit)
	if stdout = hostContext(t, "UserPromptSubmit", stdout); !strings.HasPrefix(stdout, "<collective-knowledge>\n"+prompt.KnowledgeHeader+"\n") || !strings.Contains(stdout, `contributors="1" score="`) ||
		!strings.Contains(stdout, ` last_used="`+time.Now().UTC().Format(time.DateOnly)+`"`) {
		t.Fatalf("hook block lacks its header or provenance:\n%s", stdout)
	}
	// A session in an unrelated project, or a prompt about something else:
	// nothing below the relevance floor is injected (SessionStart used to
	// print entries scoring 0.01).
	for _, ev := range []string{
		strings.Replace(sessionStart, "/home/u/src/postgres", "/home/u/src/shop", 1),
		strings.Replace(userPromptSubmit, "Why does now() stay the same inside my long Postgres transaction?", "Write a haiku about the sea for my mother.", 1),
	} {
		if stdout, _, err, _ := runHook(t, srv.URL, ev); err != nil || stdout != "" {
			t.Fatalf("unrelated event printed %q, %v", stdout, err)
		}
	}
	if _, _, err, _ := runHook(t, srv.URL, userPromptSubmit, "--min-score", "1.5"); exitCode(err) != 2 {
		t.Fatalf("--min-score 1.5 = %v, want exit 2", err)
	}
	// Nothing similar enough: nothing printed.
	stdout, _, err, _ = runHook(t, srv.URL, userPromptSubmit, "--min-similarity", "0.999")
	if err != nil || stdout != "" {
		t.Fatalf("min-similarity hook = %q, %v", stdout, err)
	}
	// No prompt, no cwd: nothing to ask.
	if stdout, stderr, err, _ := runHook(t, srv.URL, `{"hook_event_name":"SessionStart","source":"clear"}`); err != nil || stdout != "" || stderr != "" {
		t.Fatalf("empty event = %q %q %v", stdout, stderr, err)
	}
	// A usage error is the only failure.
	if _, _, err, _ := runHook(t, srv.URL, userPromptSubmit, "--limit", "0"); exitCode(err) != 2 {
		t.Fatalf("--limit 0 = %v, want exit 2", err)
	}
}

// TestKnowHookNeverBlocks: a server that is down, slow or broken, or an
// event that is not JSON, prints nothing, one line on stderr, and exits 0
// within the timeout.
func TestKnowHookNeverBlocks(t *testing.T) {
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(10 * time.Second):
		}
	}))
	defer slow.Close()
	broken := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusBadGateway)
		w.Write([]byte("<html>bad gateway</html>"))
	}))
	defer broken.Close()
	cases := []struct {
		name, server, stdin string
	}{
		{"down", closedPort(t), userPromptSubmit},
		{"slow", slow.URL, userPromptSubmit},
		{"broken", broken.URL, userPromptSubmit},
		{"not json", closedPort(t), "not json"},
	}
	for _, c := range cases {
		stdout, stderr, err, took := runHook(t, c.server, c.stdin, "--timeout", "300ms")
		if err != nil || stdout != "" || strings.Count(stderr, "\n") != 1 || !strings.HasPrefix(stderr, "pumasi know hook: ") {
			t.Errorf("%s: err %v, stdout %q, stderr %q; want exit 0, nothing, one line", c.name, err, stdout, stderr)
		}
		if took > 2*time.Second {
			t.Errorf("%s: took %s, want within the 300ms timeout", c.name, took)
		}
		t.Logf("%s: %s in %s", c.name, strings.TrimSpace(stderr), took.Round(time.Millisecond))
	}
}

// TestKnowHookBinaryExitsZero runs the real binary against no server, as
// Claude Code would: exit status 0, empty stdout.
func TestKnowHookBinaryExitsZero(t *testing.T) {
	bin := buildPumasiBinary(t)
	cmd := exec.Command(bin, "know", "hook", "--server", closedPort(t))
	cmd.Stdin = strings.NewReader(userPromptSubmit)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	if err != nil || stdout.Len() != 0 || strings.Count(stderr.String(), "\n") != 1 {
		t.Fatalf("binary hook: %v, stdout %q, stderr %q", err, stdout.String(), stderr.String())
	}
	if took := time.Since(start); took > 3*time.Second {
		t.Fatalf("binary hook took %s", took)
	}
}

// queryStub is a GET /knowledge/query that answers one hit above both
// injection floors, one between the lexical floor and the older servers'
// floor (0.15) and one below both, whatever min_score says (a client must
// check the score itself). An older server (before min_score=floor)
// answers 400 invalid_request to a min_score that is not a number, as those
// did; a refusing one answers that to every request. asked returns the
// min_score of each request since its last call ("" for none).
func queryStub(t *testing.T, kind string) (url string, asked func() []string) {
	t.Helper()
	var mu sync.Mutex
	var got []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ms := r.URL.Query().Get("min_score")
		mu.Lock()
		got = append(got, ms)
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		if _, err := strconv.ParseFloat(ms, 64); kind == "refusing" || kind == "older" && ms != "" && err != nil {
			w.WriteHeader(http.StatusBadRequest)
			w.Write([]byte(`{"success":false,"error":{"code":"invalid_request","message":"min_score must be a number from 0 to 1"}}`))
			return
		}
		w.Write([]byte(`{"success":true,"data":[{"id":"e-high","title":"High","content":"high scoring hit","score":0.5},{"id":"e-mid","title":"Mid","content":"mid scoring hit","score":0.15},{"id":"e-low","title":"Low","content":"low scoring hit","score":0.06}]}`))
	}))
	t.Cleanup(srv.Close)
	return srv.URL, func() []string {
		mu.Lock()
		defer mu.Unlock()
		a := got
		got = nil
		return a
	}
}

// TestKnowHookMinScore: by default the hook asks the server for its own
// floor (min_score=floor: only the server knows its embedder, whose kind
// sets the floor); a number is sent as given, 0 sends none; and a hit the
// server returns below the lower kind's floor is still not injected. A
// server older than floor refuses it (400): the hook asks once more with
// olderServerFloor as a number and injects what that server finds above
// it (not a hit at 0.15, which a newer server's floor lets through).
func TestKnowHookMinScore(t *testing.T) {
	for _, c := range []struct {
		server               string
		args                 []string
		want                 []string
		injectMid, injectLow bool
	}{
		{"newer", nil, []string{"floor"}, true, false},
		{"newer", []string{"--min-score", "floor"}, []string{"floor"}, true, false},
		{"newer", []string{"--min-score", "0.4"}, []string{"0.4"}, false, false},
		{"older", nil, []string{"floor", "0.205"}, false, false},
		{"older", []string{"--min-score", "floor"}, []string{"floor", "0.205"}, false, false},
		{"older", []string{"--min-score", "0.4"}, []string{"0.4"}, false, false},
		{"older", []string{"--min-score", "0.05"}, []string{"0.05"}, true, true},
		{"older", []string{"--min-score", "0"}, []string{""}, true, true},
	} {
		url, asked := queryStub(t, c.server)
		stdout, stderr, err, _ := runHook(t, url, userPromptSubmit, c.args...)
		if got := asked(); err != nil || stderr != "" || !slices.Equal(got, c.want) {
			t.Fatalf("hook %q on a %s server asked min_score=%q (%v, stderr %q), want %q", c.args, c.server, got, err, stderr, c.want)
		}
		if !strings.Contains(stdout, "e-high") || strings.Contains(stdout, "e-mid") != c.injectMid || strings.Contains(stdout, "e-low") != c.injectLow {
			t.Fatalf("hook %q on a %s server printed %q, want e-high, e-mid %v and e-low %v", c.args, c.server, stdout, c.injectMid, c.injectLow)
		}
	}
	// It asks again once only: a server that refuses that too gets the
	// hook's one line and no block.
	url, asked := queryStub(t, "refusing")
	stdout, stderr, err, _ := runHook(t, url, userPromptSubmit)
	if got := asked(); err != nil || stdout != "" || strings.Count(stderr, "\n") != 1 || !slices.Equal(got, []string{"floor", "0.205"}) {
		t.Fatalf("hook on a refusing server = %v, stdout %q, stderr %q, asked %q", err, stdout, stderr, got)
	}
	for _, bad := range []string{"1.5", "-0.1", "abc", "NaN", "Floor"} {
		if _, _, err, _ := runHook(t, url, userPromptSubmit, "--min-score", bad); exitCode(err) != 2 {
			t.Fatalf("--min-score %s = %v, want exit 2", bad, err)
		}
	}
}

// TestKnowMCPQueryOlderServer: query_knowledge asks for the server's floor
// and, when a server older than floor refuses it, once more with the
// lexical floor; either way it shows only the hits above the floor.
func TestKnowMCPQueryOlderServer(t *testing.T) {
	for _, c := range []struct {
		server           string
		args             map[string]any
		want             []string
		showMid, showLow bool
	}{
		{"newer", map[string]any{"query": "x"}, []string{"floor"}, true, false},
		{"older", map[string]any{"query": "x"}, []string{"floor", "0.205"}, false, false},
		{"older", map[string]any{"query": "x", "min_score": 0.05}, []string{"0.05"}, true, true},
	} {
		url, asked := queryStub(t, c.server)
		fs := newFlags("mcp")
		knowMCPFlags(fs)
		if err := fs.Parse([]string{"--server", url}); err != nil {
			t.Fatal(err)
		}
		server := newMCPServer()
		if err := addKnowledgeTools(server, &mcpConfig{env: &cliEnv{getenv: func(string) string { return "" }}, agent: "mcp-agent"}); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		res := callTool(t, ctx, mcpSession(t, ctx, server), "query_knowledge", c.args)
		cancel()
		text := resultText(t, res)
		if got := asked(); res.IsError || !slices.Equal(got, c.want) {
			t.Fatalf("query_knowledge %v on a %s server asked min_score=%q (isError %v: %s), want %q", c.args, c.server, got, res.IsError, text, c.want)
		}
		if !strings.Contains(text, "e-high") || strings.Contains(text, "e-mid") != c.showMid || strings.Contains(text, "e-low") != c.showLow {
			t.Fatalf("query_knowledge %v on a %s server shows %q, want e-high, e-mid %v and e-low %v", c.args, c.server, text, c.showMid, c.showLow)
		}
	}
}
