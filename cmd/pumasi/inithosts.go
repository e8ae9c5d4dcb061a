package main

import (
	"fmt"
	"path/filepath"
	"strings"
)

// hookCommand is one command hook pumasi adds to a host.
type hookCommand struct {
	command string
	timeout int // seconds
}

// sessionMatcher is the SessionStart matcher of Claude Code and Codex:
// every way a session starts or restarts its context.
const sessionMatcher = "startup|resume|clear|compact"

// hookCommands are pumasi's two hooks, the same for every host and both
// events: the shared files (`pumasi context --hook`, local and fast) and
// the collective knowledge matching the prompt (`pumasi know hook`, which
// gives up within its own timeout). Both read the host's event and print
// the host's shape (hookout.go). Claude Code and Cursor run the hooks of
// both when they find the same command in both configurations only once,
// so the commands are the same strings everywhere.
func (o initOptions) hookCommands() []hookCommand {
	ctxCmd := append([]string{o.bin, "context", "--agent", o.agent}, o.homeArgs()...)
	return []hookCommand{
		{commandLine(append(ctxCmd, "--hook")...), 10},
		{commandLine(o.bin, "know", "hook", "--server", o.server), 5},
	}
}

// shellFields splits a hook command into words, undoing shellWord's
// quoting (single quotes) and plain double quotes.
func shellFields(s string) []string {
	var words []string
	var w strings.Builder
	in, quote := false, byte(0)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0 && c == quote:
			quote = 0
		case quote != 0:
			w.WriteByte(c)
		case c == '\'' || c == '"':
			quote, in = c, true
		case c == ' ' || c == '\t':
			if in {
				words = append(words, w.String())
				w.Reset()
				in = false
			}
		default:
			w.WriteByte(c)
			in = true
		}
	}
	if in {
		words = append(words, w.String())
	}
	return words
}

// isPumasiHook reports whether a hook command is one pumasi init writes,
// for whichever agent, home or server: a pumasi binary (by name, or the
// --bin given) running `context --agent` or `know hook`.
func (o initOptions) isPumasiHook(command string) bool {
	w := shellFields(command)
	if len(w) < 2 || !(strings.Contains(filepath.Base(w[0]), "pumasi") || w[0] == o.bin) {
		return false
	}
	return w[1] == "context" || len(w) > 2 && w[1] == "know" && w[2] == "hook"
}

// mergeHookGroups replaces pumasi's hooks in one event's matcher groups
// (Claude Code's and Codex's shape: [{"matcher", "hooks": [{"type",
// "command", "timeout"}]}]): it takes pumasi's hooks out of every group,
// drops a group they leave empty, and puts ours where the first of them
// was (at the end when there was none), so running init again, for this
// agent or another, leaves one set.
func (o initOptions) mergeHookGroups(groups []any, ours *jsonObject, show, event string) ([]any, error) {
	var out []any
	at := -1
	for _, g := range groups {
		gobj, ok := g.(*jsonObject)
		if !ok {
			out = append(out, g)
			continue
		}
		hs, ok := gobj.m["hooks"].([]any)
		if !ok {
			if _, has := gobj.m["hooks"]; has {
				return nil, fmt.Errorf("%s: hooks.%s[].hooks is not a list; nothing was changed", show, event)
			}
			out = append(out, g)
			continue
		}
		var kept []any
		for _, h := range hs {
			if ho, ok := h.(*jsonObject); ok {
				if c, ok := ho.m["command"].(string); ok && o.isPumasiHook(c) {
					continue
				}
			}
			kept = append(kept, h)
		}
		if len(kept) == len(hs) {
			out = append(out, g)
			continue
		}
		if at < 0 {
			at = len(out)
		}
		if len(kept) > 0 {
			copied := newJSONObject()
			for _, k := range gobj.keys {
				copied.set(k, gobj.m[k])
			}
			copied.set("hooks", kept)
			out = append(out, copied)
		}
	}
	if at < 0 {
		at = len(out)
	}
	return append(out[:at:at], append([]any{ours}, out[at:]...)...), nil
}

