package main

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestMCPFlagOverStdio drives the real `pumasi mcp` binary with the go-sdk
// client against the real knowledge API: flag_knowledge counts once per
// agent (a second flag answers counted false), refuses a bad reason, a bad
// id and an unknown one as tool errors the session survives, and three
// distinct agents' flags quarantine the entry: the query no longer finds it.
func TestMCPFlagOverStdio(t *testing.T) {
	bin := buildPumasiBinary(t)
	srv := knowServer(t)
	id := seedEntry(t, srv.URL)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	session := func(agent string) *mcp.ClientSession {
		t.Helper()
		cmd := exec.Command(bin, "mcp", "--agent", agent, "--home", t.TempDir(), "--server", srv.URL, "--watch", "0")
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "pumasi-test", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
		if err != nil {
			t.Fatalf("connect: %v", err)
		}
		t.Cleanup(func() { cs.Close() })
		return cs
	}
	flag := func(cs *mcp.ClientSession, args map[string]any) (*mcp.CallToolResult, bool, string) {
		t.Helper()
		res := callTool(t, ctx, cs, "flag_knowledge", args)
		var ans struct {
			Data    struct{ ID string } `json:"data"`
			Counted bool                `json:"counted"`
		}
		if !res.IsError {
			decodeStructured(t, res, &ans)
		}
		return res, ans.Counted, ans.Data.ID
	}
	found := func() bool {
		t.Helper()
		resp, err := http.Get(srv.URL + "/knowledge/query?q=" + url.QueryEscape("postgres now() transaction clock_timestamp"))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var body struct {
			Data []struct{ ID string } `json:"data"`
		}
		if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
			t.Fatal(err)
		}
		for _, h := range body.Data {
			if h.ID == id {
				return true
			}
		}
		return false
	}
	if !found() {
		t.Fatal("the seeded entry is not found before any flag")
	}

	first := session("flag-agent-1")
	if res, counted, got := flag(first, map[string]any{"id": id, "reason": "outdated", "note": "Postgres 16 docs say the same; kept for the test"}); res.IsError || !counted || got != id {
		t.Fatalf("first flag = %s (isError %v, counted %v), want counted", resultText(t, res), res.IsError, counted)
	}
	if res, counted, _ := flag(first, map[string]any{"id": id, "reason": "wrong"}); res.IsError || counted {
		t.Fatalf("the same agent's second flag = %s (isError %v, counted %v), want counted false", resultText(t, res), res.IsError, counted)
	}
	for _, args := range []map[string]any{
		{"id": id, "reason": "boring"},
		{"id": id},
		{"id": "../contribute", "reason": "wrong"},
		{"id": id, "reason": "wrong", "note": strings.Repeat("n", maxFlagNote+1)},
	} {
		if res := callTool(t, ctx, first, "flag_knowledge", args); !res.IsError || !strings.Contains(resultText(t, res), "invalid") {
			t.Errorf("flag %v = %q (isError %v), want an invalid tool error", args, resultText(t, res), res.IsError)
		}
	}
	unknown := "0b7e9c52-4f7d-4d8e-9a39-3c1f0e6b2a11"
	if res := callTool(t, ctx, first, "flag_knowledge", map[string]any{"id": unknown, "reason": "wrong"}); !res.IsError || !strings.HasPrefix(resultText(t, res), "not_found: ") {
		t.Errorf("flag of an unknown id = %q (isError %v), want not_found", resultText(t, res), res.IsError)
	}
	if !found() {
		t.Fatal("one agent's flag (twice) hid the entry; it takes three distinct agents")
	}
	for _, agent := range []string{"flag-agent-2", "flag-agent-3"} {
		if res, counted, _ := flag(session(agent), map[string]any{"id": id, "reason": "wrong"}); res.IsError || !counted {
			t.Fatalf("%s's flag = %s (isError %v, counted %v)", agent, resultText(t, res), res.IsError, counted)
		}
	}
	if found() {
		t.Fatal("three distinct agents flagged the entry and the query still returns it")
	}
}
