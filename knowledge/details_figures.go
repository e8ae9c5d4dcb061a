package knowledge

import (
	"math/big"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Figures written in digits (issue 23, item 4): a look-alike an outside
// writer makes of a finding rewords it and changes one number on the way
// (Port 2222, Port 2022; surefire 3.0.0, 2.22.2; --timeout 120, 300;
// gc_grace_seconds to 86400, to 3600), where no word before the number is
// the same on both sides for numbersRival to pair them. A rewording keeps
// its figures or states them otherwise: 40k and 4만, 4 hours and 14400 s,
// 40 pods and Forty pods, 09:00 and 9시. So a figure one text writes and
// the other states in no form is unexplained, and an unexplained figure on
// each side, of one shape (two integers, two versions), is one figure told
// otherwise (figuresRival). What a text states is read generously (every
// digit run and its parts, a quantity in another unit, a number word): a
// figure explained by mistake only lets a merge through, as before.

var (
	// figureRun is a number as written: 2222, 3.0.0, 09:00, 100,000.
	figureRun = regexp.MustCompile(`\d+(?:[.,:]\d+)*`)
	// multiplierAfter is a multiplier written after a number: 40k is
	// unitAfter's; these are the English words (Korean ones are
	// koreanAmount's).
	multiplierAfter = regexp.MustCompile(`^ ?(thousand|million|billion)`)
	// nativeNumeral is a native Korean number as a word of its own or
	// before a counter (세 배, 한 번도, 다섯 번째).
	nativeNumeral = regexp.MustCompile(`(?:^|[^\p{Hangul}])(한|두|세|네|다섯|여섯|일곱|여덟|아홉|열|스무)(?:\s|번|개|명|시간|가지|차례|배|회|째)`)
)

// multipliers are the values of multiplierAfter's words and of unitAfter's
// units that may count things rather than measure them (40k, 50M rows).
var multipliers = map[string]*big.Rat{"thousand": ratOf("1000"), "million": ratOf("1000000"), "billion": ratOf("1000000000"),
	"k": ratOf("1000"), "m": ratOf("1000000"), "g": ratOf("1000000000")}

// unitSeconds are unitAfter's time units in seconds ("m" is minutes or
// millions: both are stated), exact: 500ms and 500000us are one half of a
// second.
var unitSeconds = map[string]*big.Rat{"ns": ratOf("1/1000000000"), "us": ratOf("1/1000000"), "ms": ratOf("1/1000"), "s": ratOf("1"),
	"m": ratOf("60"), "h": ratOf("3600"), "d": ratOf("86400"), "w": ratOf("604800")}

// koreanSmall and koreanLarge are the Korean numerals written after a
// number: within a group of four digits (5천, 3백) and of the groups (4만,
// 1억, 3조), read together by koreanAmount (1억 2천만, 3천5백만, 5천억).
var (
	koreanSmall = map[string]int64{"십": 10, "백": 100, "천": 1000}
	koreanLarge = map[string]int64{"만": 1e4, "억": 1e8, "조": 1e12}
)

func ratOf(s string) *big.Rat {
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		panic("knowledge: bad constant " + s)
	}
	return r
}

// numberWords are the English words of numbers, for what a text states.
var numberWords = map[string]int{"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
	"eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
	"sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40,
	"fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90, "hundred": 100, "thousand": 1000,
	"once": 1, "twice": 2, "dozen": 12}

