package main

import (
	"context"
	"encoding/json"
	"errors"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// wantParamCodes is what every client must see: the prompt's budget has
// the tool's range (0-4,194,304, 0 the default); a bad one is JSON-RPC
// invalid params (-32602) for the prompt and a tool error for the tool;
// subscribing to a URI that is not one of ours, or to a file that is not
// there, is -32602 too.
var wantParamCodes = map[string]any{
	"prompt budget 0": "ok", "prompt budget 4194304": "ok",
	"prompt budget -1": float64(-32602), "prompt budget 4194305": float64(-32602), "prompt budget 2.5": float64(-32602),
	"tool budget 0": "ok", "tool budget 4194304": "ok", "tool budget -1": "isError",
	"subscribe foreign": float64(-32602), "subscribe bad name": float64(-32602),
	"subscribe missing": float64(-32602), "subscribe ours": "ok",
}

// TestMCPParamsGoClient checks wantParamCodes with the Go SDK's client.
func TestMCPParamsGoClient(t *testing.T) {
	home := t.TempDir()
	writeSharedFiles(t, home, "a", map[string]string{"spec.md": "# Spec\n"})
	srv := newMCPServer()
	cfg := &mcpConfig{env: &cliEnv{getenv: func(string) string { return "" }}, home: home, agent: "a", sharedDir: agentSharedDir(home, "a")}
	for _, ts := range mcpToolsets {
		if err := ts.add(srv, cfg); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cs := mcpSession(t, ctx, srv)
	got := map[string]any{}
	code := func(name string, res any, err error) {
		var we *jsonrpc.Error
		switch {
		case errors.As(err, &we):
			got[name] = float64(we.Code)
		case err != nil:
			got[name] = err.Error()
		case res != nil && res.(*mcp.CallToolResult) != nil && res.(*mcp.CallToolResult).IsError:
			got[name] = "isError"
		default:
			got[name] = "ok"
		}
	}
	for _, b := range []string{"0", "4194304", "-1", "4194305", "2.5"} {
		_, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "shared_context", Arguments: map[string]string{"budget": b}})
		code("prompt budget "+b, (*mcp.CallToolResult)(nil), err)
	}
	for _, b := range []int{0, 4194304, -1} {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "shared_context", Arguments: map[string]any{"budget": b}})
		code("tool budget "+strconv.Itoa(b), res, err)
	}
	// The Go client subscribes through subscriptions/listen (SEP-2575) and
	// does not wait for its answer, so the server's checks are called
	// directly, for both ways of subscribing.
	subscribe := subscribeExisting(cfg.sharedDir)(func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if sub, ok := req.(*mcp.SubscribeRequest); ok {
			return nil, checkSubscribeURI(ctx, sub)
		}
		for _, uri := range req.(*mcp.SubscriptionsListenRequest).Params.Notifications.ResourceSubscriptions {
			if err := checkSubscribeURI(ctx, &mcp.SubscribeRequest{Params: &mcp.SubscribeParams{URI: uri}}); err != nil {
				return nil, err
			}
		}
		return nil, nil
	})
	for name, uri := range map[string]string{"foreign": "file:///etc/passwd", "bad name": "pumasi://shared/..%2Fx", "missing": "pumasi://shared/nope.md", "ours": "pumasi://shared/spec.md"} {
		_, err := subscribe(ctx, "resources/subscribe", &mcp.SubscribeRequest{Params: &mcp.SubscribeParams{URI: uri}})
		code("subscribe "+name, (*mcp.CallToolResult)(nil), err)
		_, lerr := subscribe(ctx, "subscriptions/listen", &mcp.SubscriptionsListenRequest{Params: &mcp.SubscriptionsListenParams{
			Notifications: &mcp.NotificationSubscriptions{ResourceSubscriptions: []string{"pumasi://shared/spec.md", uri}}}})
		if (err == nil) != (lerr == nil) {
			t.Errorf("subscribe %s: resources/subscribe %v but subscriptions/listen %v", name, err, lerr)
		}
	}
	if !reflect.DeepEqual(got, wantParamCodes) {
		t.Fatalf("codes =\n%v\nwant\n%v", got, wantParamCodes)
	}
	// Budget 0 is the default block, as for the tool.
	zero, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "shared_context", Arguments: map[string]string{"budget": "0"}})
	def, err2 := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "shared_context"})
	if err != nil || err2 != nil || zero.Messages[0].Content.(*mcp.TextContent).Text != def.Messages[0].Content.(*mcp.TextContent).Text {
		t.Fatalf("budget 0 = %v %v, want the default block", err, err2)
	}
}

// TestMCPParamsTypeScriptClient checks wantParamCodes with the TypeScript
// MCP SDK client the MCP Inspector installs (scripts/inspector.sh), against
// the real binary.
func TestMCPParamsTypeScriptClient(t *testing.T) {
	in := newInspector(t, nil)
	modules := in.cli[:strings.LastIndex(in.cli, "node_modules")+len("node_modules")]
	bin := buildPumasiBinary(t)
	home := t.TempDir()
	writeSharedFiles(t, home, "a", map[string]string{"spec.md": "# Spec\n"})
	cmd := exec.Command("node", filepath.Join("testdata", "mcpparams.cjs"), bin, "mcp", "--agent", "a", "--home", home, "--watch", "0")
	cmd.Env = append(in.env, "MCP_MODULES="+modules)
	out, err := cmd.Output()
	if err != nil {
		var stderr string
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = string(ee.Stderr)
		}
		t.Fatalf("mcpparams.cjs: %v\n%s\n%s", err, out, stderr)
	}
	var got map[string]any
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("mcpparams.cjs printed %q: %v", out, err)
	}
	if !reflect.DeepEqual(got, wantParamCodes) {
		t.Fatalf("codes =\n%v\nwant\n%v", got, wantParamCodes)
	}
}
