package knowledge

// Kinds of one-detail change that session 19's own look-alikes
// (pairs-lookalike-own5) found the other parses missing: a Korean number
// said in words (오백 → 삼백), a Korean negation that is a stop word (볼 수
// 없다 → 볼 수 있다), a version's minor told otherwise in other words (GnuPG
// 2.1 → 2.2).

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// hangulRun is a run of Hangul, a Korean word with its particle or ending.
var hangulRun = regexp.MustCompile(`\p{Hangul}+`)

// addKoreanKinds adds to d what the Hangul words of prose say that lexWords
// leaves out: the negations of the stop words that hold one (없다, 없는,
// 없으면, 못), the Sino-Korean numbers said in words (오백으로 → 500) and
// the native ones before a counter (세 번 → 3) as number atoms, and the days
// of the week (토요일 → saturday).
func (d *DetailSet) addKoreanKinds(prose string) {
	runs := hangulRun.FindAllString(prose, -1)
	for i, raw := range runs {
		d.addWordKind(raw, raw) // 매일, 하나도: details_classes.go
		if i+1 < len(runs) {
			if m := koreanModalPair(raw, runs[i+1]); m != "" {
				d.Atoms[kindAtom("modal", m)] = true
			}
		}
		w := trimKorean(raw)
		if w == "" || koreanStop[w] {
			for _, neg := range koreanNegators {
				d.Negations += strings.Count(w, neg)
			}
			continue
		}
		if n, ok := sinoNumber(w); ok {
			d.addAtom(strconv.Itoa(n))
		}
		if rs := []rune(w); len(rs) == 3 && string(rs[1:]) == "요일" && koreanWeekdays[rs[0]] != "" {
			d.addAtom(koreanWeekdays[rs[0]]) // 토요일: saturday
		}
	}
	for _, m := range nativeCount.FindAllStringSubmatch(prose, -1) {
		d.addAtom(strconv.Itoa(nativeNumbers[m[1]])) // 세 번: 3
	}
}

// sinoDigits and sinoUnits are the syllables of a Sino-Korean number.
var (
	sinoDigits = map[rune]int{'일': 1, '이': 2, '삼': 3, '사': 4, '오': 5, '육': 6, '칠': 7, '팔': 8, '구': 9}
	sinoUnits  = map[rune]int{'십': 10, '백': 100, '천': 1000}
)

// sinoNumber is the value of a Sino-Korean number said in words (오백 500,
// 삼십 30, 이천오백 2500, 백만 1000000): syllables of sinoDigits and
// sinoUnits and 만 only, two or more, one of them a unit, since a digit
// syllable alone or two of them are words too (이, 사이, 오이, 구이).
func sinoNumber(w string) (int, bool) {
	rs := []rune(w)
	if len(rs) < 2 {
		return 0, false
	}
	total, section, cur, unit := 0, 0, 0, false
	for _, r := range rs {
		if d, ok := sinoDigits[r]; ok {
			cur = d
			continue
		}
		if u, ok := sinoUnits[r]; ok {
			section += max(cur, 1) * u
			cur, unit = 0, true
			continue
		}
		if r != '만' {
			return 0, false
		}
		total += max(section+cur, 1) * 10000
		section, cur, unit = 0, 0, true
	}
	return total + section + cur, unit
}

// sameNumber reports whether Hangul word x says number y in words (오백,
// 500): one number written two ways.
func sameNumber(x, y string) bool {
	n, ok := sinoNumber(x)
	return ok && strconv.Itoa(n) == y
}

// versionsRival reports whether two numbers, each in one text only, are
// one version told otherwise: dotted, of as many parts, with the same
// first part (2.1 and 2.2, 10.0.0.5 and 10.0.0.7). A rewording keeps a
// version however it words what the version is of; numbersRival, which
// compares numbers by the word before them, misses "supports from 2.1 on"
// against "GnuPG 2.2 or later".
func versionsRival(x, y string) bool {
	if !isNumber(x) || !isNumber(y) || isHex(x) || isHex(y) || strings.Contains(x+y, ":") {
		return false
	}
	px, py := strings.Split(x, "."), strings.Split(y, ".")
	return len(px) >= 2 && len(px) == len(py) && px[0] == py[0] && x != y
}

