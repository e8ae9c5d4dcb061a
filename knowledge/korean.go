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
// 서버가 안 뜨는, 로그 안 나오는 문제). 안 before a particle (안에서, 안 에서)
// or a noun (컨테이너 안 파일을, Docker 안 이미지) is "inside", and so is 안
// between a noun of a place or container and a verb's adnominal form
// (컨테이너 안 돌아가는 프로세스), which then says what is in it, unless that
// form names a problem (컨테이너 안 뜨는 문제; placeNoun, problemNoun).
func koreanAnNegations(prose string) int {
	n := 0
	for _, m := range koreanAn.FindAllStringSubmatchIndex(prose, -1) {
		if m[2] < 0 {
			n++ // 안돼, 안됨, 안되면
			continue
		}
		next := []rune(prose[m[2]:m[3]])
		before := prose[:m[0]+strings.Index(prose[m[0]:m[1]], "안")]
		inside := afterPlaceNoun(before) && !problemNoun(firstWord(prose[m[3]:]))
		if koreanPredicate(next, inside) {
			n++
		}
	}
	return n
}

// koreanPredicate reports whether Hangul word w, after 안, is a verb or an
// adjective: a form of 되다 or 하다, or a verb's ending (된다, 보여요, 뜨고,
// 나오면), but no loanword (이미지, 레이어), no noun with a particle (파일을,
// 변수는) and no particle (에서, 의). An adnominal form (뜨는, 된, 쓸) after a
// place where 안 is "inside" (see koreanAnNegations) modifies what follows.
func koreanPredicate(w []rune, inside bool) bool {
	if len(w) == 0 || strings.ContainsRune("에의으로와과", w[0]) && len(w) <= 3 {
		return false
	}
	if strings.ContainsRune("되돼됐된될됨됩하해했한할함합", w[0]) {
		return true
	}
	last := w[len(w)-1]
	if s, ok := decompose(last); ok && (s.f == 4 || s.f == 8) || strings.ContainsRune("는은던", last) {
		if koreanNounWithParticle(w) {
			return false // 파일을, 이미지를, 변수는
		}
		return !inside // 뜨는, 된, 쓸: adnominal
	}
	if !strings.ContainsRune("다요죠네니냐까고면며음지게어아여워져서데나야라", last) {
		return false
	}
	return len(lex().transliterate(string(w))) == 0
}

// koreanNounWithParticle reports whether Hangul word w is a noun with a
// particle whose last syllable reads like an adnominal ending (파일을,
// 이미지를, 변수는, 문자열로만): a glossary noun or a loanword before it. A
// verb's stem is neither (나오는, 돌아가는, 지워지는, 보내는).
func koreanNounWithParticle(w []rune) bool {
	word := string(w)
	l := lex()
	for _, p := range []string{"으로만", "로만", "에만", "만을", "만은", "만", "을", "를", "은", "는"} {
		stem, ok := strings.CutSuffix(word, p)
		if !ok || utf8.RuneCountInString(stem) < 2 {
			continue
		}
		// A glossary word leading the stem says which it is (파일, 설정:
		// nouns; 지워지, 보내: a verb's forms, which may read as loanwords).
		if en, n := l.glossaryWords(stem); n > 0 {
			head := string([]rune(stem)[:n])
			for _, e := range en {
				if slices.Contains(l.reverse[e], head) {
					return true
				}
			}
			return false
		}
		if len(l.transliterate(stem)) > 0 {
			return true
		}
	}
	return false
}

// placeStems are the stems of the English words for what has an inside,
// where "X 안" reads as inside X: containers, code's scopes, files and
// folders, storage.
var placeStems = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`container docker pod image vm sandbox venv environment namespace cluster node
		function class module package block loop scope struct object array list map dict thread process transaction session
		file folder directory dir repository repo volume bucket table memory buffer queue cell notebook shell terminal
		browser page frame iframe tab window box document bracket brace parenthesis quote`) {
		m[lexStem(w)] = true
	}
	return m
}()

// placeHangul are native and Sino-Korean nouns of places the lexicon reads
// no English for.
const placeHangul = " 상자 방 집 문서 노트북 레포 셸 가상환경 괄호 중괄호 대괄호 소괄호 따옴표 "

// placeNoun reports whether word w names a place or a container
// (placeStems): its stem in another script (Docker, pod), its English
// readings in Hangul (컨테이너, 함수, 폴더).
func placeNoun(w string) bool {
	if !isHangulWord(w) {
		return placeStems[lexStem(strings.ToLower(w))]
	}
	if strings.Contains(placeHangul, " "+w+" ") {
		return true
	}
	for _, s := range lex().analyze(w).bridgeStems {
		if placeStems[s] {
			return true
		}
	}
	return false
}

// problemNoun reports whether Hangul word w, after an adnominal form, is a
// problem or an occasion with its particle, if any (문제, 현상이, 이유는,
// 에러가, 때): "로그 안 나오는 문제" is the logs not showing.
func problemNoun(w string) bool {
	for _, p := range []string{"문제", "현상", "이유", "오류", "에러", "버그", "증상", "경우", "상황", "원인", "이슈", "때"} {
		if rest, ok := strings.CutPrefix(w, p); ok && utf8.RuneCountInString(rest) <= 2 && !strings.HasPrefix(rest, "문") {
			return true
		}
	}
	return false
}

// firstWord is the first word of s, its punctuation trimmed.
func firstWord(s string) string {
	f := strings.Fields(s)
	if len(f) == 0 {
		return ""
	}
	return strings.TrimRightFunc(f[0], func(r rune) bool { return !unicode.IsLetter(r) })
}

// afterPlaceNoun reports whether before (the text up to 안) ends in a
// noun of a place or container without a particle (컨테이너, 함수, Docker,
// pod; not 로그, 컨테이너가, 왜, 아직: placeNoun).
func afterPlaceNoun(before string) bool {
	f := strings.Fields(before)
	if len(f) == 0 || !strings.HasSuffix(before, " ") && !strings.HasSuffix(before, "\t") {
		return false
	}
	w := []rune(strings.TrimLeftFunc(f[len(f)-1], func(r rune) bool { return !unicode.IsLetter(r) }))
	if len(w) == 0 || !unicode.IsLetter(w[len(w)-1]) {
		return false
	}
	if last := w[len(w)-1]; unicode.Is(unicode.Hangul, last) && strings.ContainsRune("이가을를은는도만에서로의와과고게지히리왜직또잘꾸냥시속혀대", last) {
		return false // 컨테이너가, 함수를: a particle, so 안 begins a predicate
	}
	return placeNoun(string(w))
}
