package gate

import (
	"regexp"
	"regexp/syntax"
	"strings"
	"unicode"
)

// A prefilter is the set of literals a regexp cannot match without: every
// match holds at least one of them. Derived from the pattern's syntax tree,
// it lets a caller skip a pattern that cannot match the text with a few
// strings.Contains, instead of running it over the whole text. It never
// changes a result: when it says no, the pattern has no match.

// prefilterLit is one literal; fold ones are compared with the text
// lower-cased (foldLower).
type prefilterLit struct {
	s    string
	fold bool
}

// prefilter is nil when the pattern needs no literal (it may match
// anything), else the literals one of which every match contains.
type prefilter []prefilterLit

// maxPrefilterLits bounds a prefilter: past it, testing the literals costs
// about what the pattern does.
const maxPrefilterLits = 48

// newPrefilter derives re's prefilter; nil when none helps.
func newPrefilter(re *regexp.Regexp) prefilter {
	t, err := syntax.Parse(re.String(), syntax.Perl)
	if err != nil {
		return nil
	}
	return literalsOf(t.Simplify())
}

// may reports whether re can match text; lower is foldLower(text), or ""
// when not computed yet (it is computed on demand and stored).
func (p prefilter) may(text string, lower *string) bool {
	if p == nil {
		return true
	}
	for _, l := range p {
		if !l.fold {
			if strings.Contains(text, l.s) {
				return true
			}
			continue
		}
		if *lower == "" {
			*lower = foldLower(text)
		}
		if strings.Contains(*lower, l.s) {
			return true
		}
	}
	return false
}

// foldLower lower-cases text so that a case-folded ASCII literal is found
// wherever the pattern matches: strings.ToLower (which also lowers the
// Kelvin sign to k), and the long s (ſ), which folds to s but lower-cases
// to itself, written s.
func foldLower(text string) string {
	l := strings.ToLower(text)
	if strings.Contains(l, "ſ") {
		l = strings.ReplaceAll(l, "ſ", "s")
	}
	if l == "" {
		return " "
	}
	return l
}

// literalsOf returns the literals one of which every match of t contains,
// nil when there are none.
func literalsOf(t *syntax.Regexp) prefilter {
	switch t.Op {
	case syntax.OpLiteral:
		return literalOf(t.Rune, t.Flags&syntax.FoldCase != 0)
	case syntax.OpCharClass:
		// A class of one rune, or of one letter in both cases.
		if len(t.Rune) == 2 && t.Rune[0] == t.Rune[1] {
			return literalOf(t.Rune[:1], false)
		}
		if len(t.Rune) == 4 && t.Rune[0] == t.Rune[1] && t.Rune[2] == t.Rune[3] && t.Rune[0] < 0x80 && t.Rune[2] < 0x80 &&
			unicode.SimpleFold(t.Rune[0]) == t.Rune[2] && unicode.SimpleFold(t.Rune[2]) == t.Rune[0] {
			return literalOf(t.Rune[:1], true)
		}
		return nil
	case syntax.OpCapture:
		return literalsOf(t.Sub[0])
	case syntax.OpPlus:
		return literalsOf(t.Sub[0])
	case syntax.OpRepeat:
		if t.Min >= 1 {
			return literalsOf(t.Sub[0])
		}
		return nil
	case syntax.OpConcat:
		var best prefilter
		for _, s := range t.Sub {
			if p := literalsOf(s); p != nil && (best == nil || p.better(best)) {
				best = p
			}
		}
		return best
	case syntax.OpAlternate:
		var out prefilter
		for _, s := range t.Sub {
			p := literalsOf(s)
			if p == nil || len(out)+len(p) > maxPrefilterLits {
				return nil
			}
			out = append(out, p...)
		}
		return out
	}
	return nil
}

// literalOf is the prefilter of one literal. A case-folded literal counts
// only when foldLower finds every match of it: ASCII, whose letters fold to
// themselves in both cases (with the Kelvin sign and the long s that
// foldLower maps), or runes without case.
func literalOf(runes []rune, fold bool) prefilter {
	if !fold {
		return prefilter{{s: string(runes)}}
	}
	for _, r := range runes {
		if r >= 0x80 && unicode.SimpleFold(r) != r {
			return nil
		}
	}
	return prefilter{{s: strings.ToLower(string(runes)), fold: true}}
}

