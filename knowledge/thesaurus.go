package knowledge

import (
	_ "embed"
	"strings"
	"unicode"
)

// thesaurusText holds groups of words engineers use for one idea, curated
// for this project; see the file's header.
//
//go:embed thesaurus.txt
var thesaurusText string

// wordnetText holds English synonym groups, antonyms and irregular forms
// derived from WordNet 3.0 by wordnet_gen.go (scripts/wordnet.sh).
//
//go:embed wordnet.txt
var wordnetText string

// groups is the thesaurus: every group's words, indexed by the exact word.
type groups struct {
	names    []string           // group id -> name ("t:error", "w:v01860813")
	words    [][]string         // group id -> its words as written
	byWord   map[string][]int32 // word (case-folded) -> its groups
	lemma    map[string]string  // irregular form -> lemma (WordNet's exceptions)
	antonyms map[string][]string
	curated  int // groups[:curated] are thesaurus.txt's
}

func newGroups() *groups {
	return &groups{byWord: map[string][]int32{}, lemma: map[string]string{}, antonyms: map[string][]string{}}
}

func (g *groups) add(name string, words []string) {
	id := int32(len(g.names))
	g.names = append(g.names, name)
	g.words = append(g.words, words)
	for _, w := range words {
		if !containsID(g.byWord[w], id) {
			g.byWord[w] = append(g.byWord[w], id)
		}
	}
}

func containsID(s []int32, id int32) bool {
	for _, x := range s {
		if x == id {
			return true
		}
	}
	return false
}

// parseThesaurus reads the curated groups: one a line, words separated by
// commas, the first naming the group. A word may be in several groups.
func (g *groups) parseThesaurus(text string) {
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if a, b, ok := strings.Cut(strings.TrimPrefix(line, "!"), ","); ok && strings.HasPrefix(line, "!") {
			a, b = strings.TrimSpace(a), strings.TrimSpace(b)
			g.antonyms[a] = append(g.antonyms[a], b)
			g.antonyms[b] = append(g.antonyms[b], a)
			continue
		}
		var words []string
		for _, w := range strings.Split(line, ",") {
			if w = foldWord(w); w != "" {
				words = append(words, w)
			}
		}
		if len(words) > 1 {
			g.add("t:"+words[0], words)
		}
	}
	g.curated = len(g.names)
}

// joinInflections gives a word its lemma's groups when one of its curated
// groups lists both ("stopped" and "stop": "stopped" then also meets
// WordNet's groups of "stop"). Run once every group is in.
func (g *groups) joinInflections() {
	for id := 0; id < g.curated; id++ {
		for _, w := range g.words[id] {
			if !isASCIIWord(w) {
				continue
			}
			stem := lexStem(w)
			for _, l := range lemmaCandidates(w) {
				if l == w || !containsID(g.byWord[l], int32(id)) || lexStem(l) != stem {
					continue
				}
				for _, x := range g.byWord[l] {
					if !containsID(g.byWord[w], x) {
						g.byWord[w] = append(g.byWord[w], x)
					}
				}
			}
		}
	}
}

// parseWordNet reads wordnet.txt: "<pos><offset> a,b,c" groups, "! a,b"
// antonyms and "= form lemma" irregular forms.
func (g *groups) parseWordNet(text string) {
	for _, line := range strings.Split(text, "\n") {
		if line == "" || line[0] == '#' {
			continue
		}
		head, rest, ok := strings.Cut(line, " ")
		if !ok {
			continue
		}
		switch head {
		case "!":
			if a, b, ok := strings.Cut(rest, ","); ok {
				g.antonyms[a] = append(g.antonyms[a], b)
				g.antonyms[b] = append(g.antonyms[b], a)
			}
		case "=":
			if form, lemma, ok := strings.Cut(rest, " "); ok {
				if _, taken := g.lemma[form]; !taken {
					g.lemma[form] = lemma
				}
			}
		default:
			g.add("w:"+head, strings.Split(rest, ","))
		}
	}
}

