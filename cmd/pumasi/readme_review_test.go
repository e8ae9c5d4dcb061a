package main

import (
	"bytes"
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func readReadme(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestReadmeListsEveryMCPTool checks that the README's MCP tool table names
// every tool `pumasi mcp` serves, the knowledge tools included.
func TestReadmeListsEveryMCPTool(t *testing.T) {
	readme := readReadme(t)
	env := &cliEnv{getenv: func(string) string { return "" }}
	home := t.TempDir()
	srv := newMCPServer()
	cfg := &mcpConfig{env: env, home: home, agent: "my-agent", sharedDir: agentSharedDir(home, "my-agent")}
	for _, ts := range mcpToolsets {
		if err := ts.add(srv, cfg); err != nil {
			t.Fatalf("add %s tools: %v", ts.name, err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatalf("server connect: %v", err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "review", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatalf("client connect: %v", err)
	}
	defer cs.Close()
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatalf("list tools: %v", err)
	}
	if len(tools.Tools) < 6 {
		t.Fatalf("%d tools, want the 4 shared-file tools and the 2 knowledge tools", len(tools.Tools))
	}
	for _, tool := range tools.Tools {
		if !strings.Contains(readme, "| `"+tool.Name+"` |") {
			t.Errorf("README's tool table lacks %q", tool.Name)
		}
	}
}

// TestReadmeKnowContributeFlags runs the README's `pumasi know contribute`
// example, with its placeholders filled, and no PUMASI_AGENT: the flags it
// shows must be enough to reach the server (here a closed port), not stop at
// a usage error.
func TestReadmeKnowContributeFlags(t *testing.T) {
	m := regexp.MustCompile("`pumasi (know contribute [^`]*)`").FindStringSubmatch(readReadme(t))
	if m == nil {
		t.Fatal("README has no `pumasi know contribute ...` example")
	}
	args := strings.Fields(strings.ReplaceAll(m[1], "...", "x"))[2:]
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	var stdout, stderr bytes.Buffer
	env := &cliEnv{stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr, getenv: func(string) string { return "" }}
	err = run(context.Background(), env, append([]string{"know", "contribute", "--server", "http://" + addr}, args...))
	var ec *exitCodeError
	if err == nil || errors.As(err, &ec) && ec.code == 2 {
		t.Fatalf("pumasi know contribute %q = %v, want a connection error past flag checks", args, err)
	}
	if !strings.Contains(err.Error(), "know contribute") || strings.Contains(err.Error(), "--agent") {
		t.Fatalf("pumasi know contribute %q = %v, want the request to be sent", args, err)
	}
}
