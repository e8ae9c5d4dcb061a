package knowledge

import (
	"regexp"
	"strings"
)

// A finding is a lesson about a problem: what broke, why, what fixed it.
// A prompt that asks for a piece of work or a how-to ("write a dbt test
// that…", "convert this to async/await", "커밋 메시지 작성해줘") and
// reports no problem is rarely answered by one, even when it names the
// finding's tool: on testdata/knowledge/relevance's tuning files
// AsksHowTo holds for 413 of the 621 prompts no entry answers and for 3 of
// the 733 that one does (a prompt that reports a symptom, an error, a
// failure, "why", "keeps", "안 돼", is not a how-to). So a how-to prompt's hits
// need more evidence to be injected: HowToWeight weighs the query's
// support (query.go), the same for every hit, so it moves only whether
// they reach a floor, never their order.

// HowToWeight is the weight a how-to prompt's hits take (AsksHowTo), for
// a query embedded by a lexical model. Chosen with LexicalInjectFloor on
// the tuning files of testdata/knowledge/relevance (all eight together):
// 1 (no weight) 568/621 clean, 702/733 found; 0.8 579, 702; 0.6 588, 702;
// 0.5 596, 702; 0.4 600, 702; 0.3 604, 701. The lesser of the two shares
// is largest from 0.5 to 0.4; of those, the gentler weight, since an
// unseen related prompt that reads as a how-to loses more under a
// stronger one.
const HowToWeight = 0.5

var (
	// reAsk is a request for work or a how-to in English: an imperative
	// first word (after a "tool:" label, "please" or "can you"), or a
	// how-to question anywhere.
	reAskVerb = regexp.MustCompile(`(?i)^(?:[^:\n]{1,40}:\s*)?(?:(?:please|pls|can you|could you|would you|help me|i want to|i need to|let's)\s+)?` +
		`(?:write|rewrite|convert|generate|explain|make|add|create|set up|setup|build|implement|refactor|translate|summari[sz]e|draft|design|show|give|list|configure|deploy|template|register|scaffold|port|migrate|profile|embed|document|plot|parse|format|rename|compare|recommend|suggest|review)\b`)
	reAskHow = regexp.MustCompile(`(?i)\b(?:how (?:do|can|should|would) (?:i|we|you)|how to|what(?:'s| is) (?:a good|the best|the syntax|the right way)|syntax for|an example of|example)\b`)
	// reAskKo is a Korean request: an ending that asks for work
	// (해줘, 알려주세요, 만들어, 짜 줘) or names a how-to (방법, 예시, 예제,
	// 설정하는 법).
	reAskKo = regexp.MustCompile(`(?:해|알려|만들어|작성해|구현해|짜|다듬어|바꿔|설명해|정리해|추천해|고쳐|보여|써)\s?(?:줘|주세요|주실|줄래|주라)|방법|예시|예제|는\s?법(?:$|[\s.?!])`)
	// reProblem is a reported problem: error words, a failure, a
	// negation, a symptom, a question why, or a change of behaviour
	// ("only", "after", "since", "suddenly", "keeps", "again").
	reProblem   = regexp.MustCompile(`(?i)\b(?:errors?|errno|exceptions?|fail(?:s|ed|ing|ure)?|broken|breaks?|why|doesn'?t|does not|didn'?t|don'?t work|won'?t|can'?t|cannot|no longer|stops?|stopped|slow(?:er|ly)?|hangs?|hung|crash(?:es|ed)?|timeouts?|timed out|stuck|wrong|instead|keeps?|again|every time|twice|duplicated?|suddenly|only|but|after|since|warnings?|denied|refused|missing|empty|filled up|full|leaks?|panics?|deadlocks?|stale|flaky|intermittent(?:ly)?|unexpected(?:ly)?|accidentally|by mistake|flagged|vulnerable|exploitable|injection|traversal|without)\b|\b[A-Z]\w*(?:Error|Exception)\b|\w*(?:BackOff|Killed|Failed|Denied|Refused)\b|\boom|(?-i:\bE[A-Z]{4,}\b)|\b[45]\d\d\b|(?:^|[\s(:=])(?:'[^'\n]+\s[^'\n]+'|"[^"\n]+\s[^"\n]+")`)
	reProblemKo = regexp.MustCompile(`에러|오류|실패|안\s?돼|안\s?되|안\s?됨|안\s?나|않|왜|느려|느린|멈춰|멈추|깨져|깨지|자꾸|계속|갑자기|터져|죽어|죽는|죽기|문제|경고|충돌|누락|거부|끊기|끊겨|틀려|어긋|이상하|사라져|없어져|밀려|늘어나|막혀|중복|실수로|잘못|비어|꽉|없이`)
)

// AsksHowTo reports a prompt that asks for work or a how-to and reports
// no problem (see HowToWeight).
func AsksHowTo(text string) bool {
	t := strings.TrimSpace(text)
	if t == "" || reProblem.MatchString(t) || reProblemKo.MatchString(t) {
		return false
	}
	return reAskVerb.MatchString(t) || reAskHow.MatchString(t) || reAskKo.MatchString(t)
}

// IntentWeight is the weight a query's support takes for what its text
// asks: HowToWeight for a how-to prompt (AsksHowTo) embedded by a lexical
// model (LexicalModelPrefix), whose words are all the evidence there is;
// 1 otherwise (a semantic embedder's cosine says what the words do not,
// and its floor was not measured with this weight).
func IntentWeight(model, text string) float64 {
	if strings.HasPrefix(model, LexicalModelPrefix) && AsksHowTo(text) {
		return HowToWeight
	}
	return 1
}
