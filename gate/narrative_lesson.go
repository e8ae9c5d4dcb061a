package gate

import (
	"regexp"
	"strings"
)

// hasRemedy reports a trouble and a change made against it, outside
// quoted code and messages: a finding that tells what went wrong and what
// was done ("…failed with 403. Pass ContentType…", "…오탐으로 잡았습니다.
// …Luhn 검증을 켜서 없앴습니다"), even in words hasLesson does not weigh.
// An account of work done names changes but no trouble; a story names
// trouble but changes nothing.
func hasRemedy(title, content string) bool {
	plain := reQuoted.ReplaceAllString(content, " ")
	both := strings.ToLower(title + "\n" + plain)
	// The trouble counts in the writer's words: a quoted error added to a
	// diary ("Postgres said \"ERROR: …\"") is garnish, not a finding.
	trouble := reTrouble.MatchString(both) || reTroubleKo.MatchString(both)
	return trouble && (reChange.MatchString(both) || reChangeKo.MatchString(both))
}

var (
	// reTrouble finds, in English, something that went wrong.
	reTrouble = regexp.MustCompile(`\b(?:fail(?:s|ed|ing|ure|ures)?|errors?|broke|broken|breaks|timed out|time-?outs?|crash(?:es|ed)?|killed|oom\w*|leak(?:s|ed)?|blank|rejected|refused|stuck|hung|hangs|spik(?:e|es|ed)|exceed(?:s|ed)?|duplicates?|twice|deadlocks?|flak(?:e|es|y)|hitch(?:es)?|bloat|mismatch|exceptions?|expired|attacker|malicious|compromised|hijack\w*|typosquat\w*|injection|denied|truncated|overran|throttled|[45]\d\d)\b`)
	// reTroubleKo finds the same in Korean.
	reTroubleKo = regexp.MustCompile(`실패|오류|에러|문제|장애|안 됐|안 떴|안 뜨|밀려|밀림|깨져|깨졌|깨짐|터졌|터집|죽었|멈췄|끊겼|끊김|누락|오탐|섞였|유출|탈취|변조|악성|타임아웃|초과|경합|데드락|지연|사고|잘렸|잘림|늦게`)
	// reChange finds, in English, a change made or advised.
	reChange = regexp.MustCompile(`\b(?:replac(?:e|ed|ing)|switch(?:ed|ing)? to|moved|moving|added|set|setting|changed|enabled|disabled|enforc(?:e|ed|ing)|pinned|raised|lowered|increased|reduced|capped|removed|restructured|trimmed|rewrote|split|bundled|converted|renamed|installed|now|use|pass|add|enable|disable|pin|annotating|went from|dropped to|fixed)\b`)
	// reChangeKo finds the same in Korean.
	reChangeKo = regexp.MustCompile(`고쳤|고치|바꿨|바꾸|바꿔|넣어|넣었|넣고|추가|설정|명시|줄였|줄이|늘렸|늘리|분리|제한|교체|고정|옮기|옮겼|덮어쓰|켜서|켜고|켰|껐|끄고|내렸|올렸|감싸|적었|제거|차단|검증|안정화|해결|사라졌|돌아왔|없앴`)
)

// statesNothing reports a text with no sentence in the present ("The
// index is used…", "…기본값이 1MB입니다") and no advice in the imperative:
// nothing in it holds beyond the time it tells.
func statesNothing(content string) bool {
	if imperativeClauses(content)+koreanAdviceClauses(content) > 0 {
		return false
	}
	plain := reQuoted.ReplaceAllString(content, " ")
	for _, s := range reSentence.Split(plain, -1) {
		if s = strings.TrimSpace(s); s != "" && presentSentence(s) {
			return false
		}
	}
	return true
}

// explains reports a cause told together with what was done or is to be
// done about it, outside quoted code and messages ("원인은 … 이었습니다.
// … 30초로 내렸고", "because two branches had each added a migration. We
// merged them…"): the two halves of a finding, whatever story words
// frame them.
func explains(title, content string) bool {
	plain := strings.ToLower(title + "\n" + reQuoted.ReplaceAllString(content, " "))
	if !reCauseTold.MatchString(plain) {
		return false
	}
	return reChange.MatchString(plain) || reChangeKo.MatchString(plain) || reRule.MatchString(plain) ||
		imperativeClauses(content)+koreanAdviceClauses(content) > 0
}

