package pumasi

import (
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

func TestNormalizeName(t *testing.T) {
	ok := []struct{ in, want string }{
		{"spec.md", "spec.md"},
		{"회의록.md", "회의록.md"},
		{norm.NFD.String("회의록.md"), "회의록.md"},
		{norm.NFD.String("café.md"), "café.md"},
		{"my notes.md", "my notes.md"},
		{"README", "README"},
		{"a..b", "a..b"},
		{strings.Repeat("a", 125) + ".md", strings.Repeat("a", 125) + ".md"},
		{strings.Repeat("가", 42) + ".m", strings.Repeat("가", 42) + ".m"}, // 128 bytes
	}
	for _, c := range ok {
		got, err := NormalizeName(c.in)
		if err != nil || got != c.want {
			t.Errorf("NormalizeName(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
	bad := []string{
		"", ".", "..", "a/b", `a\b`, "/etc/passwd", "../x", ".hidden", "a\x00b", "a\x01b",
		"tab\tname", "line\nbreak", "del\x7f", "c1\u0085", " lead", "trail ", "trail.",
		strings.Repeat("a", 126) + ".md", strings.Repeat("가", 43), "bad\xffutf8",
	}
	for _, in := range bad {
		if got, err := NormalizeName(in); ErrorCode(err) != EInvalidName {
			t.Errorf("NormalizeName(%q) = %q, %v; want invalid_name", in, got, err)
		}
	}
}

func TestFoldName(t *testing.T) {
	same := [][2]string{{"Spec.md", "spec.md"}, {"ÉTÉ.md", "été.md"}, {norm.NFD.String("Café.md"), "café.md"}}
	for _, c := range same {
		if FoldName(c[0]) != FoldName(c[1]) {
			t.Errorf("FoldName(%q) != FoldName(%q)", c[0], c[1])
		}
	}
	// Lookalikes from other scripts are different files.
	if FoldName("a.md") == FoldName("а.md") {
		t.Error("Latin a and Cyrillic а fold together")
	}
}

func TestValidID(t *testing.T) {
	for _, s := range []string{"r1", "room.a-b_c", "0", strings.Repeat("a", 63)} {
		if !ValidID(s) {
			t.Errorf("ValidID(%q) = false", s)
		}
	}
	for _, s := range []string{"", "R1", "-a", ".a", "a/b", "a b", strings.Repeat("a", 64), "가"} {
		if ValidID(s) {
			t.Errorf("ValidID(%q) = true", s)
		}
	}
}

// FuzzNormalizeName checks that whatever passes the name rules is safe as a
// single path element and stable.
func FuzzNormalizeName(f *testing.F) {
	for _, s := range []string{"spec.md", "..", "a/b", `a\b`, ".hidden", "%2e%2e", "회의록.md", norm.NFD.String("café"), "a\x00", " x", "x.", strings.Repeat("a", 129)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		got, err := NormalizeName(in)
		if err != nil {
			if ErrorCode(err) != EInvalidName {
				t.Fatalf("error code %q", ErrorCode(err))
			}
			return
		}
		if got == "" || got == "." || got == ".." || strings.ContainsAny(got, "/\\\x00") || strings.HasPrefix(got, ".") {
			t.Fatalf("unsafe name passed: %q", got)
		}
		if len(got) > MaxNameBytes || !utf8.ValidString(got) || !norm.NFC.IsNormalString(got) {
			t.Fatalf("name %q breaks length, UTF-8 or NFC", got)
		}
		again, err := NormalizeName(got)
		if err != nil || again != got {
			t.Fatalf("not idempotent: %q -> %q, %v", got, again, err)
		}
	})
}
