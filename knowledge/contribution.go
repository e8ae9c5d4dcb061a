package knowledge

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"

	"pumasi"
)

// Limits on a contribution request. MaxTitleRunes and MaxContentRunes are
// only hard safety caps, at the size of the API's JSON body (64 KiB), so that
// everything a client can send reaches the gate: The Hive's own limits
// (HiveMinTitleRunes..HiveMaxTitleRunes, HiveMaxContentRunes) are a gate
// stage and answer with a rejected verdict and a reason, not a malformed
// request.
const (
	MaxTitleRunes   = 64 << 10
	MaxContentRunes = 64 << 10
	MaxTags         = 16
	MaxTagRunes     = 64
)

// ContributionRequest is the body of POST /knowledge/contribute.
type ContributionRequest struct {
	Title   string   `json:"title"`
	Content string   `json:"content"`
	Hive    string   `json:"hive,omitempty"`
	Tags    []string `json:"tags,omitempty"`
	// Supersedes names an older entry of the same hive this contribution
	// replaces.
	Supersedes string `json:"supersedes,omitempty"`
}

// Normalize trims the request, fills the default hive and cleans the tags
// (lowercased, deduplicated, order kept). Returns invalid_request for an
// empty title or content, one past the safety caps, a bad hive id or bad
// tags; the gate applies The Hive's size limits.
func (r ContributionRequest) Normalize() (ContributionRequest, error) {
	out := ContributionRequest{
		Title:   strings.TrimSpace(norm.NFC.String(r.Title)),
		Content: strings.TrimSpace(norm.NFC.String(r.Content)),
		Hive:    strings.TrimSpace(r.Hive),
		// Entry ids are printable ASCII; a stray control character is
		// simply an id that does not exist.
		Supersedes: strings.TrimSpace(r.Supersedes),
	}
	if out.Hive == "" {
		out.Hive = DefaultHive
	}
	if err := pumasi.CheckID("hive", out.Hive); err != nil {
		return out, err
	}
	switch {
	case out.Title == "":
		return out, pumasi.Errorf(pumasi.EInvalidRequest, "title is required")
	case out.Content == "":
		return out, pumasi.Errorf(pumasi.EInvalidRequest, "content is required")
	case len([]rune(out.Title)) > MaxTitleRunes:
		return out, pumasi.Errorf(pumasi.EInvalidRequest, "title is longer than %d characters", MaxTitleRunes)
	case len([]rune(out.Content)) > MaxContentRunes:
		return out, pumasi.Errorf(pumasi.EInvalidRequest, "content is longer than %d characters", MaxContentRunes)
	case len(out.Supersedes) > 128:
		return out, pumasi.Errorf(pumasi.EInvalidRequest, "supersedes is not an entry id")
	case len(r.Tags) > MaxTags:
		return out, pumasi.Errorf(pumasi.EInvalidRequest, "at most %d tags", MaxTags)
	}
	seen := map[string]bool{}
	out.Tags = []string{}
	for _, t := range r.Tags {
		t = strings.ToLower(strings.TrimSpace(norm.NFC.String(t)))
		if t == "" {
			continue
		}
		if len([]rune(t)) > MaxTagRunes {
			return out, pumasi.Errorf(pumasi.EInvalidRequest, "a tag is longer than %d characters", MaxTagRunes)
		}
		for _, c := range t {
			if unicode.IsControl(c) {
				return out, pumasi.Errorf(pumasi.EInvalidRequest, "tags may not contain control characters")
			}
		}
		if !seen[t] {
			seen[t] = true
			out.Tags = append(out.Tags, t)
		}
	}
	return out, nil
}
