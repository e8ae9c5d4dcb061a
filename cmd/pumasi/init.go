package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"pumasi"
	"pumasi/internal/atomicfile"
)

func init() {
	register(command{
		name:    "init",
		summary: "set up an agent host: init claude-code|codex|cursor --agent A [--server URL] [--dry-run] [--dir D] [--codex-home D]",
		run:     runInit,
	})
}

// initHosts are the hosts `pumasi init` knows.
var initHosts = []string{"claude-code", "codex", "cursor"}

// initPlan is what init would do for one host: files and their new bytes.
type initPlan struct {
	files []plannedFile
	// notes are printed after the changes (what to do next, what was kept).
	notes []string
}

type plannedFile struct {
	path     string // absolute
	show     string // as shown in diffs and messages
	old, new []byte
	exists   bool
}

// initOptions are the flags of `pumasi init`.
type initOptions struct {
	host, agent, server, home, bin, dir, codexHome string
	force                                          bool
}

// runInit writes or merges the hooks and MCP configuration of a host, each
// in the host's documented format (inithosts.go, initcodex.go):
//
//   - claude-code: <dir>/.claude/settings.json (SessionStart and
//     UserPromptSubmit hooks: `pumasi context --hook` and `pumasi know
//     hook`) and <dir>/.mcp.json (mcpServers.pumasi);
//   - codex: <codex-home>/hooks.json (the same two events) and
//     <codex-home>/config.toml ([mcp_servers.pumasi]; [features] hooks
//     turned on when the file turns it off);
//   - cursor: <dir>/.cursor/hooks.json (sessionStart, beforeSubmitPrompt)
//     and <dir>/.cursor/mcp.json (mcpServers.pumasi).
//
// Each file is read with a real parser for its format (encoding/json,
// go-toml) and refused, unchanged, when it does not parse. pumasi's own
// entries are replaced, wherever they are and whichever agent they ran:
// its hooks (a pumasi command running context or know hook) and the
// command and args of its MCP server, whose other keys (env, timeouts)
// stay unless --force. Everything else keeps its values and order; JSON
// keeps its indentation, line ends, final newline or lack of one, and TOML
// its comments and layout, edited in place. The result is parsed again and
// must mean exactly the intended change, so a second run changes nothing.
// --dry-run prints the unified diff instead of writing.
func runInit(ctx context.Context, env *cliEnv, args []string) error {
	var o initOptions
	fs := newFlags("init")
	fs.StringVar(&o.agent, "agent", "", "agent id the host runs as (required)")
	fs.StringVar(&o.server, "server", envOr(env, "PUMASI_SERVER", defaultServer), "pumasi server for collective knowledge (env PUMASI_SERVER)")
	fs.StringVar(&o.home, "home", "", "pumasi data folder the daemon uses, passed on to the commands (default: theirs, PUMASI_HOME or ~/.pumasi)")
	fs.StringVar(&o.bin, "bin", "", "the pumasi command the host runs (default pumasi when it is on PATH, else this binary's absolute path)")
	fs.StringVar(&o.dir, "dir", ".", "project folder (claude-code, cursor)")
	fs.StringVar(&o.codexHome, "codex-home", env.getenv("CODEX_HOME"), "Codex's folder (env CODEX_HOME, default ~/.codex)")
	dryRun := fs.Bool("dry-run", false, "print the changes as a unified diff; write nothing")
	fs.BoolVar(&o.force, "force", false, "replace the whole pumasi MCP server entry, dropping keys pumasi does not write (env, timeouts)")
	pos, err := parseFlags(env, fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		return usagef("name the host: %s", strings.Join(initHosts, ", "))
	}
	o.host = pos[0]
	if !slices.Contains(initHosts, o.host) {
		return usagef("unknown host %q (want %s)", o.host, strings.Join(initHosts, ", "))
	}
	if err := noArgs(pos[1:]); err != nil {
		return err
	}
	if o.agent == "" {
		return usagef("--agent is required")
	}
	if err := pumasi.CheckID("agent", o.agent); err != nil {
		return usagef("--agent: %s", pumasi.ErrorMessage(err))
	}
	if o.bin == "" {
		o.bin = defaultPumasiBin()
	}
	if o.dir, err = filepath.Abs(o.dir); err != nil {
		return err
	}
	var plan initPlan
	switch o.host {
	case "claude-code":
		err = planClaudeCode(&plan, o)
	case "cursor":
		err = planCursor(&plan, o)
	case "codex":
		err = planCodex(&plan, o)
	}
	if err != nil {
		return fmt.Errorf("init %s: %w", o.host, err)
	}
	return applyPlan(env.stdout, plan, *dryRun)
}

// defaultPumasiBin is "pumasi" when that resolves to this very binary,
// else this binary's absolute path, so the host finds the same pumasi.
func defaultPumasiBin() string {
	self, err := os.Executable()
	if err != nil {
		return "pumasi"
	}
	self, _ = filepath.EvalSymlinks(self)
	if p, err := exec.LookPath("pumasi"); err == nil {
		if p, err = filepath.EvalSymlinks(p); err == nil && p == self {
			return "pumasi"
		}
	}
	return self
}

// commandLine joins a command for a shell (hooks are shell commands).
func commandLine(args ...string) string {
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = shellWord(a)
	}
	return strings.Join(q, " ")
}

var plainWord = regexp.MustCompile(`^[A-Za-z0-9_./:@%+=,-]+$`)

