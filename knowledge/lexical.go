package knowledge

import (
	"math"
	"slices"
	"strings"
	"sync"
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
		} else if englishStop[w] || len(w) < 2 && !isDigits(w) {
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

// englishStop, koreanStop and koreanEndings come from stopwords.txt:
// words too common to search by, and the particles (조사) and common verb
// endings cut from the end of a Hangul word, longest first, so
// "트랜잭션에서는" and "트랜잭션" match.
var englishStop, koreanStop, koreanEndings = parseStopwords(stopwordsText)

func parseStopwords(text string) (en, ko map[string]bool, endings []string) {
	en, ko = map[string]bool{}, map[string]bool{}
	for _, line := range strings.Split(text, "\n") {
		kind, words, ok := strings.Cut(line, ":")
		if !ok || strings.HasPrefix(kind, "#") {
			continue
		}
		for _, w := range strings.Fields(words) {
			switch kind {
			case "en":
				en[w] = true
			case "ko":
				ko[w] = true
			case "ending":
				endings = append(endings, w)
			}
		}
	}
	return en, ko, endings
}

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
	stems.mu.RLock()
	s, ok := stems.m[w]
	stems.mu.RUnlock()
	if ok {
		return s
	}
	s = english.Stem(w, true)
	stems.mu.Lock()
	if stems.m == nil || len(stems.m) >= stemCacheSize {
		stems.m = make(map[string]string, 1024)
	}
	stems.m[strings.Clone(w)] = s // w may be a slice of a whole entry
	stems.mu.Unlock()
	return s
}

// stems remembers English words' stems (lexStem is a pure function): a
// query stems every candidate it has not scored lately (docCache), some 200
// entries at 100,000, and the same few thousand words recur in all of
// them, so snowball ran for most of a query's CPU. It starts over when
// full.
var stems struct {
	mu sync.RWMutex
	m  map[string]string
}

const stemCacheSize = 50000

// lexDoc is one candidate's words: the stems it holds (stemLiteral) or
// stands for through its Korean words (stemBridge), and its thesaurus
// groups, sorted.
type lexDoc struct {
	stems    map[string]uint8
	concepts []int32
}

const (
	stemLiteral = 1
	stemBridge  = 2
)

func newLexDoc(e Entry) lexDoc {
	l := lex()
	d := lexDoc{stems: map[string]uint8{}}
	seen := map[int32]bool{}
	for _, w := range lexWords(e.Title + "\n" + e.Content + "\n" + strings.Join(e.Tags, " ")) {
		a := l.analyze(w)
		d.stems[a.stem] = stemLiteral
		for _, b := range a.bridgeStems {
			if d.stems[b] == 0 {
				d.stems[b] = stemBridge
			}
		}
		for _, c := range a.concepts {
			// WordNet's groups feed the offline vector only: general English
			// synonyms (shop, store) would make words meet that share no
			// term of the query.
			if int(c) < l.g.curated && !seen[c] {
				seen[c] = true
				d.concepts = append(d.concepts, c)
			}
		}
		// A Hangul compound holds its leading parts too: "커넥션풀" answers
		// "커넥션".
		if r := []rune(a.stem); len(r) > 2 && unicode.Is(unicode.Hangul, r[0]) {
			for i := 2; i < len(r); i++ {
				if p := string(r[:i]); d.stems[p] == 0 {
					d.stems[p] = stemLiteral
				}
			}
		}
	}
	slices.Sort(d.concepts)
	return d
}

func (d lexDoc) hasConcept(cs []int32) bool {
	for _, c := range cs {
		if _, ok := slices.BinarySearch(d.concepts, c); ok {
			return true
		}
	}
	return false
}

// How much a query word counts in an entry that lacks it but holds a word
// it stands for in the other language (bridgeMatch, 0.8 until a prompt in
// Korean about an English finding had to reach the relevance floor:
// 재시작 for "restart", 캐시 for "cache") or a word of one of its curated thesaurus groups
// (conceptMatch; WordNet's groups count in the vector only).
const (
	bridgeMatch  = 0.9
	conceptMatch = 0.6
)

// unreadWeight is how much a Hangul query word counts, relative to its
// IDF weight, when no candidate holds it and the lexicon cannot read it (no
// glossary word, transliteration or group): such a word is most often a
// verb or adverb in a conjugation the endings do not cut (줬더니, 채웠어),
// which says nothing of the topic, whereas an English word no candidate
// holds is most often the topic the corpus lacks.
const unreadWeight = 0.3

func unreadHangul(q lexWord) bool {
	return isHangulWord(q.stem) && len(q.bridgeStems) == 0 && len(q.concepts) == 0
}

