package functions

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestErrorShapeAndBOM: every error body says "success": false beside
// "error" (the OpenAPI validator checks each one against the Error schema,
// which requires it); a handle that breaks the rule is a 400 naming the
// offending character; a JSON body that starts with a UTF-8 byte order mark
// is read as the JSON after it.
func TestErrorShapeAndBOM(t *testing.T) {
	e := newKnowEnv(t)
	for _, tc := range []struct{ agent, want string }{
		{"my agent", `has ' '`},
		{"claude@host", `has '@'`},
		{"ab", "shorter than 3 characters"},
	} {
		r := e.do("POST", "/knowledge/contribute", tc.agent, contributeBody(findingTitle, findingContent, ""))
		var body struct {
			Success *bool `json:"success"`
			Error   struct{ Code, Message string }
		}
		if err := json.Unmarshal(r.raw, &body); err != nil {
			t.Fatal(err)
		}
		if r.status != 400 || body.Success == nil || *body.Success || body.Error.Code != "invalid_request" ||
			!strings.Contains(body.Error.Message, tc.want) || !strings.Contains(body.Error.Message, "3-64 characters") {
			t.Errorf("handle %q = %d %s, want 400 invalid_request naming %s", tc.agent, r.status, r.raw, tc.want)
		}
	}
	if r := e.do("GET", "/knowledge/no-such-entry", "", ""); r.status != 404 || !strings.HasPrefix(string(r.raw), `{"success":false,"error":{"code":"not_found"`) {
		t.Fatalf("404 body = %s", r.raw)
	}
	bom := "\xef\xbb\xbf" + contributeBody(findingTitle, findingContent, "")
	if r := e.do("POST", "/knowledge/contribute", "agent-bom", bom); r.status != 201 {
		t.Fatalf("contribute with a BOM = %d %s, want 201", r.status, r.raw)
	}
	if r := e.do("POST", "/knowledge/contribute", "agent-bom", "\xef\xbb\xbf\xef\xbb\xbf{}"); r.status != 400 {
		t.Fatalf("two BOMs = %d %s, want 400 (only one is skipped)", r.status, r.raw)
	}
}
