package knowledge

import (
	"fmt"
	"strings"
	"testing"
)

func TestChooseTerms(t *testing.T) {
	w := func(s string) Term { return Term{Text: s} }
	sub := func(s string) Term { return Term{Text: s, Substring: true} }
	for _, c := range []struct {
		name   string
		terms  []Term
		counts []int
		want   string
	}{
		{"rarest first, ties in order, absent and common left out",
			[]Term{w("a"), w("b"), w("c"), w("d"), w("e"), sub("pg15")}, []int{40, 0, 3, 9000, 3, 2},
			"[{c false} {e false} {a false} {pg15 true}] [3 3 40 2]"},
		{"at most six words and three substrings",
			[]Term{w("a"), w("b"), w("c"), w("d"), w("e"), w("f"), w("g"), sub("x1a"), sub("x2a"), sub("x3a"), sub("x4a")},
			[]int{7, 6, 5, 4, 3, 2, 1, 1, 1, 1, 1},
			"[{g false} {f false} {e false} {d false} {c false} {b false} {x1a true} {x2a true} {x3a true}] [1 2 3 4 5 6 1 1 1]"},
		{"only common words: the first two, counts past the limit tied",
			[]Term{w("a"), w("b"), w("c")}, []int{90000, 600, 501},
			"[{a false} {b false}] [501 501]"},
		{"nothing matches", []Term{w("a")}, []int{0}, "[] []"},
	} {
		chosen, counts := chooseTerms(c.terms, c.counts)
		if got := fmt.Sprint(chosen, counts); got != c.want {
			t.Errorf("%s: chooseTerms = %s, want %s", c.name, got, c.want)
		}
	}
}

func TestFuseMatches(t *testing.T) {
	chosen := []Term{{Text: "rare"}, {Text: "often"}, {Text: "rare", Substring: true}}
	counts := []int{2, 400, 3}
	lists := [][]string{{"x", "y"}, {"z", "y", "w"}, {"x", "v"}}
	// y holds both words; x holds the rarer twice over (once counted); then
	// v (rare, as a substring), then the entries of the common word alone,
	// in their list's order.
	if got := fmt.Sprint(fuseMatches(chosen, counts, lists, 10)); got != "[y x v z w]" {
		t.Fatalf("fuseMatches = %s, want [y x v z w]", got)
	}
	if got := fmt.Sprint(fuseMatches(chosen, counts, lists, 2)); got != "[y x]" {
		t.Fatalf("fuseMatches cut = %s, want [y x]", got)
	}
}

func TestQueryTerms(t *testing.T) {
	got := fmt.Sprint(QueryTerms("pg15 커넥션풀이 ab"))
	for _, want := range []string{"{pg15 false}", "{pg15 true}", "{커넥션풀 false}", "{커넥션풀 true}"} {
		if !strings.Contains(got, want) {
			t.Errorf("QueryTerms = %s, want %s among them", got, want)
		}
	}
	if strings.Contains(got, "{ab true}") {
		t.Errorf("QueryTerms = %s: a two-letter word is no substring term", got)
	}
}
