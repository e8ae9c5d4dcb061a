package knowledge

import (
	"strings"
)

// Names put in place of others in a reworded text (issue 23, item 4):
// outside writers' look-alikes keep a finding's words and swap one name of
// a family for another: fetch-depth for fetch-tags on a checkout step,
// nexus-releases for nexus-snapshots as a repository id,
// net.core.somaxconn for net.ipv4.tcp_max_syn_backlog, application/json
// for text/css in gzip_types.

// compoundsSwapped reports whether each text writes a compound name (words
// joined by - . or _: fetch-depth, net.core.somaxconn) that the other
// writes nowhere, the two of one family: the same first word, joined the
// same way. A rewording keeps the names it tells of; it may add one of a
// family beside the one it keeps, not put one in its place.
func compoundsSwapped(a, b DetailSet) bool {
	sa, sb := setOf(a.Seq), setOf(b.Seq)
	// fa indexes a's compounds that b lacks by family, then by how their
	// next word begins: two that begin alike are one word inflected
	// (rubber-banded, rubber-banding; cross-built, cross-build). Indexed,
	// a long text costs no more than its words.
	fa := map[string]map[string]bool{}
	for x := range sa {
		if f := compoundFamily(x); f != "" && !sb[x] {
			if fa[f] == nil {
				fa[f] = map[string]bool{}
			}
			fa[f][nextWordStart(x[len(f):])] = true
		}
	}
	if tailsSwapped(sa, sb) {
		return true
	}
	if len(fa) == 0 {
		return false
	}
	for y := range sb {
		f := compoundFamily(y)
		if f == "" || sa[y] || fa[f] == nil {
			continue
		}
		start := nextWordStart(y[len(f):])
		for s := range fa[f] {
			if s != start || s[0] == 0 {
				return true
			}
		}
	}
	return false
}

// tailsSwapped reports whether each of two texts' word sets (sa, sb)
// holds a compound the other lacks that ends in the same word, joined the
// same way, after first words of other beginnings, that word no English
// one: allkeys-lru for volatile-lru (session 23; compoundsSwapped reads a
// family by its first word). A rewording keeps such a name; it may say
// user-level for repo-level, cross-built for ci-built, in English words.
func tailsSwapped(sa, sb map[string]bool) bool {
	ta := map[string][]string{} // a's compounds that b lacks, by tail
	for x := range sa {
		if head, tail := compoundTail(x); tail != "" && !sb[x] && !englishWord(tail[1:]) {
			ta[tail] = append(ta[tail], head)
		}
	}
	if len(ta) == 0 {
		return false
	}
	for y := range sb {
		head, tail := compoundTail(y)
		if tail == "" || sa[y] {
			continue
		}
		for _, h := range ta[tail] {
			if h[:min(3, len(h))] != head[:min(3, len(head))] {
				return true
			}
		}
	}
	return false
}

// englishWord reports whether the lexicon knows w as an English word.
func englishWord(w string) bool {
	return englishStop[w] || len(lex().g.lookup(w)) > 0
}

// compoundTail splits a compound name of two words (allkeys-lru,
// client_side) at its joiner, - or _, into its head and its tail with the
// joiner (-lru): "" when w is no such compound (compoundFamily's letters,
// one joiner, a head of two letters or more and a tail of three letters
// or more).
func compoundTail(w string) (head, tail string) {
	i := strings.IndexAny(w, "-_")
	if i < 2 || len(w)-i-1 < 3 || strings.IndexAny(w[i+1:], "-_.") >= 0 || strings.IndexByte(w[:i], '.') >= 0 {
		return "", ""
	}
	for j := 0; j < len(w); j++ {
		if c := w[j]; j != i && (c < 'a' || c > 'z') {
			return "", ""
		}
	}
	return w[:i], w[i:]
}

// nextWordStart is the first three letters of a compound's words after
// its first, or all of them, marked, when fewer (never one word
// inflected).
func nextWordStart(rest string) string {
	if len(rest) >= 3 {
		return rest[:3]
	}
	return "\x00" + rest
}

// compoundFamily is a compound name's first word and the mark joining it
// to the next (fetch-, net.), or "" when w is no compound name: two words
// or more of lower-case letters and digits, the first of three letters or
// more, not a number, a version or a file's name.
func compoundFamily(w string) string {
	i := strings.IndexAny(w, "-._")
	if i < 3 || i == len(w)-1 {
		return ""
	}
	for j := 0; j < len(w); j++ {
		c := w[j]
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '.' || c == '_') {
			return ""
		}
	}
	for j := 0; j < i; j++ {
		if w[j] < 'a' || w[j] > 'z' {
			return ""
		}
	}
	if w[i] == '.' && strings.Count(w, ".") == 1 && strings.IndexAny(w, "-_") < 0 {
		return "" // settings.xml, index.js: a file's name, or a word and its field
	}
	return w[:i+1]
}

// mimeTops are the top-level media types.
var mimeTops = map[string]bool{"application": true, "text": true, "image": true, "audio": true, "video": true,
	"font": true, "multipart": true, "message": true, "model": true}

// mimeRival reports whether each text names a media type (application/json,
// text/css) that the other does not: one finding told of another type.
func mimeRival(a, b DetailSet) bool {
	ma, mb := mediaTypes(a), mediaTypes(b)
	return oneSided(ma, mb) && len(ma) > 0 && len(mb) > 0
}

// mediaTypes are the media types d's atoms name.
func mediaTypes(d DetailSet) map[string]bool {
	var m map[string]bool
	for t := range d.Atoms {
		top, sub, ok := strings.Cut(t, "/")
		if ok && mimeTops[top] && sub != "" && !strings.Contains(sub, "/") {
			if m == nil {
				m = map[string]bool{}
			}
			m[t] = true
		}
	}
	return m
}
