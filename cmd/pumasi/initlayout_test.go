package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	burntsushi "github.com/BurntSushi/toml"
	gotoml "github.com/pelletier/go-toml/v2"
)

// decodeTOML decodes b with BurntSushi/toml, a parser init does not use,
// so a file that only init's own parser would take fails here.
func decodeTOML(t *testing.T, name string, b []byte) map[string]any {
	t.Helper()
	var v map[string]any
	if _, err := burntsushi.Decode(string(b), &v); err != nil {
		t.Fatalf("%s is not valid TOML to BurntSushi/toml: %v\n%s", name, err, b)
	}
	var w map[string]any
	if err := gotoml.Unmarshal(b, &w); err != nil {
		t.Fatalf("%s is not valid TOML to go-toml: %v\n%s", name, err, b)
	}
	return v
}

// codexLayouts are config.toml files in every layout TOML allows for what
// init touches: mcp_servers (a table, an inline table, dotted keys, an
// inline entry under [mcp_servers]), pumasi's own entry for another agent
// in each of those forms, [features] hooks off in each form, arrays of
// tables last, multi-line arrays, quoted keys, comments, CRLF and no final
// newline. Lines with "# keep" must survive.
var codexLayouts = map[string]string{
	"empty":                      "",
	"comment":                    "# keep: my Codex config\n",
	"inline servers":             "model = \"o4\" # keep\nmcp_servers = { other = { command = \"x\" } }\n",
	"inline servers with pumasi": "mcp_servers = { pumasi = { command = \"/old/pumasi\", args = [\"mcp\", \"--agent\", \"old\"], env = { A = \"1\" } }, other = { command = \"x\" } }\n# keep\n",
	"empty inline servers":       "mcp_servers = {}\n",
	"dotted root":                "# keep\nmcp_servers.other.command = \"x\"\nmcp_servers.pumasi.command = \"/old/pumasi\"\nmcp_servers.pumasi.args = [\"mcp\", \"--agent\", \"old\"]\n",
	"dotted in table":            "[mcp_servers] # keep\npumasi.command = \"/old/pumasi\"\npumasi.startup_timeout_sec = 20\nother = { command = \"y\" }\n",
	"inline entry in table":      "[mcp_servers]\npumasi = { command = \"/old/pumasi\", args = [] } # a comment on pumasi's line\ngithub = { command = \"gh\" } # keep\n",
	"header with env, CRLF":      "# keep1\r\n[mcp_servers.pumasi] # keep2\r\ncommand = \"/old/pumasi\" # keep3\r\nargs = [\r\n  \"mcp\", # inside pumasi's old value\r\n  \"--agent\", \"old\",\r\n]\r\n\r\n[mcp_servers.pumasi.env]\r\nPUMASI_HOME = \"/data\" # keep4\r\n",
	"quoted header":              "[mcp_servers.\"pumasi\"]\ncommand = '/old/pumasi'\n[mcp_servers.'other']\ncommand = \"x\" # keep\n",
	"arrays of tables last, no final newline": "[[profiles]] # keep\nname = \"a\"\n[[profiles]]\nname = \"b\"",
	"features off":           "[features]\nhooks = false # keep\nweb_search = true\n",
	"features inline off":    "features = { codex_hooks = false, web_search = true } # keep\n",
	"features dotted off":    "features.hooks = false # keep\n[mcp_servers.other]\ncommand = \"x\"\n",
	"features on":            "[features]\nhooks = true # keep\n",
	"multiline inline table": "mcp_servers = {\n  other = { command = \"x\" }, # keep\n}\n",
}

// keepComments are the comments a layout marks as the user's.
var keepComments = regexp.MustCompile(`# keep\w*`)

