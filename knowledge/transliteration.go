package knowledge

import (
	"slices"
	"strings"
	"unicode/utf8"
)

// Transliteration of Hangul loanwords to the English words they were
// written from, by the rules of transliteration.txt (see korean.go).

// enRule is one English grapheme rule of transliteration.txt.
type enRule struct {
	g      string
	start  bool
	before string // letters that may follow; "" for any, "$" for the end
	alts   []string
}

// translit holds the parsed transliteration rules.
type translit struct {
	initial, final map[string]string
	vowel          map[string]string
	en             []enRule
	// spellInitial and spellFinal are the English letters a consonant is
	// written with ("spell" lines).
	spellInitial, spellFinal map[string]string
}

func parseTranslit(text string) *translit {
	t := &translit{initial: map[string]string{}, final: map[string]string{}, vowel: map[string]string{},
		spellInitial: map[string]string{}, spellFinal: map[string]string{}}
	for _, line := range strings.Split(text, "\n") {
		f := strings.Fields(line)
		if len(f) != 3 || strings.HasPrefix(f[0], "#") {
			continue
		}
		cls := f[2]
		if cls == "-" {
			cls = ""
		}
		switch f[0] {
		case "initial":
			t.initial[f[1]] = cls
		case "final":
			t.final[f[1]] = cls
		case "vowel":
			t.vowel[f[1]] = f[2]
		case "spell-initial":
			t.spellInitial[f[1]] = f[2]
		case "spell-final":
			t.spellFinal[f[1]] = f[2]
		case "en":
			r := enRule{g: f[1]}
			if strings.HasPrefix(r.g, "^") {
				r.start, r.g = true, r.g[1:]
			}
			if g, before, ok := strings.Cut(r.g, "/"); ok {
				r.g, r.before = g, before
			}
			for _, a := range strings.Split(f[2], "|") {
				if a == "-" {
					a = ""
				}
				r.alts = append(r.alts, a)
			}
			t.en = append(t.en, r)
		}
	}
	return t
}

// collapse drops repeats of a sound class with no vowel (".") between
// them, then the vowels.
func collapse(s string) string {
	var b strings.Builder
	var prev byte
	for i := 0; i < len(s); i++ {
		if s[i] != prev && s[i] != '.' {
			b.WriteByte(s[i])
		}
		prev = s[i]
		if s[i] == '.' {
			prev = 0
		}
	}
	return b.String()
}

// hangulKey is the consonant-class sequence of a Hangul word and its
// vowels (the inserted ㅡ left out); ok is false for a word with other
// letters in it.
func (t *translit) hangulKey(w string) (key string, vowels []string, ok bool) {
	var b strings.Builder
	rs := []rune(w)
	open := false     // the previous syllable ends in a vowel
	inserted := false // and that vowel is an inserted ㅡ
	for n, r := range rs {
		s, isSyl := decompose(r)
		if !isSyl {
			return "", nil, false
		}
		v := jamoAt(jamoMedial, s.m)
		if n == 0 && s.i == 11 && !strings.Contains(glideVowels, v) {
			b.WriteByte('V') // a word that starts with a vowel
		}
		b.WriteString(t.initial[jamoAt(jamoInitial, s.i)])
		wasInserted := inserted
		inserted = false
		switch {
		case v == "ㅡ" && insertedEu(rs, n, s):
			// ㅡ is inserted between consonants (스, 트, 클), and the ㅣ of a
			// final 시, 지, 치 may be (cache, page, batch; but proxy), and of
			// a 시 before a consonant (dashboard: 대시보드).
			inserted = s.f == 0 && n > 0 // 쓰이다 is native: 쓰 is no cluster
		case v == "ㅣ" && s.f == 0 && n > 0 && (s.i == 9 || s.i == 12 || s.i == 14) && n == len(rs)-1,
			v == "ㅣ" && s.f == 0 && n > 0 && s.i == 9 && !startsWithVowel(rs[n+1]):
			vowels = append(vowels, "?"+v)
			if n < len(rs)-1 {
				// Inside a word it still parts the consonants around it
				// (메시지: 메.시.지).
				b.WriteByte('.')
			}
		case s.i == 11 && (v == "ㅣ" || v == "ㅜ") && open && !wasInserted:
			// the glide of a diphthong: 데이(터), 타임, 아웃; after an
			// inserted ㅡ, 이 is a vowel of its own (플러그인, 로그인). The
			// diphthong is one vowel (아이, the i of site: 사이트).
			if len(vowels) > 0 {
				vowels[len(vowels)-1] += v
			}
		default:
			vowels = append(vowels, v)
			b.WriteByte('.')
		}
		if s.f > 0 {
			b.WriteString(t.final[jamoFinal[s.f]])
		}
		open = s.f == 0
	}
	return collapse(b.String()), vowels, true
}

