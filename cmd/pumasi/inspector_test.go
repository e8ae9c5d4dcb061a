package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"pumasi/internal/testpeer"
)

// The MCP Inspector (npm @modelcontextprotocol/inspector, pinned in
// scripts/inspector/package-lock.json, installed by scripts/inspector.sh)
// drives the real `pumasi mcp` binary: a client nobody here wrote.

// inspectorEnv is the Inspector's CLI (`mcp-inspector --cli`) and its
// connection CLI (mcpdo, for subscriptions), with their state in a temp
// home.
type inspectorEnv struct {
	cli, mcpdo string
	env        []string
	server     []string // the pumasi mcp command line
}

func newInspector(t *testing.T, server []string) *inspectorEnv {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		inspectorMissing(t, "node is not installed")
	}
	out, err := exec.Command("bash", filepath.Join("..", "..", "scripts", "inspector.sh"), "--print").Output()
	if err != nil {
		inspectorMissing(t, fmt.Sprintf("scripts/inspector.sh --print: %v", err))
	}
	pkg := strings.TrimSpace(string(out))
	raw, err := os.ReadFile(filepath.Join(pkg, "package.json"))
	if err != nil {
		inspectorMissing(t, "the MCP Inspector is not installed: run scripts/inspector.sh (make test does)")
	}
	var meta struct {
		Version string            `json:"version"`
		Bin     map[string]string `json:"bin"`
	}
	if err := json.Unmarshal(raw, &meta); err != nil || meta.Bin["mcp-inspector"] == "" || meta.Bin["mcpdo"] == "" {
		t.Fatalf("inspector package.json: %v %s", err, raw)
	}
	t.Logf("MCP Inspector %s (node %s)", meta.Version, node)
	home := t.TempDir()
	return &inspectorEnv{
		cli: filepath.Join(pkg, meta.Bin["mcp-inspector"]), mcpdo: filepath.Join(pkg, meta.Bin["mcpdo"]),
		env: append(os.Environ(), "HOME="+home, "MCP_CATALOG_PATH="+filepath.Join(home, "catalog.json"),
			"MCP_INSPECTOR_SECRET_STORE=memory", "NO_COLOR=1"),
		server: server,
	}
}

func inspectorMissing(t *testing.T, msg string) {
	t.Helper()
	if testpeer.Required() {
		t.Fatal(msg)
	}
	t.Skip(msg)
}

// call runs one `mcp-inspector --cli --format json` method against the
// server and returns the decoded result; failed is true when the CLI
// reported an error (a tool's isError, a protocol error).
func (in *inspectorEnv) call(t *testing.T, args ...string) (result map[string]any, failed bool, stderr string) {
	t.Helper()
	full := append(append([]string{in.cli, "--cli", "--format", "json"}, args...), "--")
	full = append(full, in.server...)
	cmd := exec.Command("node", full...)
	cmd.Env = in.env
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var body struct {
		Result map[string]any `json:"result"`
	}
	if jerr := json.Unmarshal(out.Bytes(), &body); jerr != nil || body.Result == nil {
		t.Fatalf("inspector %q: %v, stdout %q, stderr %q", args, err, out.String(), errb.String())
	}
	return body.Result, err != nil, errb.String()
}

// toolText calls a tool and returns its first text content.
func (in *inspectorEnv) toolText(t *testing.T, name string, argsJSON string) (string, bool) {
	t.Helper()
	res, failed, _ := in.call(t, "--method", "tools/call", "--tool-name", name, "--tool-args-json", argsJSON)
	content, _ := res["content"].([]any)
	if len(content) == 0 {
		t.Fatalf("%s: no content: %v", name, res)
	}
	text, _ := content[0].(map[string]any)["text"].(string)
	isError, _ := res["isError"].(bool)
	return text, failed || isError
}

