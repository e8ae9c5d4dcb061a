package knowledge

import "strings"

// atomMatches is atomPattern.FindAllStringIndex(s, -1), with the regexp
// run only over the stretches of s where an atom can be. atomPattern was
// half of ParseDetails' time, most of it spent trying every position of
// plain words where none of its alternatives can start.
//
// Why the answer is the same: no atom holds a space (\s: tab, newline,
// form feed, return, space) but as its first byte (a flag's or a relative
// path's: " --force", " ./bin"), so each atom lies within one chunk, a
// space and the non-space bytes after it (the first chunk starts at 0
// without one). A chunk starts with a space, so \b and ^ read alike at its
// start in s and in a stretch cut from s (the alternatives starting with \b
// need a word byte there, and ^ a byte a space is not), and at its end
// too (what follows is a space or the end). The leftmost-first search
// after an atom restarts where that atom ends, so the atoms of s are the
// atoms of its stretches of whole chunks, in order. A chunk without a
// trigger (atomTrigger) holds none, and its stretch is never searched.
func atomMatches(s string) [][]int {
	var out [][]int
	start := -1 // the first chunk of the live stretch, or -1
	live := false
	flush := func(end int) {
		if start < 0 {
			return
		}
		for _, ix := range atomPattern.FindAllStringIndex(s[start:end], -1) {
			out = append(out, []int{ix[0] + start, ix[1] + start})
		}
		start = -1
	}
	chunk := 0
	for i := 0; i <= len(s); i++ {
		if i < len(s) && !asciiSpace(s[i]) || i == chunk && i < len(s) {
			if !live && atomTrigger(s, i) {
				live = true
			}
			continue
		}
		// s[chunk:i] is a chunk.
		if live {
			if start < 0 {
				start = chunk
			}
		} else {
			flush(chunk)
		}
		live = false
		chunk = i
	}
	flush(len(s))
	return out
}

// asciiSpace reports whether c is a space of regexp's \s.
func asciiSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'
}

// atomTrigger reports whether s[i] is a byte some atom needs (see
// atomPattern's alternatives): a digit (numbers, versions, hexadecimals,
// names with digits); one of - { / \ % _ @ (flags, braced groups, paths,
// Windows paths, joined identifiers); a . or : before a letter or digit
// (joined identifiers); a capital before a capital, digit or _ (words in
// capitals), or a small letter before a capital (inner capitals).
func atomTrigger(s string, i int) bool {
	c := s[i]
	var next byte
	if i+1 < len(s) {
		next = s[i+1]
	}
	switch {
	case c >= '0' && c <= '9':
		return true
	case c == '-' || c == '{' || c == '/' || c == '\\' || c == '%' || c == '_' || c == '@':
		return true
	case c == '.' || c == ':':
		return asciiAlnum(next)
	case c >= 'A' && c <= 'Z':
		return next >= 'A' && next <= 'Z' || next >= '0' && next <= '9' || next == '_'
	case c >= 'a' && c <= 'z':
		return next >= 'A' && next <= 'Z'
	}
	return false
}

// plainSettings is plainSetting.FindAllStringSubmatch(s, -1): none
// without an equals sign, which every match holds.
func plainSettings(s string) [][]string {
	if strings.IndexByte(s, '=') < 0 {
		return nil
	}
	return plainSetting.FindAllStringSubmatch(s, -1)
}

// colonSettings is colonSetting.FindAllStringSubmatch(s, -1): none
// without an equals sign and a colon, which every match holds.
func colonSettings(s string) [][]string {
	if strings.IndexByte(s, '=') < 0 || strings.IndexByte(s, ':') < 0 {
		return nil
	}
	return colonSetting.FindAllStringSubmatch(s, -1)
}

// jsonSettings is jsonSetting.FindAllStringSubmatch(s, -1): none without
// a double quote, which every match holds.
func jsonSettings(s string) [][]string {
	if strings.IndexByte(s, '"') < 0 {
		return nil
	}
	return jsonSetting.FindAllStringSubmatch(s, -1)
}

// proseWords is proseWord.FindAllStringIndex(s, -1), scanned by hand: the
// runs of ASCII letters with no word byte (regexp's \w: letters, digits,
// _) on either side.
func proseWords(s string) [][]int {
	var out [][]int
	for i := 0; i < len(s); {
		if !asciiLetter(s[i]) {
			i++
			continue
		}
		j := i
		for j < len(s) && asciiLetter(s[j]) {
			j++
		}
		if (i == 0 || !asciiWordByte(s[i-1])) && (j == len(s) || !asciiWordByte(s[j])) {
			out = append(out, []int{i, j})
		}
		i = j
	}
	return out
}