// stopAntonymSwapped reports whether a swap of one word for one word puts
// a stop word's antonym in its place (before, after; at least, at most;
// above, below), or a Korean word of place or time its opposite (위로,
// 아래로; 배포 전에, 배포 후에): swapContent leaves stop words and Hangul
// syllables alone out, and a text that says the antonym elsewhere too
// hides the swap from a word set.
func stopAntonymSwapped(dropped, added []string) bool {
	if classSwapped(dropped, added) || oppositeSwapped(dropped, added) || comparisonSwapped(dropped, added) {
		return true
	}
	if len(dropped) != 1 || len(added) != 1 {
		return false
	}
	x, y := dropped[0], added[0]
	if koreanOpposites[x] == y || koreanOpposites[y] == x || denialSwapped(x, y) {
		return true
	}
	if !englishStop[x] && !englishStop[y] {
		return false
	}
	return antonymSwapped(dropped, added) || antonymSwapped(added, dropped)
}

// denialVerbs are the stems of the verbs that say no (refuse, reject,
// deny, block, forbid, disallow, ignore): one put in place of a verb that
// is none of them (refuse all clients, serve all clients) turns what the
// text says the other way round, as a negation would.
var denialVerbs = map[string]bool{"refus": true, "reject": true, "deni": true, "block": true, "forbid": true,
	"disallow": true, "ignor": true, "prohibit": true}

// denialSwapped reports whether one of two words swapped in place says no
// and the other neither says no nor means the same.
func denialSwapped(x, y string) bool {
	dx, dy := denialVerbs[lexStem(x)], denialVerbs[lexStem(y)]
	return dx != dy && !isHangulWord(x) && !isHangulWord(y) && !sameMeaning(x, y)
}

// koreanOpposites are Korean words of place, time and order, without their
// particles, by their opposites: a closed class the glossary does not
// bridge (위 is also a noun's "stomach", 전 "all" or "whole").
var koreanOpposites = map[string]string{"위": "아래", "전": "후", "앞": "뒤", "이전": "이후", "먼저": "나중",
	"왼쪽": "오른쪽", "상위": "하위", "위쪽": "아래쪽", "앞쪽": "뒤쪽", "처음": "마지막", "상단": "하단"}

// koreanWeekdays are the syllables before 요일 by the English day.
var koreanWeekdays = map[rune]string{'월': "monday", '화': "tuesday", '수': "wednesday", '목': "thursday",
	'금': "friday", '토': "saturday", '일': "sunday"}

// nativeCount is a native Korean number before a counter (세 번, 두 개,
// 다섯 시간), the counter followed by a particle or nothing Hangul.
var nativeCount = regexp.MustCompile(`(?:^|[^\p{Hangul}])(한|두|세|네|다섯|여섯|일곱|여덟|아홉|열|스무)\s?(?:번|개|명|시간|가지|차례|배|회)(?:까지|만|씩|째|마다|을|를|이|은|는|에|도|으로|의|[^\p{Hangul}]|$)`)

var nativeNumbers = map[string]int{"한": 1, "두": 2, "세": 3, "네": 4, "다섯": 5, "여섯": 6, "일곱": 7, "여덟": 8, "아홉": 9, "열": 10, "스무": 20}

// namesRival reports whether two texts name one kind of system with
// another name before it (Rocky Linux, Arch Linux; Ubuntu Server, Windows
// Server): two capitalised words in a row (DetailSet.Names, read in Seq),
// the second one a word of editionHeads in both, the first one in one text
// only. A rewording keeps which distribution or edition it speaks of,
// however it words the rest. (Any capitalised pair read so split a
// tuner-written rewording: TCP MSS in one text, VPN: MSS in the other.)
func namesRival(a, b DetailSet) bool {
	qa, qb := qualifiedNames(a), qualifiedNames(b)
	for head, xs := range qa {
		for _, x := range xs {
			if a.Names[x] && !b.Words[x] && slices.ContainsFunc(qb[head], func(y string) bool { return y != x && !a.Words[y] }) {
				return true
			}
		}
	}
	return false
}

