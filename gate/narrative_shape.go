package gate

import (
	"regexp"
	"strings"
)

// storyShape reports the shape of an account told without a lesson: a
// timeline (three or more entries, half the text, placed at a time of day
// and not in the present: "09:16 Hana acknowledged", "At 11:07 Chen
// posted", "14시 05분에 …") or status lines (three or more, half the text,
// led by a short label: "Mina: finished the Helm bump", "Yesterday:
// reviewed…", "blocked: need access…"), with nothing in it that holds
// beyond the time it tells: no cause, no effect measured, no fix, no job
// moved to another time, no rule, condition or advice. An incident
// timeline with times and names or a stand-up is this shape however
// specific its names are; an incident write-up still says why or what was
// done about it ("the cause was…", "so…", "from 95 to 31 minutes").
func storyShape(title, content string, lesson bool) (shape string) {
	if koreanStatusLines(content) && !explains(title, content) {
		return "status lines"
	}
	if lesson {
		return ""
	}
	plain := reQuoted.ReplaceAllString(content, " ")
	sentences, clocked, labelled := 0, 0, 0
	for _, s := range reSentence.Split(plain, -1) {
		s = strings.TrimSpace(reListMark.ReplaceAllString(strings.TrimSpace(s), ""))
		if s == "" {
			continue
		}
		sentences++
		switch {
		case presentSentence(s):
			// What is so now, or always ("The backup runs at 02:00"),
			// is no event.
		case reClockLed.MatchString(s) || reClockIn.MatchString(s):
			clocked++
		case reStatusLabel.MatchString(s):
			labelled++
		}
	}
	switch {
	case clocked >= 3 && 2*clocked >= sentences && !reRemedy.MatchString(strings.ToLower(plain)):
		return "a timeline"
	case labelled >= 3 && 2*labelled >= sentences:
		return "status lines"
	}
	return ""
}

// hasLesson reports, outside quoted code and messages, something that
// holds beyond the time a text tells: a cause, an effect measured, a fix,
// a job moved to another time, a rule, condition or advice.
func hasLesson(title, content string) bool {
	plain := reQuoted.ReplaceAllString(content, " ")
	both := title + "\n" + content
	return reLesson.MatchString(strings.ToLower(title+"\n"+plain)) || reMovedTime.MatchString(strings.ToLower(plain)) || reLessonKo.MatchString(both) || reEffect.MatchString(both)
}

// weekTold reports a text placed on two weekdays or more and on no clock,
// with no lesson in it: a week told day by day ("submitted on Tuesday…,
// approved Thursday morning", "QA found a few things on Monday…, out sick
// on Tuesday"). A finding names a weekday as a schedule, next to the time
// its job runs ("Sunday at 02:30", "every Monday"), or says what the day
// breaks and what to do.
func weekTold(title, content string, lesson bool) bool {
	plain := strings.ToLower(reQuoted.ReplaceAllString(title+"\n"+content, " "))
	if lesson || reClockAny.MatchString(plain) {
		return false
	}
	days := map[string]bool{}
	for _, m := range reWeekday.FindAllStringSubmatch(plain, -1) {
		switch {
		case m[2] != "" && m[1] == "":
			days[strings.TrimSuffix(m[2], "s")] = true
		case m[4] != "" && m[3] == "":
			days[m[4]] = true
		}
	}
	return len(days) >= 2
}

var (
	// reWeekday finds a weekday, with "every"/"each" before it when it
	// names a schedule.
	reWeekday = regexp.MustCompile(`\b(?:(every|each)\s+)?(mondays?|tuesdays?|wednesdays?|thursdays?|fridays?|saturdays?|sundays?)\b|(매주\s?)?([월화수목금토일]요일)`)
	// reClockAny finds a time of day on a clock: 02:30, 9am, 9 pm, 3시.
	reClockAny = regexp.MustCompile(`\d{1,2}:\d\d|\b\d{1,2}\s?(?:am|pm)\b|\d{1,2}시`)
)

// presentSentence reports a sentence with a finite verb in the present
// (English "is", "does not", "runs"; Korean 된다, 합니다, 있어요): what holds
// now or always, not what happened.
func presentSentence(s string) bool {
	for _, w := range reWord.FindAllString(strings.ToLower(s), -1) {
		if presentFinite[w] {
			return true
		}
	}
	k := strings.TrimRight(s, " \t.!?~)\"'")
	if r := lastRune(k); r < 0xAC00 || r > 0xD7A3 || !strings.HasSuffix(k, "다") && !strings.HasSuffix(k, "요") {
		return false
	}
	return !koreanPast(s)
}

