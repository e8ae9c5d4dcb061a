package pumasi

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"

	"pumasi/internal/confusables"
)

// MaxNameBytes is the longest file name, in bytes of its NFC form.
const MaxNameBytes = 128

var idPattern = regexp.MustCompile(`^[a-z0-9][a-z0-9._-]{0,62}$`)

// ValidID reports whether s is a valid room, agent, machine or hive id.
func ValidID(s string) bool { return idPattern.MatchString(s) }

// CheckID returns invalid_request naming kind when s is not a valid id.
func CheckID(kind, s string) error {
	if !ValidID(s) {
		return Errorf(EInvalidRequest, "%s id must match ^[a-z0-9][a-z0-9._-]{0,62}$", kind)
	}
	return nil
}

// NormalizeName checks a file name against the name rules of DESIGN.md §3 and
// returns its NFC form. The same rules guard the daemon's storage_name on disk,
// so a name that passes can never leave memory/shared/. Returns invalid_name.
func NormalizeName(name string) (string, error) {
	if !utf8.ValidString(name) {
		return "", Errorf(EInvalidName, "name is not valid UTF-8")
	}
	n := norm.NFC.String(name)
	switch {
	case n == "":
		return "", Errorf(EInvalidName, "name is empty")
	case len(n) > MaxNameBytes:
		return "", Errorf(EInvalidName, "name is longer than %d bytes", MaxNameBytes)
	case n == "." || n == "..":
		return "", Errorf(EInvalidName, "name may not be . or ..")
	case strings.HasPrefix(n, "."):
		return "", Errorf(EInvalidName, "name may not start with a dot")
	case strings.HasSuffix(n, "."):
		return "", Errorf(EInvalidName, "name may not end with a dot")
	case strings.HasPrefix(n, " ") || strings.HasSuffix(n, " "):
		return "", Errorf(EInvalidName, "name may not start or end with a space")
	}
	for _, r := range n {
		switch {
		case r == '/' || r == '\\':
			return "", Errorf(EInvalidName, "name may not contain / or \\")
		case r == 0:
			return "", Errorf(EInvalidName, "name may not contain NUL")
		case unicode.IsControl(r) || r == utf8.RuneError:
			return "", Errorf(EInvalidName, "name may not contain control characters")
		}
	}
	return n, nil
}

// CheckNewName refuses, for a name about to be created (n in NFC, past
// NormalizeName), what would make it look like something it is not
// (README "Rules the server enforces"): invisible and format characters
// (general category Cf: bidi controls, zero-width spaces and joiners, the
// BOM, ...; every other Default_Ignorable_Code_Point: variation selectors,
// Hangul fillers, ...), line and paragraph separators, a Unicode space at
// either end (U+00A0 NO-BREAK SPACE, U+3000 IDEOGRAPHIC SPACE, ...), and
// symbols that look like / or \ (U+2215 DIVISION SLASH, U+FF0F FULLWIDTH
// SOLIDUS, ...), so that "∕etc∕passwd" cannot pose as a path. Each refusal
// names the character as U+XXXX. Names already stored are not held to it,
// so they can still be read, replaced and deleted. Returns invalid_name.
func CheckNewName(n string) error {
	first, _ := utf8.DecodeRuneInString(n)
	last, _ := utf8.DecodeLastRuneInString(n)
	for _, r := range [2]rune{first, last} {
		if unicode.IsSpace(r) {
			return Errorf(EInvalidName, "name may not start or end with a space (%s)", codePoint(r))
		}
	}
	for _, r := range n {
		switch {
		case invisible(r):
			return Errorf(EInvalidName, "name may not contain %s, an invisible or formatting character "+
				"(bidi controls, zero-width and other invisible characters can make a name look like another)", codePoint(r))
		case unicode.In(r, unicode.Zl, unicode.Zp):
			return Errorf(EInvalidName, "name may not contain %s, a line or paragraph separator", codePoint(r))
		case slashLike(r):
			return Errorf(EInvalidName, "name may not contain %s, which looks like / or \\", codePoint(r))
		}
	}
	return nil
}

// invisible reports whether r is a format character (Cf) or otherwise
// default-ignorable: rendered as nothing where it is not understood.
func invisible(r rune) bool {
	return unicode.In(r, unicode.Cf, unicode.Other_Default_Ignorable_Code_Point, unicode.Variation_Selector)
}

// slashLike reports whether r is a symbol (not a letter: Katakana ノ and
// CJK 丿 stay welcome) whose confusable prototype or compatibility form is
// made of slashes and backslashes only.
func slashLike(r rune) bool {
	if r < 0x80 || unicode.IsLetter(r) {
		return false
	}
	only := func(s string) bool {
		found := false
		for _, c := range s {
			switch {
			case c == '/' || c == '\\':
				found = true
			case !unicode.Is(unicode.Mn, c):
				return false
			}
		}
		return found
	}
	p, _ := confusables.Prototype(r)
	return only(p) || only(norm.NFKC.String(string(r)))
}

// codePoint names r as U+XXXX.
func codePoint(r rune) string { return fmt.Sprintf("U+%04X", r) }

// LookalikeKey is the key under which two names look alike: the Unicode
// TR39 confusable skeleton of the name's compatibility form (NFKC, so
// fullwidth ｓｐｅｃ meets spec), folded for case before and after (agents
// may run on case-insensitive filesystems, and a skeleton keeps case: 0
// becomes O). A name whose key equals another's in the same room is
// refused like a case clash (name_conflict); FoldName equality implies
// LookalikeKey equality.
func LookalikeKey(name string) string {
	if isASCII(name) {
		// NFC and NFKC leave ASCII alone and full case folding maps A-Z
		// to a-z and nothing else: the same key, a few times faster.
		k := confusables.Skeleton(strings.ToLower(name))
		if isASCII(k) {
			return strings.ToLower(k)
		}
		return cases.Fold().String(k)
	}
	return cases.Fold().String(confusables.Skeleton(norm.NFKC.String(FoldName(name))))
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// FoldName is the key under which two names clash: agents may run on
// case-insensitive filesystems, so names equal after case folding cannot
// coexist in one room.
func FoldName(name string) string {
	return norm.NFC.String(cases.Fold().String(norm.NFC.String(name)))
}
