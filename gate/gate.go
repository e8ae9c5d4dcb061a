package gate

import (
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Gate stages, in the order they run (DESIGN.md §6).
const (
	StageLimits       = "limits"
	StagePII          = "pii"
	StageNarrative    = "narrative"
	StageInstructions = "instructions"
	StageSpecificity  = "specificity"
)

// SpecificityFloor is the lowest specificity score that passes the gate.
const SpecificityFloor = 0.50

// The Hive's limits on a contribution; past them the gate rejects with a
// verdict (422), not a malformed-request error.
const (
	HiveMinTitleRunes   = 3
	HiveMaxTitleRunes   = 200
	HiveMaxContentRunes = 12000
)

// Fields of a Signal: what the gate matched, what a rejected
// contribution is missing, what lowered its score, which limit it broke.
const (
	SignalMatched = "matched"
	SignalMissing = "missing"
	SignalPenalty = "penalty"
	SignalLimit   = "limit"
)

// Signal is one reason behind a verdict. Field says how to read Name:
// matched (found in the text), missing (would have made it specific),
// penalty (lowered the score) or limit (a size limit broken). Name is a kind
// or a feature ("email", "version", "session summary"), never a PII value.
type Signal struct {
	Field string `json:"field"`
	Name  string `json:"name"`
}

// String renders the signal as "field: name", the form Details carries.
func (s Signal) String() string { return s.Field + ": " + s.Name }

// Result is the gate's verdict on a contribution. When Pass is false,
// Stage names the stage that rejected it and Reason says in one line what to
// change. Signals lists what decided it, each marked matched, missing,
// penalty or limit; Details is the same list as "field: name" strings, for
// clients that read plain strings. Specificity is set once stage 4 ran.
type Result struct {
	Pass        bool     `json:"pass"`
	Stage       string   `json:"stage,omitempty"`
	Reason      string   `json:"reason,omitempty"`
	Details     []string `json:"details,omitempty"`
	Signals     []Signal `json:"signals,omitempty"`
	Specificity float64  `json:"specificity"`
}

// Names returns the names of the signals with the given field, in order
// (the PII kinds of a PII rejection are Names(SignalMatched)).
func (r Result) Names(field string) []string {
	var out []string
	for _, s := range r.Signals {
		if s.Field == field {
			out = append(out, s.Name)
		}
	}
	return out
}

func verdict(stage, reason string, signals []Signal, score float64) Result {
	r := Result{Pass: stage == "", Stage: stage, Reason: reason, Signals: signals, Specificity: score}
	for _, s := range signals {
		r.Details = append(r.Details, s.String())
	}
	return r
}

// Check runs the gate's pure stages on a contribution, in DESIGN.md §6's
// order: The Hive's size limits, PII, narrative filter, agent-directed
// instructions, specificity floor. Embedding and dedup follow in the store.
// The narrative stage decides on the form of the text, so a diary that
// names a version is still a diary.
func Check(title, content string) Result {
	title, content = strings.TrimSpace(norm.NFC.String(title)), strings.TrimSpace(norm.NFC.String(content))
	if r, ok := checkLimits(title, content); !ok {
		return r
	}
	text := title + "\n" + content
	// One PII scan serves the PII stage and the documented-value evidence.
	pii, documented := scanPII(text)
	if kinds := sortedKeys(pii); len(kinds) > 0 {
		sig := make([]Signal, len(kinds))
		for i, k := range kinds {
			sig[i] = Signal{SignalMatched, k}
		}
		return verdict(StagePII, "contains personal data or secrets ("+strings.Join(kinds, ", ")+
			"); remove them or write placeholders such as user@example.com, 555-0100 or <TOKEN>", sig, 0)
	}
	n := Narrative(title, content)
	if n.Story {
		return verdict(StageNarrative, n.reason(), n.signals(), 0)
	}
	if in := Instructions(title, content); in.Found() {
		return verdict(StageInstructions, in.reason(), in.signals(), 0)
	}
	score, found := n.spec, n.specFound
	if !n.specDone {
		score, found = Specificity(title, content)
	}
	sig := make([]Signal, 0, len(found)+4)
	for _, f := range found {
		field := SignalMatched
		if f == signalPlatitude || f == signalTooShort {
			field = SignalPenalty
		}
		sig = append(sig, Signal{field, f})
	}
	ok, evidence := acceptable(title, content, score, found, n, documented > 0)
	for _, e := range evidence {
		sig = append(sig, Signal{SignalMatched, e})
	}
	if !ok {
		missing, say := missingSignals(found)
		for _, m := range missing {
			sig = append(sig, Signal{SignalMissing, m})
		}
		// The reason names the three easiest additions; details list all.
		reason := fmt.Sprintf("specificity %.2f is below the floor %.2f; add %s", score, SpecificityFloor, strings.Join(say[:min(len(say), 3)], ", "))
		if score >= SpecificityFloor {
			reason = fmt.Sprintf("it names tools but reads as general advice, with nothing a reader can check; add %s, and drop the general words", strings.Join(say[:min(len(say), 3)], ", "))
		}
		if hasString(found, signalPlatitude) {
			reason += `, and drop general advice ("write tests", "keep it simple")`
		}
		return verdict(StageSpecificity, reason, sig, score)
	}
	return verdict("", "", sig, score)
}

func checkLimits(title, content string) (Result, bool) {
	var reasons []string
	var sig []Signal
	if n := utf8.RuneCountInString(title); n < HiveMinTitleRunes || n > HiveMaxTitleRunes {
		reasons = append(reasons, fmt.Sprintf("the title is %d characters, The Hive takes %d to %d: write a one-line summary", n, HiveMinTitleRunes, HiveMaxTitleRunes))
		sig = append(sig, Signal{SignalLimit, fmt.Sprintf("title %d-%d characters", HiveMinTitleRunes, HiveMaxTitleRunes)})
	}
	if n := utf8.RuneCountInString(content); n == 0 || n > HiveMaxContentRunes {
		reasons = append(reasons, fmt.Sprintf("the content is %d characters, The Hive takes 1 to %d: keep one finding per contribution and leave long documents in room files", n, HiveMaxContentRunes))
		sig = append(sig, Signal{SignalLimit, fmt.Sprintf("content 1-%d characters", HiveMaxContentRunes)})
	}
	if len(reasons) == 0 {
		return Result{}, true
	}
	return verdict(StageLimits, strings.Join(reasons, "; "), sig, 0), false
}

// missingSignals names the concrete signals a rejected contribution lacks
// (short names for Details) and says the same in words for the reason.
func missingSignals(found []string) (names, say []string) {
	groups := []struct {
		name, say string
		have      []string
	}{
		{"named technology", "the tool or library by name", []string{signalTech}},
		{"version", "its version", []string{signalVersion}},
		{"error text", "the exact error text", []string{signalError}},
		{"identifier or code", "the function, flag, config key, command or code involved", []string{signalIdentifier, signalFlag, signalCommand, signalCode, signalPath}},
		{"number with unit", "numbers with units or the limit that applies", []string{signalNumber}},
		{"cause and effect", "what causes what", []string{signalCause}},
	}
	for _, g := range groups {
		have := false
		for _, h := range g.have {
			have = have || hasString(found, h)
		}
		if !have {
			names = append(names, g.name)
			say = append(say, g.say)
		}
	}
	if len(names) == 0 {
		names, say = []string{"more detail"}, []string{"more concrete detail"}
	}
	return names, say
}

func hasString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// sortedKeys returns the keys of set, sorted; nil when it is empty.
func sortedKeys(set map[string]bool) []string {
	if len(set) == 0 {
		return nil
	}
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
