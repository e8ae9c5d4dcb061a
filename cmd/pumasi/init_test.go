package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func readJSONFile(t *testing.T, path string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("%s: %v\n%s", path, err, b)
	}
	return v
}

// hookCommands lists the commands of one event's hooks.
func hookCommands(settings map[string]any, event string) []string {
	var out []string
	groups, _ := settings["hooks"].(map[string]any)[event].([]any)
	for _, g := range groups {
		hs, _ := g.(map[string]any)["hooks"].([]any)
		for _, h := range hs {
			out = append(out, h.(map[string]any)["command"].(string))
		}
	}
	return out
}

func initArgs(host, dir string, extra ...string) []string {
	return append([]string{"init", host, "--agent", "a", "--bin", "pumasi", "--server", "http://127.0.0.1:8787", "--dir", dir, "--codex-home", filepath.Join(dir, "codex")}, extra...)
}

// snapshot reads every file under dir.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			b, _ := os.ReadFile(p)
			out[p] = string(b)
		}
		return nil
	})
	return out
}

func TestInitClaudeCodeFresh(t *testing.T) {
	dir := t.TempDir()
	// A dry run shows the diff and writes nothing.
	out, _, err := runCLI(t, nil, initArgs("claude-code", dir, "--dry-run")...)
	if err != nil || !strings.Contains(out, "--- /dev/null\n+++ b/.claude/settings.json\n@@ -0,0 +1,") ||
		!strings.Contains(out, "+++ b/.mcp.json") || !strings.Contains(out, "(dry run: nothing was written)") {
		t.Fatalf("dry run = %q, %v", out, err)
	}
	if files := snapshot(t, dir); len(files) != 0 {
		t.Fatalf("dry run wrote %v", files)
	}
	out, _, err = runCLI(t, nil, initArgs("claude-code", dir)...)
	if err != nil || !strings.Contains(out, ".claude/settings.json: created") || !strings.Contains(out, ".mcp.json: created") {
		t.Fatalf("init = %q, %v", out, err)
	}
	settings := readJSONFile(t, filepath.Join(dir, ".claude", "settings.json"))
	for _, ev := range []string{"UserPromptSubmit", "SessionStart"} {
		if got, want := hookCommands(settings, ev), []string{"pumasi context --agent a --hook", "pumasi know hook --server http://127.0.0.1:8787"}; !reflect.DeepEqual(got, want) {
			t.Fatalf("%s hooks = %q, want %q", ev, got, want)
		}
	}
	mcpJSON := readJSONFile(t, filepath.Join(dir, ".mcp.json"))
	srv := mcpJSON["mcpServers"].(map[string]any)["pumasi"].(map[string]any)
	if srv["command"] != "pumasi" || !reflect.DeepEqual(srv["args"], []any{"mcp", "--agent", "a", "--server", "http://127.0.0.1:8787"}) {
		t.Fatalf(".mcp.json pumasi = %v", srv)
	}
	// A second run changes nothing.
	before := snapshot(t, dir)
	out, _, err = runCLI(t, nil, initArgs("claude-code", dir)...)
	if err != nil || strings.Count(out, "up to date") != 2 || !reflect.DeepEqual(snapshot(t, dir), before) {
		t.Fatalf("second run = %q, %v; files changed: %v", out, err, !reflect.DeepEqual(snapshot(t, dir), before))
	}
	if out, _, _ := runCLI(t, nil, initArgs("claude-code", dir, "--dry-run")...); strings.Contains(out, "@@") {
		t.Fatalf("dry run after init shows changes:\n%s", out)
	}
}