// foldWord is a thesaurus word as search sees it: case-folded and NFC, one
// word (of letters and digits) or nothing.
func foldWord(w string) string {
	ws := lexWords(w)
	if len(ws) != 1 {
		return "" // a stop word, or two words
	}
	return ws[0]
}

// lookup returns the groups of a search word: the groups that list it;
// else those of the word it inflects ("caching" → "cache", "stopped" →
// "stop", "froze" → "freeze") and of its exact Snowball stem when that is a
// listed word itself ("connected" → "connect"). A word never meets a group
// through a stem it merely shares with its words: "contains" is no
// inflection of "container", and "contain" is not in its group.
func (g *groups) lookup(w string) []int32 {
	if ids, ok := g.byWord[w]; ok {
		return ids
	}
	if !isASCIIWord(w) {
		return nil
	}
	var out []int32
	addAll := func(ids []int32) {
		for _, id := range ids {
			if !containsID(out, id) {
				out = append(out, id)
			}
		}
	}
	if l, ok := g.lemma[w]; ok {
		addAll(g.byWord[l])
	}
	stem := ""
	for _, l := range lemmaCandidates(w) {
		ids := g.byWord[l]
		if len(ids) == 0 {
			continue
		}
		// "seed" is no inflection of "see": the stems must agree too.
		if stem == "" {
			stem = lexStem(w)
		}
		if lexStem(l) == stem {
			addAll(ids)
		}
	}
	if stem == "" {
		stem = lexStem(w)
	}
	addAll(g.byWord[stem])
	return out
}

func isASCIIWord(w string) bool {
	for i := 0; i < len(w); i++ {
		if c := w[i]; c < 'a' || c > 'z' {
			return false
		}
	}
	return len(w) > 0
}

// lemmaCandidates undoes the regular English inflections of w: plurals and
// third persons (-s, -es, -ies), past tenses (-ed, -d, -ied, doubled
// consonants), gerunds (-ing, with a dropped e or a doubled consonant) and
// comparatives (-er, -est). Only candidates that are words of a group and
// share w's Snowball stem are used, so over-generating is harmless.
func lemmaCandidates(w string) []string {
	var out []string
	add := func(s string) {
		if len(s) >= 2 {
			out = append(out, s)
		}
	}
	undouble := func(s string) {
		if n := len(s); n >= 3 && s[n-1] == s[n-2] && !strings.ContainsRune("aeiouls", rune(s[n-1])) {
			add(s[:n-1])
		}
	}
	switch {
	case strings.HasSuffix(w, "ies"):
		add(w[:len(w)-3] + "y")
	case strings.HasSuffix(w, "es"):
		add(w[:len(w)-2])
		add(w[:len(w)-1])
	case strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss"):
		add(w[:len(w)-1])
	}
	switch {
	case strings.HasSuffix(w, "ied"):
		add(w[:len(w)-3] + "y")
	case strings.HasSuffix(w, "ed"):
		s := w[:len(w)-2]
		add(s)
		add(s + "e")
		undouble(s)
	}
	if strings.HasSuffix(w, "ing") {
		s := w[:len(w)-3]
		add(s)
		add(s + "e")
		undouble(s)
	}
	for _, suf := range []string{"est", "er"} {
		if strings.HasSuffix(w, suf) {
			s := w[:len(w)-len(suf)]
			add(s)
			add(s + "e")
			if strings.HasSuffix(s, "i") {
				add(s[:len(s)-1] + "y")
			}
			undouble(s)
			break
		}
	}
	return out
}

// isHangulWord reports whether w starts with a Hangul letter.
func isHangulWord(w string) bool {
	for _, r := range w {
		return unicode.Is(unicode.Hangul, r)
	}
	return false
}

// antonymsOf returns the antonyms of an English word (WordNet's, and the
// thesaurus's "!" lines), and their inflections' when w is one.
func (g *groups) antonymsOf(w string) []string {
	if a, ok := g.antonyms[w]; ok {
		return a
	}
	if l, ok := g.lemma[w]; ok {
		return g.antonyms[l]
	}
	for _, l := range lemmaCandidates(w) {
		if a, ok := g.antonyms[l]; ok && lexStem(l) == lexStem(w) {
			return a
		}
	}
	return nil
}
