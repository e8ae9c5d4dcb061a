package gate

import (
	"regexp"
	"strings"
	"unicode/utf8"
)

// The Korean sentence forms the narrative stage reads: trying in the past,
// a past-tense ending and a diary on the writer's clock.

// koreanTried reports the auxiliary 보다 of trying in the past, after a
// verb's -아/-어 form ("늘려 봤다", "바꿔 봤고", "해 봤는데"): the syllable
// before 봤 has no final consonant and ends in one of those vowels.
func koreanTried(s string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], "봤")
		if j < 0 {
			return false
		}
		pre := strings.TrimRight(s[:i+j], " ")
		i += j + len("봤")
		r, _ := utf8.DecodeLastRuneInString(pre)
		if r < 0xAC00 || r > 0xD7A3 || (r-0xAC00)%28 != 0 {
			continue
		}
		switch (r - 0xAC00) / 28 % 21 { // the vowel
		case 0, 1, 4, 5, 6, 9, 10, 14, 15: // ㅏ ㅐ ㅓ ㅔ ㅕ ㅘ ㅙ ㅝ ㅞ
			return true
		}
	}
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

var (
	reClockLine = regexp.MustCompile(`^\d{1,2}:\d\d\s+\S`)
	// reLogLevel is a log line's level after its time: a program's log,
	// not the writer's diary.
	reLogLevel = regexp.MustCompile(`^\d{1,2}:\d\d(?::\d\d(?:[.,]\d+)?)?\s+\[?(?:TRACE|DEBUG|INFO|WARN|WARNING|ERROR|FATAL|CRIT|CRITICAL|NOTICE)\b`)
)

// koreanClockDiary reports a Korean timeline on the writer's clock: three
// lines or more that open on a time and end in the diary's nominal form
// (읽음, 올림, 확인함, 안 됨: a final ㅁ) or in a word of what was done then
// (시작, 종료, 완료, 실패, 성공, 계속), as "10:15 README 읽음". A log line
// carries its level and its message, not a diary's ending.
func koreanClockDiary(content string) bool {
	n := 0
	fenced := false
	for _, line := range strings.Split(content, "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "```") {
			// A fenced block quotes a log or output: no diary inside.
			fenced = !fenced
			continue
		}
		if fenced || !reClockLine.MatchString(line) || reLogLevel.MatchString(line) {
			continue
		}
		r, _ := utf8.DecodeLastRuneInString(strings.TrimRight(line, ". "))
		done := false
		for _, w := range []string{"시작", "종료", "완료", "실패", "성공", "계속"} {
			done = done || strings.HasSuffix(strings.TrimRight(line, ". "), w)
		}
		if r >= 0xAC00 && r <= 0xD7A3 && (r-0xAC00)%28 == 16 || done {
			n++
		}
	}
	return n >= 3
}