// TestInitClaudeCodeMerges: what the user had stays, byte for byte in
// value and in key order; the dry-run diff applies with patch(1) to give
// exactly the file init writes.
func TestInitClaudeCodeMerges(t *testing.T) {
	dir := t.TempDir()
	userSettings := `{
  "model": "opus",
  "permissions": {"allow": ["Bash(go test:*)"], "deny": []},
  "cleanupPeriodDays": 30.50,
  "hooks": {
    "UserPromptSubmit": [{"hooks": [{"type": "command", "command": "pumasi context --agent a --hook", "timeout": 10}]}],
    "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./check.sh"}]}]
  },
  "env": {"A": "<&>"}
}
`
	userMCP := `{"mcpServers": {"github": {"command": "gh-mcp", "args": []}, "pumasi": {"command": "/opt/pumasi", "args": ["mcp", "--agent", "old"]}}}`
	os.MkdirAll(filepath.Join(dir, ".claude"), 0o755)
	os.WriteFile(filepath.Join(dir, ".claude", "settings.json"), []byte(userSettings), 0o600)
	os.WriteFile(filepath.Join(dir, ".mcp.json"), []byte(userMCP), 0o644)

	diff, _, err := runCLI(t, nil, initArgs("claude-code", dir, "--dry-run")...)
	if err != nil {
		t.Fatal(err)
	}
	out, _, err := runCLI(t, nil, initArgs("claude-code", dir)...)
	if err != nil || !strings.Contains(out, ".mcp.json: mcpServers.pumasi now runs pumasi mcp --agent a --server http://127.0.0.1:8787 (it ran /opt/pumasi mcp --agent old)") {
		t.Fatalf("init = %q, %v", out, err)
	}
	written, _ := os.ReadFile(filepath.Join(dir, ".claude", "settings.json"))
	if st, _ := os.Stat(filepath.Join(dir, ".claude", "settings.json")); st.Mode().Perm() != 0o600 {
		t.Fatalf("mode = %v, want the user's 0600 kept", st.Mode().Perm())
	}
	var before, after map[string]any
	json.Unmarshal([]byte(userSettings), &before)
	json.Unmarshal(written, &after)
	for _, k := range []string{"model", "permissions", "env"} {
		if !reflect.DeepEqual(before[k], after[k]) {
			t.Errorf("%s changed: %v -> %v", k, before[k], after[k])
		}
	}
	if !strings.Contains(string(written), `"cleanupPeriodDays": 30.50`) || strings.Index(string(written), `"model"`) > strings.Index(string(written), `"env"`) {
		t.Fatalf("number or key order not kept:\n%s", written)
	}
	if !reflect.DeepEqual(after["hooks"].(map[string]any)["PreToolUse"], before["hooks"].(map[string]any)["PreToolUse"]) {
		t.Fatal("PreToolUse hooks changed")
	}
	// The context hook the user already had is not added twice.
	if got := hookCommands(after, "UserPromptSubmit"); !reflect.DeepEqual(got, []string{"pumasi context --agent a --hook", "pumasi know hook --server http://127.0.0.1:8787"}) {
		t.Fatalf("UserPromptSubmit = %q", got)
	}
	mcpJSON := readJSONFile(t, filepath.Join(dir, ".mcp.json"))
	if got := mcpJSON["mcpServers"].(map[string]any)["pumasi"].(map[string]any)["command"]; got != "pumasi" {
		t.Fatalf("pumasi server not replaced: %v", got)
	}
	if _, ok := mcpJSON["mcpServers"].(map[string]any)["github"]; !ok {
		t.Fatal("the user's github server is gone")
	}
	// The dry-run diff is a real unified diff: patch(1) applies it.
	if _, err := exec.LookPath("patch"); err == nil {
		orig := t.TempDir()
		os.MkdirAll(filepath.Join(orig, ".claude"), 0o755)
		os.WriteFile(filepath.Join(orig, ".claude", "settings.json"), []byte(userSettings), 0o644)
		os.WriteFile(filepath.Join(orig, ".mcp.json"), []byte(userMCP), 0o644)
		cmd := exec.Command("patch", "-p1", "--quiet")
		cmd.Dir, cmd.Stdin = orig, strings.NewReader(strings.SplitN(diff, "(dry run", 2)[0])
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("patch: %v %s\n%s", err, out, diff)
		}
		patched, _ := os.ReadFile(filepath.Join(orig, ".claude", "settings.json"))
		if string(patched) != string(written) {
			t.Fatalf("patched =\n%s\nwritten =\n%s", patched, written)
		}
	}
	// The entry's other keys stay; --force replaces the whole entry, and
	// only it.
	os.WriteFile(filepath.Join(dir, ".mcp.json"), []byte(`{"mcpServers": {"github": {"command": "gh-mcp"}, "pumasi": {"command": "/opt/pumasi", "args": [], "env": {"PUMASI_HOME": "/data"}}}}`), 0o644)
	if _, _, err := runCLI(t, nil, initArgs("claude-code", dir)...); err != nil {
		t.Fatal(err)
	}
	mcpJSON = readJSONFile(t, filepath.Join(dir, ".mcp.json"))
	if p := mcpJSON["mcpServers"].(map[string]any)["pumasi"].(map[string]any); p["command"] != "pumasi" || p["env"] == nil {
		t.Fatalf("without --force: %v", p)
	}
	if _, _, err := runCLI(t, nil, initArgs("claude-code", dir, "--force")...); err != nil {
		t.Fatal(err)
	}
	mcpJSON = readJSONFile(t, filepath.Join(dir, ".mcp.json"))
	if p := mcpJSON["mcpServers"].(map[string]any)["pumasi"].(map[string]any); p["command"] != "pumasi" || p["env"] != nil || mcpJSON["mcpServers"].(map[string]any)["github"] == nil {
		t.Fatalf("--force: %v", mcpJSON)
	}
	// Broken JSON is refused and left as it is.
	os.WriteFile(filepath.Join(dir, ".mcp.json"), []byte(`{"mcpServers": {`), 0o644)
	if _, _, err := runCLI(t, nil, initArgs("claude-code", dir)...); err == nil || !strings.Contains(err.Error(), "not valid JSON") {
		t.Fatalf("broken .mcp.json: %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, ".mcp.json")); string(b) != `{"mcpServers": {` {
		t.Fatalf("broken file was changed: %s", b)
	}
}

