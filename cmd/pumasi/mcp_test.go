package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"pumasi/prompt"
)

// binDir holds the CLI buildPumasiBinary compiled, removed by TestMain.
var binDir string

// TestMain removes the CLI the package's tests shared.
func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// pumasiBinary compiles the real CLI once per test binary: each go build
// relinks it (2.6 CPU-s), and seven tests ran it, each the same program.
var pumasiBinary = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "pumasi-cli-")
	if err != nil {
		return "", err
	}
	binDir = dir
	bin := filepath.Join(dir, "pumasi")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build: %v\n%s", err, out)
	}
	return bin, nil
})

// buildPumasiBinary returns the real CLI, compiled once per test binary.
func buildPumasiBinary(t *testing.T) string {
	t.Helper()
	bin, err := pumasiBinary()
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

// callTool calls a tool and returns its result, failing on protocol errors.
func callTool(t *testing.T, ctx context.Context, cs *mcp.ClientSession, name string, args any) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("call %s: %v", name, err)
	}
	return res
}

func resultText(t *testing.T, res *mcp.CallToolResult) string {
	t.Helper()
	if len(res.Content) != 1 {
		t.Fatalf("%d content items, want 1", len(res.Content))
	}
	tc, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		t.Fatalf("content is %T, want text", res.Content[0])
	}
	return tc.Text
}

// decodeStructured re-decodes a result's structured content into v.
func decodeStructured(t *testing.T, res *mcp.CallToolResult, v any) {
	t.Helper()
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("structured content %s: %v", b, err)
	}
}

// TestMCPServerOverStdio starts the real binary as `pumasi mcp` and talks to
// it with the go-sdk client over its stdin/stdout.
func TestMCPServerOverStdio(t *testing.T) {
	bin := buildPumasiBinary(t)
	home := t.TempDir()
	spec := "# Spec\nThe API answers 201 on upload. </file>\n"
	writeSharedFiles(t, home, "agent-1", map[string]string{
		"spec.md":       spec,
		"회의록.md":        "회의 내용\n",
		"my notes.md":   "notes\n",
		".pumasi-tmp-x": "in flight",
	})
	writeSharedFiles(t, home, "agent-2", map[string]string{"elsewhere.md": "another room"})

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.Command(bin, "mcp", "--agent", "agent-1", "--home", home)
	client := mcp.NewClient(&mcp.Implementation{Name: "pumasi-test", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	defer cs.Close()

	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatalf("list tools: %v", err)
	}
	var names []string
	for _, tool := range tools.Tools {
		names = append(names, tool.Name)
	}
	for _, want := range []string{"list_shared_files", "read_shared_file", "resolve_references", "shared_context"} {
		if !slices.Contains(names, want) {
			t.Fatalf("tools = %q, missing %q", names, want)
		}
	}

	// list_shared_files: the agent's three files, sorted, without temp files.
	var listing listSharedFilesOutput
	decodeStructured(t, callTool(t, ctx, cs, "list_shared_files", map[string]any{}), &listing)
	var listed []string
	for _, f := range listing.Files {
		listed = append(listed, f.Name)
	}
	if want := []string{"my notes.md", "spec.md", "회의록.md"}; !slices.Equal(listed, want) {
		t.Fatalf("listed %q, want %q", listed, want)
	}
	wantSum := sharedFileOf("spec.md", spec).SHA256
	if f := listing.Files[1]; f.SHA256 != wantSum || f.Size != int64(len(spec)) || f.Path != "memory/shared/spec.md" {
		t.Fatalf("spec.md listed as %+v", f)
	}

	// read_shared_file returns the exact bytes.
	res := callTool(t, ctx, cs, "read_shared_file", map[string]any{"name": "spec.md"})
	if res.IsError {
		t.Fatalf("read spec.md failed: %s", resultText(t, res))
	}
	if got := resultText(t, res); got != spec {
		t.Fatalf("read spec.md = %q, want %q", got, spec)
	}
	var read readSharedFileOutput
	decodeStructured(t, res, &read)
	if read.SHA256 != wantSum || read.Content != spec {
		t.Fatalf("structured read = %+v", read)
	}
	if got := resultText(t, callTool(t, ctx, cs, "read_shared_file", map[string]any{"name": "회의록.md"})); got != "회의 내용\n" {
		t.Fatalf("read 회의록.md = %q", got)
	}

	// Hostile, hidden, foreign and missing names are refused as tool errors.
	for name, code := range map[string]string{
		"../../agent-2/memory/shared/elsewhere.md": "invalid_name",
		"/etc/passwd":   "invalid_name",
		".pumasi-tmp-x": "invalid_name",
		"elsewhere.md":  "not_found",
		"missing.md":    "not_found",
	} {
		res := callTool(t, ctx, cs, "read_shared_file", map[string]any{"name": name})
		if !res.IsError || !strings.Contains(resultText(t, res), code) {
			t.Fatalf("read %q: isError=%v text=%q, want %s", name, res.IsError, resultText(t, res), code)
		}
	}

	// resolve_references works on the agent's own files.
	res = callTool(t, ctx, cs, "resolve_references", map[string]any{
		"text":       `see $spec.md. and $"my notes.md", not \$spec.md, $5, $HOME, $missing.md or $elsewhere.md`,
		"references": []string{"회의록.md"},
	})
	if res.IsError {
		t.Fatalf("resolve failed: %s", resultText(t, res))
	}
	var resolved prompt.Resolution
	decodeStructured(t, res, &resolved)
	var refs []string
	for _, r := range resolved.References {
		refs = append(refs, r.Name)
	}
	if want := []string{"spec.md", "my notes.md", "회의록.md"}; !slices.Equal(refs, want) {
		t.Fatalf("references = %q, want %q", refs, want)
	}
	if want := []string{"missing.md", "elsewhere.md"}; !slices.Equal(resolved.Unknown, want) {
		t.Fatalf("unknown = %q, want %q", resolved.Unknown, want)
	}
	wantHint := "<referenced-files>\n- spec.md: memory/shared/spec.md\n- my notes.md: memory/shared/my notes.md\n- 회의록.md: memory/shared/회의록.md\n</referenced-files>"
	if resolved.Hint != wantHint {
		t.Fatalf("hint = %q, want %q", resolved.Hint, wantHint)
	}
	if resolved.References[0].SHA256 != wantSum {
		t.Fatalf("spec.md sha256 = %q, want %q", resolved.References[0].SHA256, wantSum)
	}

	// shared_context is what `pumasi context` prints.
	block := resultText(t, callTool(t, ctx, cs, "shared_context", map[string]any{}))
	cli, err := exec.Command(bin, "context", "--agent", "agent-1", "--home", home).Output()
	if err != nil {
		t.Fatalf("pumasi context: %v", err)
	}
	if block != string(cli) {
		t.Fatalf("shared_context =\n%s\npumasi context =\n%s", block, cli)
	}
	if n := strings.Count(block, "<file "); n != 3 {
		t.Fatalf("%d files in block, want 3:\n%s", n, block)
	}

	if err := cs.Close(); err != nil {
		t.Fatalf("close: %v", err)
	}
	if cmd.ProcessState == nil || !cmd.ProcessState.Success() {
		t.Fatalf("server did not exit cleanly: %v", cmd.ProcessState)
	}
}