// TestInitCodexLayouts runs init codex over every layout: the result is
// valid TOML to two parsers, means the original plus pumasi's entry (and
// hooks on) and nothing else, keeps the lines marked # keep and the line
// ends, and a second run, and a run for another agent, leave one pumasi
// entry that is up to date.
func TestInitCodexLayouts(t *testing.T) {
	for name, layout := range codexLayouts {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			codex := filepath.Join(dir, "codex")
			os.MkdirAll(codex, 0o755)
			path := filepath.Join(codex, "config.toml")
			if layout != "" {
				os.WriteFile(path, []byte(layout), 0o600)
			}
			decodeTOML(t, "the layout", []byte(layout))
			for _, agent := range []string{"a", "b"} {
				args := []string{"init", "codex", "--agent", agent, "--bin", "pumasi", "--server", "http://127.0.0.1:8787", "--codex-home", codex}
				diff, _, err := runCLI(t, nil, append(args, "--dry-run")...)
				if err != nil {
					t.Fatalf("dry run: %v", err)
				}
				out, _, err := runCLI(t, nil, args...)
				if err != nil {
					t.Fatalf("init for %s: %v\n%s", agent, err, out)
				}
				got, _ := os.ReadFile(path)
				after := decodeTOML(t, "config.toml after init", got)
				want := decodeTOML(t, "the layout", []byte(layout))
				servers, _ := want["mcp_servers"].(map[string]any)
				if servers == nil {
					servers = map[string]any{}
					want["mcp_servers"] = servers
				}
				entry, _ := servers["pumasi"].(map[string]any)
				if entry == nil {
					entry = map[string]any{}
					servers["pumasi"] = entry
				}
				entry["command"] = "pumasi"
				entry["args"] = []any{"mcp", "--agent", agent, "--server", "http://127.0.0.1:8787"}
				if f, ok := want["features"].(map[string]any); ok {
					for _, k := range codexFeatureKeys {
						if _, ok := f[k]; ok {
							f[k] = true
						}
					}
				}
				if !reflect.DeepEqual(after, want) {
					t.Fatalf("init for %s: config.toml means\n%v\nwant\n%v\n%s", agent, after, want, got)
				}
				for _, c := range keepComments.FindAllString(layout, -1) {
					if strings.Count(string(got), c) != strings.Count(layout, c) {
						t.Errorf("init for %s lost the comment %q:\n%s", agent, c, got)
					}
				}
				if strings.Contains(layout, "\r\n") && strings.Count(string(got), "\n") != strings.Count(string(got), "\r\n") {
					t.Errorf("init for %s mixed line ends into a CRLF file: %q", agent, got)
				}
				if agent == "a" && layout != "" && !strings.HasSuffix(layout, "\n") && !strings.Contains(diff, "\\ No newline at end of file") {
					t.Errorf("the dry run does not show the missing final newline:\n%s", diff)
				}
				// The dry run's diff applies to the file init started from.
				if _, err := exec.LookPath("patch"); err == nil && agent == "a" && diff != "" {
					checkPatch(t, layout, string(got), diff)
				}
				if again, _, _ := runCLI(t, nil, args...); strings.Count(again, "up to date") != 2 {
					t.Fatalf("second run for %s = %q", agent, again)
				}
				if again, _ := os.ReadFile(path); !bytes.Equal(again, got) {
					t.Fatalf("second run for %s changed config.toml", agent)
				}
			}
		})
	}
}

// checkPatch applies the config.toml part of a dry run's diff to the
// original and compares with what init wrote.
func checkPatch(t *testing.T, orig, written, diff string) {
	t.Helper()
	var part []string
	in := false
	for _, l := range strings.SplitAfter(diff, "\n") {
		if strings.HasPrefix(l, "--- ") {
			in = strings.HasSuffix(strings.TrimSpace(l), "config.toml")
		}
		if strings.HasPrefix(l, "(dry run") {
			break
		}
		if in {
			part = append(part, l)
		}
	}
	if len(part) == 0 {
		return
	}
	dir := t.TempDir()
	f := filepath.Join(dir, "config.toml")
	os.WriteFile(f, []byte(orig), 0o644)
	cmd := exec.Command("patch", "--quiet", "--binary", f)
	cmd.Stdin = strings.NewReader(strings.Join(part, ""))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("patch: %v %s\n%s", err, out, strings.Join(part, ""))
	}
	if got, _ := os.ReadFile(f); string(got) != written {
		t.Fatalf("patched =\n%q\nwritten =\n%q", got, written)
	}
}