func TestInitCodex(t *testing.T) {
	dir := t.TempDir()
	codex := filepath.Join(dir, "codex")
	os.MkdirAll(codex, 0o755)
	user := "model = \"o4-mini\" # mine\n\n[mcp_servers.github]\ncommand = \"gh-mcp\"\n\n[profiles.fast]\nmodel = \"o4-mini\""
	os.WriteFile(filepath.Join(codex, "config.toml"), []byte(user), 0o644)
	out, _, err := runCLI(t, nil, initArgs("codex", dir)...)
	if err != nil || !strings.Contains(out, "config.toml: updated") || !strings.Contains(out, "hooks.json: created") {
		t.Fatalf("init codex = %q, %v", out, err)
	}
	got, _ := os.ReadFile(filepath.Join(codex, "config.toml"))
	want := user + "\n\n[mcp_servers.pumasi]\ncommand = \"pumasi\"\nargs = [\"mcp\", \"--agent\", \"a\", \"--server\", \"http://127.0.0.1:8787\"]\n"
	if string(got) != want {
		t.Fatalf("config.toml =\n%s\nwant\n%s", got, want)
	}
	hooks := readJSONFile(t, filepath.Join(codex, "hooks.json"))
	for _, ev := range []string{"SessionStart", "UserPromptSubmit"} {
		if got, want := hookCommands(hooks, ev), []string{"pumasi context --agent a --hook", "pumasi know hook --server http://127.0.0.1:8787"}; !reflect.DeepEqual(got, want) {
			t.Fatalf("hooks.json %s = %q, want %q", ev, got, want)
		}
	}
	if out, _, _ := runCLI(t, nil, initArgs("codex", dir)...); strings.Count(out, "up to date") != 2 {
		t.Fatalf("second run = %q", out)
	}
	if again, _ := os.ReadFile(filepath.Join(codex, "config.toml")); string(again) != want {
		t.Fatal("second run changed config.toml")
	}
	// Another agent replaces the command and args in place; the env
	// subtable and the rest stay. --force drops the env.
	withEnv := want + "\n[mcp_servers.pumasi.env]\nPUMASI_HOME = \"/data\"\n"
	os.WriteFile(filepath.Join(codex, "config.toml"), []byte(withEnv), 0o644)
	args := []string{"init", "codex", "--agent", "b", "--bin", "pumasi", "--server", "http://127.0.0.1:8787", "--codex-home", codex}
	if out, _, _ := runCLI(t, nil, args...); !strings.Contains(out, "mcp_servers.pumasi now runs pumasi mcp --agent b") {
		t.Fatalf("other agent = %q", out)
	}
	other, _ := os.ReadFile(filepath.Join(codex, "config.toml"))
	if string(other) != strings.Replace(withEnv, `"--agent", "a"`, `"--agent", "b"`, 1) {
		t.Fatalf("other agent config.toml =\n%s", other)
	}
	if hooks := readJSONFile(t, filepath.Join(codex, "hooks.json")); !reflect.DeepEqual(hookCommands(hooks, "UserPromptSubmit"), []string{"pumasi context --agent b --hook", "pumasi know hook --server http://127.0.0.1:8787"}) {
		t.Fatalf("other agent hooks = %q", hookCommands(hooks, "UserPromptSubmit"))
	}
	if _, _, err := runCLI(t, nil, append(args, "--force")...); err != nil {
		t.Fatal(err)
	}
	forced, _ := os.ReadFile(filepath.Join(codex, "config.toml"))
	if !strings.Contains(string(forced), `args = ["mcp", "--agent", "b",`) || strings.Contains(string(forced), "PUMASI_HOME") || !strings.HasPrefix(string(forced), user) {
		t.Fatalf("--force config.toml =\n%s", forced)
	}
	// A fresh Codex home gets both files.
	fresh := filepath.Join(t.TempDir(), "codex")
	if _, _, err := runCLI(t, nil, "init", "codex", "--agent", "a", "--bin", "pumasi", "--codex-home", fresh); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(fresh, "config.toml")); !strings.HasPrefix(string(b), "[mcp_servers.pumasi]\n") {
		t.Fatalf("fresh config.toml = %q", b)
	}
	if _, err := os.Stat(filepath.Join(fresh, "hooks.json")); err != nil {
		t.Fatal(err)
	}
	// Broken TOML is refused and left as it is.
	os.WriteFile(filepath.Join(fresh, "config.toml"), []byte("[mcp_servers\n"), 0o644)
	if _, _, err := runCLI(t, nil, "init", "codex", "--agent", "a", "--bin", "pumasi", "--codex-home", fresh); err == nil || !strings.Contains(err.Error(), "not valid TOML") {
		t.Fatalf("broken config.toml: %v", err)
	}
}

