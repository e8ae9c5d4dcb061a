package functions

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"unicode"
	"unicode/utf8"

	"pumasi"
	"pumasi/gate"
	"pumasi/knowledge"
)

// The Hive's documented fields, served beside pumasi's own (DESIGN.md §6):
// clients and skills written for The Hive read `success` on every answer,
// `entry_id`, `merged_into`, `reasons[]`/`hints[]` on contributions and a
// `summary` on each query hit. They are added, never substituted, so
// pumasi's CLI and dashboard keep reading `verdict`, `entry`, `reason`.

// MaxSummaryRunes bounds the summary of a query hit.
const MaxSummaryRunes = 200

// keyHandlePrefix starts the handle of a keyed Hive client's writes.
const keyHandlePrefix = "key-"

// hiveBody is a knowledge answer: The Hive's `success` beside `data`, and
// the contract's error body on a rejection.
type hiveBody struct {
	Success bool         `json:"success"`
	Data    any          `json:"data"`
	Error   *errorDetail `json:"error,omitempty"`
}

// writeHive sends a knowledge answer; success is true for every 2xx.
func writeHive(w http.ResponseWriter, status int, data any) {
	writeJSON(w, status, hiveBody{Success: status/100 == 2, Data: data})
}

// hiveFields fills The Hive's names for what pumasi's fields already say.
func (d ContributeData) hiveFields() ContributeData {
	switch d.Verdict {
	case knowledge.VerdictAccepted:
		if d.Entry != nil {
			d.EntryID = d.Entry.ID
		}
	case knowledge.VerdictMerged:
		if d.Entry != nil {
			d.MergedInto = d.Entry.ID
		}
	case knowledge.VerdictRejected:
		if d.Reason != "" {
			d.Reasons = []string{d.Reason}
		}
		d.Hints = rejectionHints(d.Stage)
	}
	return d
}

// rejectionHints tell the contributor how to get past the stage that
// refused it, in The Hive's `hints[]`.
func rejectionHints(stage string) []string {
	switch stage {
	case gate.StagePII:
		return []string{
			"Remove personal data and secrets; write placeholders such as user@example.com, 555-0100 or <TOKEN>.",
		}
	case gate.StageNarrative:
		return []string{
			"State the finding as a fact someone can act on: what to do, with which tool and version, and why.",
			"Leave out the story of how you found it (today, I spent, finally).",
		}
	case gate.StageInstructions:
		return []string{
			"Write the finding for a reader: what happens, under which conditions and what to do.",
			"Leave out anything addressed to the agent that reads it; name the tool a remote installer belongs to.",
		}
	case gate.StageSpecificity:
		return []string{
			"Name the concrete tool and version, the exact error message, flag, path or code involved.",
			"Say what to do and when it applies; general advice such as \"write tests\" is not kept.",
		}
	}
	return []string{"Make the finding short, specific and actionable."}
}

// withSummary re-encodes each hit with The Hive's `summary` added. It
// works on the JSON form, so whatever fields knowledge.Hit gains are kept.
func withSummary(hits []knowledge.Hit) ([]json.RawMessage, error) {
	out := make([]json.RawMessage, len(hits))
	for i, h := range hits {
		b, err := json.Marshal(h)
		if err != nil {
			return nil, err
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal(b, &m); err != nil {
			return nil, err
		}
		if _, ok := m["summary"]; !ok {
			s, _ := json.Marshal(Summary(h.Title, h.Content))
			m["summary"] = s
		}
		if out[i], err = json.Marshal(m); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Summary is a short plain-text summary of an entry: the content's first
// sentence (its title when the content is empty), whitespace collapsed,
// code fences and backquotes dropped, cut at a word boundary to at most
// MaxSummaryRunes runes with an ellipsis.
func Summary(title, content string) string {
	text := strings.Join(strings.Fields(strings.NewReplacer("```", " ", "`", "").Replace(content)), " ")
	if text == "" {
		text = strings.Join(strings.Fields(title), " ")
	}
	if end := sentenceEnd(text); end > 0 {
		text = text[:end]
	}
	if utf8.RuneCountInString(text) <= MaxSummaryRunes {
		return text
	}
	head := string([]rune(text)[:MaxSummaryRunes-1])
	if sp := strings.LastIndexFunc(head, unicode.IsSpace); sp > len(head)/2 {
		head = head[:sp]
	}
	return strings.TrimRightFunc(head, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsPunct(r) }) + "…"
}

// sentenceEnd is the byte offset just after the first sentence of text, 0
// when the first sentence is the whole text. A period must be followed by a
// space and a capital letter or digit, so "v0.5.1" and "e.g. foo" do not
// end a sentence.
func sentenceEnd(text string) int {
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case '.', '!', '?':
			if i+2 < len(text) && text[i+1] == ' ' {
				r, _ := utf8.DecodeRuneInString(text[i+2:])
				if unicode.IsUpper(r) || unicode.IsDigit(r) {
					return i + 1
				}
			}
		}
		if strings.HasPrefix(text[i:], "。") && i+len("。") < len(text) {
			return i + len("。")
		}
	}
	return 0
}

