package knowledge

import (
	"math"
	"strings"
	"unicode"

	"github.com/kljensen/snowball/english"
	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// MaxLexicalTerms caps the terms a query hands to full-text search.
const MaxLexicalTerms = 32

// LexicalTerms returns the distinct search terms of text, in order: words of
// letters and digits, case-folded and NFC, split where Latin meets Hangul
// ("kubectl은" is "kubectl" + "은"), without English stop words, with
// Korean particles and common endings cut ("인덱스를" → "인덱스"), and at most
// MaxLexicalTerms. They are plain words: a driver escapes them for its own
// query syntax.
func LexicalTerms(text string) []string {
	seen := map[string]bool{}
	var out []string
	for _, w := range lexWords(text) {
		if seen[w] {
			continue
		}
		seen[w] = true
		out = append(out, w)
		if len(out) == MaxLexicalTerms {
			break
		}
	}
	return out
}

// lexWords splits text into search words, dropping stop words.
func lexWords(text string) []string {
	text = cases.Fold().String(norm.NFC.String(text))
	var out []string
	var b strings.Builder
	prevHangul := false
	flush := func() {
		if b.Len() == 0 {
			return
		}
		w := b.String()
		b.Reset()
		if prevHangul {
			w = trimKorean(w)
			if w == "" || koreanStop[w] {
				return
			}
		} else if english.IsStopWord(w) || len(w) < 2 && !isDigits(w) {
			return
		}
		out = append(out, w)
	}
	for _, r := range text {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			flush()
			continue
		}
		h := unicode.Is(unicode.Hangul, r)
		if b.Len() > 0 && h != prevHangul {
			flush()
		}
		prevHangul = h
		b.WriteRune(r)
	}
	flush()
	return out
}

func isDigits(s string) bool {
	for _, r := range s {
		if !unicode.IsDigit(r) {
			return false
		}
	}
	return s != ""
}

// koreanEndings are particles (조사) and common verb endings cut from the end
// of a Hangul word, longest first, so "트랜잭션에서는" and "트랜잭션" match.
var koreanEndings = []string{
	"에서는", "으로는", "에서도", "이라는", "하려면", "하더라도", "해야한다", "되어야",
	"에서", "으로", "에게", "한테", "까지", "부터", "처럼", "보다", "마다", "라는", "이란",
	"하면", "하고", "해야", "하는", "하지", "한다", "했다", "해서", "하여", "된다", "되면", "되는", "되고", "됐다", "된", "할", "한", "해",
	"은", "는", "이", "가", "을", "를", "에", "의", "와", "과", "도", "만", "로", "나",
}

// koreanStop are Hangul words too common to search by.
var koreanStop = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields("은 는 가 을 를 에 의 와 과 도 만 로 나 그 이 저 것 수 등 및 더 또 때 안 못 잘 그리고 하지만 그래서 때문 경우 있다 없다 있는 없는 있으면 없으면 같은 이런 그런 모든 각 다른") {
		m[w] = true
	}
	return m
}()

// trimKorean cuts one particle or ending off a Hangul word, keeping at least
// two syllables of stem (one for a word of two).
func trimKorean(w string) string {
	n := len([]rune(w))
	for _, e := range koreanEndings {
		if strings.HasSuffix(w, e) {
			rest := strings.TrimSuffix(w, e)
			if m := len([]rune(rest)); m >= 2 || (m == 1 && n == 2) {
				return rest
			}
		}
	}
	return w
}

// lexStem is the form under which two terms match in the engine's lexical
// score: the Snowball English stem of a Latin word, a Hangul word as
// LexicalTerms left it.
func lexStem(w string) string {
	for _, r := range w {
		if r > unicode.MaxLatin1 {
			return w
		}
	}
	return english.Stem(w, true)
}

// lexDoc is one candidate's stems.
type lexDoc map[string]bool

func newLexDoc(e Entry) lexDoc {
	d := lexDoc{}
	for _, w := range lexWords(e.Title + "\n" + e.Content + "\n" + strings.Join(e.Tags, " ")) {
		s := lexStem(w)
		d[s] = true
		if c := Concept(s); c != "" {
			d["~"+c] = true
		}
		// A Hangul compound holds its leading parts too: "커넥션풀" answers
		// "커넥션".
		if r := []rune(s); len(r) > 2 && unicode.Is(unicode.Hangul, r[0]) {
			for i := 2; i < len(r); i++ {
				d[string(r[:i])] = true
			}
		}
	}
	return d
}

// conceptMatch is how much a word's thesaurus group counts where the word
// itself is absent.
const conceptMatch = 0.6

// lexicalScores gives each candidate the weighted share of the query's terms
// it holds, a term held only through its thesaurus group counting
// conceptMatch. A term's weight is its inverse document frequency among the
// candidates, so the words that tell candidates apart count most. Computed
// here, not by a driver's full-text rank, so every backend scores alike.
func lexicalScores(terms []string, docs []lexDoc) []float64 {
	out := make([]float64, len(docs))
	if len(terms) == 0 {
		return out
	}
	type qterm struct{ stem, concept string }
	var qs []qterm
	seen := map[string]bool{}
	for _, t := range terms {
		if s := lexStem(t); !seen[s] {
			seen[s] = true
			c := Concept(s)
			if c != "" {
				c = "~" + c
			}
			qs = append(qs, qterm{s, c})
		}
	}
	match := func(d lexDoc, q qterm) float64 {
		switch {
		case d[q.stem]:
			return 1
		case q.concept != "" && d[q.concept]:
			return conceptMatch
		}
		return 0
	}
	n := float64(len(docs))
	weights := make([]float64, len(qs))
	var total float64
	for i, q := range qs {
		df := 0.0
		for _, d := range docs {
			if match(d, q) > 0 {
				df++
			}
		}
		weights[i] = math.Log(1 + (n+1)/(df+0.5))
		total += weights[i]
	}
	for j, d := range docs {
		var got float64
		for i, q := range qs {
			got += weights[i] * match(d, q)
		}
		out[j] = got / total
	}
	return out
}

// Interleave merges ranked lists of ids, best first, taking one from each
// list in turn and skipping repeats, up to n: how a driver with two text
// searches (stems, trigrams) hands both to the engine without either
// drowning the other.
func Interleave(n int, lists ...[]string) []string {
	seen := map[string]bool{}
	out := make([]string, 0, n)
	for i := 0; len(out) < n; i++ {
		more := false
		for _, list := range lists {
			if i >= len(list) {
				continue
			}
			more = true
			if !seen[list[i]] && len(out) < n {
				seen[list[i]] = true
				out = append(out, list[i])
			}
		}
		if !more {
			break
		}
	}
	return out
}
