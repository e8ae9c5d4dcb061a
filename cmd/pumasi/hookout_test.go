package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// The hosts' documented stdin of their session and prompt hooks, by host
// and event: Claude Code (code.claude.com/docs/en/hooks), Codex
// (developers.openai.com/codex/hooks; the fields of codex-rs/hooks'
// generated input schemas) and Cursor (cursor.com/docs/agent/hooks).
var hostEvents = []struct{ host, event, stdin string }{
	{"claude-code", "UserPromptSubmit", userPromptSubmit},
	{"claude-code", "SessionStart", sessionStart},
	{"codex", "UserPromptSubmit", `{"session_id":"0199a1b2-c3d4","turn_id":"t1","transcript_path":null,"cwd":"/home/u/src/postgres","hook_event_name":"UserPromptSubmit","model":"gpt-5.5-codex","permission_mode":"default","prompt":"Why does now() stay the same inside my long Postgres transaction? see $spec.md"}`},
	{"codex", "SessionStart", `{"session_id":"0199a1b2-c3d4","transcript_path":"/home/u/.codex/sessions/x.jsonl","cwd":"/home/u/src/postgres","hook_event_name":"SessionStart","model":"gpt-5.5-codex","permission_mode":"default","source":"startup"}`},
	{"cursor", "sessionStart", `{"hook_event_name":"sessionStart","conversation_id":"c1","generation_id":"g1","workspace_roots":["/home/u/src/postgres"],"model":"auto","cursor_version":"3.2.1","user_email":null,"session_id":"c1","is_background_agent":false,"composer_mode":"agent"}`},
	{"cursor", "beforeSubmitPrompt", `{"hook_event_name":"beforeSubmitPrompt","conversation_id":"c1","generation_id":"g2","workspace_roots":["/home/u/src/postgres"],"prompt":"Why does now() stay the same inside my long Postgres transaction? see $spec.md","attachments":[]}`},
}

