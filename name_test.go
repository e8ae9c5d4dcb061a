package pumasi

import (
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"

	"pumasi/internal/confusables"
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

// TestNamesThatLookLikeOthers: for a new name, invisible and format characters, line
// separators, Unicode spaces at either end and slash lookalikes are refused
// naming the character; names that merely use other scripts stay welcome.
func TestNamesThatLookLikeOthers(t *testing.T) {
	refused := []struct{ name, char string }{
		{"∕etc∕passwd", "U+2215"},
		{"a／b.md", "U+FF0F"},
		{"a⧵b.md", "U+29F5"},
		{"evil\u202Egnp.md", "U+202E"}, // RIGHT-TO-LEFT OVERRIDE
		{"spec\u200B.md", "U+200B"},    // ZERO WIDTH SPACE
		{"sp\u200Dec.md", "U+200D"},    // ZERO WIDTH JOINER
		{"\u2066x.md", "U+2066"},       // LEFT-TO-RIGHT ISOLATE
		{"a\uFEFFb.md", "U+FEFF"},      // BOM inside
		{"a\u00ADb.md", "U+00AD"},      // SOFT HYPHEN
		{"a\u034Fb.md", "U+034F"},      // COMBINING GRAPHEME JOINER
		{"a\uFE0Fb.md", "U+FE0F"},      // VARIATION SELECTOR-16
		{"\u3164.md", "U+3164"},        // HANGUL FILLER
		{"a\u2028b.md", "U+2028"},      // LINE SEPARATOR
		{"\u00A0spec.md", "U+00A0"},    // leading NO-BREAK SPACE
		{"spec.md\u3000", "U+3000"},    // trailing IDEOGRAPHIC SPACE
		{"spec.md\u2009", "U+2009"},    // trailing THIN SPACE
	}
	for _, c := range refused {
		n, err := NormalizeName(c.name)
		if err == nil {
			err = CheckNewName(n)
		}
		if ErrorCode(err) != EInvalidName || !strings.Contains(ErrorMessage(err), c.char) {
			t.Errorf("NormalizeName+CheckNewName(%q) = %v, want invalid_name naming %s", c.name, err, c.char)
		}
	}
	for _, ok := range []string{"ノート.md", "丿.md", "회의록.md", "ѕрес.md", "a\u00A0b.md", "résumé.md", "日本語 メモ.txt", "50%.md", "☃.md"} {
		if n, err := NormalizeName(ok); err != nil || CheckNewName(n) != nil {
			t.Errorf("NormalizeName+CheckNewName(%q) = %v, %v, want it accepted", ok, err, CheckNewName(n))
		}
	}
}

// TestLookalikeKey: names that look alike share a key, case included;
// names that differ keep apart.
func TestLookalikeKey(t *testing.T) {
	same := [][2]string{{"spec.md", "ѕрес.md"}, {"Spec.md", "spec.md"}, {"SPEC.md", "ѕрес.md"}, {"file0.md", "fileO.md"},
		{"v1.md", "vl.md"}, {"a b.md", "a\u00A0b.md"}, {"ｒｅａｄｍｅ.md", "README.md"}}
	for _, p := range same {
		if LookalikeKey(p[0]) != LookalikeKey(p[1]) {
			t.Errorf("LookalikeKey(%q) != LookalikeKey(%q)", p[0], p[1])
		}
	}
	for _, p := range [][2]string{{"spec.md", "plan.md"}, {"회의록.md", "회의.md"}, {"v1.md", "v2.md"}} {
		if LookalikeKey(p[0]) == LookalikeKey(p[1]) {
			t.Errorf("LookalikeKey(%q) == LookalikeKey(%q)", p[0], p[1])
		}
	}
}

// TestLookalikeKeyASCIIShortcut: the ASCII shortcut gives the key the full
// computation gives.
func TestLookalikeKeyASCIIShortcut(t *testing.T) {
	for _, n := range []string{"Spec.md", "README.md", "file01.md", "IMG|1.txt", "modern-Mode.md", "50%.md", "a b.c", "~x`y\".md"} {
		full := cases.Fold().String(confusables.Skeleton(norm.NFKC.String(FoldName(n))))
		if got := LookalikeKey(n); got != full {
			t.Errorf("LookalikeKey(%q) = %q, want %q", n, got, full)
		}
	}
}
