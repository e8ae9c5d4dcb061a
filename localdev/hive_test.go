package localdev_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// hiveCall sends one request the way The Hive's clients do and decodes the
// answer generically, so the test sees exactly the keys a client reads.
func hiveCall(t *testing.T, method, u string, header map[string]string, body string) (int, http.Header, map[string]any) {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, u, rd)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var m map[string]any
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatalf("%s %s: %d %q is not JSON", method, u, resp.StatusCode, raw)
		}
	}
	return resp.StatusCode, resp.Header, m
}

func dataOf(m map[string]any) map[string]any { d, _ := m["data"].(map[string]any); return d }

// TestHiveClientsAgainstLocaldev replays The Hive's request shapes against
// a real localdev: a base URL with a trailing slash (//knowledge/...),
// contribute with X-Hive-Agent and no hive, a keyed Bearer write with no
// X-Hive-Agent, a query with neither hive nor auth from a browser on
// another origin; and checks The Hive's response fields.
func TestHiveClientsAgainstLocaldev(t *testing.T) {
	home := t.TempDir()
	p := startLocaldev(t, home)
	base := p.base + "/" // HIVE_API_URL=http://host:port/
	const title = "pgx v5 pool_max_conns default is too small"
	const content = "pgx v5 `pgxpool` defaults `pool_max_conns` to max(4, GOMAXPROCS); under 200 concurrent requests set `pool_max_conns=32` in the DSN or requests queue on `Acquire`."
	body, _ := json.Marshal(map[string]any{"title": title, "content": content, "tags": []string{"postgres", "go"}})

	st, _, m := hiveCall(t, "POST", base+"/knowledge/contribute", map[string]string{"X-Hive-Agent": "hive-client-1", "Content-Type": "application/json"}, string(body))
	d := dataOf(m)
	id, _ := d["entry_id"].(string)
	entry, _ := d["entry"].(map[string]any)
	if st != 201 || m["success"] != true || d["verdict"] != "accepted" || id == "" || entry["id"] != id || entry["hive"] != "academy" {
		t.Fatalf("contribute = %d %v, want 201, success, entry_id, default hive academy", st, m)
	}

	// A keyed client: Bearer, no X-Hive-Agent. Merged, attributed to a
	// handle derived from the key.
	const key = "hive_live_8f2c1d9e0a7b4c3d2e1f0a9b8c7d6e5f"
	st, _, m = hiveCall(t, "POST", base+"/knowledge/contribute", map[string]string{"Authorization": "Bearer " + key, "Content-Type": "application/json"}, string(body))
	d = dataOf(m)
	if st != 200 || m["success"] != true || d["verdict"] != "merged" || d["merged_into"] != id || d["similarity"] != 1.0 {
		t.Fatalf("keyed contribute = %d %v, want 200 merged_into %s with similarity", st, m, id)
	}
	st, _, m = hiveCall(t, "GET", base+"/knowledge/"+id, nil, "")
	contribs, _ := dataOf(m)["contributions"].([]any)
	if st != 200 || m["success"] != true || len(contribs) != 2 {
		t.Fatalf("entry = %d %v", st, m)
	}
	keyed := contribs[1].(map[string]any)["agent"].(string)
	if !strings.HasPrefix(keyed, "key-") || len(keyed) != 20 || keyed == contribs[0].(map[string]any)["agent"] {
		t.Fatalf("keyed contribution attributed to %q, want key- and 16 hex digits", keyed)
	}
	// The same key cites as the same handle.
	st, _, m = hiveCall(t, "POST", base+"/knowledge/"+id+"/endorse", map[string]string{"Authorization": "Bearer " + key}, "")
	if st != 200 || m["success"] != true || dataOf(m)["endorsement_count"] != 1.0 {
		t.Fatalf("keyed endorse = %d %v", st, m)
	}
	// The key is nowhere in localdev's home (SQLite, WAL, files).
	filepath.WalkDir(home, func(path string, de fs.DirEntry, err error) error {
		if err == nil && !de.IsDir() {
			if b, _ := os.ReadFile(path); bytes.Contains(b, []byte(key)) || bytes.Contains(b, []byte(key[10:])) {
				t.Errorf("%s holds the bearer key", path)
			}
		}
		return nil
	})

	// A rejected contribution: reasons[] and hints[] beside reason, details
	// and the error body.
	bad, _ := json.Marshal(map[string]any{"title": "Ask ops", "content": "Mail ops.lead@acme-corp.com when `kubectl drain` hangs on 1.29."})
	st, _, m = hiveCall(t, "POST", base+"/knowledge/contribute", map[string]string{"X-Hive-Agent": "hive-client-1", "Content-Type": "application/json"}, string(bad))
	d = dataOf(m)
	reasons, _ := d["reasons"].([]any)
	hints, _ := d["hints"].([]any)
	if st != 422 || m["success"] != false || d["verdict"] != "rejected" || len(reasons) != 1 || len(hints) == 0 || d["reason"] == nil || m["error"] == nil {
		t.Fatalf("rejected = %d %v", st, m)
	}

	// The query, from a page on another origin: no hive, no auth.
	q := base + "/knowledge/query?q=" + url.QueryEscape("pgx pool requests queue on Acquire")
	st, h, m := hiveCall(t, "GET", q, map[string]string{"Origin": "https://dashboard.example"}, "")
	hits, _ := m["data"].([]any)
	if st != 200 || m["success"] != true || len(hits) != 1 || h.Get("Access-Control-Allow-Origin") != "*" {
		t.Fatalf("query = %d %v (Allow-Origin %q)", st, m, h.Get("Access-Control-Allow-Origin"))
	}
	hit := hits[0].(map[string]any)
	if sum, _ := hit["summary"].(string); hit["id"] != id || sum == "" || len(sum) > 4*200 || hit["contribution_count"] != 2.0 {
		t.Fatalf("hit = %v", hit)
	}
	st, h, _ = hiveCall(t, "OPTIONS", p.base+"/knowledge/query", map[string]string{"Origin": "https://dashboard.example", "Access-Control-Request-Method": "GET"}, "")
	if st != 204 || h.Get("Access-Control-Allow-Origin") != "*" || !strings.Contains(h.Get("Access-Control-Allow-Methods"), "GET") {
		t.Fatalf("preflight = %d %v", st, h)
	}
	// Authenticated routes answer no CORS by default.
	_, h, _ = hiveCall(t, "GET", p.base+"/rooms/r1/files", map[string]string{"Origin": "https://dashboard.example"}, "")
	if h.Get("Access-Control-Allow-Origin") != "" {
		t.Fatalf("rooms answered CORS: %v", h)
	}
}

