package gate

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// reDigitRun is a run of the characters a phone or card number is written
// with; rules marked digits search only inside these runs.
var reDigitRun = regexp.MustCompile(`[\d(][\d ()./-]*\d`)

// scanPII returns the kinds found in text and how many documented example
// values of documentedKinds passed as placeholders.
func scanPII(text string) (map[string]bool, int) {
	found := map[string]bool{}
	documented := 0
	// passed holds the digits of numbers that passed as examples.
	passed := map[string]bool{}
	// phones are the digits of the phone numbers that counted.
	var phones []string
	// covered keeps one kind from claiming digits another already matched
	// (a card number's digits also look like a phone number).
	var covered [][2]int
	// spans are the matches that count, for the kinds named beside them.
	var spans [][2]int
	overlaps := func(lo, hi int) bool {
		for _, c := range covered {
			if lo < c[1] && c[0] < hi {
				return true
			}
		}
		return false
	}
	var folded string
	var runs [][]int
	for _, r := range piiRules {
		var memo lineMemo
		if !mayMatch(r.re, text, &folded) {
			continue
		}
		if len(r.hints) > 0 {
			if folded == "" {
				folded = foldLower(text)
			}
			if !containsAny(folded, r.hints) {
				continue
			}
		}
		if r.may != nil && !r.may(text) {
			continue
		}
		if r.digits && runs == nil {
			runs = reDigitRun.FindAllStringIndex(text, -1)
		}
		for _, loc := range r.find(text, runs) {
			if r.named {
				for n := 0; n < 64 && loc[0] > 0 && isNameByte(text[loc[0]-1]); n++ {
					loc[0]--
				}
			}
			if overlaps(loc[0], loc[1]) {
				continue
			}
			m := text[loc[0]:loc[1]]
			if !boundaryOK(text, loc[0], loc[1], r.kind) {
				continue
			}
			if r.valid != nil && !r.valid(m) {
				continue
			}
			if r.near != nil && !r.near(text, loc[0], loc[1]) {
				continue
			}
			if r.lineNear != nil && !r.lineNear(text, loc[0], loc[1], &memo) {
				continue
			}
			for g := len(loc)/2 - 1; g > 0; g-- {
				if loc[2*g] >= 0 {
					m = text[loc[2*g]:loc[2*g+1]]
					break
				}
			}
			// The same number written again (010-1234-5678, then
			// 01012345678) is the example again.
			d := ""
			switch {
			case r.digits:
				d = digitsOf(text[loc[0]:loc[1]])
			case r.kind == PIIIBAN:
				d = strings.ReplaceAll(text[loc[0]:loc[1]], " ", "")
			}

			unsigned := r.kind == PIIJWT && jwtUnsigned(text, loc[0], loc[1]) && len(jwtClaims(m)) == 0
			if unsigned || r.placeholder != nil && r.placeholder(m) || r.example != nil && r.example(text, loc[0], loc[1]) || len(d) >= 7 && passed[d] {
				if documentedKinds[r.kind] {
					documented++
				}
				if len(d) >= 7 {
					passed[d] = true
				}
				covered = append(covered, [2]int{loc[0], loc[1]})
				continue
			}
			found[r.kind] = true
			if r.kind == PIIPhone {
				e := ""
				if text[loc[0]] == '+' {
					e = digitsOf(text[loc[0]:loc[1]])
				}
				phones = append(phones, e)
			}
			for _, k := range r.also {
				found[k] = true
			}
			spans = append(spans, [2]int{loc[0], loc[1]})
			if r.kind == PIIJWT {
				for k := range jwtClaims(m) {
					found[k] = true
				}
			}
			covered = append(covered, [2]int{loc[0], loc[1]})
		}
	}
	if len(phones) > 0 && e164Examples(phones, passed) {
		delete(found, PIIPhone)
		documented++
	}
	if len(spans) > 0 && ipNear(text, spans) {
		found[PIIIPAddress] = true
	}
	return found, documented
}

// find returns the rule's matches in text as FindAllStringSubmatchIndex
// does, searching only the digit runs when the rule is about numbers.
func (r piiRule) find(text string, runs [][]int) [][]int {
	if !r.digits {
		if r.re.NumSubexp() > 0 {
			return r.re.FindAllStringSubmatchIndex(text, -1)
		}
		return r.re.FindAllStringIndex(text, -1)
	}
	var out [][]int
	for _, run := range runs {
		// Widen the run by one byte each side so the pattern's own
		// boundaries and "(" see what they would in the whole text.
		lo, hi := max(run[0]-1, 0), min(run[1]+1, len(text))
		for _, loc := range r.re.FindAllStringIndex(text[lo:hi], -1) {
			out = append(out, []int{lo + loc[0], lo + loc[1]})
		}
	}
	return out
}

func containsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

func isNameByte(c byte) bool {
	return c == '_' || c == '.' || c == '-' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// boundaryOK rejects numeric matches glued to more digits, dots or word
// characters: a version string 1.2.3-4567-8901 or a longer id is not a number
// of a person.
func boundaryOK(text string, lo, hi int, kind string) bool {
	switch kind {
	case PIICard, PIIUSSSN, PIIKoreanRRN, PIIPhone, PIINationalID:
	default:
		return true
	}
	if lo > 0 {
		r, _ := utf8.DecodeLastRuneInString(text[:lo])
		// A number in E.164 after a dial string's slash or a URI's scheme
		// (PJSIP/+4915…, tel:+44…, sip:+1…) is dialled as written.
		dialled := kind == PIIPhone && text[lo] == '+' && (r == '/' || r == ':')
		if !dialled && (unicode.IsDigit(r) || r == '.' || r == '-' || r == '_' || r == '/' || unicode.IsLetter(r) && r < 0x80) {
			return false
		}
	}
	if hi < len(text) {
		r, _ := utf8.DecodeRuneInString(text[hi:])
		if unicode.IsDigit(r) || r == '-' || r == '_' || r == '/' || unicode.IsLetter(r) && r < 0x80 {
			return false
		}
		if r == '.' && hi+1 < len(text) {
			n, _ := utf8.DecodeRuneInString(text[hi+1:])
			if unicode.IsDigit(n) {
				return false
			}
		}
	}
	return true
}

func digitsOf(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r >= '0' && r <= '9' {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func standalone(string) bool { return true }

// e164Examples reports phone numbers that counted (digits) that are all
// an example number written again in E.164 (+82 10-1234-5678 after
// 010-1234-5678 was called an example): the country code (1 to 3 digits)
// replaces the trunk 0 of the national digits that passed. The E.164 rule
// runs before the national ones, so this is judged once all have run.
func e164Examples(phones []string, passed map[string]bool) bool {
	for _, d := range phones {
		same := false
		for cc := 1; cc <= 3 && cc < len(d)-6; cc++ {
			if passed["0"+d[cc:]] {
				same = true
				break
			}
		}
		if !same {
			return false
		}
	}
	return true
}