func TestInspectorDrivesMCPServer(t *testing.T) {
	bin := buildPumasiBinary(t)
	home := t.TempDir()
	dir := writeSharedFiles(t, home, "a", map[string]string{"spec.md": "# Spec v1\n", "회의록.md": "회의 내용\n"})
	srv := knowServer(t)
	in := newInspector(t, []string{bin, "mcp", "--agent", "a", "--home", home, "--server", srv.URL, "--watch", "100ms"})

	// Each call starts the Inspector afresh (2-4 s of Node), so the calls
	// are the ones only a foreign client proves: schemas, list arguments,
	// the Hive's shapes, resources, prompts and a subscription (the go-sdk
	// client tests cover the rest). Independent calls run side by side.
	var entryID string
	t.Run("calls", func(t *testing.T) {
		var wg sync.WaitGroup
		defer wg.Wait()
		goRun(t, &wg, "tools/list --strict", func(t *testing.T) {
			// The Inspector's own portability check: no warning.
			res, failed, stderr := in.call(t, "--method", "tools/list", "--strict")
			tools, _ := res["tools"].([]any)
			if failed || len(tools) != 9 || strings.Contains(stderr, "Warning") || strings.Contains(stderr, "Issue:") {
				t.Fatalf("tools/list --strict: failed %v, %d tools, stderr:\n%s", failed, len(tools), stderr)
			}
		})
		goRun(t, &wg, "resolve_references", func(t *testing.T) {
			text, isErr := in.toolText(t, "resolve_references", `{"text":"see $spec.md","references":["회의록.md","gone.md"]}`)
			if isErr || !strings.Contains(text, `"unknown":["gone.md"]`) || !strings.Contains(text, "회의록.md: memory/shared/회의록.md") {
				t.Fatalf("resolve_references = %s", text)
			}
		})
		goRun(t, &wg, "contribute_knowledge", func(t *testing.T) {
			text, isErr := in.toolText(t, "contribute_knowledge", `{"title":"go vet copylocks flags sync.Mutex copies","content":"go vet 1.26 copylocks: passing a struct holding sync.Mutex by value is reported as 'passes lock by value'; pass a pointer instead.","tags":["go","vet"]}`)
			var contributed struct {
				Success bool `json:"success"`
				Data    struct {
					Verdict string `json:"verdict"`
					EntryID string `json:"entry_id"`
					Entry   struct {
						Tags []string `json:"tags"`
						Hive string   `json:"hive"`
					} `json:"entry"`
				} `json:"data"`
			}
			if err := json.Unmarshal([]byte(text), &contributed); err != nil || isErr || !contributed.Success || contributed.Data.Verdict != "accepted" ||
				contributed.Data.EntryID == "" || strings.Join(contributed.Data.Entry.Tags, ",") != "go,vet" || contributed.Data.Entry.Hive != "academy" {
				t.Fatalf("contribute_knowledge = %s (%v)", text, err)
			}
			entryID = contributed.Data.EntryID
		})
		for _, bad := range []string{`{"query":"x","limit":1000}`} {
			goRun(t, &wg, "query_knowledge "+bad, func(t *testing.T) {
				if text, isErr := in.toolText(t, "query_knowledge", bad); !isErr || !strings.Contains(text, "limit") {
					t.Errorf("query_knowledge %s = %q (isError %v), want a tool error naming limit", bad, text, isErr)
				}
			})
		}
		goRun(t, &wg, "resources", func(t *testing.T) {
			res, _, _ := in.call(t, "--method", "resources/list")
			listed, _ := json.Marshal(res["resources"])
			if !strings.Contains(string(listed), `"uri":"pumasi://shared/spec.md"`) || !strings.Contains(string(listed), `"uri":"pumasi://shared/%ED%9A%8C%EC%9D%98%EB%A1%9D.md"`) {
				t.Fatalf("resources/list = %s", listed)
			}
			res, _, _ = in.call(t, "--method", "resources/read", "--uri", "pumasi://shared/%ED%9A%8C%EC%9D%98%EB%A1%9D.md")
			if got, _ := json.Marshal(res["contents"]); !strings.Contains(string(got), `"text":"회의 내용\n"`) {
				t.Fatalf("resources/read = %s", got)
			}
		})
		goRun(t, &wg, "prompts", func(t *testing.T) {
			res, _, _ := in.call(t, "--method", "prompts/list")
			if got, _ := json.Marshal(res); !strings.Contains(string(got), `"name":"shared_context"`) {
				t.Fatalf("prompts/list = %s", got)
			}
			res, _, _ = in.call(t, "--method", "prompts/get", "--prompt-name", "shared_context", "--prompt-args", "budget=4096")
			if got, _ := json.Marshal(res); !strings.Contains(string(got), `file name=\"spec.md\"`) {
				t.Fatalf("prompts/get = %s", got)
			}
		})
	})
	if t.Failed() {
		return
	}
	t.Run("after", func(t *testing.T) {
		var wg sync.WaitGroup
		defer wg.Wait()
		goRun(t, &wg, "query_knowledge", func(t *testing.T) {
			text, isErr := in.toolText(t, "query_knowledge", `{"query":"go vet passes lock by value"}`)
			if isErr || !strings.HasPrefix(text, "<collective-knowledge>\n") || !strings.Contains(text, `<entry id="`+entryID+`"`) || !strings.Contains(text, "go vet 1.26 copylocks") {
				t.Fatalf("query_knowledge = %s", text)
			}
		})
		// resources/subscribe through mcpdo, then the daemon writes a
		// version.
		goRun(t, &wg, "resources/subscribe", func(t *testing.T) {
			in.subscribeAndUpdate(t, dir)
		})
	})
}

