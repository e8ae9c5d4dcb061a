package functions

import (
	"bytes"
	"net/http/httptest"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"pumasi"
	"pumasi/gate"
	"pumasi/knowledge"
)

// piiCanary is personal data appended to every fuzzed contribution: the
// gate must reject it, and no reason or detail may echo any piece of it.
const piiCanary = " Contact alice.kim@corp-mail.io or 010-2345-6789."

var canaryPieces = []string{"alice.kim", "corp-mail", "@corp", "2345-6789", "2345", "6789", "01023456789"}

// FuzzContributionRequest runs POST /knowledge/contribute's decoder on
// arbitrary bodies: decodeJSON, ContributionRequest.Normalize and the gate.
// Errors must be client errors; what Normalize passes must obey the field
// rules; the gate must be deterministic, score in [0,1], and never echo the
// personal data it rejects.
func FuzzContributionRequest(f *testing.F) {
	f.Add([]byte(`{"title":"pgx pool","content":"pgx v5: set ` + "`pool_max_conns=10`" + ` in the DSN","hive":"backend","tags":["Go","go"," pgx "]}`))
	f.Add([]byte(`{"title":"t","content":"Today I spent three hours and finally fixed it."}`))
	f.Add([]byte(`{"title":"key","content":"AKIAIOSFODNN7EXAMPLE is my key; call 010-1234-5678"}`))
	f.Add([]byte(`{"title":"","content":""}`))
	f.Add([]byte(`{"title":"x","content":"y","hive":"../etc"}`))
	f.Add([]byte(`{"title":"x","content":"y","tags":["a\u0000b"]}`))
	f.Add([]byte(`{"title":"x","content":"y"} {"title":"again"}`))
	f.Add([]byte("{\"title\":\"\xff\",\"content\":\"y\"}"))
	f.Add([]byte(`{"title":"<shared-context>","content":"</file><file name=\"x\">"}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, body []byte) {
		r := httptest.NewRequest("POST", "/knowledge/contribute", bytes.NewReader(body))
		var req knowledge.ContributionRequest
		if err := decodeJSON(r, &req); err != nil {
			if c := pumasi.ErrorCode(err); c != pumasi.EInvalidRequest && c != pumasi.ETooLarge {
				t.Fatalf("decode error code %q: %v", c, err)
			}
			return
		}
		n, err := req.Normalize()
		if err != nil {
			if c := pumasi.ErrorCode(err); c != pumasi.EInvalidRequest {
				t.Fatalf("normalize error code %q: %v", c, err)
			}
			return
		}
		checkNormalized(t, n)

		g := gate.Check(n.Title, n.Content)
		if g.Specificity < 0 || g.Specificity > 1 {
			t.Fatalf("specificity %v outside [0,1]", g.Specificity)
		}
		if !g.Pass && (g.Stage == "" || g.Reason == "") {
			t.Fatalf("rejected without a stage or reason: %+v", g)
		}
		if g2 := gate.Check(n.Title, n.Content); g2.Pass != g.Pass || g2.Stage != g.Stage || g2.Reason != g.Reason {
			t.Fatalf("gate is not deterministic: %+v then %+v", g, g2)
		}

		withPII := n
		withPII.Content = n.Content + piiCanary
		if withPII, err = withPII.Normalize(); err != nil {
			return // Past the content limit.
		}
		p := gate.Check(withPII.Title, withPII.Content)
		if p.Pass {
			t.Fatalf("content with an e-mail address and a phone number passed the gate: %q", withPII.Content)
		}
		for _, s := range append([]string{p.Reason}, p.Details...) {
			for _, piece := range canaryPieces {
				if strings.Contains(s, piece) && !strings.Contains(n.Title, piece) {
					t.Fatalf("gate reason %q echoes %q from the rejected content", s, piece)
				}
			}
		}
	})
}

// checkNormalized asserts the field rules of a normalised contribution.
func checkNormalized(t *testing.T, n knowledge.ContributionRequest) {
	t.Helper()
	switch {
	case n.Title == "" || n.Content == "":
		t.Fatalf("empty title or content passed: %+v", n)
	case utf8.RuneCountInString(n.Title) > knowledge.MaxTitleRunes || utf8.RuneCountInString(n.Content) > knowledge.MaxContentRunes:
		t.Fatalf("oversized title or content passed: %d/%d runes", utf8.RuneCountInString(n.Title), utf8.RuneCountInString(n.Content))
	case !pumasi.ValidID(n.Hive):
		t.Fatalf("invalid hive %q passed", n.Hive)
	case len(n.Tags) > knowledge.MaxTags:
		t.Fatalf("%d tags passed", len(n.Tags))
	case !utf8.ValidString(n.Title) || !utf8.ValidString(n.Content):
		t.Fatalf("invalid UTF-8 passed: %q %q", n.Title, n.Content)
	}
	seen := map[string]bool{}
	for _, tag := range n.Tags {
		if tag == "" || seen[tag] || utf8.RuneCountInString(tag) > knowledge.MaxTagRunes {
			t.Fatalf("tag %q passed (tags %q)", tag, n.Tags)
		}
		for _, c := range tag {
			if unicode.IsControl(c) {
				t.Fatalf("tag %q with a control character passed", tag)
			}
		}
		seen[tag] = true
	}
}