// TestLocaldevCORSFlags: --cors-origins and --cors-routes reach the API.
func TestLocaldevCORSFlags(t *testing.T) {
	p := startLocaldevArgs(t, t.TempDir(), []string{"--no-machine", "--cors-origins", "https://app.example", "--cors-routes", "knowledge"})
	st, h, _ := hiveCall(t, "OPTIONS", p.base+"/knowledge/contribute", map[string]string{
		"Origin": "https://app.example", "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "content-type, x-hive-agent",
	}, "")
	if st != 204 || h.Get("Access-Control-Allow-Origin") != "https://app.example" || !strings.Contains(h.Get("Access-Control-Allow-Headers"), "X-Hive-Agent") {
		t.Fatalf("preflight of contribute = %d %v", st, h)
	}
	_, h, _ = hiveCall(t, "GET", p.base+"/knowledge/query?q=x", map[string]string{"Origin": "https://other.example"}, "")
	if got := h.Get("Access-Control-Allow-Origin"); got != "" {
		t.Fatalf("unlisted origin got Allow-Origin %q", got)
	}
}

// TestReadmeInit runs the README's `pumasi init` block, as written, with
// the built pumasi first on PATH and $HOME a temporary folder, then runs
// what it wrote the way the hosts would: the Claude Code hooks with a
// documented UserPromptSubmit event, and the MCP server command.
func TestReadmeInit(t *testing.T) {
	block := readmeBlock(t, "init")
	bin, err := buildPumasi()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", filepath.Dir(bin)+string(os.PathListSeparator)+os.Getenv("PATH"))
	fakeHome := t.TempDir()
	p := startLocaldev(t, filepath.Join(fakeHome, ".pumasi"))
	work := t.TempDir()
	out := runBlock(t, p.base, fakeHome, work, block)
	for _, want := range []string{"(dry run: nothing was written)", ".claude/settings.json: created", ".mcp.json: created", ".cursor/mcp.json: created",
		".cursor/hooks.json: created", "~/.codex/config.toml: created", "~/.codex/hooks.json: created"} {
		if !strings.Contains(out, want) {
			t.Errorf("init block output lacks %q:\n%s", want, out)
		}
	}
	// As pasted twice, nothing changes.
	before := readFile(t, filepath.Join(work, ".claude", "settings.json"))
	if again := runBlock(t, p.base, fakeHome, work, block); strings.Contains(again, "created") || strings.Contains(again, "updated") {
		t.Fatalf("second run changed files:\n%s", again)
	}
	if readFile(t, filepath.Join(work, ".claude", "settings.json")) != before {
		t.Fatal("settings.json changed on the second run")
	}
	toml := readFile(t, filepath.Join(fakeHome, ".codex", "config.toml"))
	if !strings.Contains(toml, "[mcp_servers.pumasi]\ncommand = \"pumasi\"\nargs = [\"mcp\", \"--agent\", \"my-agent\", \"--server\", \""+p.base+"\"]") {
		t.Fatalf("config.toml =\n%s", toml)
	}

	// Something to find, and a shared file for the agent.
	body, _ := json.Marshal(map[string]any{"title": "modernc sqlite needs busy_timeout per connection",
		"content": "With database/sql pooling, set _pragma=busy_timeout(5000) in the DSN; a PRAGMA statement only reaches one pooled connection and the others fail with SQLITE_BUSY under concurrent writers."})
	if st, _, m := hiveCall(t, "POST", p.base+"/knowledge/contribute", map[string]string{"X-Hive-Agent": "my-agent", "Content-Type": "application/json"}, string(body)); st != 201 {
		t.Fatalf("contribute = %d %v", st, m)
	}
	shared := filepath.Join(fakeHome, ".pumasi", "agents", "my-agent", "memory", "shared")
	os.MkdirAll(shared, 0o755)
	os.WriteFile(filepath.Join(shared, "spec.md"), []byte("Use OAuth device flow.\n"), 0o644)

	// Each host's prompt hooks, run as the host runs them (a shell command
	// with its documented event on stdin), add the file, the hint and the
	// entry in the JSON field the host reads.
	var claude, codex struct {
		Hooks map[string][]struct {
			Hooks []struct{ Command string } `json:"hooks"`
		} `json:"hooks"`
	}
	var cursor struct {
		Hooks map[string][]struct{ Command string } `json:"hooks"`
	}
	for path, v := range map[string]any{filepath.Join(work, ".claude", "settings.json"): &claude,
		filepath.Join(fakeHome, ".codex", "hooks.json"): &codex, filepath.Join(work, ".cursor", "hooks.json"): &cursor} {
		if err := json.Unmarshal([]byte(readFile(t, path)), v); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
	}
	prompt := "SQLITE_BUSY with concurrent writers in $spec.md"
	type hostRun struct {
		host, event string
		commands    []string
	}
	var runs []hostRun
	for host, h := range map[string]*struct {
		Hooks map[string][]struct {
			Hooks []struct{ Command string } `json:"hooks"`
		} `json:"hooks"`
	}{"claude-code": &claude, "codex": &codex} {
		var cmds []string
		for _, g := range h.Hooks["UserPromptSubmit"] {
			for _, hk := range g.Hooks {
				cmds = append(cmds, hk.Command)
			}
		}
		event := `{"session_id":"s1","transcript_path":"/tmp/t.jsonl","cwd":"` + work + `","permission_mode":"default","hook_event_name":"UserPromptSubmit","prompt":"` + prompt + `"}`
		if host == "codex" {
			event = `{"session_id":"s1","turn_id":"t1","transcript_path":null,"cwd":"` + work + `","hook_event_name":"UserPromptSubmit","model":"gpt-5.5-codex","permission_mode":"default","prompt":"` + prompt + `"}`
		}
		runs = append(runs, hostRun{host, event, cmds})
	}
	var cursorCmds []string
	for _, hk := range cursor.Hooks["beforeSubmitPrompt"] {
		cursorCmds = append(cursorCmds, hk.Command)
	}
	runs = append(runs, hostRun{"cursor", `{"hook_event_name":"beforeSubmitPrompt","conversation_id":"c1","generation_id":"g1","workspace_roots":["` + work + `"],"prompt":"` + prompt + `","attachments":[]}`, cursorCmds})
	for _, r := range runs {
		if len(r.commands) != 2 {
			t.Fatalf("%s: prompt hooks %q, want two", r.host, r.commands)
		}
		var got strings.Builder
		for _, c := range r.commands {
			cmd := exec.Command("bash", "-c", c)
			cmd.Dir, cmd.Stdin = work, strings.NewReader(r.event)
			cmd.Env = append(os.Environ(), "HOME="+fakeHome, "PUMASI_HOME=")
			o, err := cmd.Output()
			if err != nil {
				t.Fatalf("%s hook %q: %v", r.host, c, err)
			}
			var out struct {
				Specific *struct {
					HookEventName     string `json:"hookEventName"`
					AdditionalContext string `json:"additionalContext"`
				} `json:"hookSpecificOutput"`
				Continue          *bool  `json:"continue"`
				AdditionalContext string `json:"additional_context"`
			}
			if err := json.Unmarshal(o, &out); err != nil {
				t.Fatalf("%s hook %q printed no JSON: %v\n%s", r.host, c, err, o)
			}
			switch {
			case r.host != "cursor" && out.Specific != nil && out.Specific.HookEventName == "UserPromptSubmit":
				got.WriteString(out.Specific.AdditionalContext)
			case r.host == "cursor" && out.Continue != nil && *out.Continue:
				got.WriteString(out.AdditionalContext)
			default:
				t.Fatalf("%s hook %q printed another host's shape: %s", r.host, c, o)
			}
		}
		for _, want := range []string{`<file name="spec.md"`, "<referenced-files>\n- spec.md: memory/shared/spec.md", "<collective-knowledge>", "busy_timeout(5000)"} {
			if !strings.Contains(got.String(), want) {
				t.Errorf("%s: the hooks' context lacks %q:\n%s", r.host, want, got.String())
			}
		}
	}

	// The MCP server command from .mcp.json starts and answers initialize.
	var mcpCfg struct {
		MCPServers map[string]struct {
			Command string   `json:"command"`
			Args    []string `json:"args"`
		} `json:"mcpServers"`
	}
	json.Unmarshal([]byte(readFile(t, filepath.Join(work, ".mcp.json"))), &mcpCfg)
	s := mcpCfg.MCPServers["pumasi"]
	cmd := exec.Command(s.Command, s.Args...)
	cmd.Env = append(os.Environ(), "HOME="+fakeHome, "PUMASI_HOME=")
	// Keep stdin open until the answer is in: EOF ends the session.
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	defer stdin.Close()
	io.WriteString(stdin, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"readme","version":"1"}}}`+"\n")
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil || !strings.Contains(line, `"name":"pumasi"`) || !strings.Contains(line, `"subscribe":true`) {
		t.Fatalf("mcp server %s %q: %v\n%s", s.Command, s.Args, err, line)
	}
}
