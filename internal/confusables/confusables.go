// Package confusables computes the confusable skeletons of Unicode
// Technical Standard #39 (Unicode Security Mechanisms, section 4): two
// strings are visually confusable when their skeletons are equal. The table
// is generated from confusables.txt of a pinned Unicode version (see gen);
// golang.org/x/text ships no such data.
package confusables

//go:generate go run ./gen

import (
	"sort"
	"strings"

	"golang.org/x/text/unicode/norm"
)

// asciiProto holds the prototypes of the ASCII characters that have one.
var asciiProto [128]string

func init() {
	for r := rune(0); r < 128; r++ {
		asciiProto[r], _ = lookup(r)
	}
}

// Prototype returns the prototype r maps to, and false when r is its own.
func Prototype(r rune) (string, bool) {
	if r < 128 {
		p := asciiProto[r]
		return p, p != ""
	}
	return lookup(r)
}

func lookup(r rune) (string, bool) {
	i := sort.Search(len(keys), func(i int) bool { return keys[i] >= r })
	if i == len(keys) || keys[i] != r {
		return "", false
	}
	start := 0
	if i > 0 {
		start = int(ends[i-1])
	}
	return vals[start:ends[i]], true
}

// Skeleton returns skeleton(s): s in NFD, each code point replaced by its
// prototype, and NFD again.
func Skeleton(s string) string {
	if ascii(s) {
		// NFD leaves ASCII alone; only a few ASCII characters have a
		// prototype (0 → O, 1 → l, I → l, m → rn, | → l, ...).
		var b strings.Builder
		changed, plain := false, true
		for i := 0; i < len(s); i++ {
			if p := asciiProto[s[i]]; p != "" {
				if !changed {
					b.Grow(len(s) + 8)
					b.WriteString(s[:i])
					changed = true
				}
				b.WriteString(p)
				plain = plain && ascii(p)
			} else if changed {
				b.WriteByte(s[i])
			}
		}
		switch {
		case !changed:
			return s
		case plain:
			return b.String()
		}
		return norm.NFD.String(b.String())
	}
	var b strings.Builder
	for _, r := range norm.NFD.String(s) {
		if p, ok := Prototype(r); ok {
			b.WriteString(p)
		} else {
			b.WriteRune(r)
		}
	}
	return norm.NFD.String(b.String())
}

func ascii(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