// jsonLayouts are settings files in the layouts editors write: tabs, four
// spaces, one line, CRLF, no final newline, a BOM.
var jsonLayouts = map[string]string{
	"tabs, CRLF, no final newline": "{\r\n\t\"model\": \"opus\",\r\n\t\"env\": {\"A\": \"<&>\"}\r\n}",
	"four spaces":                  "{\n    \"model\": \"opus\"\n}\n",
	"one line":                     `{"model":"opus","hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"./check.sh"}]}]}}`,
	"BOM":                          "\xef\xbb\xbf{\n  \"model\": \"opus\"\n}\n",
}

// TestInitJSONLayouts runs init claude-code and cursor over each layout:
// the files parse as JSON, keep the user's keys, indentation, line ends,
// final newline (or none) and BOM, and hold one set of pumasi hooks after
// a second agent's init.
func TestInitJSONLayouts(t *testing.T) {
	files := map[string]string{"claude-code": ".claude/settings.json", "cursor": ".cursor/hooks.json"}
	for name, layout := range jsonLayouts {
		for host, file := range files {
			t.Run(name+"/"+host, func(t *testing.T) {
				dir := t.TempDir()
				path := filepath.Join(dir, file)
				os.MkdirAll(filepath.Dir(path), 0o755)
				os.WriteFile(path, []byte(layout), 0o644)
				for _, agent := range []string{"a", "b"} {
					args := []string{"init", host, "--agent", agent, "--bin", "pumasi", "--server", "http://127.0.0.1:8787", "--dir", dir}
					if _, _, err := runCLI(t, nil, args...); err != nil {
						t.Fatal(err)
					}
				}
				got, _ := os.ReadFile(path)
				body := bytes.TrimPrefix(got, utf8BOM)
				var v map[string]any
				if err := json.Unmarshal(body, &v); err != nil {
					t.Fatalf("%s is not JSON: %v\n%s", file, err, got)
				}
				if v["model"] != "opus" {
					t.Fatalf("the user's key is gone: %s", got)
				}
				if bytes.HasPrefix([]byte(layout), utf8BOM) != bytes.HasPrefix(got, utf8BOM) ||
					strings.HasSuffix(layout, "\n") != strings.HasSuffix(string(got), "\n") ||
					strings.Contains(layout, "\r\n") != strings.Contains(string(got), "\r\n") ||
					strings.Contains(layout, "\r\n") && strings.Count(string(got), "\n") != strings.Count(string(got), "\r\n") {
					t.Fatalf("layout not kept (BOM, final newline, CRLF):\n%q", got)
				}
				if strings.Contains(layout, "\n\t") != strings.Contains(string(got), "\n\t") || strings.Contains(layout, "\n    \"") != strings.Contains(string(got), "\n    \"model") {
					t.Fatalf("indentation not kept:\n%s", got)
				}
				var commands []string
				switch host {
				case "claude-code":
					commands = append(hookCommands(v, "SessionStart"), hookCommands(v, "UserPromptSubmit")...)
					if pre := hookCommands(v, "PreToolUse"); strings.Contains(layout, "check.sh") && !reflect.DeepEqual(pre, []string{"./check.sh"}) {
						t.Fatalf("the user's PreToolUse hook = %q", pre)
					}
				case "cursor":
					if v["version"] != float64(1) {
						t.Fatalf("hooks.json version = %v", v["version"])
					}
					for _, ev := range cursorEvents {
						for _, h := range v["hooks"].(map[string]any)[ev].([]any) {
							commands = append(commands, h.(map[string]any)["command"].(string))
						}
					}
				}
				want := []string{"pumasi context --agent b --hook", "pumasi know hook --server http://127.0.0.1:8787"}
				if !reflect.DeepEqual(commands, append(want, want...)) {
					t.Fatalf("hooks after init for a then b = %q, want one set for b per event", commands)
				}
			})
		}
	}
}
