package gate

import (
	"math/rand/v2"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// prefilterInputs are the tuning texts, pieces of them, the same with
// their letters' case flipped and with the runes that fold to ASCII letters
// (ſ, the Kelvin sign), and random strings made of the prefilters' own
// literals, digits and punctuation.
func prefilterInputs(t *testing.T, lits []string) []string {
	t.Helper()
	rng := rand.New(rand.NewPCG(17, 29))
	var out []string
	for _, tc := range tuningTexts(t) {
		text := tc[0] + "\n" + tc[1]
		out = append(out, text)
		if len(text) > 2 {
			i := rng.IntN(len(text) - 1)
			out = append(out, text[i:min(len(text), i+1+rng.IntN(80))])
		}
		out = append(out, flipCase(rng, text))
	}
	parts := append([]string{"ſ", "\u212a", "K", "S", "s", "k", " ", "\n", "-", "_", ".", ":", "/", "=", "\"", "'", "0", "1", "9", "42", "2024-01-02", "abc", "XYZ", "Q", "é", "가", "\t"}, lits...)
	for range 5000 {
		var b strings.Builder
		for range 1 + rng.IntN(12) {
			p := parts[rng.IntN(len(parts))]
			if rng.IntN(3) == 0 {
				p = flipCase(rng, p)
			}
			b.WriteString(p)
		}
		out = append(out, b.String())
	}
	return out
}

func flipCase(rng *rand.Rand, s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == 's' && rng.IntN(8) == 0:
			return 'ſ'
		case r == 'k' && rng.IntN(8) == 0:
			return '\u212a'
		case r >= 'a' && r <= 'z' && rng.IntN(2) == 0:
			return r - 'a' + 'A'
		case r >= 'A' && r <= 'Z' && rng.IntN(2) == 0:
			return r - 'A' + 'a'
		}
		return r
	}, s)
}

// TestPrefilterKeepsMatches runs every prefiltered pattern over the tuning texts and
// random strings: wherever a pattern matches, its prefilter must let it run
// (a prefilter may only skip a pattern that cannot match).
func TestPrefilterKeepsMatches(t *testing.T) {
	var res []*regexp.Regexp
	seen := map[*regexp.Regexp]bool{}
	var lits []string
	for re, p := range regexPrefilters {
		if p != nil && !seen[re] {
			seen[re] = true
			res = append(res, re)
			for _, l := range p {
				lits = append(lits, l.s)
			}
		}
	}
	sort.Slice(res, func(i, j int) bool { return res[i].String() < res[j].String() })
	sort.Strings(lits)
	inputs := prefilterInputs(t, lits)
	skipped := 0
	for _, re := range res {
		p := newPrefilter(re)
		for _, s := range inputs {
			// Only a skip can be wrong; the pattern runs where it may match.
			var lower string
			if p.may(s, &lower) {
				continue
			}
			skipped++
			if re.MatchString(s) {
				t.Fatalf("prefilter %v of %s skips %q, which it matches", p, re, s)
			}
		}
	}
	t.Logf("%d patterns × %d inputs: %d skipped by the prefilters, none matched", len(res), len(inputs), skipped)
	if skipped == 0 {
		t.Fatal("no input skipped: the test checks nothing")
	}
}

// TestPIIPrefiltersCoverRules: a rule whose pattern has no entry (inserted
// after regexPrefilters was built) runs unfiltered, which is correct but slow.
func TestPIIPrefiltersCoverRules(t *testing.T) {
	for _, r := range piiRules {
		if _, ok := regexPrefilters[r.re]; !ok {
			t.Errorf("rule %s %s has no prefilter: build regexPrefilters after the init that adds it", r.kind, r.re)
		}
	}
}

func TestPrefilterLiterals(t *testing.T) {
	for _, tc := range []struct{ re, want string }{
		{`\bfoo_[a-z]+bar\b`, "[{foo_ false}]"},
		{`(?i)secret|token`, "[{secret true} {token true}]"},
		{`a*b?`, "[]"},
		{`(?i)ключ`, "[]"},
		{`x(?:ab|cd)+`, "[{ab false} {cd false}]"},
		{`[Kk]ey=\d{3}`, "[{ey= false}]"},
	} {
		p := newPrefilter(regexp.MustCompile(tc.re))
		if got := fmtPrefilter(p); got != tc.want {
			t.Errorf("newPrefilter(%s) = %s, want %s", tc.re, got, tc.want)
		}
	}
}

func fmtPrefilter(p prefilter) string {
	var parts []string
	for _, l := range p {
		f := "false"
		if l.fold {
			f = "true"
		}
		parts = append(parts, "{"+l.s+" "+f+"}")
	}
	return "[" + strings.Join(parts, " ") + "]"
}
