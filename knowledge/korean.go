package knowledge

import (
	_ "embed"
	"regexp"
	"slices"
	"strings"
	"unicode"
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

// koreanAn is 안 at a word's start: the adverb "not" before a verb (안 된다,
// 안돼) or the noun "inside" (컨테이너 안에서, 함수 안 변수), told apart by
// koreanAnNegations. Group 1 is the word after a space, if any.
var koreanAn = regexp.MustCompile(`(?:^|[^\p{Hangul}])안(?:[되돼됨]|\s+(\p{Hangul}+))`)

// koreanAnNegations counts the 안 of prose that negate: attached to 되다
// (안돼, 안됨), or a word of its own before a predicate (안 된다, 안 보여요,
// 서버가 안 뜨는). 안 before a particle (안에서, 안 에서) or a noun (컨테이너
// 안 파일, Docker 안 이미지) is "inside", and so is 안 after a bare noun
// before a verb's adnominal form (컨테이너 안 돌아가는 프로세스), which
// modifies the noun that follows.
func koreanAnNegations(prose string) int {
	n := 0
	for _, m := range koreanAn.FindAllStringSubmatchIndex(prose, -1) {
		if m[2] < 0 {
			n++ // 안돼, 안됨, 안되면
			continue
		}
		next := []rune(prose[m[2]:m[3]])
		if koreanPredicate(next, afterBareNoun(prose[:m[0]+strings.Index(prose[m[0]:m[1]], "안")])) {
			n++
		}
	}
	return n
}

// koreanPredicate reports whether Hangul word w, after 안, is a verb or an
// adjective: a form of 되다 or 하다, or a verb's ending (된다, 보여요, 뜨고,
// 나오면), but no loanword (이미지, 레이어) and no particle (에서, 의). An
// adnominal form (뜨는, 된, 쓸) after a bare noun modifies what follows.
func koreanPredicate(w []rune, afterNoun bool) bool {
	if len(w) == 0 || strings.ContainsRune("에의으로와과", w[0]) && len(w) <= 3 {
		return false
	}
	if strings.ContainsRune("되돼됐된될됨됩하해했한할함합", w[0]) {
		return true
	}
	last := w[len(w)-1]
	if s, ok := decompose(last); ok && (s.f == 4 || s.f == 8) || strings.ContainsRune("는은던", last) {
		return !afterNoun // 뜨는, 된, 쓸: adnominal
	}
	if !strings.ContainsRune("다요죠네니냐까고면며음지게어아여워져서데나야라", last) {
		return false
	}
	return len(lex().transliterate(string(w))) == 0
}

// afterBareNoun reports whether before (the text up to 안) ends in a noun
// without a particle: a word in another script (Docker, pod) or a Hangul
// word whose last syllable is no particle or ending (컨테이너, 함수; not
// 서버가, 왜, 아직).
func afterBareNoun(before string) bool {
	f := strings.Fields(before)
	if len(f) == 0 || !strings.HasSuffix(before, " ") && !strings.HasSuffix(before, "\t") {
		return false
	}
	w := []rune(f[len(f)-1])
	last := w[len(w)-1]
	if !unicode.IsLetter(last) {
		return false
	}
	if !unicode.Is(unicode.Hangul, last) {
		return true
	}
	return len(w) >= 2 && !strings.ContainsRune("이가을를은는도만에서로의와과고게지히리왜직또잘꾸냥시속혀대", last)
}
