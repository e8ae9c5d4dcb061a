package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// writeAtomic replaces a shared file the way the daemon does: temp file in
// the same folder, then rename.
func writeAtomic(t *testing.T, dir, name, content string) {
	t.Helper()
	tmp := filepath.Join(dir, daemonTempPrefix+"test")
	if err := os.WriteFile(tmp, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, filepath.Join(dir, name)); err != nil {
		t.Fatal(err)
	}
}

// waitFor receives from c within d, or fails.
func waitFor[T any](t *testing.T, c <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-c:
		return v
	case <-time.After(10 * time.Second):
		t.Fatalf("no %s within 10 s", what)
	}
	var zero T
	return zero
}

// TestMCPResourcesOverStdio drives the real binary: shared files are
// resources with stable URIs, read returns their text, a subscriber hears
// about a new version and a deletion, and list_changed follows a new file.
func TestMCPResourcesOverStdio(t *testing.T) {
	bin := buildPumasiBinary(t)
	home := t.TempDir()
	dir := writeSharedFiles(t, home, "a", map[string]string{
		"spec.md":       "# Spec v1\n",
		"회의록 1.md":      "회의 내용\n",
		".pumasi-tmp-x": "in flight",
	})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	updated := make(chan string, 16)
	listChanged := make(chan struct{}, 16)
	client := mcp.NewClient(&mcp.Implementation{Name: "pumasi-test", Version: "1"}, &mcp.ClientOptions{
		ResourceUpdatedHandler: func(_ context.Context, r *mcp.ResourceUpdatedNotificationRequest) {
			updated <- r.Params.URI
		},
		ResourceListChangedHandler: func(context.Context, *mcp.ResourceListChangedRequest) { listChanged <- struct{}{} },
	})
	cmd := exec.Command(bin, "mcp", "--agent", "a", "--home", home, "--watch", "50ms", "--server", "http://127.0.0.1:1")
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	defer cs.Close()
	caps := cs.InitializeResult().Capabilities
	if caps.Resources == nil || !caps.Resources.Subscribe || !caps.Resources.ListChanged || caps.Prompts == nil {
		t.Fatalf("capabilities = %+v, want resources with subscribe and listChanged, and prompts", caps)
	}

	list, err := cs.ListResources(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var uris []string
	for _, r := range list.Resources {
		uris = append(uris, r.URI)
		if r.Name == "spec.md" && (!strings.HasPrefix(r.MIMEType, "text/markdown") || r.Size != int64(len("# Spec v1\n"))) {
			t.Errorf("spec.md resource = %+v, want text/markdown and its size", r)
		}
	}
	slices.Sort(uris)
	if want := []string{"pumasi://shared/%ED%9A%8C%EC%9D%98%EB%A1%9D%201.md", "pumasi://shared/spec.md"}; !slices.Equal(uris, want) {
		t.Fatalf("resource URIs = %q, want %q", uris, want)
	}
	korean := uris[0]
	read, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: korean})
	if err != nil || len(read.Contents) != 1 || read.Contents[0].Text != "회의 내용\n" {
		t.Fatalf("read %s = %+v, %v", korean, read, err)
	}
	for _, bad := range []string{"pumasi://shared/missing.md", "pumasi://shared/..%2F..%2Fsecret", "file:///etc/passwd"} {
		if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: bad}); err == nil {
			t.Errorf("read %s succeeded", bad)
		}
	}

	// Subscribe, then the daemon writes a new version.
	spec := "pumasi://shared/spec.md"
	if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: spec}); err != nil {
		t.Fatalf("subscribe: %v", err)
	}
	writeAtomic(t, dir, "spec.md", "# Spec v2, longer\n")
	if got := waitFor(t, updated, "resources/updated after a new version"); got != spec {
		t.Fatalf("updated %q, want %q", got, spec)
	}
	read, err = cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: spec})
	if err != nil || read.Contents[0].Text != "# Spec v2, longer\n" {
		t.Fatalf("read after update = %+v, %v", read, err)
	}
	// A new file changes the list.
	for len(listChanged) > 0 {
		<-listChanged
	}
	writeAtomic(t, dir, "new.json", `{"a":1}`)
	// (A list_changed for spec.md's new size may come first.)
	for n := 0; n != 3; {
		waitFor(t, listChanged, "resources/list_changed after a new file")
		list, _ = cs.ListResources(ctx, nil)
		n = len(list.Resources)
	}
	// A deletion notifies the subscriber and changes the list.
	if err := os.Remove(filepath.Join(dir, "spec.md")); err != nil {
		t.Fatal(err)
	}
	if got := waitFor(t, updated, "resources/updated after a deletion"); got != spec {
		t.Fatalf("updated %q after delete, want %q", got, spec)
	}
	waitFor(t, listChanged, "resources/list_changed after a deletion")
	if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: spec}); err == nil {
		t.Fatal("deleted file still reads")
	}

	// The shared_context prompt is the <shared-context> block.
	prompts, err := cs.ListPrompts(ctx, nil)
	if err != nil || len(prompts.Prompts) != 1 || prompts.Prompts[0].Name != "shared_context" {
		t.Fatalf("prompts = %+v, %v", prompts, err)
	}
	got, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "shared_context"})
	if err != nil || len(got.Messages) != 1 {
		t.Fatalf("get prompt = %+v, %v", got, err)
	}
	text := got.Messages[0].Content.(*mcp.TextContent).Text
	cli, err := exec.Command(bin, "context", "--agent", "a", "--home", home).Output()
	if err != nil || text != string(cli) || strings.Count(text, "<file ") != 2 {
		t.Fatalf("prompt text =\n%s\npumasi context =\n%s (%v)", text, cli, err)
	}
	if _, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "shared_context", Arguments: map[string]string{"budget": "lots"}}); err == nil {
		t.Fatal("a non-numeric budget was accepted")
	}
}