var (
	// reCauseTold finds a cause stated: because, caused by, the cause was,
	// 원인은, 때문.
	reCauseTold = regexp.MustCompile(`\b(?:because|due to|caused by|the cause|root cause|turned out|traced (?:it )?to)\b|원인|때문`)
	// reRule finds a rule drawn or advice given: a lesson, a must, -하세요.
	reRule = regexp.MustCompile(`\b(?:lesson|takeaway|must|should|make sure|never|always)\b|교훈|주의|세요|야\s?(?:한다|합니다|해요)|권장`)
)

// koreanStatusLines reports a Korean status report: three list entries or
// more, half the lines, each a short note that ends in a noun of status
// or in the nominal -ㅁ ("…업그레이드 완료", "…착수 예정", "온보딩 지원",
// "배포 일정 지킴", "진행 중 (70%)"), with no code in it. A finding's
// list carries values, commands and reasons, not states of work.
func koreanStatusLines(content string) bool {
	lines, status := 0, 0
	for _, line := range strings.Split(content, "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		lines++
		if !reListMark.MatchString(line) || strings.ContainsAny(line, "`=/{}<>") {
			continue
		}
		line = strings.TrimSpace(reTrailingNote.ReplaceAllString(line, ""))
		line = strings.TrimRight(line, " .")
		r := lastRune(line)
		if r < 0xAC00 || r > 0xD7A3 {
			continue
		}
		// A nominal -ㅁ ending counts only on a note with no amount,
		// setting or condition in it: "…noeviction임", "…올리면 줄어듦"
		// are a finding's bullet notes (개조식), "배포 일정 지킴" a state.
		if (r-0xAC00)%28 == 16 && !reNoteFact.MatchString(line) || reStatusNoun.MatchString(line) {
			status++
		}
	}
	return status >= 3 && 2*status >= lines
}

var (
	// reTrailingNote is a note in parentheses at a line's end: (70%),
	// (순조로움), (해결 완료).
	reTrailingNote = regexp.MustCompile(`\s*\([^()]{1,20}\)\s*$`)
	// reNoteFact finds in a note what a finding's bullet holds: a number,
	// a name in Latin letters, a condition (-면) or a cause.
	reNoteFact = regexp.MustCompile(`[0-9A-Za-z]|[가-힣]면\s|때문|원인`)
	// reStatusNoun ends a line on the state of a piece of work.
	reStatusNoun = regexp.MustCompile(`(?:완료|진행 중|진행중|진행|예정|착수|검토|협의|지원|참석|작성|공유|정리|추가|작업 중|작업중|대응|논의|확인|이전|개선|반차|휴가|연차|없음|중|보류|대기|시작|종료|마무리)$`)
)

// openingVerb returns a lowercased sentence's first word, after a leading
// adverb ("Then ran…", "Finally updated…").
func openingVerb(s string) string {
	words := reWord.FindAllString(s, 3)
	if len(words) > 1 && leadAdverbs[words[0]] {
		return words[1]
	}
	if len(words) > 0 {
		return words[0]
	}
	return ""
}

// dayTold reports a text placed at two parts of the day or more (아침,
// 점심, 오후, 저녁, 밤), on no clock, with no cause, rule or trouble met by
// a change: the writer's day told in turn. A finding names the time its
// job runs (새벽 3시, 02:00) or what the time breaks and what to do.
func dayTold(title, content string) bool {
	plain := reQuoted.ReplaceAllString(title+"\n"+content, " ")
	if reClockAny.MatchString(strings.ToLower(plain)) || reRule.MatchString(strings.ToLower(plain)) ||
		explains(title, content) || hasRemedy(title, content) {
		return false
	}
	parts := map[string]bool{}
	for _, m := range reDayPart.FindAllString(plain, -1) {
		parts[m] = true
	}
	return len(parts) >= 2
}

// reDayPart finds a part of the day in Korean, as the diary places what
// it tells (아침에, 오후에는, 저녁쯤).
var reDayPart = regexp.MustCompile(`아침|점심|오전|오후|저녁|밤`)
