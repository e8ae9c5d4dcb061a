package pumasi

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
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

// FoldName is the key under which two names clash: agents may run on
// case-insensitive filesystems, so names equal after case folding cannot
// coexist in one room.
func FoldName(name string) string {
	return norm.NFC.String(cases.Fold().String(norm.NFC.String(name)))
}