func shellWord(s string) string {
	if plainWord.MatchString(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// homeArgs passes --home on when one was given.
func (o initOptions) homeArgs() []string {
	if o.home == "" {
		return nil
	}
	return []string{"--home", o.home}
}

// mcpArgs are the arguments of `pumasi mcp` for the agent.
func (o initOptions) mcpArgs() []string {
	return append(append([]string{"mcp", "--agent", o.agent}, o.homeArgs()...), "--server", o.server)
}

func readPlanned(path, show string) (plannedFile, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return plannedFile{path: path, show: show}, nil
	}
	if err != nil {
		return plannedFile{}, err
	}
	return plannedFile{path: path, show: show, old: b, exists: true}, nil
}

// loadJSONObject reads a JSON object file for merging.
func loadJSONObject(path, show string) (plannedFile, *jsonObject, error) {
	f, err := readPlanned(path, show)
	if err != nil {
		return f, nil, err
	}
	v, err := parseOrderedJSON(f.old)
	if err != nil {
		return f, nil, fmt.Errorf("%s is not valid JSON (%v); fix it or move it away, nothing was changed", show, err)
	}
	o, ok := v.(*jsonObject)
	if !ok {
		return f, nil, fmt.Errorf("%s is not a JSON object; nothing was changed", show)
	}
	return f, o, nil
}

// finishJSON sets f's new bytes: the old ones when root means the same,
// else root in the file's own layout.
func finishJSON(f *plannedFile, root *jsonObject) {
	f.new = f.old
	if !sameJSON(mustParse(f.old), root) {
		f.new = encodeJSONLayout(root, layoutOf(f.old))
	}
}

// childObject returns o[k] as an object, creating it when absent.
func childObject(o *jsonObject, k, show string) (*jsonObject, error) {
	v, ok := o.get(k)
	if !ok {
		c := newJSONObject()
		o.set(k, c)
		return c, nil
	}
	c, ok := v.(*jsonObject)
	if !ok {
		return nil, fmt.Errorf("%s: %q is not an object; nothing was changed", show, k)
	}
	return c, nil
}

// planMCPJSON sets mcpServers.pumasi in an mcpServers JSON file (Claude
// Code's .mcp.json, Cursor's .cursor/mcp.json): its command and args, other
// keys kept unless --force.
func planMCPJSON(plan *initPlan, o initOptions, path, show string) error {
	f, root, err := loadJSONObject(path, show)
	if err != nil {
		return err
	}
	servers, err := childObject(root, "mcpServers", show)
	if err != nil {
		return err
	}
	entry := newJSONObject()
	if cur, ok := servers.get("pumasi"); ok && !o.force {
		c, ok := cur.(*jsonObject)
		if !ok {
			return fmt.Errorf("%s: mcpServers.pumasi is not an object; nothing was changed", show)
		}
		if was := describeMCPEntry(c.m["command"], c.m["args"]); was != "" && !sameJSON(c.m["args"], o.mcpArgs()) {
			plan.notes = append(plan.notes, fmt.Sprintf("%s: mcpServers.pumasi now runs %s (it ran %s)", show, commandLine(append([]string{o.bin}, o.mcpArgs()...)...), was))
		}
		for _, k := range c.keys {
			entry.set(k, c.m[k])
		}
	}
	entry.set("command", o.bin)
	entry.set("args", o.mcpArgs())
	servers.set("pumasi", entry)
	finishJSON(&f, root)
	plan.files = append(plan.files, f)
	return nil
}

// describeMCPEntry shows an existing entry's command line, "" when it has
// none.
func describeMCPEntry(command, args any) string {
	c, _ := command.(string)
	if c == "" {
		return ""
	}
	words := []string{c}
	as, _ := args.([]any)
	for _, a := range as {
		if s, ok := a.(string); ok {
			words = append(words, s)
		}
	}
	return commandLine(words...)
}

// mustParse re-reads what loadJSONObject already parsed.
func mustParse(b []byte) any {
	v, _ := parseOrderedJSON(b)
	return v
}

// applyPlan prints the diff (dry run) or writes the changed files
// atomically, and the notes.
func applyPlan(w io.Writer, plan initPlan, dryRun bool) error {
	changed := 0
	for _, f := range plan.files {
		d := unifiedDiff(f.show, f.old, f.new)
		if d == "" {
			fmt.Fprintf(w, "%s: up to date\n", f.show)
			continue
		}
		changed++
		if dryRun {
			io.WriteString(w, d)
			continue
		}
		if err := writeConfigFile(f); err != nil {
			return err
		}
		verb := "updated"
		if !f.exists {
			verb = "created"
		}
		fmt.Fprintf(w, "%s: %s\n", f.show, verb)
	}
	if dryRun && changed > 0 {
		fmt.Fprintln(w, "(dry run: nothing was written)")
	}
	for _, n := range plan.notes {
		fmt.Fprintln(w, n)
	}
	return nil
}

// writeConfigFile replaces a config file atomically, keeping its mode.
func writeConfigFile(f plannedFile) error {
	mode := fs.FileMode(0o644)
	if st, err := os.Stat(f.path); err == nil {
		mode = st.Mode().Perm()
	}
	dir := filepath.Dir(f.path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := atomicfile.WriteFile(f.path, f.new, mode); err != nil {
		return fmt.Errorf("write %s: %w", f.show, err)
	}
	return nil
}
