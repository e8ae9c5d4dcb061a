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
