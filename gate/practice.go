package gate

import (
	"regexp"
	"strings"
)

// signalPractice names the accept rule's evidence of a concrete practice.
const signalPractice = "concrete practice"

// practiceLength is the length (letterLength) from which a concrete
// practice counts: shorter advice is a slogan ("Never commit secrets").
const practiceLength = 120

// reKoreanCondition finds a Korean condition clause, 해야 (or 아야, 어야)
// followed by its outcome ("똑같이 유지해야 캐시가 맞는다"); 해야 한다 and
// 해야 합니다 are an obligation, not a condition.
var reKoreanCondition = regexp.MustCompile(`(?:아|어|해)야\s([가-힣])`)

// concretePractice reports security or operations advice that names few
// tools but says exactly what to do and what it changes: a text of some
// length, in the nouns of its domain, that states a consequence, a limit
// or an order of steps, holds no hedge and is not told as a story (see
// told; a story around the work can name the same nouns). Vague advice in
// the same words ("rotate them now and then", "review the pipeline as a
// whole", "keep secrets somewhere safe") hedges: it leaves when, how much
// and what to check to the reader (testdata/gate/calibration/inj-prose.jsonl,
// long-vague.jsonl, practice.jsonl and the platitudes of every tuning
// file carry at least one hedge).
func concretePractice(text, lower string, found []string, n NarrativeResult) bool {
	if told(lower, n) || letterLength(text) < practiceLength || hedged(lower) || !statesConsequence(lower, found) {
		return false
	}
	seen := map[string]bool{}
	for _, list := range [][]string{techTerms, agentTerms, practiceTerms} {
		for _, t := range list {
			if !seen[t] && hasTerm(lower, t) {
				seen[t] = true
			}
		}
	}
	return len(seen) >= 2
}

// reFirstPerson finds an English first-person word, not the I of I/O
// nor the us of us-east-1.
var reFirstPerson = regexp.MustCompile(`(?:^|[^\w/-])(?:i|me|my|we|us|our)(?:$|[^\w/-])`)

// told reports a text the narrative stage reads as told, not stated: a
// Korean past-tense sentence, a first-person subject, a story marker, or
// English sentences in the past tense, more than one or with a narrator
// (I, we). One past-tense clause in the third person is part of a
// practice ("a gist someone linked", "entries that look like they came
// from the server").
func told(lower string, n NarrativeResult) bool {
	return n.KoreanPast > 0 || n.FirstPerson || n.StoryMarks > 0 ||
		n.Narrated > 1 || n.Narrated == 1 && (n.Singular > 0 || reFirstPerson.MatchString(lower))
}

// hedged reports a hedge in lower (see hedges).
func hedged(lower string) bool { return hedgeCount(lower, 1) > 0 }

// hedgeCount counts the distinct hedges in lower, up to limit.
func hedgeCount(lower string, limit int) int {
	n := 0
	for _, h := range hedges {
		if firstRune(h) < 0x80 && containsMarker(lower, h) || firstRune(h) >= 0x80 && strings.Contains(lower, h) {
			if n++; n >= limit {
				break
			}
		}
	}
	return n
}

// statesConsequence reports a cause, a consequence, a limit or a step.
func statesConsequence(lower string, found []string) bool {
	if hasString(found, signalCause) {
		return true
	}
	for _, c := range consequences {
		if firstRune(c) < 0x80 && containsMarker(lower, c) || firstRune(c) >= 0x80 && strings.Contains(lower, c) {
			return true
		}
	}
	for _, m := range reKoreanCondition.FindAllStringSubmatch(lower, -1) {
		if !strings.ContainsAny(m[1], "하합한돼된됩") {
			return true
		}
	}
	return false
}
