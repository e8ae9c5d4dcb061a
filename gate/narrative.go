package gate

import (
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"
)

// NarrativeResult is what the narrative stage saw in a text. It looks only
// at the form of the text, never at how specific it is: a diary that names
// React 18.2 is still a diary.
//
// Features that decide, in English and Korean:
//   - a session summary ("In this session I…", "Here's what I did",
//     "I've made the following changes", "이번 세션에서", "요청하신 작업을
//     완료했습니다") decides alone;
//   - narrated sentences: English sentences whose subject is I/we/my/our
//     followed by a past-tense verb, or that open with a diary verb
//     ("Spent the afternoon…"); Korean sentences that end in the past tense
//     (-았다/-었다/-했다, -했습니다);
//   - story markers: time of the story (today, yesterday, at 09:12, after six
//     hours, 오늘, 어젯밤, 세 시간 넘게) and its arc or feelings (finally, it
//     worked, lesson learned, 드디어, 결국, 삽질, 뿌듯).
//
// A text is a story when it has a session summary; or three narrated
// English sentences, or two that make up half the text or come with a story
// marker; or three past-tense verbs
// narrated in the first person (an agent's "I analyzed…, fixed…, added…");
// or one narrated sentence
// (either language) and two story markers; or two past-tense Korean
// sentences with a story marker or a first-person subject; or polite
// past-tense sentences (a report of what was done: "추가했습니다") making up
// half the text; or three story markers.
type NarrativeResult struct {
	Story       bool
	Session     []string // session-summary phrases found
	Narrated    int      // English first-person past-tense sentences
	Actions     int      // past-tense verbs in those sentences ("I reviewed…, updated…, fixed…")
	KoreanPast  int      // Korean sentences ending in the past tense
	PolitePast  int      // of which in the polite report form (-했습니다)
	Sentences   int
	FirstPerson bool // a Korean first-person subject (저는, 제가, 우리 팀…)
	Markers     []string
}

// Narrative runs the narrative stage on a contribution. The title counts for
// session phrases and story markers but not as a sentence: a title is a
// label ("Forgot model.eval()", "Prepared statements break…"), not
// narration.
func Narrative(title, content string) NarrativeResult {
	text := strings.TrimSpace(title + "\n" + content)
	lower := strings.ToLower(text)
	var n NarrativeResult
	for _, p := range sessionPhrases {
		if containsMarker(lower, p) {
			n.Session = append(n.Session, p)
		}
	}
	for _, m := range storyMarkers {
		if containsMarker(lower, m) {
			n.Markers = append(n.Markers, strings.TrimSuffix(m, "*"))
		}
	}
	for _, re := range storyMarkerPatterns {
		if ms := re.FindAllString(lower, 3); len(ms) > 0 {
			for _, m := range ms {
				if !hasString(n.Markers, m) {
					n.Markers = append(n.Markers, m)
				}
			}
		}
	}
	for _, s := range reSentence.Split(content, -1) {
		s = strings.TrimSpace(s)
		if s == "" {
			continue
		}
		n.Sentences++
		ls := strings.ToLower(s)
		if w := reWord.FindString(ls); diaryOpeners[w] && !hasString(n.Markers, w+"…") {
			// A sentence that drops its subject ("Spent the day on…") is
			// diary style by itself.
			n.Markers = append(n.Markers, w+"…")
		}
		if v := narratedEnglish(ls); v > 0 {
			n.Narrated++
			n.Actions += v
		}
		if koreanPast(s) {
			n.KoreanPast++
			if strings.HasSuffix(strings.TrimRight(s, " .!"), "습니다") {
				n.PolitePast++
			}
		}
	}
	for _, p := range koreanFirstPerson {
		if containsMarker(lower, p) {
			n.FirstPerson = true
		}
	}
	markers := len(n.Markers)
	n.Story = len(n.Session) > 0 ||
		n.Narrated >= 2 && (2*n.Narrated >= n.Sentences || markers >= 1) || n.Narrated >= 3 ||
		n.Actions >= 3 ||
		(n.Narrated >= 1 || n.KoreanPast >= 1) && markers >= 2 ||
		n.KoreanPast >= 2 && (markers >= 1 || n.FirstPerson) ||
		n.PolitePast >= 2 && 2*n.PolitePast >= n.Sentences ||
		markers >= 3
	return n
}

// IsNarrative reports whether text reads as a diary, story or session
// summary rather than a finding, with the features that decided it.
func IsNarrative(text string) ([]string, bool) {
	n := Narrative("", text)
	if !n.Story {
		return nil, false
	}
	var out []string
	for _, s := range n.signals() {
		out = append(out, s.Name)
	}
	return out, true
}