// hostContext checks stdout against what the event's host documents for a
// hook that adds context, field by field with nothing else (Claude Code
// and Codex: hookSpecificOutput {hookEventName, additionalContext}, Codex's
// schema allowing no other property; Cursor sessionStart: env and
// additional_context; beforeSubmitPrompt: continue, user_message and
// additional_context), and returns the context. Empty stdout is no context.
func hostContext(t *testing.T, event, stdout string) string {
	t.Helper()
	if stdout == "" {
		return ""
	}
	if !strings.HasSuffix(stdout, "}\n") || strings.Count(stdout, "\n") != 1 {
		t.Fatalf("%s: stdout is not one JSON line: %q", event, stdout)
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal([]byte(stdout), &top); err != nil {
		t.Fatalf("%s: stdout is not a JSON object: %v\n%s", event, err, stdout)
	}
	keys := func(m map[string]json.RawMessage) []string {
		var ks []string
		for k := range m {
			ks = append(ks, k)
		}
		slices.Sort(ks)
		return ks
	}
	var text string
	switch event {
	case "SessionStart", "UserPromptSubmit":
		var specific map[string]json.RawMessage
		if fmt.Sprint(keys(top)) != "[hookSpecificOutput]" || json.Unmarshal(top["hookSpecificOutput"], &specific) != nil ||
			fmt.Sprint(keys(specific)) != "[additionalContext hookEventName]" || string(specific["hookEventName"]) != `"`+event+`"` ||
			json.Unmarshal(specific["additionalContext"], &text) != nil {
			t.Fatalf("%s: stdout is not {hookSpecificOutput: {hookEventName: %q, additionalContext}}: %s", event, event, stdout)
		}
	case "sessionStart":
		if fmt.Sprint(keys(top)) != "[additional_context]" || json.Unmarshal(top["additional_context"], &text) != nil {
			t.Fatalf("%s: stdout is not {additional_context}: %s", event, stdout)
		}
	case "beforeSubmitPrompt":
		if fmt.Sprint(keys(top)) != "[additional_context continue]" || string(top["continue"]) != "true" || json.Unmarshal(top["additional_context"], &text) != nil {
			t.Fatalf("%s: stdout is not {continue: true, additional_context}: %s", event, stdout)
		}
	default:
		t.Fatalf("unknown event %s", event)
	}
	if text == "" {
		t.Fatalf("%s: empty context in %s", event, stdout)
	}
	return text
}

// TestContextHookPerHost feeds `pumasi context --hook` each host's
// documented events: the output is that host's shape, the context is the
// <shared-context> block (plus the hint of the prompt's $references) and
// stays within DefaultHookBudget with a room file of 25 KB, listed by path;
// `pumasi context` without --hook keeps its own budget and prints the
// whole file.
func TestContextHookPerHost(t *testing.T) {
	home := t.TempDir()
	big := strings.Repeat("Lorem ipsum dolor sit amet, consectetur adipiscing elit.\n", 440) // 25,080 bytes
	writeSharedFiles(t, home, "a1", map[string]string{"spec.md": "# spec\n", "big.md": big})
	plain, _, err := runCLI(t, nil, "context", "--agent", "a1", "--home", home)
	if err != nil || !strings.Contains(plain, big) {
		t.Fatalf("context without --hook dropped the 25 KB file (%d bytes, %v)", len(plain), err)
	}
	for _, ev := range hostEvents {
		var stdout, stderr bytes.Buffer
		env := &cliEnv{stdin: strings.NewReader(ev.stdin), stdout: &stdout, stderr: &stderr, getenv: func(string) string { return "" }}
		if err := run(context.Background(), env, []string{"context", "--agent", "a1", "--home", home, "--hook"}); err != nil {
			t.Fatalf("%s %s: %v %s", ev.host, ev.event, err, stderr.String())
		}
		text := hostContext(t, ev.event, stdout.String())
		if len(text) > DefaultHookBudget {
			t.Errorf("%s %s: %d bytes of context, over the hook budget %d", ev.host, ev.event, len(text), DefaultHookBudget)
		}
		if !strings.HasPrefix(text, "<shared-context>\n") || !strings.Contains(text, "# spec\n") ||
			!strings.Contains(text, `<file name="big.md" sha256="`) || !strings.Contains(text, `path="memory/shared/big.md" omitted="budget"/>`) {
			t.Errorf("%s %s: context does not inline spec.md and list big.md by path:\n%.600s", ev.host, ev.event, text)
		}
		wantHint := strings.Contains(ev.stdin, "$spec.md")
		if got := strings.Contains(text, "<referenced-files>\n- spec.md: memory/shared/spec.md\n</referenced-files>\n"); got != wantHint {
			t.Errorf("%s %s: referenced-files hint %v, want %v", ev.host, ev.event, got, wantHint)
		}
	}
	// An explicit --budget still wins over the hook default.
	out, _, err := runCLI(t, nil, "context", "--agent", "a1", "--home", home, "--budget", "0")
	if err != nil || out != plain {
		t.Fatalf("--budget 0 = %d bytes, %v", len(out), err)
	}
}

// TestKnowHookPerHost feeds `pumasi know hook` each host's events: the
// entry arrives in the host's shape; nothing similar prints nothing.
func TestKnowHookPerHost(t *testing.T) {
	srv := knowServer(t)
	env := map[string]string{"PUMASI_SERVER": srv.URL, "PUMASI_AGENT": "hook-agent"}
	out, _, err := runCLI(t, env, "know", "contribute", "--json", "--title", "Postgres now() is frozen in a transaction", "--content", knowTestContent)
	if err != nil {
		t.Fatalf("contribute: %v", err)
	}
	var d struct {
		EntryID string `json:"entry_id"`
	}
	if err := json.Unmarshal([]byte(out), &d); err != nil || d.EntryID == "" {
		t.Fatalf("contribute printed %q", out)
	}
	for _, ev := range hostEvents {
		stdout, stderr, err, _ := runHook(t, srv.URL, ev.stdin)
		if err != nil || stderr != "" {
			t.Fatalf("%s %s: %v %q", ev.host, ev.event, err, stderr)
		}
		text := hostContext(t, ev.event, stdout)
		if !strings.HasPrefix(text, "<collective-knowledge>\n") || !strings.Contains(text, d.EntryID) || len(text) > DefaultHookBudget {
			t.Errorf("%s %s: context =\n%s", ev.host, ev.event, text)
		}
		if stdout, _, err, _ := runHook(t, srv.URL, ev.stdin, "--min-similarity", "0.999"); err != nil || stdout != "" {
			t.Errorf("%s %s with nothing similar = %q, %v; want nothing", ev.host, ev.event, stdout, err)
		}
	}
}