func TestInitCursorAndUsage(t *testing.T) {
	dir := t.TempDir()
	if _, _, err := runCLI(t, nil, initArgs("cursor", dir, "--home", "/data/pumasi home")...); err != nil {
		t.Fatal(err)
	}
	v := readJSONFile(t, filepath.Join(dir, ".cursor", "mcp.json"))
	args := v["mcpServers"].(map[string]any)["pumasi"].(map[string]any)["args"]
	if !reflect.DeepEqual(args, []any{"mcp", "--agent", "a", "--home", "/data/pumasi home", "--server", "http://127.0.0.1:8787"}) {
		t.Fatalf("cursor args = %v", args)
	}
	// A --home with a space is quoted in Claude Code's shell commands.
	if _, _, err := runCLI(t, nil, initArgs("claude-code", dir, "--home", "/data/pumasi home")...); err != nil {
		t.Fatal(err)
	}
	cmds := hookCommands(readJSONFile(t, filepath.Join(dir, ".claude", "settings.json")), "SessionStart")
	if cmds[0] != "pumasi context --agent a --home '/data/pumasi home' --hook" {
		t.Fatalf("quoted command = %q", cmds[0])
	}
	for _, args := range [][]string{
		{"init"}, {"init", "vscode", "--agent", "a"}, {"init", "cursor"}, {"init", "cursor", "--agent", "A B"}, {"init", "cursor", "--agent", "a", "extra"},
	} {
		if _, _, err := runCLI(t, nil, args...); exitCode(err) != 2 {
			t.Errorf("%q: %v, want exit 2", args, err)
		}
	}
}

// TestUnifiedDiffPatches checks the diff against patch(1) on edits at the
// start, middle and end, with and without a final newline.
func TestUnifiedDiffPatches(t *testing.T) {
	if _, err := exec.LookPath("patch"); err != nil {
		t.Skip("patch is not installed")
	}
	var lines []string
	for i := range 40 {
		lines = append(lines, strings.Repeat("x", i%7)+"line")
	}
	old := strings.Join(lines, "\n") + "\n"
	edited := append([]string{"new first"}, lines[1:20]...)
	edited = append(append(edited, "inserted", "another"), lines[20:39]...)
	cases := map[string]string{
		"edits":      strings.Join(edited, "\n") + "\nlast changed\n",
		"no newline": strings.Join(lines, "\n"),
		"emptied":    "",
	}
	for name, new := range cases {
		d := unifiedDiff("f.txt", []byte(old), []byte(new))
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, "f.txt"), []byte(old), 0o644)
		cmd := exec.Command("patch", "-p1", "--quiet")
		cmd.Dir, cmd.Stdin = dir, strings.NewReader(d)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: patch: %v %s\n%s", name, err, out, d)
		}
		got, _ := os.ReadFile(filepath.Join(dir, "f.txt"))
		if string(got) != new {
			t.Errorf("%s: patched %q, want %q\n%s", name, got, new, d)
		}
	}
	if d := unifiedDiff("f", []byte("same\n"), []byte("same\n")); d != "" {
		t.Fatalf("equal files diff = %q", d)
	}
}