// lexicalScores gives each candidate the weighted share of the query's terms
// it holds, a term held only through the other language counting
// bridgeMatch and only through its thesaurus group conceptMatch. A term's
// weight is its inverse document frequency among the candidates, so the
// words that tell candidates apart count most. Computed here, not by a
// driver's full-text rank, so every backend scores alike.
func lexicalScores(terms []string, docs []lexDoc) []float64 {
	out, _, _ := lexicalMatch(terms, docs)
	return out
}

// evidenceDocs is the least number of candidates a term's evidence weight
// is computed against (lexicalMatch): a hive of a few entries makes every
// word it holds look rare to the share, and its hits would otherwise never
// gather EvidenceFull.
const evidenceDocs = 100

// analyzeTerms analyses a query's terms once each, by stem.
func analyzeTerms(terms []string) []lexWord {
	l := lex()
	var qs []lexWord
	seen := map[string]bool{}
	for _, t := range terms {
		if a := l.analyze(t); !seen[a.stem] {
			seen[a.stem] = true
			qs = append(qs, a)
		}
	}
	return qs
}

// termMatch is how much of query word q entry d holds: 1 for the word
// itself, bridgeMatch for its other script's form, conceptMatch for its
// concept group, 0 for none.
func termMatch(d lexDoc, q lexWord) float64 {
	switch k := d.stems[q.stem]; {
	case k == stemLiteral:
		return 1
	case k == stemBridge:
		return bridgeMatch
	}
	for _, b := range q.bridgeStems {
		if d.stems[b] != 0 {
			return bridgeMatch
		}
	}
	if d.hasConcept(q.concepts) {
		return conceptMatch
	}
	return 0
}

// lexicalMatch returns lexicalScores' shares, each candidate's evidence
// and the query's: the summed weights of the query's terms a candidate
// holds (each term counted as in the share), and of all of them. A share
// is high when an entry holds most of a short query; the evidence says
// whether what it holds tells anything (three rare words, or two and a few
// common ones), whatever the query's length. A term's evidence weight is
// its IDF among at least evidenceDocs candidates.
func lexicalMatch(terms []string, docs []lexDoc) (share, evidence []float64, whole float64) {
	out := make([]float64, len(docs))
	evidence = make([]float64, len(docs))
	if len(terms) == 0 {
		return out, evidence, 0
	}
	qs := analyzeTerms(terms)
	n := float64(len(docs))
	ne := math.Max(n, evidenceDocs)
	weights := make([]float64, len(qs))
	eweights := make([]float64, len(qs))
	scores := make([][]float64, len(qs))
	var total float64
	for i, q := range qs {
		scores[i] = make([]float64, len(docs))
		df := 0.0
		for j, d := range docs {
			if m := termMatch(d, q); m > 0 {
				scores[i][j] = m
				df++
			}
		}
		weights[i] = math.Log(1 + (n+1)/(df+0.5))
		eweights[i] = math.Log(1 + (ne+1)/(df+0.5))
		if df == 0 && unreadHangul(q) {
			weights[i] *= unreadWeight
			eweights[i] *= unreadWeight
		}
		total += weights[i]
		whole += eweights[i]
	}
	for j := range docs {
		var got, ev float64
		for i := range qs {
			got += weights[i] * scores[i][j]
			ev += eweights[i] * scores[i][j]
		}
		out[j] = got / total
		evidence[j] = ev
	}
	return out, evidence, whole
}

// SearchWords are the words of text that search and the offline embedder
// look at: LexicalTerms' words in order, repeats kept.
func SearchWords(text string) []string { return lexWords(text) }

// Stem is the form under which two search words match (see LexicalTerms).
func Stem(word string) string { return lexStem(word) }

// expandTerms adds to terms, for full-text candidate search, the English
// words a Hangul term stands for, the Korean words of the glossary an
// English term translates, and up to per other words of each term's
// curated thesaurus groups, up to max terms in all.
func expandTerms(terms []string, max, per int) []string {
	l := lex()
	out := append([]string(nil), terms...)
	seen := map[string]bool{}
	for _, t := range terms {
		seen[t] = true
	}
	push := func(w string) bool {
		if len(out) >= max {
			return false
		}
		if !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
		return true
	}
	for _, t := range terms {
		a := l.analyze(t)
		for _, b := range a.bridges {
			if !push(b) {
				return out
			}
		}
		added := 0
		for _, ko := range l.reverse[t] {
			if added == 2 || !push(ko) {
				break
			}
			added++
		}
		added = 0
		for _, id := range a.concepts {
			if int(id) >= l.g.curated {
				continue
			}
			for _, w := range l.g.words[id] {
				if added >= per {
					break
				}
				if !seen[w] {
					if !push(w) {
						return out
					}
					added++
				}
			}
		}
	}
	return out
}

// CuratedConcept reports whether a concept name is a curated group's.
func CuratedConcept(name string) bool { return strings.HasPrefix(name, "t:") }
