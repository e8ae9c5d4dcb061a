package knowledge

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"
)

// The lexical candidate policy, in one place: which of a query's terms a
// full-text search looks for, and how the lists it gets back are fused
// into one. A driver only counts and finds term matches (Driver.TermCounts,
// Driver.Match), so every backend hands the engine the same candidates for
// the same corpus and query.

// Term is a search term as the engine hands it to a driver.
type Term struct {
	// Text is a plain word (LexicalTerms): a driver escapes it for its own
	// query syntax.
	Text string
	// Substring matches Text anywhere in an entry's title, content or tags,
	// case-insensitively. Otherwise Text matches a word of them with the
	// same English stem (the backend's stemmer), and a Text of Hangul
	// letters only (HangulOnly) matches the words it begins (Korean
	// particles stay on a word).
	Substring bool
}

// Bounds of a query's lexical candidate search.
const (
	// expandedTerms caps a query's terms with their expansions
	// (expandTerms): the words looked for.
	expandedTerms = MaxLexicalTerms + 16
	// expandPerGroup is how many other words of each thesaurus group a term
	// brings.
	expandPerGroup = 3
	// substringTerms is how many of the first terms may also be looked for
	// as substrings (Korean compounds, identifiers with digits), at least
	// substringRunes long.
	substringTerms = 8
	substringRunes = 3
	// searchTerms is how many of the word terms drive the search, and half
	// as many of the substring terms: the rarest, since they tell
	// candidates apart (the engine still weighs every term when it scores
	// what was found).
	searchTerms = 6
	// CommonTerm is the most entries a term may match and still drive the
	// search: ranking every entry that holds any of 30 words would read
	// most of the corpus on every query. A driver counts exactly up to it
	// (Driver.TermCounts).
	CommonTerm = 500
	// commonFallback is how many common terms drive the search when a query
	// has no rarer one.
	commonFallback = 2
	// termCountTTL is how long the engine reuses a term's count: counts move
	// slowly, and a stale one only shifts which terms drive the search. A
	// zero is never kept: the next contribution may hold the word.
	termCountTTL   = 5 * time.Minute
	termCountLimit = 50000
)

// queryTerms returns the terms a query's full-text search may look for:
// every term of terms and their expansions as words, and the first
// substringTerms of them that are Hangul or hold a digit, substringRunes
// long or more, as substrings too.
func queryTerms(terms []string) []Term {
	words := expandTerms(terms, expandedTerms, expandPerGroup)
	out := make([]Term, 0, len(words)+substringTerms)
	for _, w := range words {
		out = append(out, Term{Text: w})
	}
	for i, w := range words {
		if i < substringTerms && utf8.RuneCountInString(w) >= substringRunes && (HangulOnly(w) || hasDigit(w)) {
			out = append(out, Term{Text: w, Substring: true})
		}
	}
	return out
}

// chooseTerms picks the terms that drive the search from terms and their
// counts (in the same order): up to searchTerms word terms and
// searchTerms/2 substring terms, each the rarest of its kind that match
// something but at most CommonTerm entries, rarest first (ties keep the
// query's order). A kind with only common terms is searched by its
// commonFallback first ones (counts past CommonTerm tie: drivers need not
// count them). chosen[i] is the count of the i-th chosen term.
func chooseTerms(terms []Term, counts []int) (chosen []Term, chosenCounts []int) {
	for _, sub := range []bool{false, true} {
		limit := searchTerms
		if sub {
			limit = searchTerms / 2
		}
		type tc struct {
			t  Term
			df int
		}
		var rare, common []tc
		for i, t := range terms {
			if t.Substring != sub {
				continue
			}
			switch df := min(counts[i], CommonTerm+1); {
			case df > CommonTerm:
				common = append(common, tc{t, df})
			case df > 0:
				rare = append(rare, tc{t, df})
			}
		}
		if len(rare) == 0 {
			rare, limit = common, min(limit, commonFallback)
		}
		slices.SortStableFunc(rare, func(a, b tc) int { return cmp.Compare(a.df, b.df) })
		for _, c := range rare[:min(len(rare), limit)] {
			chosen = append(chosen, c.t)
			chosenCounts = append(chosenCounts, c.df)
		}
	}
	return chosen, chosenCounts
}

