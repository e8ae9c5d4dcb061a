package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"golang.org/x/text/unicode/norm"

	"pumasi/prompt"
)

// writeSharedFiles writes files into agent's memory/shared/ under home and
// returns the directory.
func writeSharedFiles(t *testing.T, home, agent string, files map[string]string) string {
	t.Helper()
	dir := agentSharedDir(home, agent)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// runCLI runs the CLI in-process and returns stdout, stderr and the error.
func runCLI(t *testing.T, envVars map[string]string, args ...string) (string, string, error) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	env := &cliEnv{stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr, getenv: func(k string) string { return envVars[k] }}
	err := run(context.Background(), env, args)
	return stdout.String(), stderr.String(), err
}

func sharedFileOf(name, content string) prompt.SharedFile {
	sum := sha256.Sum256([]byte(content))
	return prompt.SharedFile{Name: name, SHA256: hex.EncodeToString(sum[:]), Content: []byte(content)}
}

func TestContextCommand(t *testing.T) {
	home := t.TempDir()
	dir := writeSharedFiles(t, home, "agent-1", map[string]string{
		"spec.md":                 "# Spec\nclose </file> and </shared-context> here\n",
		norm.NFD.String("회의록.md"): "회의 내용\n",
		".pumasi-tmp-4711":        "half written",
		".hidden":                 "not shared",
	})
	if err := os.Mkdir(filepath.Join(dir, "subdir"), 0o755); err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(t.TempDir(), "secret.txt")
	if err := os.WriteFile(outside, []byte("outside secret"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "link.md")); err != nil {
		t.Fatal(err)
	}
	// Another agent's files must not appear.
	writeSharedFiles(t, home, "agent-2", map[string]string{"other.md": "other agent"})

	got, _, err := runCLI(t, nil, "context", "--agent", "agent-1", "--home", home)
	if err != nil {
		t.Fatalf("context: %v", err)
	}
	want := prompt.ComposeSharedContext([]prompt.SharedFile{
		sharedFileOf("spec.md", "# Spec\nclose </file> and </shared-context> here\n"),
		sharedFileOf("회의록.md", "회의 내용\n"),
	}, 0)
	if got != want {
		t.Fatalf("context output =\n%s\nwant\n%s", got, want)
	}
	for _, leak := range []string{"half written", "not shared", "outside secret", "other agent", "subdir"} {
		if strings.Contains(got, leak) {
			t.Fatalf("output contains %q:\n%s", leak, got)
		}
	}
	if n := strings.Count(got, "</shared-context>"); n != 1 {
		t.Fatalf("%d closing tags, want 1", n)
	}

	// PUMASI_HOME stands in for --home.
	viaEnv, _, err := runCLI(t, map[string]string{"PUMASI_HOME": home}, "context", "--agent", "agent-1")
	if err != nil || viaEnv != got {
		t.Fatalf("context via PUMASI_HOME = %q, %v; want the same output", viaEnv, err)
	}
}

func TestContextCommandBudget(t *testing.T) {
	home := t.TempDir()
	writeSharedFiles(t, home, "a1", map[string]string{
		"a.md":   "small a\n",
		"big.md": strings.Repeat("big ", 2000),
		"c.md":   "small c\n",
	})
	first, _, err := runCLI(t, nil, "context", "--agent", "a1", "--home", home, "--budget", "1000")
	if err != nil {
		t.Fatal(err)
	}
	if len(first) > 1000 {
		t.Fatalf("output is %d bytes, budget 1000", len(first))
	}
	wantOmitted := `path="memory/shared/big.md" omitted="budget"/>`
	if !strings.Contains(first, wantOmitted) || !strings.Contains(first, "small a\n") || !strings.Contains(first, "small c\n") {
		t.Fatalf("budget output:\n%s", first)
	}
	for range 3 {
		again, _, err := runCLI(t, nil, "context", "--agent", "a1", "--home", home, "--budget", "1000")
		if err != nil || again != first {
			t.Fatalf("second run differs (err %v):\n%s\nvs\n%s", err, again, first)
		}
	}
	full, _, err := runCLI(t, nil, "context", "--agent", "a1", "--home", home, "--budget", "0")
	if err != nil || strings.Contains(full, "omitted") || !strings.Contains(full, "big big") {
		t.Fatalf("--budget 0 (no limit) = %q, %v", full, err)
	}
}

func TestContextCommandEmptyAndErrors(t *testing.T) {
	home := t.TempDir()
	got, _, err := runCLI(t, nil, "context", "--agent", "new-agent", "--home", home)
	if err != nil {
		t.Fatal(err)
	}
	if want := "<shared-context>\n</shared-context>\n"; got != want {
		t.Fatalf("agent without a room = %q, want %q", got, want)
	}
	for _, args := range [][]string{
		{"context", "--home", home},
		{"context", "--agent", "../escape", "--home", home},
		{"context", "--agent", "Upper", "--home", home},
		{"context", "--agent", "a1", "--home", home, "--budget", "-1"},
		{"context", "--agent", "a1", "--home", home, "extra"},
	} {
		out, _, err := runCLI(t, nil, args...)
		if err == nil || out != "" {
			t.Fatalf("%q: err %v, output %q; want an error and no output", args, err, out)
		}
	}
}

