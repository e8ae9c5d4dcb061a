package gate

import "testing"

// TestNarrativeDatesAndSpans: a flag's letter in a code span is no
// narrator (`df -i` showed), and a relative day that names a date ('어제',
// 그저께 날짜, yesterday's date) is the subject of a finding about dates,
// not when something happened; a diary keeps its day words.
func TestNarrativeDatesAndSpans(t *testing.T) {
	for _, c := range []struct {
		title, content string
		story          bool
	}{
		{"inodes", "Writes fail with `No space left on device` while `df -h` says 40% used. `df -i` showed 100%. `ls -i` printed the inode numbers, `stat -f` reported them too.", false},
		{"cron 날짜", "매일 01:00(KST)에 '오늘' 파티션을 만드는 잡이 그저께 날짜로 파티션을 만든다. cron 이 UTC 로 돌아서 어제 날짜가 `date +%F` 에 찍히기 때문이다.", false},
		{"report date", "The nightly export writes yesterday's date into the file name from `date -d yesterday`; at 00:30 UTC that is still today's date in Honolulu.", false},
		{"diary", "어제는 하루 종일 배포만 했다. 그저께 밤새 고친 버그가 다시 나왔다.", true},
		{"I did", "Yesterday I ran `df -i` and found the inodes full. Then I deleted the sessions and restarted php-fpm.", true},
	} {
		if got := Narrative(c.title, c.content).Story; got != c.story {
			t.Errorf("Narrative(%q).Story = %v, want %v", c.title, got, c.story)
		}
	}
}