func (n NarrativeResult) signals() []Signal {
	var sig []Signal
	for _, p := range n.Session {
		sig = append(sig, Signal{SignalMatched, fmt.Sprintf("session summary %q", p)})
	}
	if n.Narrated > 0 {
		sig = append(sig, Signal{SignalMatched, fmt.Sprintf("first person, past tense (%d of %d sentences, %d actions)", n.Narrated, n.Sentences, n.Actions)})
	}
	if n.KoreanPast > 0 {
		sig = append(sig, Signal{SignalMatched, fmt.Sprintf("past tense (%d of %d sentences)", n.KoreanPast, n.Sentences)})
	}
	for _, m := range n.Markers {
		sig = append(sig, Signal{SignalMatched, fmt.Sprintf("story marker %q", m)})
	}
	return sig
}

func (n NarrativeResult) reason() string {
	what := "a diary or story"
	if len(n.Session) > 0 {
		what = "a session summary"
	}
	return "reads as " + what + "; state the finding itself (what happens, under which conditions, and what to do) instead of who did what and when"
}

var reSentence = regexp.MustCompile(`[.!?。]+(?:\s+|$)|\n+|;\s+|:\s*\n`)

var reWord = regexp.MustCompile(`[a-z]+(?:'[a-z]+)?`)

// narratedEnglish returns how many past-tense verbs a lowercased sentence
// narrates in the first person: after I/we/my/our (within three words, or
// as a list "I reviewed X, updated Y and fixed Z"), or after a diary verb
// opening the sentence; 0 when it is not first-person narration.
func narratedEnglish(s string) int {
	words := reWord.FindAllString(s, -1)
	if len(words) == 0 {
		return 0
	}
	// A sentence that opens with a past-tense verb has dropped its subject:
	// "Spent the afternoon…", "Successfully migrated…, updated…".
	start := -1
	first := 0
	if leadAdverbs[words[0]] && len(words) > 1 {
		first = 1
	}
	if w := words[first]; diaryOpeners[w] || isPastVerb(w) && !openerNotPast[w] {
		start = first
	}
	for i, w := range words {
		if start >= 0 {
			break
		}
		switch w {
		case "i've", "we've", "i'd", "we'd":
			if i+1 < len(words) && isPastVerb(words[i+1]) {
				start = i + 1
			}
		case "i", "we", "my", "our":
			for j := i + 1; j < len(words) && j <= i+3; j++ {
				if isPastVerb(words[j]) {
					start = j
					break
				}
			}
		}
	}
	if start < 0 {
		return 0
	}
	// Count the actions of this subject only: stop where another clause
	// starts ("…, so no SNI was sent and it got…").
	n := 0
	for _, w := range words[start:] {
		if clauseBreak[w] {
			break
		}
		if isPastVerb(w) {
			n++
		}
	}
	return n
}

// leadAdverbs may precede a subjectless past-tense verb.
var leadAdverbs = map[string]bool{
	"successfully": true, "then": true, "also": true, "finally": true, "first": true, "next": true,
	"later": true, "eventually": true, "quickly": true,
}

// openerNotPast are -ed words that open findings without narrating them.
var openerNotPast = map[string]bool{
	"used": true, "based": true, "given": true, "compared": true, "combined": true, "related": true,
	"needed": true, "called": true, "fixed": true, "added": true, "introduced": true, "changed": true,
}

var clauseBreak = map[string]bool{
	"so": true, "because": true, "but": true, "which": true, "while": true, "when": true, "since": true,
	"although": true, "until": true, "it": true, "they": true, "that": true, "who": true, "where": true,
	"though": true, "if": true, "unless": true, "whereas": true, "whether": true, "after": true,
	"before": true, "once": true, "as": true,
}

func isPastVerb(w string) bool {
	if irregularPast[w] {
		return true
	}
	return len(w) >= 5 && strings.HasSuffix(w, "ed") && !notPast[w]
}

// koreanPast reports whether a sentence ends in a past-tense verb: the
// syllable before 다, 습니다 or 어요/아요 carries the final ㅆ (했다, 됐다,
// 걸렸습니다), except 있/겠 (있다 is present, 하겠다 future).
func koreanPast(s string) bool {
	s = strings.TrimRight(s, " \t.!?~)\"'")
	for _, end := range []string{"습니다", "다", "어요", "아요", "죠", "고"} {
		if !strings.HasSuffix(s, end) {
			continue
		}
		r, _ := utf8.DecodeLastRuneInString(strings.TrimSuffix(s, end))
		if r < 0xAC00 || r > 0xD7A3 || r == '있' || r == '겠' {
			return false
		}
		return (r-0xAC00)%28 == 20 // final consonant ㅆ
	}
	return false
}
