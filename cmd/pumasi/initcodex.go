package main

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"

	"github.com/pelletier/go-toml/v2"
)

// codexFeatureKeys turn Codex's hooks on or off in config.toml's
// [features]: hooks, and codex_hooks, its older name that Codex still reads.
var codexFeatureKeys = []string{"hooks", "codex_hooks"}

// planCodex writes Codex's hooks into <codex-home>/hooks.json (the shape
// of Claude Code's: event → matcher groups → {"type": "command",
// "command", "timeout"}) and its MCP server into config.toml
// ([mcp_servers.pumasi]), turning [features] hooks on when the file turns
// it off.
func planCodex(plan *initPlan, o initOptions) error {
	home := o.codexHome
	showDir := home
	if home == "" {
		h, err := os.UserHomeDir()
		if err != nil {
			return fmt.Errorf("find the home folder: %w (pass --codex-home)", err)
		}
		home, showDir = filepath.Join(h, ".codex"), "~/.codex"
	}
	hooksShow := showDir + "/hooks.json"
	hf, root, err := loadJSONObject(filepath.Join(home, "hooks.json"), hooksShow)
	if err != nil {
		return err
	}
	hooksObj, err := childObject(root, "hooks", hooksShow)
	if err != nil {
		return err
	}
	if err := o.planMatcherHooks(hooksObj, hooksShow); err != nil {
		return err
	}
	finishJSON(&hf, root)
	plan.files = append(plan.files, hf)

	show := showDir + "/config.toml"
	f, err := readPlanned(filepath.Join(home, "config.toml"), show)
	if err != nil {
		return err
	}
	var doc map[string]any
	if err := toml.Unmarshal(f.old, &doc); err != nil {
		return fmt.Errorf("%s is not valid TOML (%v); fix it or move it away, nothing was changed", show, err)
	}
	var cur map[string]any
	if v, ok := doc["mcp_servers"]; ok {
		servers, ok := v.(map[string]any)
		if !ok {
			return fmt.Errorf("%s: mcp_servers is not a table; nothing was changed", show)
		}
		if v, ok := servers["pumasi"]; ok {
			if cur, ok = v.(map[string]any); !ok {
				return fmt.Errorf("%s: mcp_servers.pumasi is not a table; nothing was changed", show)
			}
		}
	}
	args := make([]any, 0, 8)
	for _, a := range o.mcpArgs() {
		args = append(args, a)
	}
	c := tomlChange{path: []string{"mcp_servers", "pumasi"}, set: map[string]any{"command": o.bin, "args": args}, drop: o.force}
	c.full = map[string]any{}
	if !o.force {
		for k, v := range cur {
			c.full[k] = v
		}
	}
	c.full["command"], c.full["args"] = o.bin, args
	if reflect.DeepEqual(cur, c.full) {
		c.full = nil
	} else if was := describeMCPEntry(cur["command"], cur["args"]); was != "" && !reflect.DeepEqual(cur["args"], args) {
		plan.notes = append(plan.notes, fmt.Sprintf("%s: mcp_servers.pumasi now runs %s (it ran %s)", show, commandLine(append([]string{o.bin}, o.mcpArgs()...)...), was))
	}
	if features, ok := doc["features"].(map[string]any); ok {
		for _, k := range codexFeatureKeys {
			if on, ok := features[k].(bool); ok && !on {
				c.setTrue = append(c.setTrue, []string{"features", k})
				plan.notes = append(plan.notes, fmt.Sprintf("%s: turned [features] %s on (it was off, so Codex ran no hooks)", show, k))
			}
		}
	}
	f.new = f.old
	if c.full != nil || len(c.setTrue) > 0 {
		var want map[string]any
		_ = toml.Unmarshal(f.old, &want)
		if want == nil {
			want = map[string]any{}
		}
		if c.full != nil {
			servers, _ := want["mcp_servers"].(map[string]any)
			if servers == nil {
				servers = map[string]any{}
				want["mcp_servers"] = servers
			}
			servers["pumasi"] = c.full
		}
		for _, p := range c.setTrue {
			want[p[0]].(map[string]any)[p[1]] = true
		}
		if f.new, err = editTOML(f.old, c, want); err != nil {
			return fmt.Errorf("%s: could not edit it in place (%v); nothing was changed. Add this yourself:\n%s", show, err, codexSnippet(c))
		}
	}
	plan.files = append(plan.files, f)
	plan.notes = append(plan.notes, "Codex: run /hooks in Codex and trust the two pumasi hooks (Codex runs no hook it has not been told to trust); /mcp shows the pumasi server.")
	return nil
}

// codexSnippet is what to add by hand when config.toml cannot be edited in
// place.
func codexSnippet(c tomlChange) string {
	var b strings.Builder
	if c.full != nil {
		b.WriteString("[mcp_servers.pumasi]\n")
		for _, k := range orderedKeys(c.full) {
			v, _ := tomlValue(c.full[k])
			b.WriteString(tomlKey(k) + " = " + v + "\n")
		}
	}
	for _, p := range c.setTrue {
		b.WriteString("[features] " + p[1] + " = true\n")
	}
	return b.String()
}
