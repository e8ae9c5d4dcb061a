// Package confusables computes the confusable skeletons of Unicode
// Technical Standard #39 (Unicode Security Mechanisms, section 4): two
// strings are visually confusable when their skeletons are equal.
//
// The table is confusables.txt of Unicode 15.0.0 (dated 2022-08-26) itself,
// embedded and parsed once on first use: data, not generated code. The file
// is the one ICU 72.1 ships in icu4c/source/data/unidata/ (Debian bookworm's
// source package icu 72.1-3+deb12u1, icu_72.1.orig.tar.gz SHA-256
// a2d2d38217092a7ed56635e34467f92f976b370e20182ad325edea6681a71d68); a test
// pins its SHA-256 so it cannot change unnoticed. Unicode 15.0.0 is the
// version Go's unicode package and golang.org/x/text use, so NFD and the
// table agree. To move to another version, replace the file and update
// Version and the test's sum. golang.org/x/text ships no such data.
package confusables

import (
	_ "embed"
	"strings"
	"sync"

	"golang.org/x/text/unicode/norm"
)

// Version is the Unicode version of the confusables data.
const Version = "15.0.0"

//go:embed confusables.txt
var data string

// table is the parsed data: every source code point's prototype, and the
// ASCII ones in an array for the fast path.
type table struct {
	proto map[rune]string
	ascii [128]string
}

var load = sync.OnceValue(func() *table {
	t, err := parse(data)
	if err != nil {
		// The file is embedded and checksummed by a test: a parse error
		// is a build of a broken tree, not an input error.
		panic("confusables: " + err.Error())
	}
	return t
})

// Prototype returns the prototype r maps to, and false when r is its own.
func Prototype(r rune) (string, bool) {
	t := load()
	if r < 128 {
		p := t.ascii[r]
		return p, p != ""
	}
	p, ok := t.proto[r]
	return p, ok
}

// Skeleton returns skeleton(s): s in NFD, each code point replaced by its
// prototype, and NFD again.
func Skeleton(s string) string {
	t := load()
	if ascii(s) {
		// NFD leaves ASCII alone; only a few ASCII characters have a
		// prototype (0 → O, 1 → l, I → l, m → rn, | → l, ...).
		var b strings.Builder
		changed, plain := false, true
		for i := 0; i < len(s); i++ {
			if p := t.ascii[s[i]]; p != "" {
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