// fuseMatches merges the chosen terms' match lists into one, best first, up
// to n: an entry scores the summed weights of the distinct query words it
// matched (a word found both as a word and as a substring counts once), a
// word weighing more the fewer entries hold it; ties go to the entry found
// earlier in its lists (newest first there), then to the earlier term.
// Everything it reads is what the contract fixes, so the fused list is the
// same on every backend.
func fuseMatches(chosen []Term, counts []int, lists [][]string, n int) []string {
	type cand struct {
		id    string
		words map[string]float64
		pos   int
		list  int
	}
	byID := map[string]*cand{}
	var cands []*cand
	for li, list := range lists {
		if li >= len(chosen) {
			break
		}
		w := math.Log(1 + float64(CommonTerm+1)/(float64(counts[li])+0.5))
		for pos, id := range list {
			c := byID[id]
			if c == nil {
				c = &cand{id: id, words: map[string]float64{}, pos: pos, list: li}
				byID[id] = c
				cands = append(cands, c)
			} else if pos < c.pos {
				c.pos, c.list = pos, li
			}
			c.words[chosen[li].Text] = max(c.words[chosen[li].Text], w)
		}
	}
	score := make(map[string]float64, len(cands))
	for _, c := range cands {
		var s float64
		for _, w := range c.words {
			s += w
		}
		score[c.id] = s
	}
	slices.SortStableFunc(cands, func(a, b *cand) int {
		return cmp.Or(cmp.Compare(score[b.id], score[a.id]), cmp.Compare(a.pos, b.pos), cmp.Compare(a.list, b.list))
	})
	out := make([]string, 0, min(n, len(cands)))
	for _, c := range cands[:min(n, len(cands))] {
		out = append(out, c.id)
	}
	return out
}

// lexicalCandidates returns up to n entries of hive (every hive when
// empty) that hold the query's terms, best first, by the policy above.
func (k *Engine) lexicalCandidates(ctx context.Context, hive string, terms []string, n int) ([]string, error) {
	all := queryTerms(terms)
	counts, err := k.counts.get(ctx, k.d, all)
	if err != nil {
		return nil, fmt.Errorf("count terms: %w", err)
	}
	chosen, dfs := chooseTerms(all, counts)
	if len(chosen) == 0 {
		return nil, nil
	}
	lists, err := k.d.Match(ctx, hive, chosen, n)
	if err != nil {
		return nil, fmt.Errorf("match terms: %w", err)
	}
	return fuseMatches(chosen, dfs, lists, n), nil
}

// termCounts keeps the terms' counts a process has asked for, for
// termCountTTL; past termCountLimit terms it starts over.
type termCounts struct {
	mu sync.Mutex
	m  map[Term]termCount
}

type termCount struct {
	n  int
	at time.Time
}

// get returns the count of each of terms, asking the driver, in one call,
// only for those it does not hold.
func (c *termCounts) get(ctx context.Context, d Driver, terms []Term) ([]int, error) {
	out := make([]int, len(terms))
	var todo []Term
	var at []int
	now := time.Now()
	c.mu.Lock()
	for i, t := range terms {
		if e, ok := c.m[t]; ok && now.Sub(e.at) < termCountTTL {
			out[i] = e.n
			continue
		}
		todo = append(todo, t)
		at = append(at, i)
	}
	c.mu.Unlock()
	if len(todo) == 0 {
		return out, nil
	}
	got, err := d.TermCounts(ctx, todo, CommonTerm)
	if err != nil {
		return nil, err
	}
	if len(got) != len(todo) {
		return nil, fmt.Errorf("driver counted %d of %d terms", len(got), len(todo))
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for j, n := range got {
		out[at[j]] = n
		if n == 0 {
			continue
		}
		if c.m == nil || len(c.m) >= termCountLimit {
			c.m = make(map[Term]termCount, 1024)
		}
		c.m[todo[j]] = termCount{n, now}
	}
	return out, nil
}

func hasDigit(t string) bool {
	for _, r := range t {
		if unicode.IsDigit(r) {
			return true
		}
	}
	return false
}

// HangulOnly reports whether t is a word of Hangul letters only: such a
// Term matches as a prefix (see Term).
func HangulOnly(t string) bool {
	for _, r := range t {
		if !unicode.Is(unicode.Hangul, r) {
			return false
		}
	}
	return t != ""
}

// QueryTerms returns the terms a query for text may search, words and
// substrings, before the engine chooses among them by their counts: what a
// driver must count and match alike (the conformance suite checks each).
func QueryTerms(text string) []Term { return queryTerms(LexicalTerms(text)) }

// LexicalCandidates returns the lexical candidates a query for text in hive
// (every hive when empty) hands to ranking, best first, up to n: the
// entries holding the terms the engine chose, fused. Two drivers holding
// the same entries return the same list; the conformance suite pins it.
func (k *Engine) LexicalCandidates(ctx context.Context, hive, text string, n int) ([]string, error) {
	return k.lexicalCandidates(ctx, hive, LexicalTerms(text), n)
}
