package knowledge

import (
	_ "embed"
	"strings"
)

// thesaurusText holds groups of words engineers use for one idea; see the
// file's header.
//
//go:embed thesaurus.txt
var thesaurusText string

// concepts maps a search stem to its group's name (the group's first
// word); groupWords lists each group's words as written, for expandTerms.
var concepts, groupWords = parseThesaurus(thesaurusText)

func parseThesaurus(text string) (map[string]string, map[string][]string) {
	concepts, groups := map[string]string{}, map[string][]string{}
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		var name string
		for _, w := range strings.Split(line, ",") {
			words := lexWords(w)
			if len(words) != 1 {
				continue // a stop word, or two words: not a search stem
			}
			s := lexStem(words[0])
			if name == "" {
				name = s
			}
			if _, taken := concepts[s]; !taken {
				concepts[s] = name
			}
			groups[name] = append(groups[name], words[0])
		}
	}
	return concepts, groups
}

// SearchWords are the words of text that search and the offline embedder
// look at: LexicalTerms' words in order, repeats kept.
func SearchWords(text string) []string { return lexWords(text) }

// Stem is the form under which two search words match (see LexicalTerms).
func Stem(word string) string { return lexStem(word) }

// Concept names the thesaurus group of a stem, "" when it has none.
func Concept(stem string) string { return concepts[stem] }

// expandTerms adds to terms up to per other words of each term's thesaurus
// group, for full-text candidate search, up to max terms in all.
func expandTerms(terms []string, max, per int) []string {
	out := append([]string(nil), terms...)
	seen := map[string]bool{}
	for _, t := range terms {
		seen[t] = true
	}
	for _, t := range terms {
		c := Concept(lexStem(t))
		if c == "" {
			continue
		}
		added := 0
		for _, w := range groupWords[c] {
			if len(out) >= max {
				return out
			}
			if added < per && !seen[w] {
				seen[w] = true
				out = append(out, w)
				added++
			}
		}
	}
	return out
}