// addFigures fills d.Figures and d.Stated from text.
func (d DetailSet) addFigures(text string) {
	state := func(k string) { d.Stated[k] = true }
	amountEnd := 0               // the end of the Korean amount a figure began (1억 2천만)
	lits := literalFigures(text) // details_literals.go
	for _, l := range lits {
		state(l.key)
		state("=" + l.key)
		for _, p := range l.parts {
			state(p)
		}
		if standaloneFigure(text[:l.start], text[l.end:]) {
			if _, ok := d.Figures[l.key]; !ok {
				d.Figures[l.key] = []string{}
			}
		}
	}
	for _, ix := range figureRun.FindAllStringIndex(text, -1) {
		run, after := text[ix[0]:ix[1]], text[ix[1]:]
		key := atomKey(run)
		if key == "" || insideAny(lits, ix[0]) {
			continue
		}
		if negativeAt(text, ix[0]) {
			// -5 states neither 5 nor a quantity of 5 (details_literals.go).
			key = "-" + key
			state(key)
			state("=" + key)
			if standaloneFigure(text[:ix[0]], after) {
				if _, ok := d.Figures[key]; !ok {
					d.Figures[key] = []string{}
				}
			}
			continue
		}
		state(key)
		for _, p := range strings.FieldsFunc(run, func(r rune) bool { return r == '.' || r == ',' || r == ':' }) {
			state(atomKey(p))
		}
		if ix[0] < amountEnd {
			continue // 2 of 1억 2천만: the amount's figure holds it
		}
		qs, n := quantities(run, after)
		amountEnd = ix[1] + n
		for _, q := range qs {
			state(q)
		}
		if len(qs) == 0 {
			state("=" + key) // written bare, in no unit (explainedBy)
		}
		if standaloneFigure(text[:ix[0]], after) {
			if _, ok := d.Figures[key]; !ok {
				d.Figures[key] = []string{}
			}
			for _, q := range qs {
				if !slices.Contains(d.Figures[key], q) {
					d.Figures[key] = append(d.Figures[key], q)
				}
			}
		}
	}
	for start, i := -1, 0; i <= len(text); i++ {
		letter := i < len(text) && ('a' <= text[i]|0x20 && text[i]|0x20 <= 'z')
		switch {
		case letter && start < 0:
			start = i
		case !letter && start >= 0:
			if w := text[start:i]; len(w) >= 3 && len(w) <= 8 {
				if n, ok := numberWords[strings.ToLower(w)]; ok {
					state(strconv.Itoa(n))
				}
			}
			start = -1
		}
	}
	if strings.ContainsFunc(text, func(r rune) bool { return unicode.Is(unicode.Hangul, r) }) {
		for _, m := range nativeNumeral.FindAllStringSubmatch(text, -1) {
			state(strconv.Itoa(nativeNumbers[m[1]]))
		}
	}
}

// standaloneFigure reports whether a digit run between before and after is
// a figure of its own: not part of a name (UTF-8, v2c, x86_64, gp3, 51st)
// but a number, with a unit, a multiplier or a Korean particle after it
// or none.
func standaloneFigure(before, after string) bool {
	if r, n := utf8.DecodeLastRuneInString(before); n > 0 {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '.' {
			return false
		}
		if r == '-' {
			if p, m := utf8.DecodeLastRuneInString(before[:len(before)-n]); m > 0 && (unicode.IsLetter(p) || unicode.IsDigit(p)) {
				return false
			}
		}
	}
	r, n := utf8.DecodeRuneInString(after)
	if n == 0 || !unicode.IsLetter(r) || unicode.Is(unicode.Hangul, r) {
		return true
	}
	if unitAttached.MatchString(beforeHangul(after)) {
		return true
	}
	// Another short suffix is a unit too (10pt, 2em, 4096x32), but for an
	// ordinal's (51st, 3rd).
	i := 0
	for i < len(after) && i <= 3 && ('a' <= after[i]|0x20 && after[i]|0x20 <= 'z') {
		i++
	}
	if i > 3 || ordinalSuffix[strings.ToLower(after[:i])] {
		return false
	}
	r, _ = utf8.DecodeRuneInString(after[i:])
	return i == len(after) || !unicode.IsLetter(r) || unicode.Is(unicode.Hangul, r)
}

// ordinalSuffix are the endings of English ordinals.
var ordinalSuffix = map[string]bool{"st": true, "nd": true, "rd": true, "th": true}

// beforeHangul is s up to a Hangul letter that follows its leading Latin
// letters: a Korean particle written on a unit (10s인데, 512MB로) ends
// the unit as a space would.
func beforeHangul(s string) string {
	i := 0
	for i < len(s) && ('a' <= s[i]|0x20 && s[i]|0x20 <= 'z') {
		i++
	}
	if r, _ := utf8.DecodeRuneInString(s[i:]); i > 0 && unicode.Is(unicode.Hangul, r) {
		return s[:i]
	}
	return s
}