// better reports whether p filters more than q: its shortest literal is
// longer, or as long with fewer literals.
func (p prefilter) better(q prefilter) bool {
	if a, b := p.shortest(), q.shortest(); a != b {
		return a > b
	}
	return len(p) < len(q)
}

func (p prefilter) shortest() int {
	n := -1
	for _, l := range p {
		if n < 0 || len(l.s) < n {
			n = len(l.s)
		}
	}
	return n
}

// hintsOf is the hints of a rule whose judgement needs one of res to match
// (a near condition's phrase, not the rule's own pattern): the literals of
// their prefilters, written as foldLower writes the text the hints are
// looked for in. It panics when a pattern has no prefilter, which would
// leave the rule no true hints.
func hintsOf(res ...*regexp.Regexp) []string {
	var out []string
	for _, re := range res {
		p := newPrefilter(re)
		if p == nil {
			panic("gate: no literal every match of " + re.String() + " holds")
		}
		for _, l := range p {
			out = append(out, foldLower(l.s))
		}
	}
	return out
}

// regexPrefilters are the prefilters of the patterns the stages run over
// whole texts or sentence by sentence: piiRules', the lists of specificity
// and the narrative stage, the instructions stage's attack words and
// removeMentions' tests, and the model's two slowest structural signals.
// They are built in init, after the var initialisers and the inits of the
// pii files (a package's files initialise in file-name order), which
// insert rules; a pattern missing here runs unfiltered
// (TestPIIPrefiltersCoverRules keeps that from happening unnoticed).
var regexPrefilters map[*regexp.Regexp]prefilter

func init() {
	regexPrefilters = map[*regexp.Regexp]prefilter{}
	add := func(re *regexp.Regexp) {
		if _, ok := regexPrefilters[re]; !ok {
			regexPrefilters[re] = newPrefilter(re)
		}
	}
	for _, r := range piiRules {
		add(r.re)
	}
	for _, list := range [][]*regexp.Regexp{reNumber, reIdentifier, reError} {
		for _, re := range list {
			add(re)
		}
	}
	for _, p := range storyMarkerPatterns {
		add(p.re)
	}
	for _, re := range []*regexp.Regexp{reAttackWords, reThreatNamed, reAgentKey, reToolResultLabel, reToolResultJSON, reAgentAttr, reToolResultFence, reAttackWordsBase, reAttackWords17, reActOnQuoted, reExampleWord, reSensitiveSource, reToReaderKo} {
		add(re)
	}
	// The families the directive view is read for sentence by sentence
	// (familyKinds, families6Kinds, techSenseMasked): most sentences of a
	// finding hold none of their words.
	for _, re := range []*regexp.Regexp{reNoNeedToAsk, reOutrankScope, reMisname,
		reStopOutranked, reStopOutrankedKo, reTextOverUser, reTextOverUserKo, reConfirmRuledOut, reConfirmRuledOutKo, reGoOnUnasked, reKeepQuiet, reNoNeedToShowKo,
		reOwnStepsUnreported, reDoNotMentionOwn, reNoNeedToKnowKo,
		reConsentForged, reAskNotBefore, reNoNeedToAskKo, reOwnApproval, reDiscardRulesKo, rePriorRulesVoid, rePriorRulesVoidKo,
		reChecksAdvisory, reTextOverChat, reFalseReport, reFalseReportKo, reFalseNorm, reKeptOutOfReport, reTheAddressGiven,
		reAgentLeave, reOverPersonAsks, reFalseState, reAgentsNotSurface, reKeptFromClient, rePasteConversation,
		reIgnoreNoun, reNoCheckFact, reOwnTraces} {
		add(re)
	}
	// The commands that send data away, run over every text (exfiltrates).
	for _, re := range exfilCommands {
		add(re)
	}
}

// matches is re.MatchString(text), skipped when re's prefilter says it
// cannot match; lower is as for prefilter.may.
func matches(re *regexp.Regexp, text string, lower *string) bool {
	return mayMatch(re, text, lower) && re.MatchString(text)
}

// mayMatch reports whether re can match text, by its prefilter when it has
// one; lower is as for prefilter.may.
func mayMatch(re *regexp.Regexp, text string, lower *string) bool {
	p, ok := regexPrefilters[re]
	return !ok || p.may(text, lower)
}
