package knowledge

import (
	"regexp"
	"strings"
	"unicode/utf8"
)

// doubleQuoted is a phrase in double quotes, as error messages are quoted.
var doubleQuoted = regexp.MustCompile(`"[^"\n]{3,120}"`)

// replaceQuoted replaces every quoted phrase of s ("…" or '…', 3 to 120
// characters on one line) with the result of f on it, quotes included.
func replaceQuoted(s string, f func(string) string) string {
	s = doubleQuoted.ReplaceAllStringFunc(s, f)
	spans := singleQuoted(s)
	if len(spans) == 0 {
		return s
	}
	var b strings.Builder
	last := 0
	for _, sp := range spans {
		b.WriteString(s[last:sp[0]])
		b.WriteString(f(s[sp[0]:sp[1]]))
		last = sp[1]
	}
	b.WriteString(s[last:])
	return b.String()
}

// singleQuoted finds the phrases of s in single quotes, telling a quote
// from an apostrophe: an apostrophe has a Latin letter or a digit on its
// left (the client's, don't) when it would open a phrase, and a Latin
// letter on its right when it would close one (the client's). A quote may
// close before Hangul, as Korean particles follow it directly ('설정'을).
// Read as one regular expression, "the client's idle timeout below the
// load balancer's" was a quoted phrase, and a rewording that said it
// otherwise had a detail the other lacked.
func singleQuoted(s string) [][2]int {
	var out [][2]int
	for i := 0; i < len(s); {
		k := strings.IndexByte(s[i:], '\'')
		if k < 0 {
			break
		}
		open := i + k
		i = open + 1
		if open > 0 && asciiAlnum(s[open-1]) {
			continue
		}
		end := closingQuote(s, open+1)
		if end < 0 {
			continue
		}
		if n := utf8.RuneCountInString(s[open+1 : end]); n < 3 || n > 120 {
			continue
		}
		out = append(out, [2]int{open, end + 1})
		i = end + 1
	}
	return out
}

// closingQuote is the index of the quote that closes a phrase opened
// before from, or -1 when the line ends first.
func closingQuote(s string, from int) int {
	for j := from; j < len(s); {
		m := strings.IndexAny(s[j:], "'\n")
		if m < 0 || s[j+m] == '\n' {
			return -1
		}
		c := j + m
		if c+1 < len(s) && asciiLetter(s[c+1]) {
			j = c + 1 // an apostrophe inside a word
			continue
		}
		return c
	}
	return -1
}
