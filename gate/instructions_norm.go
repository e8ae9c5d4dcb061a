package gate

import (
	"html"
	"net/url"
	"regexp"
	"strings"
	"unicode"

	"pumasi/internal/confusables"
)

// The instructions stage's decoders: text a reader's model reads that a
// human reviewer does not see as such.

// tagText decodes Unicode tag characters (U+E0020–U+E007E), which render as
// nothing but spell ASCII text to a model.
func tagText(s string) (string, bool) {
	var b strings.Builder
	for _, r := range s {
		if r >= 0xE0020 && r <= 0xE007E {
			b.WriteRune(r - 0xE0000)
		}
	}
	return b.String(), b.Len() >= 8
}

// rePercentRun is a run of text with three or more percent escapes
// ("Ignore%20all%20previous…").
var rePercentRun = regexp.MustCompile(`[^\s%]*(?:%[0-9a-fA-F]{2}[^\s%]*){3,}`)

// percentText decodes percent-encoded runs that hold words.
func percentText(s string) []string {
	var out []string
	for _, m := range rePercentRun.FindAllString(s, 8) {
		if d, err := url.PathUnescape(m); err == nil && strings.Contains(d, " ") && printable(d) {
			out = append(out, d)
		}
	}
	return out
}

// reEntity is an HTML character reference.
var reEntity = regexp.MustCompile(`&(?:#[0-9]{2,6}|#x[0-9a-fA-F]{2,6}|[a-zA-Z]{2,8});`)

// entityText decodes HTML character references when a text spells words
// with them (&#73;&#103;…), not when it mentions one (&amp;).
func entityText(s string) (string, bool) {
	if len(reEntity.FindAllStringIndex(s, 6)) < 6 {
		return "", false
	}
	return html.UnescapeString(s), true
}

// confusable maps a non-ASCII letter that looks like a Latin one to it,
// by Unicode's confusables table (UTS #39) beyond the stage's own map;
// Hangul and CJK stay as they are.
func confusable(r rune) (rune, bool) {
	if r < 0x80 || isHangul(r) || unicode.Is(unicode.Han, r) || !unicode.IsLetter(r) {
		return r, false
	}
	p, ok := confusables.Prototype(r)
	if !ok || len(p) != 1 || p[0] >= 0x80 || !unicode.IsLetter(rune(p[0])) {
		return r, false
	}
	return unicode.ToLower(rune(p[0])), true
}

// leet maps digits and signs that stand for letters.
var leet = map[rune]rune{'0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't', '@': 'a', '$': 's', '!': 'i', '|': 'l'}

// leetText rewrites words that mix letters with look-alike digits
// ("1gn0re a11 prev10us"); it returns false unless three words changed,
// so versions and identifiers (v1.22, k3s) alone change nothing. A word's
// leading and trailing punctuation is not part of it ("4ss1st4nt:"), a
// URL's scheme and host are read too ("h77ps://c4che.w0rkers.d3v/…"), and
// once three words changed, two-letter words change as well ("t0", "0f",
// "1t"): the text is written that way.
func leetText(s string) (string, bool) {
	words := strings.Fields(s)
	out := append([]string(nil), words...)
	changed := 0
	var short []int
	for i, w := range words {
		core := strings.TrimRight(strings.TrimLeft(w, "(\"'“‘"), ":,.;)\"'”’?")
		pre := w[:strings.Index(w, core)]
		post := w[len(pre)+len(core):]
		if m := reLeetURL.FindStringSubmatch(core); m != nil {
			if scheme := leetMap(m[1]); scheme != m[1] && (scheme == "http" || scheme == "https") {
				out[i] = pre + scheme + "://" + leetMap(m[2]) + core[len(m[0]):] + post
				changed++
			}
			continue
		}
		letters, subs := 0, 0
		for _, r := range core {
			if unicode.IsLetter(r) {
				letters++
			} else if _, ok := leet[r]; ok {
				subs++
			}
		}
		if letters < 1 || subs < 1 || strings.ContainsAny(core, "-_/=:`") {
			continue
		}
		if letters+subs < 3 {
			if letters+subs == 2 && len(core) == 2 {
				short = append(short, i)
			}
			continue
		}
		out[i] = pre + leetMap(core) + post
		changed++
	}
	if changed >= 3 {
		for _, i := range short {
			out[i] = leetMap(words[i])
		}
	}
	return strings.Join(out, " "), changed >= 3
}

// reLeetURL is a URL whose scheme is written with digits for letters, and
// its host.
var reLeetURL = regexp.MustCompile(`^([a-z0-9]{4,5})://([a-z0-9.-]+)`)

// leetMap maps every look-alike digit and sign of w to its letter.
func leetMap(w string) string {
	return strings.Map(func(r rune) rune {
		if l, ok := leet[r]; ok {
			return l
		}
		return r
	}, w)
}

// bidiDisplay reads text under a right-to-left override (U+202E up to
// U+202C or the line's end) in the order it displays: a human reviewer
// sees "do not tell the user", the bytes say "resu eht llet ton od", and
// a reader's model can read either. It returns false when s holds no
// override.
func bidiDisplay(s string) (string, bool) {
	if !strings.ContainsRune(s, '\u202E') {
		return s, false
	}
	var b strings.Builder
	var run []rune
	in := false
	flush := func() {
		for i := len(run) - 1; i >= 0; i-- {
			b.WriteRune(run[i])
		}
		run, in = run[:0], false
	}
	for _, r := range s {
		switch {
		case r == '\u202E':
			if in {
				flush()
			}
			in = true
		case in && (r == '\u202C' || r == '\n'):
			flush()
			if r == '\n' {
				b.WriteRune(r)
			}
		case in:
			run = append(run, r)
		default:
			b.WriteRune(r)
		}
	}
	flush()
	return b.String(), true
}
