package main

import (
	"context"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"pumasi"
	"pumasi/adapters/local"
	"pumasi/functions"
)

// TestMCPTwoAgentsEditOneFile: two agents, each with its own MCP server and
// room token, edit plan.md from the same version at once through
// write_shared_file. One wins; the other is told the current sha256 and
// content, nothing of its edit is written, and its retry on the new
// version lands. Both edits are then in the history, each under its agent.
func TestMCPTwoAgentsEditOneFile(t *testing.T) {
	secret := []byte("mcpwrite-secret-0123456789abcdef-0123456789")
	st, err := local.Open(context.Background(), t.TempDir(), local.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	srv := httptest.NewServer((&functions.API{Store: st, Secret: secret}).Handler())
	defer srv.Close()
	base, err := st.PutFile(context.Background(), pumasi.PutFileInput{Room: "team", Name: "plan.md", Body: []byte("# plan\n"), UploadedBy: "lead"})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	session := func(agent string, scope string) *mcp.ClientSession {
		tok, err := pumasi.SignToken(secret, agent, []string{scope}, time.Hour, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		s := newMCPServer()
		home := t.TempDir()
		cfg := &mcpConfig{env: &cliEnv{getenv: func(string) string { return "" }}, home: home, agent: agent, sharedDir: agentSharedDir(home, agent)}
		if err := addWriteTool(s, cfg, writeConfig{server: srv.URL, token: tok}); err != nil {
			t.Fatal(err)
		}
		return mcpSession(t, ctx, s)
	}
	sessions := map[string]*mcp.ClientSession{"agent-a": session("agent-a", pumasi.ScopeRoom+"team"), "agent-b": session("agent-b", pumasi.ScopeRoom+"team")}
	edits := map[string]string{"agent-a": "# plan\n- a: write the parser\n", "agent-b": "# plan\n- b: write the tests\n"}

	results := map[string]*mcp.CallToolResult{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	start := make(chan struct{})
	for agent, cs := range sessions {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "write_shared_file", Arguments: map[string]any{
				"name": "plan.md", "content": edits[agent], "base_sha256": base.File.SHA256}})
			if err != nil {
				t.Errorf("%s: %v", agent, err)
				return
			}
			mu.Lock()
			results[agent] = res
			mu.Unlock()
		}()
	}
	close(start)
	wg.Wait()
	if t.Failed() {
		return
	}
	var winner, loser string
	for agent, res := range results {
		if res.IsError {
			loser = agent
		} else {
			winner = agent
		}
	}
	if winner == "" || loser == "" {
		t.Fatalf("both edits from one version: results %v, want one written and one conflict", results)
	}
	cur, body, err := st.ReadFile(ctx, "team", "plan.md")
	if err != nil || string(body) != edits[winner] {
		t.Fatalf("current = %q, %v; want the winner's edit", body, err)
	}
	told := resultText(t, results[loser])
	if !strings.HasPrefix(told, "conflict:") || !strings.Contains(told, cur.SHA256) || !strings.Contains(told, edits[winner]) {
		t.Fatalf("the loser was told %q, want a conflict naming sha256 %s with the current content", told, cur.SHA256)
	}
	// The loser redoes its edit on the winner's version.
	merged := edits[winner] + strings.TrimPrefix(edits[loser], "# plan\n")
	res := callTool(t, ctx, sessions[loser], "write_shared_file", map[string]any{"name": "plan.md", "content": merged, "base_sha256": cur.SHA256})
	var out writeSharedFileOutput
	decodeStructured(t, res, &out)
	if res.IsError || !out.Changed || out.Version != 3 {
		t.Fatalf("retry on the new version = %+v (%s), want version 3", out, resultText(t, res))
	}
	vs, err := st.FileVersions(ctx, "team", "plan.md")
	if err != nil {
		t.Fatal(err)
	}
	if len(vs) != 3 || vs[0].UploadedBy != loser || vs[0].SHA256 != out.SHA256 || vs[1].UploadedBy != winner || vs[1].SHA256 != cur.SHA256 || vs[2].UploadedBy != "lead" {
		t.Fatalf("history = %+v, want the loser's retry over the winner's edit over the lead's", vs)
	}
	// Creating a file that exists, or a stale or malformed base, writes nothing.
	for _, args := range []map[string]any{
		{"name": "plan.md", "content": "x\n", "base_sha256": ""},
		{"name": "plan.md", "content": "x\n", "base_sha256": base.File.SHA256},
		{"name": "plan.md", "content": "x\n", "base_sha256": "nope"},
		{"name": "../x.md", "content": "x\n", "base_sha256": ""},
	} {
		if res := callTool(t, ctx, sessions[winner], "write_shared_file", args); !res.IsError {
			t.Fatalf("write %v succeeded, want an error", args)
		}
	}
	if f, _ := st.StatFile(ctx, "team", "plan.md"); f.Version != 3 {
		t.Fatalf("refused writes moved the file to version %d", f.Version)
	}
	// A new file needs an empty base.
	res = callTool(t, ctx, sessions[winner], "write_shared_file", map[string]any{"name": "notes.md", "content": "new\n", "base_sha256": ""})
	if res.IsError {
		t.Fatalf("create notes.md: %s", resultText(t, res))
	}
}

// TestMCPWriteToolNeedsAWriter: the tool is offered only for a token that
// may write a room (admin or room), not without one, not for a machine
// token, and not for a room the token does not reach.
func TestMCPWriteToolNeedsAWriter(t *testing.T) {
	secret := []byte("mcpwrite-secret-0123456789abcdef-0123456789")
	sign := func(scope string) string {
		tok, err := pumasi.SignToken(secret, "x", []string{scope}, time.Hour, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		return tok
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	for _, tt := range []struct {
		wc   writeConfig
		want bool
	}{
		{writeConfig{}, false},
		{writeConfig{token: sign(pumasi.ScopeMachine + "m1")}, false},
		{writeConfig{token: sign(pumasi.ScopeRoom + "r1"), room: "r2"}, false},
		{writeConfig{token: "not-a-jwt"}, false},
		{writeConfig{token: sign(pumasi.ScopeRoom + "r1")}, true},
		{writeConfig{token: sign(pumasi.ScopeAdmin), room: "r2"}, true},
	} {
		s := newMCPServer()
		cfg := &mcpConfig{env: &cliEnv{getenv: func(string) string { return "" }}, agent: "a"}
		if err := addWriteTool(s, cfg, tt.wc); err != nil {
			t.Fatal(err)
		}
		tools, err := mcpSession(t, ctx, s).ListTools(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := len(tools.Tools) == 1; got != tt.want {
			t.Errorf("room %q: write tool offered = %v, want %v", tt.wc.room, got, tt.want)
		}
	}
}
