package knowledge

import (
	"slices"
	"strings"
)

// Word swaps: texts this alike (Jaccard of their words) that differ in at
// most swapMaxWords words each way are one text with a word swapped.
const (
	swapAlike    = 0.75
	swapMaxWords = 2
)

// wordSwapped reports whether two texts that read as one text with a word
// or two swapped put a thing in place of another thing (queue :mailers and
// :billing, the project's ansible.cfg and /etc's): each side has a word
// that names a thing (not modifierLike) with no synonym among the other
// side's words, whatever else was swapped with it (queue mailers … used,
// queue billing … handled), and the answer does not depend on which text
// comes first. A rewording this close swaps a word for one of its synonyms
// (a stem or a thesaurus group shared), for a stop word, or says a thing as
// an action or a quality (private, internal; an increase, raise): a noun
// whose other side holds only modifiers is no swap. (Calling every unmatched noun a swap, on either
// side, split one rewording of the tuning part and one of its tuner-written
// pairs, and kept no look-alike apart that this does not.)
func wordSwapped(a, b map[string]bool) bool {
	if wordOverlap(a, b) < swapAlike {
		return false
	}
	onlyA, onlyB := swapWords(a, b), swapWords(b, a)
	if len(onlyA) == 0 || len(onlyB) == 0 || len(onlyA) > swapMaxWords || len(onlyB) > swapMaxWords {
		return false
	}
	return thingUnmatched(onlyA, onlyB) && thingUnmatched(onlyB, onlyA)
}

// thingUnmatched reports whether a word of xs names a thing and has no
// synonym among ys.
func thingUnmatched(xs, ys []string) bool {
	for _, x := range xs {
		if !modifierLike(x) && !slices.ContainsFunc(ys, func(y string) bool { return synonyms(x, y) }) {
			return true
		}
	}
	return false
}

// modals are the verbs of obligation and ability, which a rewording swaps
// freely (must, needs to).
var modals = map[string]bool{"must": true, "need": true, "needs": true, "should": true, "may": true, "might": true,
	"can": true, "could": true, "will": true, "would": true, "shall": true, "has": true, "have": true}

// modifierLike reports whether a word reads as a verb or an adjective
// rather than as the name of a thing: a modal, an irregular verb form
// (caught), a regular past form of a verb (pastForm: handled; not seed,
// speed or feed, which merely end in -ed), or a word whose WordNet senses
// are verbs, adjectives or adverbs only (internal). A rewording this close
// swaps how it says a thing (handled, caught; private, internal); a
// look-alike swaps the thing (queue :mailers, :billing; the executor, the
// driver).
func modifierLike(w string) bool {
	g := lex().g
	if modals[w] || g.pastForm(w) {
		return true
	}
	if _, ok := g.lemma[w]; ok {
		return true
	}
	noun, other := false, false
	for _, id := range g.lookup(w) {
		switch name := g.names[id]; {
		case strings.HasPrefix(name, "w:n"):
			noun = true
		case strings.HasPrefix(name, "w:"):
			other = true
		}
	}
	return other && !noun
}

// pastForm reports whether w is a regular past form of a verb: it ends in
// -ed, and undoing that (handled → handle, stopped → stop, copied → copy)
// gives a word with w's Snowball stem that WordNet lists as a verb. A noun
// that merely ends in -ed (seed, speed, feed, red) undoes to no such verb:
// "see" and "fee" do not share "seed"'s and "feed"'s stems.
func (g *groups) pastForm(w string) bool {
	if !strings.HasSuffix(w, "ed") {
		return false
	}
	stem := lexStem(w)
	for _, l := range lemmaCandidates(w) {
		if lexStem(l) != stem {
			continue
		}
		for _, id := range g.byWord[l] {
			if strings.HasPrefix(g.names[id], "w:v") {
				return true
			}
		}
	}
	return false
}

// swapWords are a's Latin words that b lacks, stop words left out.
func swapWords(a, b map[string]bool) []string {
	var out []string
	for w := range a {
		if !b[w] && !englishStop[w] && isASCII(w) && len(w) >= 3 {
			out = append(out, w)
		}
	}
	return out
}

// synonyms reports whether two words share a stem or a thesaurus group.
func synonyms(x, y string) bool {
	l := lex()
	ax, ay := l.analyze(x), l.analyze(y)
	if ax.stem == ay.stem {
		return true
	}
	for _, id := range ax.concepts {
		if containsID(ay.concepts, id) {
			return true
		}
	}
	return false
}