// startsWithVowel reports whether a Hangul syllable starts with a vowel
// sound (its initial is the silent ㅇ).
func startsWithVowel(r rune) bool {
	s, ok := decompose(r)
	return ok && s.i == 11
}

// insertedEu reports whether the ㅡ of syllable n (s) is the vowel Korean
// inserts into an English consonant cluster rather than a vowel: past the
// word's start (테스트, 카프카), before an l or r (크론, 클러스터, 프록시), or
// after an s (스크립트); with a final only for an l past the word's start
// (클러, 테이블, 미들웨어). 그대 and 들어 keep theirs.
func insertedEu(rs []rune, n int, s syllable) bool {
	last := n == len(rs)-1
	nextL := false
	if !last {
		next, ok := decompose(rs[n+1])
		nextL = ok && next.i == 5 // ㄹ
	}
	switch s.f {
	case 0:
		return n > 0 || last || nextL || s.i == 9 || s.i == 10 // ㅅ ㅆ
	case 8: // ㄹ
		return last || nextL || n > 0 // 미들웨어: middleware
	}
	return false
}

// glideVowels start with a y or w sound: 유, 웹 start with a consonant
// (unit, webhook).
const glideVowels = "ㅑㅒㅕㅖㅛㅠㅘㅙㅚㅝㅞㅟ"

// maxKeys caps the alternative sound sequences of one English word.
const maxKeys = 8

// englishKeys are the consonant-class sequences an English word may sound
// like, and its vowel groups (runs of vowel letters, a final silent e left
// out).
func (t *translit) englishKeys(w string) (keys []string, vowels []string) {
	keys = []string{""}
	// A word that starts with a vowel sound, not a "yu" (unit, user); a u
	// that may be either is both (ubuntu: 우분투).
	yu := strings.HasPrefix(w, "u") && len(w) > 2 && !isVowel(w[1]) && isVowel(w[2])
	switch {
	case w != "" && strings.ContainsRune("aeio", rune(w[0])) || strings.HasPrefix(w, "u") && !yu:
		keys[0] = "V"
	case yu:
		keys = append(keys, "V")
	}
	for i := 0; i < len(w); {
		matched := false
		for _, r := range t.en {
			if r.start && i != 0 || !strings.HasPrefix(w[i:], r.g) {
				continue
			}
			next := i + len(r.g)
			if r.before != "" {
				if next == len(w) {
					if !strings.Contains(r.before, "$") {
						continue
					}
				} else if !strings.ContainsRune(r.before, rune(w[next])) {
					continue
				}
			}
			var out []string
			for _, k := range keys {
				for _, a := range r.alts {
					if len(out) < maxKeys {
						out = append(out, k+a)
					}
				}
			}
			keys, i, matched = out, next, true
			break
		}
		if !matched {
			i++ // a letter no rule knows: silent
		}
	}
	for j := range keys {
		keys[j] = collapse(keys[j])
	}
	keys = slices.Compact(keys)
	end := len(w)
	if end > 2 && w[end-1] == 'e' && !strings.ContainsRune("aeiou", rune(w[end-2])) {
		end--
	}
	// The silent e after an r may be written (the 어 of 스토어, 소프트웨어).
	schwa := end < len(w) && w[end-1] == 'r'
	for i := 0; i < end; {
		if !strings.ContainsRune("aeiouy", rune(w[i])) || (w[i] == 'y' && i == 0) {
			i++
			continue
		}
		j := i + 1
		// a y between vowels is a consonant: layout is "ay" + "ou".
		for j < end && strings.ContainsRune("aeiouy", rune(w[j])) && !(w[j] == 'y' && j+1 < end && strings.ContainsRune("aeiou", rune(w[j+1]))) {
			j++
		}
		if j < end && w[j] == 'y' {
			j++
		}
		g := w[i:j]
		// A final y, and a lone e between single consonants inside a
		// compound (pipeline, gateway), may go unwritten in Hangul.
		if j == len(w) && g == "y" || g == "e" && i >= 2 && j < end && !isVowel(w[i-1]) && isVowel(w[i-2]) && !isVowel(w[j]) && j+1 < end && isVowel(w[j+1]) {
			g = "?" + g
		}
		vowels = append(vowels, g)
		i = j
	}
	if schwa {
		vowels = append(vowels, "?e")
	}
	return keys, vowels
}

