package knowledge

import (
	_ "embed"
	"slices"
	"strings"
	"unicode/utf8"
)

// Korean ↔ English. A Hangul search word is tied to English words two ways:
// a bilingual glossary for native and Sino-Korean words (재시작 → restart,
// 느리다 → slow, with its conjugated forms; this file), and transliteration
// rules for loanwords (캐시 → cache; transliteration.go): the word's
// consonant sounds are matched against those of the English words
// engineers write in Hangul (loanwords.txt).

//go:embed glossary.txt
var glossaryText string

//go:embed transliteration.txt
var transliterationText string

//go:embed loanwords.txt
var loanwordsText string

const (
	hangulBase  = 0xAC00
	hangulLast  = 0xD7A3
	jamoInitial = "ㄱㄲㄴㄷㄸㄹㅁㅂㅃㅅㅆㅇㅈㅉㅊㅋㅌㅍㅎ"
	jamoMedial  = "ㅏㅐㅑㅒㅓㅔㅕㅖㅗㅘㅙㅚㅛㅜㅝㅞㅟㅠㅡㅢㅣ"
)

var jamoFinal = []string{"", "ㄱ", "ㄲ", "ㄳ", "ㄴ", "ㄵ", "ㄶ", "ㄷ", "ㄹ", "ㄺ", "ㄻ", "ㄼ", "ㄽ", "ㄾ", "ㄿ", "ㅀ", "ㅁ", "ㅂ", "ㅄ", "ㅅ", "ㅆ", "ㅇ", "ㅈ", "ㅊ", "ㅋ", "ㅌ", "ㅍ", "ㅎ"}

// syllable is a Hangul syllable's jamo: indexes into jamoInitial,
// jamoMedial and jamoFinal.
type syllable struct{ i, m, f int }

func decompose(r rune) (syllable, bool) {
	if r < hangulBase || r > hangulLast {
		return syllable{}, false
	}
	c := int(r - hangulBase)
	return syllable{c / 588, (c % 588) / 28, c % 28}, true
}

func (s syllable) rune() rune { return rune(hangulBase + s.i*588 + s.m*28 + s.f) }

func jamoAt(set string, i int) string { return string([]rune(set)[i]) }

// parseGlossary reads glossary.txt: "한국어 = english, words". A Korean
// verb or adjective (ending in 다) is entered under its conjugated stems.
func (l *lexicon) parseGlossary(text string) {
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		ko, en, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		var words []string
		for _, w := range strings.Split(en, ",") {
			words = append(words, lexWords(w)...)
		}
		ko = strings.TrimSpace(ko)
		forms := []string{ko}
		if strings.HasSuffix(ko, "다") && utf8.RuneCountInString(ko) >= 2 {
			forms = verbForms(strings.TrimSuffix(ko, "다"))
		} else if utf8.RuneCountInString(ko) >= 2 {
			for _, en := range words {
				if !slices.Contains(l.reverse[en], ko) {
					l.reverse[en] = append(l.reverse[en], ko)
				}
			}
		}
		for _, f := range forms {
			if f != "" && !containsWord(l.glossary[f], words) {
				l.glossary[f] = append(l.glossary[f], words...)
			}
		}
	}
}

func containsWord(have, add []string) bool {
	for _, a := range add {
		found := false
		for _, h := range have {
			found = found || h == a
		}
		if !found {
			return false
		}
	}
	return len(add) > 0
}

// verbForms returns the stems a Korean verb stem takes before its endings:
// itself, with a final ㄴ ㄹ ㅁ ㅂ (느린, 느릴, 느림, 느립니다), contracted with
// 어/아 and its past (느려, 느렸), 르 and ㅂ irregulars (빨라, 가벼워).
func verbForms(stem string) []string {
	rs := []rune(stem)
	if len(rs) == 0 {
		return nil
	}
	last, ok := decompose(rs[len(rs)-1])
	if !ok {
		return []string{stem}
	}
	head := string(rs[:len(rs)-1])
	with := func(s syllable) string { return head + string(s.rune()) }
	forms := []string{stem}
	if last.f == 0 {
		for _, f := range []int{4, 8, 16, 17} { // ㄴ ㄹ ㅁ ㅂ
			s := last
			s.f = f
			forms = append(forms, with(s))
		}
		for _, c := range contract(last, rs) {
			forms = append(forms, head+c)
		}
		if last.i == 5 && last.m == 18 && len(rs) >= 2 { // 르: 빠르 → 빨라
			p, ok := decompose(rs[len(rs)-2])
			if ok && p.f == 0 {
				p.f = 8
				v := 4 // 러
				if p.m == 0 || p.m == 8 {
					v = 0 // 라
				}
				pre := string(rs[:len(rs)-2]) + string(p.rune())
				forms = append(forms, pre+string(syllable{5, v, 0}.rune()), pre+string(syllable{5, v, 20}.rune()))
			}
		}
	} else if last.f == 17 { // ㅂ irregular: 가볍 → 가벼우, 가벼워, 가벼운
		s := last
		s.f = 0
		base := head + string(s.rune())
		forms = append(forms, base+"우", base+"워", base+"운", base+"웠")
	}
	return forms
}

// contract is the stem's last syllable merged with 어/아, and its past
// tense (지 → 져, 졌; 하 → 해, 했; 보 → 봐, 봤); none when it does not merge.
func contract(s syllable, rs []rune) []string {
	m := -1
	switch s.m {
	case 0, 4, 1, 5: // ㅏ ㅓ ㅐ ㅔ stay
		m = s.m
	case 8: // ㅗ → ㅘ
		m = 9
	case 13: // ㅜ → ㅝ
		m = 14
	case 20: // ㅣ → ㅕ
		m = 6
	case 11: // ㅚ → ㅙ
		m = 10
	case 18: // ㅡ → ㅓ, or ㅏ after ㅏ/ㅗ
		m = 4
		if len(rs) >= 2 {
			if p, ok := decompose(rs[len(rs)-2]); ok && (p.m == 0 || p.m == 8) {
				m = 0
			}
		}
	}
	if s.i == 18 && s.m == 0 { // 하 → 해
		m = 1
	}
	if m < 0 {
		return nil
	}
	return []string{string(syllable{s.i, m, 0}.rune()), string(syllable{s.i, m, 20}.rune())} // 져, 졌
}

// glossaryWords returns the English words of the longest glossary form
// that starts w, and its length in syllables: a form of two syllables or more may be followed by
// anything (endings, compounds: 연결되지, 설정값), a one-syllable form only
// by a short ending.
func (l *lexicon) glossaryWords(w string) (words []string, syllables int) {
	rs := []rune(w)
	for n := len(rs); n >= 1; n-- {
		ws, ok := l.glossary[string(rs[:n])]
		if !ok {
			continue
		}
		if n == 1 && len(rs) > 1 && (len(rs) > 3 || !strings.ContainsRune("다고아어은는을지게면서며니히힌혀", rs[1])) {
			continue
		}
		return ws, n
	}
	return nil, 0
}