// goRun runs a subtest in its own goroutine: t.Run may be called from
// several goroutines at once.
func goRun(t *testing.T, wg *sync.WaitGroup, name string, f func(t *testing.T)) {
	wg.Add(1)
	go func() {
		defer wg.Done()
		t.Run(name, f)
	}()
}

// subscribeAndUpdate connects mcpdo (with a private daemon), subscribes to
// spec.md, replaces the file the daemon's way, and waits for the
// resources/updated line.
func (in *inspectorEnv) subscribeAndUpdate(t *testing.T, dir string) {
	t.Helper()
	daemonDir := filepath.Join(t.TempDir(), "d")
	env := append(in.env, "MCP_INSPECTOR_DAEMON_DIR="+daemonDir, "MCP_INSPECTOR_DAEMON_TOKEN=pumasi-inspector-test-token-0123456789")
	catalog := map[string]any{"mcpServers": map[string]any{"pumasi": map[string]any{"command": in.server[0], "args": in.server[1:]}}}
	raw, _ := json.Marshal(catalog)
	catalogPath := filepath.Join(t.TempDir(), "catalog.json")
	os.WriteFile(catalogPath, raw, 0o600)
	env = append(env, "MCP_CATALOG_PATH="+catalogPath)
	mcpdo := func(args ...string) *exec.Cmd {
		cmd := exec.Command("node", append([]string{in.mcpdo, "--format", "json"}, args...)...)
		cmd.Env = env
		return cmd
	}
	if out, err := mcpdo("connect", "pumasi").CombinedOutput(); err != nil {
		t.Fatalf("mcpdo connect: %v\n%s", err, out)
	}
	t.Cleanup(func() { mcpdo("daemon", "stop").Run() })
	sub := mcpdo("@pumasi", "resources/subscribe", "pumasi://shared/spec.md")
	stdout, err := sub.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	sub.Stderr = &stderr
	if err := sub.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		sub.Process.Kill()
		sub.Wait()
	}()
	events := make(chan map[string]any, 8)
	go func() {
		dec := json.NewDecoder(bufio.NewReader(stdout))
		for {
			var ev map[string]any
			if dec.Decode(&ev) != nil {
				close(events)
				return
			}
			events <- ev
		}
	}()
	next := func(what string) map[string]any {
		select {
		case ev, ok := <-events:
			if !ok {
				t.Fatalf("mcpdo subscribe ended before %s: %s", what, stderr.String())
			}
			return ev
		case <-time.After(20 * time.Second):
			t.Fatalf("no %s from mcpdo within 20 s: %s", what, stderr.String())
		}
		return nil
	}
	if ev := next("subscribed"); ev["type"] != "subscribed" {
		t.Fatalf("first line %v, want subscribed", ev)
	}
	writeAtomic(t, dir, "spec.md", "# Spec v2\n")
	if ev := next("resources/updated"); ev["type"] != "resources/updated" || ev["uri"] != "pumasi://shared/spec.md" {
		t.Fatalf("after the update: %v, want resources/updated for spec.md", ev)
	}
	t.Logf("mcpdo saw: subscribed, then resources/updated pumasi://shared/spec.md")
}
