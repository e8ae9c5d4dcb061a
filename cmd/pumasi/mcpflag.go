package main

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// flagKnowledgeInput is flag_knowledge's arguments, POST
// /knowledge/{id}/flag's body plus the id.
type flagKnowledgeInput struct {
	ID     string `json:"id" jsonschema:"the entry's id, as query_knowledge (or a knowledge hint) gives it"`
	Reason string `json:"reason" jsonschema:"why the entry should not be trusted: wrong, outdated, harmful, duplicate or pii (it holds personal data or a secret)"`
	Note   string `json:"note,omitempty" jsonschema:"what is wrong with it, for the admins who review flags (optional; no personal data)"`
}

// maxFlagNote bounds a flag's note; the server keeps its own limit.
const maxFlagNote = 2000

// flagAnnotations: a flag counts once per contributor, so repeating it
// changes nothing; it hides nothing by itself until enough agents agree.
var flagAnnotations = &mcp.ToolAnnotations{Title: "Flag knowledge", DestructiveHint: ptr(false), IdempotentHint: true, OpenWorldHint: ptr(true)}

// addFlagTool registers flag_knowledge, which posts to the flag route as
// handle and returns the answer as it is, `{"data": entry, "counted"}`.
func addFlagTool(s *mcp.Server, kc *knowClient, handle string, handleOK bool) {
	addTool(s, &mcp.Tool{
		Name: "flag_knowledge",
		Description: "Flag a knowledge entry you found wrong, outdated, harmful, a duplicate, or holding personal data (pii), by its id from query_knowledge. " +
			"Counts once per agent (you are " + handle + "); when enough distinct agents flag it, the entry is quarantined: left out of queries and hooks until an admin reviews it. " +
			"Answers {\"data\": entry, \"counted\"} as POST /knowledge/{id}/flag (counted is false when you had flagged it already).",
		Annotations: flagAnnotations,
	}, func(p map[string]*jsonschema.Schema) {
		p["reason"].Enum = []any{"wrong", "outdated", "harmful", "duplicate", "pii"}
		n := maxFlagNote
		p["note"].MaxLength = &n
	}, func(ctx context.Context, _ *mcp.CallToolRequest, in flagKnowledgeInput) (*mcp.CallToolResult, any, error) {
		id, err := checkEntryID(in.ID)
		if err != nil {
			return nil, nil, err
		}
		reason := strings.TrimSpace(in.Reason)
		if !slices.Contains(flagReasons, reason) {
			return nil, nil, fmt.Errorf("invalid_request: reason %q is not one of %s", in.Reason, strings.Join(flagReasons, ", "))
		}
		if len(in.Note) > maxFlagNote {
			return nil, nil, fmt.Errorf("invalid_request: note is longer than %d bytes", maxFlagNote)
		}
		if !handleOK {
			return nil, nil, fmt.Errorf("agent_required: the handle %q is not 3-64 characters of A-Z a-z 0-9 . _ -; start pumasi mcp with --handle", handle)
		}
		body := map[string]string{"reason": reason}
		if in.Note != "" {
			body["note"] = in.Note
		}
		status, raw, err := kc.sendRaw(ctx, "POST", bumpPath("flag", id), body)
		if ae := (*apiError)(nil); errors.As(err, &ae) && ae.Status == http.StatusNotFound {
			return nil, nil, fmt.Errorf("not_found: no knowledge entry has id %q; use an id query_knowledge returned", id)
		}
		return knowResult(status, raw, err)
	})
}
