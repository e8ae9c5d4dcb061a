package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// claudeHook is one command hook of Claude Code's settings.
type claudeHook struct {
	command string
	timeout int // seconds
}

// claudeHooks are the hooks pumasi adds, by event: the shared files when a
// session starts (and again after /clear or compaction) and before every
// prompt, and the collective knowledge matching the prompt.
func (o initOptions) claudeHooks() (events []string, matchers map[string]string, hooks map[string][]claudeHook) {
	ctxCmd := append([]string{o.bin, "context", "--agent", o.agent}, o.homeArgs()...)
	know := claudeHook{commandLine(o.bin, "know", "hook", "--server", o.server), 5}
	hooks = map[string][]claudeHook{
		"SessionStart":     {{commandLine(ctxCmd...), 10}, know},
		"UserPromptSubmit": {{commandLine(append(ctxCmd, "--hook")...), 10}, know},
	}
	return []string{"SessionStart", "UserPromptSubmit"}, map[string]string{"SessionStart": "startup|resume|clear|compact"}, hooks
}

// planClaudeCode merges the hooks into <dir>/.claude/settings.json and the
// MCP server into <dir>/.mcp.json.
func planClaudeCode(plan *initPlan, o initOptions) error {
	show := ".claude/settings.json"
	f, root, err := loadJSONObject(filepath.Join(o.dir, ".claude", "settings.json"), show)
	if err != nil {
		return err
	}
	hooksObj, err := childObject(root, "hooks", show)
	if err != nil {
		return err
	}
	events, matchers, hooks := o.claudeHooks()
	for _, ev := range events {
		var groups []any
		if v, ok := hooksObj.get(ev); ok {
			if groups, ok = v.([]any); !ok {
				return fmt.Errorf("%s: hooks.%s is not a list; nothing was changed", show, ev)
			}
		}
		have := map[string]bool{}
		for _, g := range groups {
			gobj, _ := g.(*jsonObject)
			if gobj == nil {
				continue
			}
			hs, _ := gobj.m["hooks"].([]any)
			for _, h := range hs {
				if ho, ok := h.(*jsonObject); ok {
					if c, ok := ho.m["command"].(string); ok {
						have[c] = true
					}
				}
			}
		}
		var add []any
		for _, h := range hooks[ev] {
			if have[h.command] {
				continue
			}
			ho := newJSONObject()
			ho.set("type", "command")
			ho.set("command", h.command)
			ho.set("timeout", h.timeout)
			add = append(add, ho)
		}
		if len(add) == 0 {
			continue
		}
		g := newJSONObject()
		if m := matchers[ev]; m != "" {
			g.set("matcher", m)
		}
		g.set("hooks", add)
		hooksObj.set(ev, append(groups, g))
	}
	f.new = f.old
	if !sameJSON(mustParse(f.old), root) {
		f.new = encodeOrderedJSON(root)
	}
	plan.files = append(plan.files, f)
	if err := planMCPJSON(plan, o, filepath.Join(o.dir, ".mcp.json"), ".mcp.json"); err != nil {
		return err
	}
	plan.notes = append(plan.notes, "Claude Code: restart it (or run /hooks and /mcp) to load the hooks and approve the pumasi MCP server.")
	return nil
}

// Codex's config is TOML. Rather than take a TOML library for one table,
// init merges carefully by lines: it appends a [mcp_servers.pumasi] table
// when the file has none, leaves the file alone when the table is already
// there with the same keys, and otherwise keeps the user's table (--force
// replaces that table's own lines and nothing else). A pumasi server
// written another way (dotted keys, an inline table) is left alone with a
// note.
var (
	tomlHeader      = regexp.MustCompile(`^\s*\[\[?\s*[^\]]*\]\]?\s*(#.*)?$`)
	tomlPumasiTable = regexp.MustCompile(`^\s*\[\s*mcp_servers\s*\.\s*("pumasi"|'pumasi'|pumasi)\s*\]\s*(#.*)?$`)
	tomlPumasiOther = regexp.MustCompile(`(?m)^\s*(mcp_servers\s*\.\s*)?("pumasi"|pumasi)\s*[.=]`)
	tomlMCPServers  = regexp.MustCompile(`(?m)^\s*\[\s*mcp_servers\s*\]\s*(#.*)?$`)
)

// tomlString quotes s as a TOML basic string.
func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

func planCodex(plan *initPlan, o initOptions) error {
	home := o.codexHome
	if home == "" {
		h, err := os.UserHomeDir()
		if err != nil {
			return fmt.Errorf("find the home folder: %w (pass --codex-home)", err)
		}
		home = filepath.Join(h, ".codex")
	}
	path := filepath.Join(home, "config.toml")
	show := path
	if o.codexHome == "" {
		show = "~/.codex/config.toml"
	}
	f, err := readPlanned(path, show)
	if err != nil {
		return err
	}
	args := make([]string, 0, 8)
	for _, a := range o.mcpArgs() {
		args = append(args, tomlString(a))
	}
	body := []string{"command = " + tomlString(o.bin), "args = [" + strings.Join(args, ", ") + "]"}
	table := "[mcp_servers.pumasi]\n" + strings.Join(body, "\n") + "\n"

	text := string(f.old)
	lines := strings.SplitAfter(text, "\n")
	start, end := -1, len(lines)
	for i, l := range lines {
		if start < 0 && tomlPumasiTable.MatchString(strings.TrimRight(l, "\r\n")) {
			start = i
			continue
		}
		if start >= 0 && tomlHeader.MatchString(strings.TrimRight(l, "\r\n")) {
			end = i
			break
		}
	}
	f.new = f.old
	switch {
	case start >= 0:
		var cur []string
		for _, l := range lines[start+1 : end] {
			if t := strings.TrimSpace(l); t != "" && !strings.HasPrefix(t, "#") {
				cur = append(cur, t)
			}
		}
		if strings.Join(cur, "\n") == strings.Join(body, "\n") {
			break
		}
		if !o.force {
			plan.notes = append(plan.notes, show+": kept the existing [mcp_servers.pumasi], which differs; rerun with --force to replace it")
			break
		}
		// Keep the blank lines and comments that end the old table.
		tail := end
		for tail > start+1 && (strings.TrimSpace(lines[tail-1]) == "" || strings.HasPrefix(strings.TrimSpace(lines[tail-1]), "#")) {
			tail--
		}
		f.new = []byte(strings.Join(lines[:start], "") + table + strings.Join(lines[tail:], ""))
	case tomlPumasiOther.MatchString(text) && tomlMCPServers.MatchString(text) || strings.Contains(text, "mcp_servers.pumasi"):
		plan.notes = append(plan.notes, show+": a pumasi MCP server is already configured in another form; left it alone")
	default:
		sep := ""
		if text != "" && !strings.HasSuffix(text, "\n") {
			sep = "\n"
		}
		if text != "" {
			sep += "\n"
		}
		f.new = []byte(text + sep + table)
	}
	plan.files = append(plan.files, f)
	plan.notes = append(plan.notes, "Codex: type /mcp in Codex to see the pumasi server. Codex has no prompt hooks: ask the agent (in AGENTS.md) to call query_knowledge and shared_context before a task, and cite_knowledge on the entries it used.")
	return nil
}
