package main

import (
	"context"
	"encoding/json"
	"net/http"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"pumasi/knowledge"
)

// seedEntry contributes one finding through the real API and returns the
// new entry's id.
func seedEntry(t *testing.T, server string) string {
	t.Helper()
	d, err := newKnowClient(server, "seed-agent").contribute(context.Background(), knowledge.ContributionRequest{
		Title: "Postgres now() is frozen in a transaction", Content: knowTestContent})
	if err != nil || d.Verdict != knowledge.VerdictAccepted || d.Entry == nil {
		t.Fatalf("seed = %+v, %v", d, err)
	}
	return d.Entry.ID
}

// getEntry is GET /knowledge/{id}'s entry, as the server keeps it.
func getEntry(t *testing.T, server, id string) knowledge.Entry {
	t.Helper()
	resp, err := http.Get(server + "/knowledge/" + id)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var body struct {
		Data knowledge.Entry `json:"data"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil || resp.StatusCode != 200 {
		t.Fatalf("GET /knowledge/%s = %d, %v", id, resp.StatusCode, err)
	}
	return body.Data
}

// entryAnswer decodes a cite/endorse tool result: The Hive's body holding
// the entry after the bump.
func entryAnswer(t *testing.T, res *mcp.CallToolResult) (bool, knowledge.Entry) {
	t.Helper()
	var ans struct {
		Success bool            `json:"success"`
		Data    knowledge.Entry `json:"data"`
	}
	decodeStructured(t, res, &ans)
	if text := resultText(t, res); !strings.Contains(text, `"success":true`) {
		t.Fatalf("text %q is not the HTTP body", text)
	}
	return ans.Success, ans.Data
}

// TestMCPCiteEndorseOverStdio drives the real `pumasi mcp` binary with the
// go-sdk client against the real knowledge API: citations count every
// call and move last_used_at, endorsements count once per handle, and bad
// or unknown ids are tool errors the session survives.
func TestMCPCiteEndorseOverStdio(t *testing.T) {
	bin := buildPumasiBinary(t)
	srv := knowServer(t)
	id := seedEntry(t, srv.URL)
	before := getEntry(t, srv.URL, id)

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.Command(bin, "mcp", "--agent", "cite-agent", "--home", t.TempDir(), "--server", srv.URL, "--watch", "0")
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "pumasi-test", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	defer cs.Close()

	time.Sleep(20 * time.Millisecond) // so a moved last_used_at is visibly later
	var got knowledge.Entry
	// A cite counts once per handle and UTC day: the second answers the
	// entry unchanged.
	for i := 1; i <= 2; i++ {
		res := callTool(t, ctx, cs, "cite_knowledge", map[string]any{"id": id})
		ok, e := entryAnswer(t, res)
		if res.IsError || !ok || e.ID != id || e.CitationCount != 1 {
			t.Fatalf("cite %d = %s (isError %v), want citation_count 1", i, resultText(t, res), res.IsError)
		}
		if i == 2 && !e.LastUsedAt.Equal(got.LastUsedAt) {
			t.Fatalf("a same-day repeat cite moved last_used_at %v to %v", got.LastUsedAt, e.LastUsedAt)
		}
		got = e
	}
	if !got.LastUsedAt.After(before.LastUsedAt) {
		t.Fatalf("last_used_at %v after citing, want later than %v", got.LastUsedAt, before.LastUsedAt)
	}
	for i := 1; i <= 2; i++ {
		res := callTool(t, ctx, cs, "endorse_knowledge", map[string]any{"id": " " + id + " "})
		ok, e := entryAnswer(t, res)
		if res.IsError || !ok || e.EndorsementCount != 1 || e.CitationCount != 1 {
			t.Fatalf("endorse %d by cite-agent = %s (isError %v), want endorsement_count 1", i, resultText(t, res), res.IsError)
		}
	}
	if e := getEntry(t, srv.URL, id); e.CitationCount != 1 || e.EndorsementCount != 1 {
		t.Fatalf("server keeps %d citations, %d endorsements; want 1 and 1", e.CitationCount, e.EndorsementCount)
	}

	// The description tells the agent what its repeat is worth.
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range tools.Tools {
		if tool.Name == "cite_knowledge" && (!strings.Contains(tool.Description, "the same day") || !strings.Contains(tool.Description, `"counted": false`)) {
			t.Errorf("cite_knowledge description %q does not say a same-day repeat by the same contributor does not count", tool.Description)
		}
	}

	unknown := "0b7e9c52-4f7d-4d8e-9a39-3c1f0e6b2a11"
	for _, tool := range []string{"cite_knowledge", "endorse_knowledge"} {
		res := callTool(t, ctx, cs, tool, map[string]any{"id": unknown})
		if text := resultText(t, res); !res.IsError || !strings.HasPrefix(text, "not_found: ") || !strings.Contains(text, unknown) {
			t.Errorf("%s unknown id = %q (isError %v), want a not_found tool error naming it", tool, text, res.IsError)
		}
		for _, bad := range []any{"", "  ", "../contribute", "a/b", "id with spaces", strings.Repeat("a", 129), 42} {
			res := callTool(t, ctx, cs, tool, map[string]any{"id": bad})
			if text := resultText(t, res); !res.IsError || !strings.HasPrefix(text, "invalid_request: ") {
				t.Errorf("%s id %v = %q (isError %v), want invalid_request", tool, bad, text, res.IsError)
			}
		}
		res = callTool(t, ctx, cs, tool, map[string]any{})
		if text := resultText(t, res); !res.IsError || !strings.Contains(text, "id") {
			t.Errorf("%s without id = %q (isError %v)", tool, text, res.IsError)
		}
	}
	// The errors counted nothing, and the session still serves.
	if e := getEntry(t, srv.URL, id); e.CitationCount != 1 || e.EndorsementCount != 1 {
		t.Fatalf("after the errors: %d citations, %d endorsements; want 1 and 1", e.CitationCount, e.EndorsementCount)
	}
	if res := callTool(t, ctx, cs, "cite_knowledge", map[string]any{"id": id}); res.IsError {
		t.Fatalf("cite after errors = %s", resultText(t, res))
	}
	if err := cs.Close(); err != nil {
		t.Fatalf("close: %v", err)
	}
	if cmd.ProcessState == nil || !cmd.ProcessState.Success() {
		t.Fatalf("server did not exit cleanly: %v", cmd.ProcessState)
	}
}

// bumpSession is an in-memory session with the knowledge tools pointed at
// server, speaking as handle (empty: the agent id's default).
func bumpSession(t *testing.T, ctx context.Context, server, agent, handle string) *mcp.ClientSession {
	t.Helper()
	fs := newFlags("mcp")
	knowMCPFlags(fs)
	args := []string{"--server", server}
	if handle != "" {
		args = append(args, "--handle", handle)
	}
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	s := newMCPServer()
	if err := addKnowledgeTools(s, &mcpConfig{env: &cliEnv{getenv: func(string) string { return "" }}, agent: agent}); err != nil {
		t.Fatal(err)
	}
	return mcpSession(t, ctx, s)
}

// TestMCPEndorseCountsPerHandle: another agent's endorsement counts; the
// one-character agent id endorses as agent-b.
func TestMCPEndorseCountsPerHandle(t *testing.T) {
	srv := knowServer(t)
	id := seedEntry(t, srv.URL)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	for i, agent := range []string{"first-agent", "b"} {
		res := callTool(t, ctx, bumpSession(t, ctx, srv.URL, agent, ""), "endorse_knowledge", map[string]any{"id": id})
		if ok, e := entryAnswer(t, res); res.IsError || !ok || e.EndorsementCount != int64(i+1) {
			t.Fatalf("endorse by %s = %s, want endorsement_count %d", agent, resultText(t, res), i+1)
		}
	}
	if e := getEntry(t, srv.URL, id); e.EndorsementCount != 2 {
		t.Fatalf("server keeps %d endorsements, want 2", e.EndorsementCount)
	}
}

// TestMCPCiteFailures: no usable handle and a server that is down are tool
// errors that say what is wrong.
func TestMCPCiteFailures(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	srv := knowServer(t)
	id := seedEntry(t, srv.URL)
	cs := bumpSession(t, ctx, srv.URL, "a", "a b")
	for _, tool := range []string{"cite_knowledge", "endorse_knowledge"} {
		res := callTool(t, ctx, cs, tool, map[string]any{"id": id})
		if text := resultText(t, res); !res.IsError || !strings.HasPrefix(text, "agent_required: ") || !strings.Contains(text, "--handle") {
			t.Errorf("%s with a bad handle = %q (isError %v)", tool, text, res.IsError)
		}
	}
	if e := getEntry(t, srv.URL, id); e.CitationCount != 0 || e.EndorsementCount != 0 {
		t.Fatalf("a refused call counted: %+v", e)
	}

	down := knowServer(t)
	down.Close()
	cs = bumpSession(t, ctx, down.URL, "down-agent", "")
	for _, tool := range []string{"cite_knowledge", "endorse_knowledge"} {
		res := callTool(t, ctx, cs, tool, map[string]any{"id": id})
		if text := resultText(t, res); !res.IsError || !strings.Contains(text, "unreachable") {
			t.Errorf("%s with the server down = %q (isError %v)", tool, text, res.IsError)
		}
	}
}

// TestKnowCiteEndorseCommands runs `know cite` and `know endorse` against
// the real API.
func TestKnowCiteEndorseCommands(t *testing.T) {
	srv := knowServer(t)
	id := seedEntry(t, srv.URL)
	env := map[string]string{"PUMASI_SERVER": srv.URL, "PUMASI_AGENT": "cli-agent"}
	title := `"Postgres now() is frozen in a transaction"`
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"know", "cite", id}, "cited " + id + " " + title + ": 1 citation · 0 endorsements\n"},
		// The same handle the same UTC day: not counted again.
		{[]string{"know", "cite", id}, "cited " + id + " " + title + ": 1 citation · 0 endorsements\n"},
		{[]string{"know", "cite", id, "--agent", "other-agent"}, "cited " + id + " " + title + ": 2 citations · 0 endorsements\n"},
		{[]string{"know", "endorse", id}, "endorsed " + id + " " + title + ": 2 citations · 1 endorsement\n"},
		{[]string{"know", "endorse", id}, "endorsed " + id + " " + title + ": 2 citations · 1 endorsement\n"},
		{[]string{"know", "endorse", id, "--agent", "other-agent"}, "endorsed " + id + " " + title + ": 2 citations · 2 endorsements\n"},
	} {
		if out, _, err := runCLI(t, env, c.args...); err != nil || out != c.want {
			t.Fatalf("%q = %q, %v; want %q", c.args, out, err, c.want)
		}
	}
	out, _, err := runCLI(t, env, "know", "cite", "--json", "--agent", "third-agent", id)
	if err != nil || !regexp.MustCompile(`"citation_count": 3,`).MatchString(out) || !strings.Contains(out, `"id": "`+id+`"`) {
		t.Fatalf("cite --json = %q, %v", out, err)
	}
	if e := getEntry(t, srv.URL, id); e.CitationCount != 3 || e.EndorsementCount != 2 {
		t.Fatalf("server keeps %d citations, %d endorsements; want 3 and 2", e.CitationCount, e.EndorsementCount)
	}

	// An unknown id is the server's not_found, exit 1.
	_, _, err = runCLI(t, env, "know", "endorse", "0b7e9c52-4f7d-4d8e-9a39-3c1f0e6b2a11")
	if exitCode(err) != 1 || !strings.Contains(err.Error(), "not_found") {
		t.Fatalf("unknown id: %v (exit %d)", err, exitCode(err))
	}
	// Usage errors exit 2 without calling the server.
	for _, args := range [][]string{
		{"know", "cite"},
		{"know", "cite", id, id},
		{"know", "endorse", "../contribute"},
		{"know", "cite", id, "--agent", "x"},
	} {
		if _, _, err := runCLI(t, env, args...); exitCode(err) != 2 {
			t.Errorf("%q: exit %d (%v), want 2", args, exitCode(err), err)
		}
	}
	if e := getEntry(t, srv.URL, id); e.CitationCount != 3 || e.EndorsementCount != 2 {
		t.Fatalf("usage errors counted: %d citations, %d endorsements", e.CitationCount, e.EndorsementCount)
	}
	// A server that is down is an error naming the command.
	down := knowServer(t)
	down.Close()
	_, _, err = runCLI(t, map[string]string{"PUMASI_SERVER": down.URL, "PUMASI_AGENT": "cli-agent"}, "know", "cite", id)
	if err == nil || !strings.HasPrefix(err.Error(), "know cite: ") {
		t.Fatalf("server down: %v", err)
	}
}
