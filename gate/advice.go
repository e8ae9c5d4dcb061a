package gate

import (
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"
)

// signalAdviceList names a short list of imperatives about named tools
// that holds nothing a reader can look up.
const signalAdviceList = "a list of general imperatives"

// adviceListClauses is how many imperative clauses make a list of advice.
const adviceListClauses = 3

// adviceListLength is the length (letterLength of the content) under which
// such a list is the whole of a text: the tuning findings that hold three
// imperative clauses and no detail explain why at 176 letters and more,
// the platitudes of that shape stop at 130.
const adviceListLength = 160

// adviceList reports a short text made of imperatives about named tools
// ("Keep your Docker images lean with multi-stage builds, scan them with
// Trivy, pin base images and avoid running as root"; "Nginx를 쓸 때는
// 타임아웃을 상황에 맞게 조절하고, 로그를 잘 남기며, 보안 헤더를 넣어야
// 합니다") with no detail a reader could look up: no version, error text,
// number, flag, path or code, no name as code writes it and no code span.
// Each clause names a thing to do, none says how or what happens: names do
// not make advice checkable. The stored score is unchanged.
func adviceList(title, content string, found []string) bool {
	if letterLength(content) >= adviceListLength {
		return false
	}
	for _, f := range found {
		switch f {
		case signalVersion, signalError, signalFlag, signalPath, signalCode, signalNumber:
			return false
		}
	}
	text := title + "\n" + content
	if reCodeName.MatchString(text) || hasInlineCode(text) {
		return false
	}
	return imperativeClauses(content)+koreanAdviceClauses(content) >= adviceListClauses
}

// reAdviceSentence splits a text into sentences, and reClauseSep a sentence
// into the clauses of a list (a colon introduces one: it splits nothing).
var (
	reAdviceSentence = regexp.MustCompile(`[.!?;]+(?:\s+|$)|\n+`)
	reClauseSep      = regexp.MustCompile(`,\s*|\s+(?:and|or|then)\s+`)
)

// imperativeClauses counts the clauses of text that open with a verb of
// advice in the imperative (after "and", "always", "never", "also", "then").
//
// The ways of "do X by doing A, B and C" count too: once a sentence has
// an imperative, a clause that opens with the -ing form of a verb of
// advice is one more thing to do ("Keep Elasticsearch healthy by sizing
// shards appropriately, using ILM for retention, monitoring heap pressure
// in Kibana and planning capacity ahead").
func imperativeClauses(text string) int {
	n := 0
	for _, s := range reAdviceSentence.Split(text, -1) {
		imperative := false
		for _, c := range reClauseSep.Split(s, -1) {
			f := strings.Fields(strings.ToLower(reBullet.ReplaceAllString(strings.TrimSpace(c), "")))
			for len(f) > 0 && adviceLead[f[0]] {
				f = f[1:]
			}
			if len(f) < 2 {
				continue
			}
			switch {
			case adviceVerbs[f[0]]:
				imperative = true
				n++
				// "… by sizing shards": the first way is in this clause.
				if i := slices.Index(f, "by"); i > 0 && i+1 < len(f) && adviceGerund(f[i+1]) {
					n++
				}
			case imperative && adviceGerund(f[0]):
				n++
			}
		}
	}
	return n
}

// adviceGerund reports the -ing form of a verb of advice (using, sizing,
// splitting, caching).
func adviceGerund(w string) bool {
	stem, ok := strings.CutSuffix(w, "ing")
	if !ok || len(stem) < 2 {
		return false
	}
	if adviceVerbs[stem] || adviceVerbs[stem+"e"] || gerundOnly[stem] || gerundOnly[stem+"e"] {
		return true
	}
	l := len(stem)
	return l >= 3 && stem[l-1] == stem[l-2] && (adviceVerbs[stem[:l-1]] || gerundOnly[stem[:l-1]])
}

// gerundOnly are verbs of advice whose bare form is as often a noun at a
// clause's head (a build, a test, a cache) but whose -ing form is a way.
var gerundOnly = setOf("build", "test", "log", "cache", "batch", "group", "size", "split", "shard", "index", "plan")

// reBullet is a list item's marker (-, *, •, 1.).
var reBullet = regexp.MustCompile(`^(?:[-*•]|\d{1,2}[.)])\s+`)

var adviceLead = setOf("and", "always", "never", "also", "then", "just", "please", "simply", "don't", "do", "not")

// adviceVerbs are verbs that open advice in the imperative. Words that are
// as often nouns at a clause's head (build, test, log, cache, group) are
// left out.
var adviceVerbs = setOf("keep", "use", "avoid", "enable", "adopt", "design", "make", "handle", "monitor", "scan",
	"pin", "split", "gate", "tune", "add", "choose", "think", "watch", "integrate", "apply", "rotate", "treat",
	"correlate", "configure", "plan", "profile", "run", "review", "embrace", "ensure", "follow", "consider",
	"prefer", "limit", "leverage", "automate", "document", "measure", "track", "define", "isolate", "separate",
	"minimize", "minimise", "reduce", "protect", "encrypt", "validate", "sanitize", "sanitise", "prioritize",
	"prioritise", "invest", "standardize", "standardise", "centralize", "centralise", "establish", "implement",
	"maintain", "favor", "favour", "tame", "manage", "memoize", "memoise", "restrict", "optimize", "optimise",
	"lazy-load", "commit", "speed", "propagate", "alert", "set", "structure", "organize", "organise", "clean", "tighten")

// koreanAdviceClauses counts the clauses of Korean advice: verbs joined by
// -고/-며 (조정하고, 남기며) and a closing recommendation (좋습니다,
// 해야 합니다, 권장합니다, 좋아집니다), in a text that closes on one.
//
// A checklist's items asked as questions (- 테스트 다 통과했는지, - 롤백 계획
// 있는지) are clauses of advice too, closing or not.
func koreanAdviceClauses(text string) int {
	checks := 0
	for _, line := range strings.Split(text, "\n") {
		if l := strings.TrimSpace(line); reBullet.MatchString(l) && strings.HasSuffix(strings.TrimRight(l, "?.!"), "는지") {
			checks++
		}
	}
	closing := reKoreanAdviceEnd.FindAllStringIndex(text, -1)
	if len(closing) == 0 {
		return checks
	}
	n := len(closing) + checks
	for _, w := range strings.Fields(text) {
		w = strings.TrimRight(w, ",")
		if utf8.RuneCountInString(w) < 3 || koreanNounsInGo[w] {
			continue
		}
		if strings.HasSuffix(w, "고") || strings.HasSuffix(w, "며") {
			n++
		}
	}
	return n
}

// reKoreanAdviceEnd is a sentence that closes on a recommendation or on a
// benefit without a measure.
var reKoreanAdviceEnd = regexp.MustCompile(`(?:좋습니다|좋아요|좋다|좋아집니다|줄어요|줄어듭니다|쉬워집니다|빨라집니다|나아집니다|권장합니다|권장한다|바람직합니다|중요합니다|중요하다|(?:해|줘|둬|써|봐|넣어|남겨|맞춰|챙겨|지켜|갖춰|꺼|켜)야\s?(?:합니다|한다|해요)|하세요|주세요|두세요|쓰세요|보세요|줄이세요|파악하세요|정리하세요|활용하세요)[.!]?\s*$|(?:좋습니다|권장합니다|중요합니다|하세요)[.!]\s`)

// koreanNounsInGo are words ending in 고 or 며 that are nouns, not the
// connective ending (참고, 경고, 광고, 재고, 보고, 창고).
var koreanNounsInGo = setOf("참고로", "최고의")

func setOf(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}