// TestMCPToolsEveryHostAccepts checks what strict hosts refuse: union
// types, arguments without descriptions, unbounded integers, dishonest
// annotations, instructions that do not name the tools.
func TestMCPToolsEveryHostAccepts(t *testing.T) {
	home := t.TempDir()
	srv := newMCPServer()
	cfg := &mcpConfig{env: &cliEnv{getenv: func(string) string { return "" }}, home: home, agent: "a", sharedDir: agentSharedDir(home, "a")}
	for _, ts := range mcpToolsets {
		if err := ts.add(srv, cfg); err != nil {
			t.Fatalf("add %s: %v", ts.name, err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cs := mcpSession(t, ctx, srv)
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	instructions := cs.InitializeResult().Instructions
	if len(tools.Tools) != 9 {
		t.Fatalf("%d tools, want 9", len(tools.Tools))
	}
	for _, tool := range tools.Tools {
		if !strings.Contains(instructions, tool.Name) {
			t.Errorf("instructions do not mention %s", tool.Name)
		}
		if tool.Description == "" || tool.Annotations == nil {
			t.Errorf("%s: description %q, annotations %v", tool.Name, tool.Description, tool.Annotations)
			continue
		}
		raw, _ := json.Marshal(tool.InputSchema)
		var schema struct {
			Properties map[string]struct {
				Type        any             `json:"type"`
				Description string          `json:"description"`
				Items       json.RawMessage `json:"items"`
				Minimum     *float64        `json:"minimum"`
				Maximum     *float64        `json:"maximum"`
				Default     json.RawMessage `json:"default"`
			} `json:"properties"`
		}
		if err := json.Unmarshal(raw, &schema); err != nil {
			t.Fatal(err)
		}
		for name, p := range schema.Properties {
			typ, ok := p.Type.(string)
			switch {
			case !ok:
				t.Errorf("%s.%s: type %v is not one plain type", tool.Name, name, p.Type)
			case p.Description == "":
				t.Errorf("%s.%s has no description", tool.Name, name)
			case typ == "array" && len(p.Items) == 0:
				t.Errorf("%s.%s: array without items", tool.Name, name)
			case typ == "integer" && (p.Minimum == nil || p.Maximum == nil || len(p.Default) == 0):
				t.Errorf("%s.%s: integer without minimum, maximum and default: %s", tool.Name, name, raw)
			}
		}
		a := tool.Annotations
		knowledge := strings.HasSuffix(tool.Name, "_knowledge")
		if knowledge != (a.OpenWorldHint != nil && *a.OpenWorldHint) {
			t.Errorf("%s: openWorldHint %v", tool.Name, a.OpenWorldHint)
		}
		writes := slices.Contains([]string{"contribute_knowledge", "cite_knowledge", "endorse_knowledge", "flag_knowledge"}, tool.Name)
		if writes == a.ReadOnlyHint || (tool.Name == "cite_knowledge") == a.IdempotentHint {
			t.Errorf("%s: readOnlyHint %v idempotentHint %v", tool.Name, a.ReadOnlyHint, a.IdempotentHint)
		}
	}
	limit := func(name string) string {
		for _, tool := range tools.Tools {
			if tool.Name == name {
				raw, _ := json.Marshal(tool.InputSchema)
				return string(raw)
			}
		}
		return ""
	}("query_knowledge")
	if !strings.Contains(limit, `"type":"integer"`) || !strings.Contains(limit, `"default":5`) ||
		!strings.Contains(limit, `"minimum":1`) || !strings.Contains(limit, `"maximum":50`) {
		t.Fatalf("query_knowledge schema = %s", limit)
	}
}

// TestMCPResourcesFolderAppearsLater: an agent placed after the server
// started gets its folder then; the watcher lists its files as they come.
func TestMCPResourcesFolderAppearsLater(t *testing.T) {
	home := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	srv := newMCPServer()
	cfg := &mcpConfig{env: &cliEnv{getenv: func(string) string { return "" }}, home: home, agent: "late",
		sharedDir: agentSharedDir(home, "late"), watch: 20 * time.Millisecond, ctx: ctx}
	if err := addSharedResources(srv, cfg); err != nil {
		t.Fatal(err)
	}
	cs := mcpSession(t, ctx, srv)
	if list, err := cs.ListResources(ctx, nil); err != nil || len(list.Resources) != 0 {
		t.Fatalf("before the folder exists: %+v, %v", list, err)
	}
	writeSharedFiles(t, home, "late", map[string]string{"plan.md": "# Plan\n", ".pumasi-tmp-1": "half"})
	deadline := time.Now().Add(10 * time.Second)
	for {
		list, err := cs.ListResources(ctx, nil)
		if err == nil && len(list.Resources) == 1 && list.Resources[0].URI == "pumasi://shared/plan.md" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the new folder's file never listed: %+v, %v", list, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