// planMatcherHooks merges pumasi's hooks into a hooks object of Claude
// Code's and Codex's shape, for SessionStart and UserPromptSubmit.
func (o initOptions) planMatcherHooks(hooksObj *jsonObject, show string) error {
	for _, ev := range []string{eventSessionStart, eventUserPromptSubmit} {
		var groups []any
		if v, ok := hooksObj.get(ev); ok {
			if groups, ok = v.([]any); !ok {
				return fmt.Errorf("%s: hooks.%s is not a list; nothing was changed", show, ev)
			}
		}
		g := newJSONObject()
		if ev == eventSessionStart {
			g.set("matcher", sessionMatcher)
		}
		var hs []any
		for _, h := range o.hookCommands() {
			ho := newJSONObject()
			ho.set("type", "command")
			ho.set("command", h.command)
			ho.set("timeout", h.timeout)
			hs = append(hs, ho)
		}
		g.set("hooks", hs)
		merged, err := o.mergeHookGroups(groups, g, show, ev)
		if err != nil {
			return err
		}
		hooksObj.set(ev, merged)
	}
	return nil
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
	if err := o.planMatcherHooks(hooksObj, show); err != nil {
		return err
	}
	finishJSON(&f, root)
	plan.files = append(plan.files, f)
	if err := planMCPJSON(plan, o, filepath.Join(o.dir, ".mcp.json"), ".mcp.json"); err != nil {
		return err
	}
	plan.notes = append(plan.notes, "Claude Code: restart it (or run /hooks and /mcp) to load the hooks and approve the pumasi MCP server.")
	return nil
}

// Cursor's hook events pumasi uses, and its hooks.json version.
var cursorEvents = []string{cursorSessionStart, cursorBeforeSubmitPrompt}

const cursorHooksVersion = 1

// planCursor merges the hooks into <dir>/.cursor/hooks.json (Cursor's
// shape: {"version": 1, "hooks": {"<event>": [{"command", "timeout"}]}})
// and the MCP server into <dir>/.cursor/mcp.json.
func planCursor(plan *initPlan, o initOptions) error {
	show := ".cursor/hooks.json"
	f, root, err := loadJSONObject(filepath.Join(o.dir, ".cursor", "hooks.json"), show)
	if err != nil {
		return err
	}
	if _, ok := root.get("version"); !ok {
		// Cursor wants the version first.
		v := newJSONObject()
		v.set("version", cursorHooksVersion)
		for _, k := range root.keys {
			v.set(k, root.m[k])
		}
		root = v
	}
	hooksObj, err := childObject(root, "hooks", show)
	if err != nil {
		return err
	}
	for _, ev := range cursorEvents {
		var entries []any
		if v, ok := hooksObj.get(ev); ok {
			if entries, ok = v.([]any); !ok {
				return fmt.Errorf("%s: hooks.%s is not a list; nothing was changed", show, ev)
			}
		}
		var out []any
		at := -1
		for _, e := range entries {
			if eo, ok := e.(*jsonObject); ok {
				if c, ok := eo.m["command"].(string); ok && o.isPumasiHook(c) {
					if at < 0 {
						at = len(out)
					}
					continue
				}
			}
			out = append(out, e)
		}
		if at < 0 {
			at = len(out)
		}
		var ours []any
		for _, h := range o.hookCommands() {
			ho := newJSONObject()
			ho.set("command", h.command)
			ho.set("timeout", h.timeout)
			ours = append(ours, ho)
		}
		hooksObj.set(ev, append(out[:at:at], append(ours, out[at:]...)...))
	}
	finishJSON(&f, root)
	plan.files = append(plan.files, f)
	if err := planMCPJSON(plan, o, filepath.Join(o.dir, ".cursor", "mcp.json"), ".cursor/mcp.json"); err != nil {
		return err
	}
	plan.notes = append(plan.notes, "Cursor: open Settings → MCP and enable the pumasi server; the hooks load on their own (Settings → Hooks shows them).")
	return nil
}