func isVowel(c byte) bool { return strings.IndexByte("aeiouy", c) >= 0 }

// vowelScore is how well Korean vowels match English vowel groups: their
// longest common subsequence (a Korean vowel matching a group holding one
// of its letters) over the longer of the two, optional vowels ("?")
// counting where they match only.
func (t *translit) vowelScore(kv, ev []string) float64 {
	required := func(vs []string) int {
		n := 0
		for _, v := range vs {
			if !strings.HasPrefix(v, "?") {
				n++
			}
		}
		return n
	}
	den := max(required(kv), required(ev))
	if den == 0 {
		return 1
	}
	// before, prev and cur are rows of the table for kv[:i-1], kv[:i] and
	// kv[:i+1].
	before := make([]int, len(ev)+1)
	prev := make([]int, len(ev)+1)
	cur := make([]int, len(ev)+1)
	for i := range kv {
		letters := t.letters(kv[i])
		for j := range ev {
			g := strings.TrimPrefix(ev[j], "?")
			cur[j+1] = max(prev[j+1], cur[j])
			if strings.ContainsAny(g, letters) {
				cur[j+1] = max(cur[j+1], prev[j]+1)
			}
			if i > 0 && t.splits(kv[i-1], kv[i], g) {
				cur[j+1] = max(cur[j+1], before[j]+2)
			}
		}
		before, prev, cur = prev, cur, before
	}
	return min(1, float64(prev[len(ev)])/float64(den))
}

// letters are the English vowel letters a Korean vowel (hangulKey's) may
// stand for: a diphthong's own (아이: i, y) when transliteration.txt has
// them, else its first vowel's.
func (t *translit) letters(v string) string {
	v = strings.TrimPrefix(v, "?")
	if l, ok := t.vowel[v]; ok {
		return l
	}
	r, _ := utf8.DecodeRuneInString(v)
	return t.vowel[string(r)]
}

// splits reports whether two Korean vowels in a row spell an English vowel
// group of two letters or more, one letter each, in order: the i and o of
// audio (오디오), the e and o of video (비디오), the i and e of client
// (클라이언트). Only a group that starts with an i or e is read as two
// vowels (a hiatus); ai, au, oa, ou, ue, ee, oo and a group with a y are
// one (걸어야 is no query).
func (t *translit) splits(k1, k2, g string) bool {
	if len(g) < 2 || !strings.ContainsRune("ie", rune(g[0])) || g[1] == g[0] || strings.ContainsRune(g, 'y') {
		return false
	}
	l1, l2 := t.letters(k1), t.letters(k2)
	for p := 1; p < len(g); p++ {
		if strings.ContainsAny(g[:p], l1) && strings.ContainsAny(g[p:], l2) {
			return true
		}
	}
	return false
}

// minVowelScore is the least vowel agreement for a transliteration; a
// sequence of two consonant classes only in a word of two syllables (코드,
// 로그) is too common among native words to pass with less than full
// agreement, and then only for short English words.
const (
	minVowelScore = 0.75
	shortKeyWord  = 6
)

// transliterate returns the English words a Hangul word of two syllables
// or more may be written from: those of the vocabulary sharing its
// consonant sequence (two classes at least) whose vowels agree best, at
// most two.
func (l *lexicon) transliterate(w string) []string {
	key, kv, ok := l.tr.hangulKey(w)
	classes, syllables := len(strings.TrimPrefix(key, "V")), utf8.RuneCountInString(w)
	if !ok || classes < 1 || classes < 2 && syllables < 3 || syllables < 2 || !loanwordShape(w) {
		return nil
	}
	best, bestScore, bestSpelt := []string(nil), minVowelScore, 0
	for _, c := range l.vocab[key] {
		s := l.tr.vowelScore(kv, l.vocabVowels[c])
		if (classes == 2 && syllables < 3 || classes == 1) && (s < 1 || len(c) > shortKeyWord) {
			continue
		}
		switch {
		case s > bestScore+1e-9:
			best, bestScore, bestSpelt = []string{c}, s, -1
		case s > bestScore-1e-9:
			best = append(best, c)
		}
	}
	// Of equals, the words whose letters spell most of the Hangul's
	// consonants (사이트 is site, not git or chat: ㅅ is an s; 보드 is board,
	// not bot or pod), then the shortest: the fewest letters unwritten.
	if len(best) > 1 {
		kc := l.tr.hangulConsonants(w)
		kept := best[:0]
		for _, c := range best {
			switch n := l.tr.spelt(kc, c); {
			case n > bestSpelt:
				kept, bestSpelt = append(kept[:0], c), n
			case n == bestSpelt:
				kept = append(kept, c)
			}
		}
		best = kept
	}
	slices.SortStableFunc(best, func(a, b string) int { return len(a) - len(b) })
	return best[:min(len(best), 2)]
}