// quantities are the values a number with what follows it states beyond
// its digits: "n" and the count (40k, 4만: n40000), "t" and the seconds (4
// hours: t14400; 500ms: t0.5), and the hour of a time on the hour (09:00:
// 9), with how many bytes of after a Korean amount took (1억 2천만, whose
// 2 is no figure of its own). A bare number states its digits only, which
// stand for any of these (explainedBy). Values are exact (big.Rat): a
// figure of many digits, or 500ms beside 500000us, loses nothing to
// floating point.
func quantities(run, after string) ([]string, int) {
	if h, m, ok := strings.Cut(run, ":"); ok {
		if strings.Trim(m, "0") == "" && !strings.Contains(m, ":") {
			return []string{atomKey(h)}, 0
		}
		return nil, 0
	}
	if strings.Count(run, ".") > 1 || len(run) > 40 {
		return nil, 0
	}
	v, ok := new(big.Rat).SetString(strings.ReplaceAll(run, ",", ""))
	if !ok {
		return nil, 0
	}
	var out []string
	add := func(kind string, x *big.Rat) {
		if q := exactDecimal(x); q != "" {
			out = append(out, kind+q)
		}
	}
	if amount, n := koreanAmount(v, after); n > 0 {
		add("n", amount)
		return out, n
	}
	u := unitAfter(beforeHangul(after))
	if m := multiplierAfter.FindStringSubmatch(strings.ToLower(prefix(after, 16))); m != nil && u == "" {
		u = m[1]
	}
	u = strings.TrimSuffix(u, "i") // Ki, Mi: a count of their own is near enough
	if f, ok := multipliers[u]; ok {
		add("n", new(big.Rat).Mul(v, f))
	}
	if f, ok := unitSeconds[u]; ok {
		add("t", new(big.Rat).Mul(v, f))
	}
	return out, 0
}

// koreanAmount reads the Korean numerals after a number v, and the numbers
// and numerals that continue it: 4만 is 40000, 5천억 500000000000, 1억
// 2천만 120000000, 3천5백만 35000000. n is how many bytes of after it
// read, 0 when no numeral follows v.
func koreanAmount(v *big.Rat, after string) (amount *big.Rat, n int) {
	total, group, cur := new(big.Rat), new(big.Rat), new(big.Rat).Set(v)
	i, end := 0, 0
	if strings.HasPrefix(after, " ") {
		i = 1 // 4 만
	}
	for i < len(after) {
		r, w := utf8.DecodeRuneInString(after[i:])
		if f, ok := koreanSmall[string(r)]; ok {
			group.Add(group, cur.Mul(cur, big.NewRat(f, 1)))
			cur.SetInt64(0)
			i += w
			end = i
			continue
		}
		if f, ok := koreanLarge[string(r)]; ok {
			group.Add(group, cur)
			total.Add(total, group.Mul(group, big.NewRat(f, 1)))
			group.SetInt64(0)
			cur.SetInt64(0)
			i += w
			end = i
			continue
		}
		// A number written on after a numeral continues the amount when
		// a numeral follows it too (1억 2천만, 3천5백만, 10만 5천).
		j := i
		if end == 0 || j != end {
			break
		}
		if after[j] == ' ' {
			j++
		}
		k := j
		for k < len(after) && k-j < 5 && '0' <= after[k] && after[k] <= '9' {
			k++
		}
		if k == j || k == len(after) {
			break
		}
		r, _ = utf8.DecodeRuneInString(after[k:])
		if _, small := koreanSmall[string(r)]; !small && koreanLarge[string(r)] == 0 {
			break
		}
		cur.SetString(after[j:k])
		i = k
	}
	if end == 0 {
		return nil, 0
	}
	return total.Add(total, group.Add(group, cur)), end
}

