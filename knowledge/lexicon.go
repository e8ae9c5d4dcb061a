package knowledge

import (
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"fmt"
	"strings"
	"sync"
	"unicode/utf8"
)

// The lexicon is everything search knows of words: stop words and Korean
// endings (stopwords.txt), the Snowball English stemmer, thesaurus groups
// (thesaurus.txt, wordnet.txt), the Korean glossary and transliteration
// rules (glossary.txt, transliteration.txt, loanwords.txt). LexiconDigest
// names it, so an embedder built on it can tell when its vectors change.

// lexiconRevision counts changes to the code that reads the lexicon: bump
// it when a change here, in lexical.go, thesaurus.go, korean.go or
// transliteration.go alters what a word yields, so LexiconDigest changes
// with it.
const lexiconRevision = 5

//go:embed stopwords.txt
var stopwordsText string

// lexicon is the parsed lexicon (see lex).
type lexicon struct {
	g           *groups
	tr          *translit
	glossary    map[string][]string // Korean form -> English words
	reverse     map[string][]string // English word -> Korean nouns of the glossary, in its order
	vocab       map[string][]string // consonant sequence -> English words
	vocabVowels map[string][]string
	vocabSeen   map[string]bool

	mu     sync.Mutex
	hangul map[string]lexWord // analyses of Hangul words, bounded
}

var (
	lexOnce sync.Once
	lexData *lexicon
)

// lex returns the lexicon, parsed on first use.
func lex() *lexicon {
	lexOnce.Do(func() {
		l := &lexicon{g: newGroups(), tr: parseTranslit(transliterationText), glossary: map[string][]string{},
			reverse: map[string][]string{}, vocab: map[string][]string{}, vocabVowels: map[string][]string{},
			vocabSeen: map[string]bool{}, hangul: map[string]lexWord{}}
		l.g.parseThesaurus(thesaurusText)
		l.g.parseWordNet(wordnetText)
		l.g.joinInflections()
		for _, line := range strings.Split(loanwordsText, "\n") {
			if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
				for _, w := range strings.Fields(line) {
					l.addVocab(foldWord(w))
				}
			}
		}
		l.parseGlossary(glossaryText)
		l.dropInflectedVocab()
		lexData = l
	})
	return lexData
}

// lexWord is what the lexicon makes of one search word.
type lexWord struct {
	stem string
	// bridges are the English words a Hangul word stands for (glossary,
	// transliteration), as written and as stems.
	bridges, bridgeStems []string
	concepts             []int32
}

// hangulCacheSize bounds the cache of Hangul analyses.
const hangulCacheSize = 50000

// analyze returns what the lexicon knows of a search word (one of
// SearchWords' words).
func (l *lexicon) analyze(w string) lexWord {
	if !isHangulWord(w) {
		return lexWord{stem: lexStem(w), concepts: l.g.lookup(w)}
	}
	l.mu.Lock()
	a, ok := l.hangul[w]
	l.mu.Unlock()
	if ok {
		return a
	}
	a = lexWord{stem: w, concepts: append([]int32(nil), l.g.lookup(w)...)}
	// A glossary word, conjugated or leading a compound (느려서, 설정값),
	// unless what follows it is too long for an ending and the whole word
	// reads as a loanword (데이터베이스 is database, not data).
	en, n := l.glossaryWords(w)
	if len(en) == 0 || utf8.RuneCountInString(w)-n >= 3 {
		if t := l.transliterate(w); len(t) > 0 {
			en = t
		}
	}
	for _, b := range en {
		s := lexStem(b)
		if s == "" || contains(a.bridgeStems, s) {
			continue
		}
		a.bridges = append(a.bridges, b)
		a.bridgeStems = append(a.bridgeStems, s)
		for _, id := range l.g.lookup(b) {
			if !containsID(a.concepts, id) {
				a.concepts = append(a.concepts, id)
			}
		}
	}
	l.mu.Lock()
	if len(l.hangul) >= hangulCacheSize {
		l.hangul = map[string]lexWord{}
	}
	l.hangul[w] = a
	l.mu.Unlock()
	return a
}

func contains(s []string, x string) bool {
	for _, y := range s {
		if y == x {
			return true
		}
	}
	return false
}

// Word is what search knows of one search word: the stem it matches under,
// the English words (and their stems) a Hangul word stands for, and the
// thesaurus groups it belongs to.
type Word struct {
	Stem                 string
	Bridges, BridgeStems []string
	Concepts             []string
}

// Analyze returns what search knows of word, one of SearchWords' words.
func Analyze(word string) Word {
	l := lex()
	a := l.analyze(word)
	out := Word{Stem: a.stem, Bridges: a.bridges, BridgeStems: a.bridgeStems}
	for _, id := range a.concepts {
		out.Concepts = append(out.Concepts, l.g.names[id])
	}
	return out
}

// LexiconDigest names the lexicon's contents: a hex SHA-256 of every file
// in it, the stems the Snowball stemmer gives the thesaurus's and the
// loanwords' English words (so a new stemmer version shows), and
// lexiconRevision. Anything that changes how a text is read changes it.
func LexiconDigest() string {
	digestOnce.Do(func() { digest = DigestOf(LexiconInputs()) })
	return digest
}

// DigestOf is the digest LexiconDigest gives a lexicon of these inputs.
func DigestOf(inputs []LexiconInput) string {
	h := sha256.New()
	fmt.Fprintf(h, "revision %d\n", lexiconRevision)
	for _, part := range inputs {
		fmt.Fprintf(h, "%s %d\n%s\n", part.Name, len(part.Text), part.Text)
	}
	return hex.EncodeToString(h.Sum(nil))
}

var (
	digestOnce sync.Once
	digest     string
)

// LexiconInput is one named input of the lexicon.
type LexiconInput struct{ Name, Text string }

// LexiconInputs lists what LexiconDigest covers.
func LexiconInputs() []LexiconInput {
	var probe strings.Builder
	for _, text := range []string{thesaurusText, loanwordsText} {
		for _, line := range strings.Split(text, "\n") {
			if strings.HasPrefix(line, "#") {
				continue
			}
			for _, w := range strings.FieldsFunc(line, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' }) {
				probe.WriteString(w + ">" + lexStem(strings.ToLower(w)) + " ")
			}
		}
	}
	return []LexiconInput{
		{"stopwords.txt", stopwordsText},
		{"thesaurus.txt", thesaurusText},
		{"wordnet.txt", wordnetText},
		{"glossary.txt", glossaryText},
		{"transliteration.txt", transliterationText},
		{"loanwords.txt", loanwordsText},
		{"stemmer", probe.String()},
	}
}
