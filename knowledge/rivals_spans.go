package knowledge

// Rivalry of code spans: the same command or setting written with another
// flag, value or argument, or one template given another filler.

import (
	"slices"
	"strings"
)

// spansSubstituted reports whether two texts' code spans follow one
// template with another filler: as many spans in each, and a span of one,
// not in the other, that shares a word with one of the other's and is
// about as long (`apk add tzdata` and `apt-get install -y tzdata`: a
// finding for alpine told again for debian), both plain ASCII (not a
// translation's placeholder).
func spansSubstituted(da, db DetailSet) bool {
	a, b := da.Spans, db.Spans
	if len(a) != len(b) || len(a) < 2 {
		return false
	}
	for _, x := range a {
		if slices.Contains(b, x) || !isASCII(x) {
			continue
		}
		tx := spanTokens(x)
		for _, y := range b {
			if slices.Contains(a, y) || !isASCII(y) {
				continue
			}
			ty := spanTokens(y)
			if len(tx) < 2 || len(ty) < 2 || len(tx)-len(ty) > 1 || len(ty)-len(tx) > 1 || extends(tx, ty) || extends(ty, tx) || restated(tx, ty, da, db) {
				continue
			}
			for _, t := range tx {
				if slices.Contains(ty, t) {
					return true
				}
			}
		}
	}
	return false
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// spansRival reports whether a code span of one text and one of the other,
// neither in the other text, start alike (the same command and subcommand,
// or key and operator) and neither extends the other: the same command
// written with another flag, value or argument.
func spansRival(da, db DetailSet) bool {
	a, b := da.Spans, db.Spans
	in := func(s string, set []string) bool {
		for _, x := range set {
			if x == s {
				return true
			}
		}
		return false
	}
	for _, x := range a {
		if in(x, b) {
			continue
		}
		tx := spanTokens(x)
		if len(tx) == 0 {
			continue // a span of separators only: `||`, `( )`
		}
		for _, y := range b {
			if in(y, a) {
				continue
			}
			ty := spanTokens(y)
			if len(ty) == 0 {
				continue
			}
			if restated(tx, ty, da, db) {
				continue
			}
			if oneTokenApart(tx, ty) || reordered(tx, ty) {
				return true
			}
			if tx[0] != ty[0] || extends(tx, ty) || extends(ty, tx) {
				continue
			}
			// A key and its value (encoding=, cron:), or a command and its
			// subcommand (git push, uv sync).
			key := strings.HasSuffix(tx[0], "=") || strings.HasSuffix(tx[0], ":")
			if !(key && len(tx) >= 2 && len(ty) >= 2 || len(tx) >= 3 && len(ty) >= 3 && tx[1] == ty[1]) {
				continue
			}
			return true
		}
	}
	return false
}

// oneTokenApart reports whether two commands of as many words (three or
// more) differ in one word, both plain ASCII: `kill -15 <pid>` and `kill -9 <pid>`, `CREATE
// INDEX CONCURRENTLY` and `DROP INDEX CONCURRENTLY`.
func oneTokenApart(a, b []string) bool {
	if len(a) != len(b) || len(a) < 3 {
		return false
	}
	differ := 0
	for i := range a {
		if !sameToken(a[i], b[i]) {
			if !isASCII(a[i]) || !isASCII(b[i]) {
				return false
			}
			differ++
		}
	}
	return differ == 1
}

// reordered reports whether two commands of one program hold the same
// words in another order (`ffmpeg -ss 10 -i in.mp4` and `ffmpeg -i in.mp4
// -ss 10`: a seek on the input, then one on the output): where an option
// stands is what such a finding tells.
func reordered(a, b []string) bool {
	if len(a) != len(b) || len(a) < 3 || a[0] != b[0] || slices.Equal(a, b) {
		return false
	}
	sa, sb := slices.Clone(a), slices.Clone(b)
	slices.Sort(sa)
	slices.Sort(sb)
	return slices.Equal(sa, sb)
}

// extends reports whether token list long holds all of short, in a row
// (`kubectl rollout restart` in `kubectl rollout restart deployment/api`,
// `0 0 * * *` in `cron: '0 0 * * *'`).
func extends(long, short []string) bool {
	for i := 0; i+len(short) <= len(long); i++ {
		if slices.EqualFunc(long[i:i+len(short)], short, sameToken) {
			return true
		}
	}
	return false
}

// sameToken reports whether two words of commands name one thing: equal,
// or one the other qualified (.venv/bin/pip, pip;
// livenessProbe.initialDelaySeconds:, initialDelaySeconds:).
func sameToken(x, y string) bool {
	return x == y || qualifies(x, y) || qualifies(y, x)
}

// restated reports whether two spans, one in each text, differ only in
// words that each text also says elsewhere (`max_connections = 151` and
// `max_connections = 500` in texts that both give 151 and 500): a detail
// told in another place, not one changed.
func restated(tx, ty []string, a, b DetailSet) bool {
	said := func(ts, other []string, in DetailSet) bool {
		differ := false
		for _, t := range ts {
			if slices.ContainsFunc(other, func(o string) bool { return sameToken(t, o) }) {
				continue
			}
			if k := atomKey(t); k == "" || !in.Atoms[k] {
				return false
			}
			differ = true
		}
		return differ // the same words in another order are no restatement
	}
	return said(tx, ty, b) && said(ty, tx, a)
}

// spanSwapped reports whether two texts that share two code spans or more
// each hold a one-word span of one shape (spanShape) that the other text
// writes nowhere: one setting, feature or name put in place of another
// (`node-linker=hoisted` and `shamefully-hoist=true` in .npmrc; the
// `rt-multi-thread` and the `macros` feature of tokio). A rewording keeps
// the spans it shares with its original and the one it names as the fix;
// with fewer spans shared, a one-word span each side is as often a detail
// each adds (.await beside tokio::task::spawn_blocking).
func spanSwapped(a, b DetailSet) bool {
	shared := 0
	for _, x := range a.Spans {
		if slices.Contains(b.Spans, x) {
			shared++
		}
	}
	if shared < 2 {
		return false
	}
	ua, ub := unwrittenSpans(a, b), unwrittenSpans(b, a)
	for _, x := range ua {
		for _, y := range ub {
			if spanShape(x) == spanShape(y) {
				return true
			}
		}
	}
	return false
}

// unwrittenSpans are a's one-word spans that b writes nowhere: not a span,
// nor inside one, nor an atom, a word or a setting of its prose.
func unwrittenSpans(a, b DetailSet) []string {
	var out []string
	for _, x := range a.Spans {
		if strings.ContainsFunc(x, func(r rune) bool { return r == ' ' || r == '\t' || r == '\n' }) || !isASCII(x) {
			continue
		}
		if b.Atoms[atomKey(x)] || b.Words[x] || b.Settings[x] != nil ||
			slices.ContainsFunc(b.Spans, func(y string) bool { return strings.Contains(y, x) }) {
			continue
		}
		if k, v, ok := strings.Cut(x, "="); ok && slices.Contains(b.Settings[k], v) {
			continue
		}
		out = append(out, x)
	}
	return out
}

// spanShape is what a one-word span is: a setting given a value, a path,
// a flag, code (a call, an index, a tag) or a plain name.
func spanShape(x string) string {
	switch {
	case strings.Contains(x, "="):
		return "setting"
	case strings.Contains(x, "/"):
		return "path"
	case strings.HasPrefix(x, "-"):
		return "flag"
	case strings.ContainsAny(x, "([<{\"'"):
		return "code"
	}
	return "name"
}
