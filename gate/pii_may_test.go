package gate

import (
	"regexp"
	"regexp/syntax"
	"strings"
	"testing"
)

// tokenRun is what the syntax of a pattern guarantees about runs of
// hasTokenRun's characters (ASCII letters, digits, _ and -) in its
// matches: tok when every match is made of them alone, min the fewest
// characters a match has, best the longest run every match holds.
type tokenRun struct {
	tok       bool
	min, best int
}

func isTokenRune(r rune) bool {
	return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || r == '_' || r == '-'
}

// guaranteedRun analyses t (simplified: counted repeats are spelled out).
func guaranteedRun(t *syntax.Regexp) tokenRun {
	switch t.Op {
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText,
		syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return tokenRun{tok: true}
	case syntax.OpLiteral:
		r := tokenRun{tok: true}
		run := 0
		for _, c := range t.Rune {
			ok := isTokenRune(c)
			if t.Flags&syntax.FoldCase != 0 {
				ok = ok && isTokenRune(unicodeFoldAll(c))
			}
			if ok {
				run++
				r.best = max(r.best, run)
			} else {
				r.tok, run = false, 0
			}
		}
		r.min = len(t.Rune)
		return r
	case syntax.OpCharClass:
		for i := 0; i < len(t.Rune); i += 2 {
			for c := t.Rune[i]; c <= t.Rune[i+1]; c++ {
				if !isTokenRune(c) {
					return tokenRun{min: 1}
				}
			}
		}
		return tokenRun{tok: true, min: 1, best: 1}
	case syntax.OpCapture:
		return guaranteedRun(t.Sub[0])
	case syntax.OpStar, syntax.OpQuest:
		s := guaranteedRun(t.Sub[0])
		return tokenRun{tok: s.tok}
	case syntax.OpPlus:
		return guaranteedRun(t.Sub[0])
	case syntax.OpAlternate:
		r := tokenRun{tok: true, min: -1, best: -1}
		for _, s := range t.Sub {
			g := guaranteedRun(s)
			r.tok = r.tok && g.tok
			if r.min < 0 || g.min < r.min {
				r.min = g.min
			}
			if r.best < 0 || g.best < r.best {
				r.best = g.best
			}
		}
		return r
	case syntax.OpConcat:
		r := tokenRun{tok: true}
		run := 0
		for _, s := range t.Sub {
			g := guaranteedRun(s)
			r.min += g.min
			if g.tok {
				run += g.min
			} else {
				r.tok, run = false, 0
			}
			r.best = max(r.best, run, g.best)
		}
		return r
	}
	// Anything else (any character, repeats left unsimplified) guarantees
	// nothing.
	return tokenRun{}
}

// unicodeFoldAll returns a rune c folds to that is not a token rune, if
// any (the Kelvin sign for k), else c.
func unicodeFoldAll(c rune) rune {
	if c == 'k' || c == 'K' {
		return 'K' // U+212A KELVIN SIGN
	}
	if c == 's' || c == 'S' {
		return 'ſ'
	}
	return c
}