var presentFinite = map[string]bool{
	"is": true, "are": true, "am": true, "does": true, "do": true, "has": true, "have": true, "can": true,
	"must": true, "should": true, "doesn't": true, "don't": true, "isn't": true, "aren't": true, "can't": true,
	"cannot": true, "needs": true, "uses": true, "returns": true, "defaults": true, "means": true, "makes": true,
	// Common verbs in the third person present.
	"runs": true, "starts": true, "fails": true, "breaks": true, "stops": true, "keeps": true, "takes": true,
	"works": true, "happens": true, "shows": true, "sends": true, "reads": true, "writes": true, "holds": true,
	"sets": true, "adds": true, "causes": true, "triggers": true, "expects": true, "allows": true,
	"ignores": true, "blocks": true, "drops": true, "waits": true, "loads": true, "opens": true, "creates": true,
	"deletes": true, "skips": true, "matches": true, "contains": true, "includes": true, "becomes": true,
	"stays": true, "lets": true, "applies": true, "depends": true, "supports": true, "requires": true,
	"accepts": true, "rejects": true, "treats": true, "expires": true, "reports": true, "logs": true,
	"prints": true, "throws": true, "emits": true, "calls": true, "checks": true, "won't": true, "will": true,
}

var (
	// reListMark is a bullet or a list number before an entry.
	reListMark = regexp.MustCompile(`^(?:[-*•·]+\s*|\d{1,2}[.)]\s+)`)
	// reClockLed opens a sentence on a clock: "09:14 …", "At 02:10 UTC
	// …", "Around 11:00 …", "By 11:20 …", "14시 05분에 …".
	reClockLed = regexp.MustCompile(`^(?i:(?:at|around|about|by|until|from|since)\s+)?\d{1,2}:\d\d\b|^\d{1,2}시(?:\s?\d{1,2}분)?`)
	// reClockIn places a sentence at a time of day ("Lee was paged at
	// 02:12", "around 03:05", "14시 30분에").
	reClockIn = regexp.MustCompile(`(?i)\b(?:at|around|about|by|until|since)\s+\d{1,2}:\d\d\b|\d{1,2}시\s?\d{1,2}분`)
	// reMovedTime finds a job moved to another time ("moved the export
	// to 00:15", "00:15로 옮기니"): a schedule's fix.
	reMovedTime = regexp.MustCompile(`\b(?:to|until)\s+\d{1,2}:\d\d|\d{1,2}:\d\d\s?(?:로|으로)|\d{1,2}시(?:\s?\d{1,2}분)?(?:로|으로)`)
	// reRemedy finds, in a timeline, what was changed against the
	// trouble: a job moved to another time, a setting raised, a rollback.
	reRemedy = regexp.MustCompile(`\b(?:set|raised|lowered|increased|reduced|changed|switched|rolled back|reverted)\b|올렸|낮췄|늘렸|줄였|바꿨|바꾸|옮겼|옮기|되돌렸|롤백`)
	// reStatusLabel opens a status line on a short label and a colon
	// ("Mina: finished…", "Yesterday: reviewed…", "blocked: need
	// access…"), then words, not a value ("timeout: 30s").
	reStatusLabel = regexp.MustCompile(`^\pL[\pL'’]{1,15}(?:\s\pL{2,15})?:\s+\pL+[\s,]+\pL+\s+\S`)
	// reLesson finds, in English, what holds beyond the time told: a
	// cause, an effect, a fix, a condition, a rule or advice.
	reLesson = regexp.MustCompile(`\b(?:because|due to|caus(?:e|ed|es|ing)|reason|turned out|traced|so that|therefore|which meant|meaning|led to|result(?:ed|s)? in|as a result|fix(?:es|ed by|ed it| is|:)?|the fix|solv(?:e|ed|es)|solution|workaround|work around|instead|no longer|prevent(?:s|ed)?|avoid(?:s|ed)?|if|unless|whenever|only when|every time|by default|default|requires?|must|should|need to|needs to|make sure|never|always|don't|do not|doesn't|does not|cannot|can't|won't|will not|lesson|takeaway|note:|tip:|so the|so it|so we|so our|remed(?:y|ies)|mitigat\w*|trigger(?:s|ed)?|symptoms?|root|why|how to|result)\b`)
	// reLessonKo finds the same in Korean: 원인, 때문, 해결, -더니/-니까/
	// -보니 (what a try showed), -면 (a condition), -야 한다, 하세요.
	reLessonKo = regexp.MustCompile(`원인|때문|탓|인해|이유|해결|방지|대신|더니|보니|니까|하니|[가-힣]면\s|[가-힣]면,|야\s?(?:한다|합니다|해요|함|됨)|세요|마라|말 것|권장|주의|기본값|않는다|않습니다|않아요|안 된다|안 됩니다|수 없`)
	// reEffect finds an effect measured: "from 95 to 31 minutes",
	// "40 → 9", "3.2초에서 0.8초로".
	reEffect = regexp.MustCompile(`(?i)\bfrom\s+~?\d[\d.,]*\s?\S*\s+to\s+~?\d[\d.,]*\s?(?:ms|s|secs?|seconds?|minutes?|mins?|hours?|h|%|[kmgt]i?b|x|times|requests?|errors?)\b|\d\S*\s*(?:→|->)\s*~?\d|\d\S*에서\s+\d\S*로`)
)
