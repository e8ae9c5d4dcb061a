package main

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
)

// DefaultHookBudget bounds what one hook prints as context, in bytes: under
// what every host keeps of a hook's context before it cuts it to a preview
// and a file. Claude Code keeps about 10,000 characters of additionalContext;
// Codex keeps 2,500 approximate tokens of 4 bytes, 10,000 bytes
// (codex-rs/hooks/src/output_spill.rs); Cursor inlines up to 10,000
// characters of beforeSubmitPrompt's additional_context. A byte is never
// more than a character, so 9,000 bytes fit all three with room to spare.
// Files past it are listed by path (prompt.ComposeSharedContext), so the
// agent can still read them.
const DefaultHookBudget = 9000

// Hook event names as hosts send them in "hook_event_name". Claude Code
// and Codex share the names and the output shape; Cursor has its own.
const (
	eventSessionStart        = "SessionStart"
	eventUserPromptSubmit    = "UserPromptSubmit"
	cursorSessionStart       = "sessionStart"
	cursorBeforeSubmitPrompt = "beforeSubmitPrompt"
)

// hookEvent holds the fields of the hosts' hook events that pumasi reads.
// Claude Code's UserPromptSubmit sends {"session_id", "transcript_path",
// "cwd", "permission_mode", "hook_event_name": "UserPromptSubmit",
// "prompt"}, its SessionStart "source" (startup, resume, clear, compact)
// instead of a prompt; Codex sends the same fields plus "model" and
// "turn_id"; Cursor sends "hook_event_name" ("sessionStart",
// "beforeSubmitPrompt"), "conversation_id", "generation_id" and
// "workspace_roots" (no cwd), with "prompt" on beforeSubmitPrompt.
type hookEvent struct {
	HookEventName  string   `json:"hook_event_name"`
	Prompt         string   `json:"prompt"`
	Source         string   `json:"source"`
	Cwd            string   `json:"cwd"`
	WorkspaceRoots []string `json:"workspace_roots"`
}

// projectDir is the event's project folder: cwd, else Cursor's first
// workspace root.
func (ev hookEvent) projectDir() string {
	if ev.Cwd != "" {
		return ev.Cwd
	}
	if len(ev.WorkspaceRoots) > 0 {
		return ev.WorkspaceRoots[0]
	}
	return ""
}

// writeHookContext prints text as the context the event's host documents:
//
//   - Claude Code and Codex (SessionStart, UserPromptSubmit):
//     {"hookSpecificOutput": {"hookEventName": E, "additionalContext": T}};
//   - Cursor sessionStart: {"additional_context": T};
//   - Cursor beforeSubmitPrompt: {"continue": true, "additional_context": T}
//     (continue is what Cursor's docs name; the client also takes
//     additional_context and injects it for that turn);
//   - no event (a person running the command, or a host pumasi does not
//     know): the text itself.
//
// Nothing to say prints nothing, which every host reads as "no context".
func writeHookContext(w io.Writer, ev hookEvent, text string) error {
	if strings.TrimSpace(text) == "" {
		return nil
	}
	var v any
	switch ev.HookEventName {
	case eventSessionStart, eventUserPromptSubmit:
		v = map[string]any{"hookSpecificOutput": map[string]any{"hookEventName": ev.HookEventName, "additionalContext": text}}
	case cursorSessionStart:
		v = map[string]any{"additional_context": text}
	case cursorBeforeSubmitPrompt:
		v = map[string]any{"continue": true, "additional_context": text}
	default:
		_, err := io.WriteString(w, text)
		return err
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(b.Bytes())
	return err
}