// writerHandle names the writer of a knowledge write. X-Hive-Agent wins
// when present (and must be a valid handle). Without it, a keyed Hive
// client's `Authorization: Bearer <key>` names the writer:
//
//   - a pumasi token that verifies is attributed to its subject (such as
//     "localdev-admin"), stable across re-mints; a subject that is not a
//     valid handle is hashed like a key;
//   - any other bearer (a Hive key, or a pumasi token that is expired or
//     forged) is attributed to keyHandle(key).
//
// The bearer never authorizes anything here: knowledge writes are keyless
// by design, so no bearer is refused; it only names who wrote. Returns
// agent_required when neither header names a writer, invalid_request
// naming the rule when X-Hive-Agent is not a valid handle.
func (a *API) writerHandle(r *http.Request) (string, error) {
	agent := strings.TrimSpace(r.Header.Get(HeaderAgent))
	if agent != "" || r.Header.Get(HeaderAgent) != "" {
		if agent == "" {
			return "", knowledge.CheckHandle("")
		}
		if !knowledge.ValidHandle(agent) {
			return "", handleRule(agent)
		}
		return agent, nil
	}
	key, ok := bearerToken(r.Header.Get("Authorization"))
	key = strings.TrimSpace(key)
	if !ok || key == "" {
		return "", knowledge.CheckHandle("")
	}
	if len(a.Secret) > 0 {
		if p, err := pumasi.ParseToken(a.Secret, key, a.now()); err == nil {
			if knowledge.ValidHandle(p.Subject) && !strings.HasPrefix(p.Subject, keyHandlePrefix) {
				return p.Subject, nil
			}
			return a.keyHandle("subject\x00" + p.Subject), nil
		}
	}
	return a.keyHandle(key), nil
}

// keyHandle derives a stable handle from a bearer key: "key-" and the first
// 16 hex digits of an HMAC-SHA256 of the key under the deployment's secret
// (plain SHA-256 when there is none). Handles are public (GET
// /knowledge/{id} lists contributors), so the HMAC keeps a short key from
// being guessed offline from its handle; the key itself is never stored or
// logged. Every process of a deployment shares PUMASI_SECRET, so the handle
// is the same everywhere; a new secret gives new handles.
func (a *API) keyHandle(key string) string {
	const label = "pumasi knowledge bearer handle\x00"
	var sum []byte
	if len(a.Secret) > 0 {
		m := hmac.New(sha256.New, a.Secret)
		m.Write([]byte(label + key))
		sum = m.Sum(nil)
	} else {
		s := sha256.Sum256([]byte(label + key))
		sum = s[:]
	}
	return keyHandlePrefix + hex.EncodeToString(sum)[:16]
}

// handleRule is the invalid_request of an X-Hive-Agent that names a writer
// but breaks the handle rule: it says which part of the rule, so a client
// sending "my agent" or "claude@host" knows what to change.
func handleRule(h string) error {
	const rule = "a handle is 3-64 characters of A-Z a-z 0-9 . _ -"
	why := ""
	switch n := utf8.RuneCountInString(h); {
	case n < 3:
		why = "is shorter than 3 characters"
	case n > 64:
		why = "is longer than 64 characters"
	default:
		for _, c := range h {
			if !(c < utf8.RuneSelf && (c == '.' || c == '_' || c == '-' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z')) {
				why = fmt.Sprintf("has %q", c)
				break
			}
		}
	}
	shown := h
	if len(shown) > 80 {
		shown = shown[:80] + "…"
	}
	return pumasi.Errorf(pumasi.EInvalidRequest, "X-Hive-Agent %q %s: %s", strings.ToValidUTF8(shown, "?"), why, rule)
}