// TestVendorTokenMoreMay pins vendorTokenMoreMay to reVendorTokenMore:
// every alternative of the pattern either holds a run of 24 token
// characters in every match, or starts with a literal the condition looks
// for, so the condition is false only where the pattern cannot match.
func TestVendorTokenMoreMay(t *testing.T) {
	tree, err := syntax.Parse(reVendorTokenMore.String(), syntax.Perl)
	if err != nil {
		t.Fatal(err)
	}
	tree = tree.Simplify()
	if tree.Op != syntax.OpAlternate {
		t.Fatalf("reVendorTokenMore is no alternation: %v", tree.Op)
	}
	exempt := []string{"LTAI", "ATBB", "ops_eyJ"}
	for _, alt := range tree.Sub {
		if g := guaranteedRun(alt); g.best >= 24 {
			continue
		}
		prefix := ""
		for _, s := range alt.Sub {
			if s.Op == syntax.OpWordBoundary {
				continue
			}
			if s.Op == syntax.OpLiteral && s.Flags&syntax.FoldCase == 0 {
				prefix = string(s.Rune)
			}
			break
		}
		ok := false
		for _, e := range exempt {
			ok = ok || strings.HasPrefix(prefix, e)
		}
		if !ok {
			t.Errorf("alternative %s has no 24-character token run and none of the literals %q: vendorTokenMoreMay would skip it", alt, exempt)
		}
	}
	for _, text := range []string{
		"gem push with GEM_HOST_API_KEY=rubygems_3f9a1c7e5b2d4f6a8c0e1b3d5f7a9c2e4b6d8f0a1c3e5b7d",
		"set ALIBABA_CLOUD_ACCESS_KEY_ID=LTAI5tQx8Rk2Lm9Np4",
		"helm 7.2: `helm --pool-size=83` drops rows with EPIPE; set `replica_log-level=51` in /etc/helm/replica.conf",
	} {
		if reVendorTokenMore.MatchString(text) && !vendorTokenMoreMay(text) {
			t.Errorf("vendorTokenMoreMay(%q) = false, and the pattern matches", text)
		}
	}
}

// TestCLIPasswordMay pins cliPasswordMay to reCLIPassword: every literal
// one of which each alternative's matches hold contains "pass" or one of
// cliPasswordMayHints, so the condition is false only where the pattern
// cannot match.
func TestCLIPasswordMay(t *testing.T) {
	tree, err := syntax.Parse(reCLIPassword.String(), syntax.Perl)
	if err != nil {
		t.Fatal(err)
	}
	tree = tree.Simplify()
	if tree.Op != syntax.OpAlternate {
		t.Fatalf("reCLIPassword is no alternation: %v", tree.Op)
	}
	hints := append([]string{"pass"}, cliPasswordMayHints...)
	// covered: some part every match of t has is a set of literals each of
	// which holds a hint.
	var covered func(t *syntax.Regexp) bool
	covered = func(t *syntax.Regexp) bool {
		switch t.Op {
		case syntax.OpCapture, syntax.OpPlus:
			return covered(t.Sub[0])
		case syntax.OpConcat:
			for _, s := range t.Sub {
				if covered(s) {
					return true
				}
			}
			return false
		}
		lits := literalsOf(t)
		for _, l := range lits {
			if !containsAny(strings.ToLower(l.s), hints) {
				return false
			}
		}
		return lits != nil
	}
	for _, alt := range tree.Sub {
		if !covered(alt) {
			t.Errorf("alternative %s can match without any of %q", alt, hints)
		}
	}
	for _, text := range []string{"net\tuse Z: \\\\srv\\x /user:bob Hunter22 --x", "az\tlogin -u bob -p Hunter22x --x", "redis-cli -h cache --pass s3cr3tValue9", "run with --PASSWORD hunter2x", "docker login -p Xy9abc registry"} {
		if reCLIPassword.MatchString(text) && !cliPasswordMay(text) {
			t.Errorf("cliPasswordMay(%q) = false, and the pattern matches", text)
		}
	}
}

// TestHintsOf: the hints hintsOf derives from a near condition's patterns
// are in every text, as the scan lower-cases it, where one of the
// patterns matches (the login rule's and the home address rule's, once
// hand-written lists that missed "bad credentials", srcip= and "the
// customers static IP").
func TestHintsOf(t *testing.T) {
	res := []*regexp.Regexp{reLoginEvent, reClientIPField, reHomeIP}
	var lits []string
	for _, re := range res {
		lits = append(lits, hintsOf(re)...)
	}
	inputs := append(prefilterInputs(t, lits), "bad credentials", "srcip=", "the customers\tstatic IP", "ſign-in ok")
	matched := 0
	for _, re := range res {
		hints := hintsOf(re)
		for _, s := range inputs {
			if re.MatchString(s) {
				matched++
				if !containsAny(foldLower(s), hints) {
					t.Errorf("%s matches %q, which holds none of its hints %q", re, s, hints)
				}
			}
		}
	}
	if matched == 0 {
		t.Fatal("no input matched: the test checks nothing")
	}
	t.Logf("%d matches, each holding a hint", matched)
}