// editionHeads are the words a distribution's or an edition's name ends
// with (Rocky Linux, Windows Server, Raspberry Pi OS, Fedora Workstation).
var editionHeads = map[string]bool{"linux": true, "server": true, "os": true, "desktop": true, "workstation": true,
	"edition": true, "enterprise": true, "community": true}

// qualifiedNames are d's names that follow a name, by the name before
// them: rocky → linux is linux: [rocky].
func qualifiedNames(d DetailSet) map[string][]string {
	var m map[string][]string
	for i := 0; i+1 < len(d.Seq); i++ {
		x, head := d.Seq[i], d.Seq[i+1]
		if !editionHeads[head] || x == head || !d.Names[x] || !d.Names[head] || englishStop[x] {
			continue
		}
		if m == nil {
			m = map[string][]string{}
		}
		if !slices.Contains(m[head], x) {
			m[head] = append(m[head], x)
		}
	}
	return m
}

// addKoreanDenied adds to d.Negated the stems of the Korean verbs its long
// negation denies in a statement (가져오지 않는다 → 가져오; 열리지 못했다 →
// 열리), from its words in order: not a condition (지우지 않으면) or a
// purpose (잊지 않도록), which a rewording may turn round; and the words a
// short negation denies as written (못 쓴다 → 쓴다).
func (d *DetailSet) addKoreanDenied() {
	for i := 0; i+1 < len(d.Seq); i++ {
		w, next := d.Seq[i], d.Seq[i+1]
		if (w == "못" || w == "안") && isHangulWord(next) {
			d.Negated[next] = true // 못 쓴다: no statement of 쓰 (koreanAffirms)
			continue
		}
		rs := []rune(w)
		if len(rs) < 2 || rs[len(rs)-1] != '지' || !isHangulWord(w) || !strings.HasPrefix(next, "않") && !strings.HasPrefix(next, "못") ||
			!koreanStatement(next) {
			continue
		}
		d.Negated[string(rs[:len(rs)-1])] = true
	}
}

// koreanStatement reports whether a negation's word ends a statement or
// names what it denies (않는다, 않았다, 못함, 않습니다, 않는, 않은), not a
// condition, a cause or a purpose (않으면, 못해, 않도록).
func koreanStatement(w string) bool {
	rs := []rune(w)
	switch last := rs[len(rs)-1]; {
	case strings.ContainsRune("다음함요", last):
		return true
	case w == "않는" || w == "않은" || w == "못한" || w == "못하는":
		return true
	}
	return false
}

// koreanAffirms reports whether d states Korean verb stem st as a plain
// statement (가져온다, 가져왔다, 가져옵니다, 먹는다, 먹었다), not after a short
// negation (못 쓴다).
func koreanAffirms(d DetailSet, st string) bool {
	says := func(w string) bool { return d.Words[w] && !d.Negated[w] }
	for _, f := range verbForms(st) {
		// The stem itself before 다 is a dictionary form or 다가 cut short
		// (받다 연결 시간 초과): no statement.
		if f != st && (says(f+"다") || says(f+"니다")) || says(f+"는다") {
			return true
		}
	}
	return says(st+"었다") || says(st+"았다") || says(st+"습니다")
}

// koreanDenied reports whether a denies a Korean verb (가져오지 않는다) that
// b states and never denies (가져온다), while a does not state it too: one
// says the tool does what the other says it does not, however each words
// the rest. A text that denies and then states a verb (열리지 않았다 …
// 열렸다) tells of a fix, and is not weighed so.
func koreanDenied(a, b DetailSet) bool {
	for st := range a.Negated {
		if isHangulWord(st) && !b.Negated[st] && !koreanAffirms(a, st) && koreanAffirms(b, st) {
			return true
		}
	}
	return false
}
