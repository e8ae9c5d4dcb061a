package gate

import (
	"regexp"
	"strings"
)

// Payloads a write-up shows: a report of an attack displays the text it
// found (a fenced block, or lines of their own) after a line that
// introduces it ("… contained this HTML comment (payload quoted as
// found):", "The example tool carried text like:", "주석 내용은 다음과
// 같았다."). That text speaks to an agent in an attacker's words, but the
// write-up only shows it, the way it quotes a phrase.

var (
	// reShowIntro ends a line that introduces what follows as shown: a
	// colon, "such as", "like", "for example", or Korean "as follows".
	// A label ends the same way ("payloads look like"): the prose around
	// must also report what happened (reReportsEvent).
	reShowIntro = regexp.MustCompile(`:\s*$|\b(?:such as|like|like this|as follows|reading|saying|e\.g\.|for example|for instance)\s*$|다음과\s*같(?:았다|다|습니다|았습니다|은\s*[가-힣]+이다)\.?\s*$`)
	// reReportsEvent reports what happened or what was done: a text that
	// only labels a block ("Example prompt injection:", "payloads look
	// like") shows nothing, it hands the block over.
	reReportsEvent = regexp.MustCompile(`\b(?:found|contained|carried|included|had|held|bore|came|appeared|arrived|received|posted|planted|hid|embedded|injected|inserted|reported|removed|blocked|flagged|quarantined|saw|noticed|observed|discovered|caught|detected|ran|read|said|told|asked|was|were|triaged|fixed|patched|stopped|sent|leaked|opened|filed|submitted|added|showed|returned)\b|있었|발견|됐다|되었다|었다|았다|였다|했다|했습니다|었습니다|았습니다|였습니다`)
	// reLabelIntro ends a line that says what such text looks like, in
	// the present ("payloads look like", "a typical one reads like"): a
	// label, even in a text that reports something else.
	reLabelIntro = regexp.MustCompile(`\b(?:looks?|reads?|goes|go|sounds?) like\s*:?\s*$`)
	// reFenceLine opens or closes a fenced block.
	reFenceLine = regexp.MustCompile("^\\s*(?:```|~~~)")
)

// shownLines is the text with the lines a write-up shows (see above)
// turned into quotes, and the set of those lines as they now read. A text
// shows only when its own words, outside what it shows, name the attack
// it reports and report it as something that happened, and the
// introducing line asks its reader for nothing.
func shownLines(s string) (string, map[string]bool) {
	lines := strings.Split(s, "\n")
	var blocks [][2]int // [from, to) line ranges
	for i := 0; i < len(lines); i++ {
		if !reShowIntro.MatchString(lines[i]) || reLabelIntro.MatchString(lines[i]) || reToReader.MatchString(lines[i]) || reToReaderKo.MatchString(lines[i]) {
			continue
		}
		j := i + 1
		for j < len(lines) && strings.TrimSpace(lines[j]) == "" {
			j++
		}
		if j == len(lines) {
			break
		}
		from, to := j, j
		if reFenceLine.MatchString(lines[j]) {
			for to = j + 1; to < len(lines) && !reFenceLine.MatchString(lines[to]); to++ {
			}
			if to == len(lines) {
				continue
			}
			from = j + 1
		} else {
			for to < len(lines) && to-from < 6 && strings.TrimSpace(lines[to]) != "" {
				to++
			}
		}
		if from < to {
			blocks = append(blocks, [2]int{from, to})
		}
		i = to - 1
	}
	if len(blocks) == 0 {
		return s, nil
	}
	outside := append([]string(nil), lines...)
	for _, b := range blocks {
		for k := b[0]; k < b[1]; k++ {
			outside[k] = ""
		}
	}
	prose := strings.Join(outside, "\n")
	if !reAttackWords.MatchString(prose) || reNotAttack.MatchString(prose) || !reReportsEvent.MatchString(prose) {
		return s, nil
	}
	shown := map[string]bool{}
	for _, b := range blocks {
		for k := b[0]; k < b[1]; k++ {
			if strings.TrimSpace(lines[k]) == "" {
				continue
			}
			lines[k] = quoteLine(lines[k])
			shown[lines[k]] = true
		}
	}
	return strings.Join(lines, "\n"), shown
}

// quoteLine makes a line one quote, or several on a long line (a quote
// spans at most 200 characters), with its comment markers and quote
// characters made spaces so the quotes hold.
func quoteLine(l string) string {
	l = strings.NewReplacer("<!--", " ", "-->", " ", "\"", " ", "“", " ", "”", " ").Replace(l)
	var b strings.Builder
	r := []rune(l)
	for len(r) > 0 {
		n := min(len(r), 180)
		b.WriteString("“" + string(r[:n]) + "”")
		r = r[n:]
	}
	return b.String()
}

// lineOf is the line of text around the byte offset at.
func lineOf(text string, at int) string {
	line := text[strings.LastIndexByte(text[:at], '\n')+1:]
	if i := strings.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	}
	return line
}
