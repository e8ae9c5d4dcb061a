package gate

import "unicode/utf8"

// runeWindow is the span of text from n bytes before lo to n bytes after
// hi, widened to whole runes: the neighbourhood in which the PII rules
// look for what makes a match someone's (a name, a field, a holder).
func runeWindow(text string, lo, hi, n int) (from, to int) {
	from, to = max(lo-n, 0), min(hi+n, len(text))
	for from > 0 && !utf8.RuneStart(text[from]) {
		from--
	}
	for to < len(text) && !utf8.RuneStart(text[to]) {
		to++
	}
	return from, to
}