// TestContextCommandHook feeds the command a Claude Code UserPromptSubmit
// event: the block is followed by the hint for the prompt's $references.
func TestContextCommandHook(t *testing.T) {
	home := t.TempDir()
	writeSharedFiles(t, home, "a1", map[string]string{"spec.md": "spec\n", "my notes.md": "notes\n"})
	plain, _, err := runCLI(t, nil, "context", "--agent", "a1", "--home", home)
	if err != nil {
		t.Fatal(err)
	}
	runHook := func(event string) (string, error) {
		var stdout, stderr bytes.Buffer
		env := &cliEnv{stdin: strings.NewReader(event), stdout: &stdout, stderr: &stderr, getenv: func(string) string { return "" }}
		err := run(context.Background(), env, []string{"context", "--agent", "a1", "--home", home, "--hook"})
		return stdout.String(), err
	}
	event := `{"session_id":"s1","hook_event_name":"UserPromptSubmit","cwd":"/tmp","prompt":"update $spec.md, see $\"my notes.md\" and $missing.md"}`
	got, err := runHook(event)
	if err != nil {
		t.Fatal(err)
	}
	want := plain + "<referenced-files>\n- spec.md: memory/shared/spec.md\n- my notes.md: memory/shared/my notes.md\n</referenced-files>\n"
	if got := hostContext(t, "UserPromptSubmit", got); got != want {
		t.Fatalf("hook output =\n%s\nwant\n%s", got, want)
	}
	// SessionStart carries no prompt; an event of no known host and an
	// empty stdin print the text itself, a prompt without references no
	// hint.
	if got, err := runHook(`{"hook_event_name":"SessionStart","source":"startup"}`); err != nil || hostContext(t, "SessionStart", got) != plain {
		t.Fatalf("SessionStart hook = %q, %v; want the plain block", got, err)
	}
	for _, ev := range []string{`{"prompt":"pay $5 to $HOME"}`, ""} {
		if got, err := runHook(ev); err != nil || got != plain {
			t.Fatalf("hook %q = %q, %v; want the plain block", ev, got, err)
		}
	}
	if got, err := runHook("not json"); err == nil || got != "" {
		t.Fatalf("hook with bad input = %q, %v; want an error and no output", got, err)
	}
}

// TestDocsSnippetsRun checks that the JSON snippets of the README's "Use
// with your agents" section are valid and that every pumasi command in them
// runs with the flags it shows.
func TestDocsSnippetsRun(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)```json\n(.*?)```").FindAllStringSubmatch(string(doc), -1)
	if len(blocks) < 2 {
		t.Fatalf("%d json snippets, want the hooks and the mcpServers ones", len(blocks))
	}
	home := t.TempDir()
	writeSharedFiles(t, home, "my-agent", map[string]string{"spec.md": "spec\n"})
	var commands [][]string
	for _, b := range blocks {
		var v struct {
			Hooks map[string][]struct {
				Hooks []struct {
					Type    string `json:"type"`
					Command string `json:"command"`
				} `json:"hooks"`
			} `json:"hooks"`
			MCPServers map[string]struct {
				Command string   `json:"command"`
				Args    []string `json:"args"`
			} `json:"mcpServers"`
		}
		if err := json.Unmarshal([]byte(b[1]), &v); err != nil {
			t.Fatalf("snippet is not valid JSON: %v\n%s", err, b[1])
		}
		for _, groups := range v.Hooks {
			for _, g := range groups {
				for _, h := range g.Hooks {
					f := strings.Fields(h.Command)
					if h.Type != "command" || len(f) == 0 || f[0] != "pumasi" {
						t.Fatalf("hook %+v does not run pumasi", h)
					}
					commands = append(commands, f[1:])
				}
			}
		}
		for _, s := range v.MCPServers {
			if s.Command != "pumasi" {
				t.Fatalf("mcp server command %q", s.Command)
			}
			commands = append(commands, s.Args)
		}
	}
	if len(commands) != 5 {
		t.Fatalf("found %d pumasi commands in the snippets, want 5 (four hooks, one server)", len(commands))
	}
	for _, args := range commands {
		// A hook gets an event on stdin; the MCP server a client that
		// hangs up at once.
		stdin := `{"prompt":"read $spec.md"}`
		if args[0] == "mcp" {
			stdin = ""
		}
		var stdout, stderr bytes.Buffer
		env := &cliEnv{stdin: strings.NewReader(stdin), stdout: &stdout, stderr: &stderr, getenv: func(string) string { return "" }}
		// The knowledge hook reads no files; its server is down here.
		extra := []string{"--home", home}
		if args[0] == "know" {
			extra = []string{"--server", "http://127.0.0.1:1"}
		}
		if err := run(context.Background(), env, append(slices.Clone(args), extra...)); err != nil {
			t.Fatalf("pumasi %q: %v (%s)", args, err, stderr.String())
		}
		if args[0] == "context" && !strings.Contains(stdout.String(), `<file name="spec.md"`) {
			t.Fatalf("pumasi %q printed %q", args, stdout.String())
		}
	}
}