// exactDecimal is x > 0 written as a decimal (14400, 0.5), or "" when it
// has none of at most 12 places.
func exactDecimal(x *big.Rat) string {
	if x.Sign() <= 0 {
		return ""
	}
	if x.IsInt() {
		return x.Num().String()
	}
	s := x.FloatString(12)
	if back, ok := new(big.Rat).SetString(s); !ok || back.Cmp(x) != 0 {
		return ""
	}
	return strings.TrimRight(strings.TrimRight(s, "0"), ".")
}

// figuresRival reports whether each text writes a figure the other states
// in no form, the two of one shape (figureShape): one number told
// otherwise. A rewording restates its figures; it may add one (a count
// it works out, 40 pods of 5 need 200) but not change one it keeps.
func figuresRival(a, b DetailSet) bool {
	if signFlipped(a, b) || signFlipped(b, a) {
		return true
	}
	ua := unexplainedFigures(a, b)
	if len(ua) == 0 {
		return false
	}
	for _, y := range unexplainedFigures(b, a) {
		for _, x := range ua {
			if figureShape(x, a.Figures[x]) == figureShape(y, b.Figures[y]) {
				return true
			}
		}
	}
	return false
}

// signFlipped reports whether a writes a negative figure (-1) whose
// magnitude b writes as a figure (1) and a does not, b stating no -1: the
// one number told with the other sign, however generously each text's
// words state numbers (the first one states a 1).
func signFlipped(a, b DetailSet) bool {
	for x := range a.Figures {
		if !strings.HasPrefix(x, "-") || b.states(x) {
			continue
		}
		if _, ok := b.Figures[x[1:]]; ok {
			if _, own := a.Figures[x[1:]]; !own {
				return true
			}
		}
	}
	return false
}

// unexplainedFigures are the figures a writes that b states in no form.
func unexplainedFigures(a, b DetailSet) []string {
	var out []string
	for x, qs := range a.Figures {
		// A figure in a unit or with a multiplier is explained by its
		// value (5 minutes by 300 s, 5m or a bare 300; 40k by 40000), or
		// by its digits written bare, which stand for any unit: not by 5
		// seconds, nor 40 by 40m.
		if b.Stated["="+x] || (len(qs) == 0 || a.Stated["="+x]) && b.states(x) {
			continue
		}
		explained := false
		for _, q := range qs {
			explained = explained || explainedBy(q, b)
		}
		if !explained {
			out = append(out, x)
		}
	}
	return out
}

// explainedBy reports whether b states quantity q: as a quantity, or as
// its digits alone (14400 for 4 hours: t14400), a bare number being read
// in whatever unit the quantity needs.
func explainedBy(q string, b DetailSet) bool {
	return b.states(q) || len(q) > 1 && (q[0] == 'n' || q[0] == 't') && b.Stated["="+q[1:]]
}

// states reports whether d states value v: Stated leaves out what Atoms
// holds (pruneStated).
func (d DetailSet) states(v string) bool { return d.Stated[v] || d.Atoms[v] }

// pruneStated drops from d.Stated the values d.Atoms holds, which states
// reads there: most of a text's digit runs are atoms, and an entry's
// details are read for every contribution that probes it.
func (d DetailSet) pruneStated() {
	for v := range d.Stated {
		if d.Atoms[v] {
			delete(d.Stated, v)
		}
	}
}

// figureShape is a figure's kind of number: an integer, a decimal, a
// version (two dots or more) or a time; a count with a multiplier has its
// value's (1.5k is an integer). A time keeps its own (5000 ms and 15007
// ms are integers, though 15.007 s is not).
func figureShape(x string, qs []string) string {
	for _, q := range qs {
		if q[0] == 'n' && !strings.Contains(q, ".") {
			return "integer"
		}
	}
	switch {
	case strings.Contains(x, ":"):
		return "time"
	case strings.Count(x, ".") > 1:
		return "version"
	case strings.Contains(x, "."):
		return "decimal"
	}
	return "integer"
}

// prefix is s's first n bytes at most: what a pattern that reads a few
// bytes after a number needs of the rest of a text, which copying whole
// for each of its numbers made quadratic in the text's length.
func prefix(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}