var digraphs = strings.NewReplacer("ch", "C", "sh", "S", "th", "T", "ph", "f")

// hangulConsonants are the consonants of a Hangul word, initials and
// finals in order, as the English letters each may be written with
// (transliteration.txt's "spell" lines); the silent ㅇ is left out.
func (t *translit) hangulConsonants(w string) []string {
	var out []string
	for _, r := range w {
		s, ok := decompose(r)
		if !ok {
			continue
		}
		if l := t.spellInitial[jamoAt(jamoInitial, s.i)]; l != "" {
			out = append(out, l)
		}
		if l := t.spellFinal[jamoFinal[s.f]]; s.f > 0 && l != "" {
			out = append(out, l)
		}
	}
	return out
}

// spelt is how many of a Hangul word's consonants (hangulConsonants) an
// English word's letters spell, in order: their longest common
// subsequence, the digraphs ch, sh, th and ph read as the letters C, S, T
// and f (chat's ch is no s).
func (t *translit) spelt(kc []string, en string) int {
	en = digraphs.Replace(en)
	prev := make([]int, len(en)+1)
	cur := make([]int, len(en)+1)
	for i := range kc {
		for j := 0; j < len(en); j++ {
			switch {
			case strings.IndexByte(kc[i], en[j]) >= 0:
				cur[j+1] = prev[j] + 1
			case prev[j+1] >= cur[j]:
				cur[j+1] = prev[j+1]
			default:
				cur[j+1] = cur[j]
			}
		}
		prev, cur = cur, prev
	}
	return prev[len(en)]
}

// loanwordFinals are the finals Hangul writes loanwords with (외래어 표기법
// article 3: ㄱ ㄴ ㄹ ㅁ ㅂ ㅅ ㅇ, as indexes into jamoFinal); verbEndings
// are last syllables of conjugated native verbs that no loanword ends in.
var (
	loanwordFinals = map[int]bool{0: true, 1: true, 4: true, 8: true, 16: true, 17: true, 19: true, 21: true}
	verbEndings    = "게면려며져"
)

// loanwordShape reports whether a Hangul word may be a loanword: a syllable
// with another final (넣었, 같게, 낮아: ㄶ ㅆ ㅌ ㅈ) or a verb's last syllable
// (돌게, 되면) makes it a native word, whatever its sounds.
func loanwordShape(w string) bool {
	rs := []rune(w)
	for _, r := range rs {
		if s, ok := decompose(r); ok && !loanwordFinals[s.f] {
			return false
		}
	}
	return !strings.ContainsRune(verbEndings, rs[len(rs)-1])
}

// addVocab adds an English word to the transliteration vocabulary.
func (l *lexicon) addVocab(w string) {
	if len(w) < 3 || !isASCIIWord(w) || l.vocabSeen[w] {
		return
	}
	l.vocabSeen[w] = true
	keys, vowels := l.tr.englishKeys(w)
	l.vocabVowels[w] = vowels
	for _, k := range keys {
		if len(strings.TrimPrefix(k, "V")) >= 1 {
			l.vocab[k] = append(l.vocab[k], w)
		}
	}
}

// dropInflectedVocab removes from the transliteration vocabulary the
// plurals and past tenses of its other words ("caches" beside "cache"): a
// Hangul loanword is written from the plain word (or its -ing: 캐싱).
func (l *lexicon) dropInflectedVocab() {
	for key, ws := range l.vocab {
		kept := ws[:0]
		for _, w := range ws {
			inflected := false
			if !strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ed") {
				kept = append(kept, w)
				continue
			}
			for _, c := range lemmaCandidates(w) {
				if c != w && l.vocabSeen[c] && lexStem(c) == lexStem(w) {
					inflected = true
					break
				}
			}
			if !inflected {
				kept = append(kept, w)
			}
		}
		l.vocab[key] = kept
	}
}
