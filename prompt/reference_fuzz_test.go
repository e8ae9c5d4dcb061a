package prompt

import (
	"strings"
	"testing"
	"unicode"
)

// FuzzParseReferences checks that every token ParseReferences returns comes
// from a $ in the text, has no whitespace unless quoted, is unique, and that
// Resolve only ever returns files of the listing it was given.
func FuzzParseReferences(f *testing.F) {
	for _, s := range []string{
		"see $spec.md.", `$"my notes.md"`, `\$spec.md`, "$5 $HOME", "$missing.md",
		"($spec.md), [$a.md] {$b.md}", `$"unclosed`, "한국어 $회의록.md를", "$$x $", "\t$a\n$b\r$c",
	} {
		f.Add(s)
	}
	files := roomFiles("spec.md", "my notes.md", "회의록.md", "wow!")
	f.Fuzz(func(t *testing.T, text string) {
		toks := ParseReferences(text)
		seen := map[string]bool{}
		for _, tok := range toks {
			if tok == "" {
				t.Fatalf("empty token from %q", text)
			}
			if seen[tok] {
				t.Fatalf("duplicate token %q from %q", tok, text)
			}
			seen[tok] = true
			quoted := strings.Contains(text, `$"`+tok+`"`)
			if !quoted && !strings.Contains(text, "$"+tok) {
				t.Fatalf("token %q not found after a $ in %q", tok, text)
			}
			if !quoted && strings.ContainsFunc(tok, unicode.IsSpace) {
				t.Fatalf("unquoted token %q has whitespace", tok)
			}
		}
		res := Resolve(text, nil, files)
		for _, r := range res.References {
			if !strings.HasPrefix(r.Path, "memory/shared/") || r.Path != "memory/shared/"+r.Name {
				t.Fatalf("path %q for %q", r.Path, r.Name)
			}
			ok := false
			for _, f := range files {
				ok = ok || f.Name == r.Name
			}
			if !ok {
				t.Fatalf("resolved %q, not in the listing", r.Name)
			}
		}
		for _, u := range res.Unknown {
			if u == "" {
				t.Fatalf("empty unknown from %q", text)
			}
		}
		if (len(res.References) == 0) != (res.Hint == "") {
			t.Fatalf("hint %q for %d references", res.Hint, len(res.References))
		}
	})
}
