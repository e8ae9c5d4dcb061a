package knowledge

import "testing"

// TestChoiceConflicts pins the kinds of details_choices.go on pairs of
// short texts: a look-alike that changes the choice conflicts, a
// rewording that keeps it, or turns another thing, does not.
func TestChoiceConflicts(t *testing.T) {
	for _, c := range []struct {
		name, a, b string
		want       bool
	}{
		{"sort", "The cursor query sorts with ORDER BY id ASC.", "Our cursor pages use ORDER BY id DESC.", true},
		{"sort kept", "The cursor query sorts with ORDER BY id ASC.", "Pages are read in ascending id order.", false},
		{"sort korean", "timestamp 오름차순으로 정렬한다.", "timestamp 내림차순 정렬이다.", true},
		{"switch", "Enable the cache mount for pip.", "We disable the pip cache mount.", true},
		{"switch kept", "Enable the cache mount for pip.", "Turn on the pip cache mount.", false},
		{"turned", "Turn swap off with swapoff -a before kubelet starts.", "kubelet starts once you turned swap on again.", true},
		{"switches of other things", "Enable NTP with timedatectl.", "Fix the clock rather than turning off Check-Valid-Until.", false},
		{"a state is no switch", "The port went err-disabled after BPDU guard fired.", "Enable BPDU guard on the port.", false},
		{"region", "Log in with --region ap-northeast-2 before the pull.", "The pull needs a login with --region ap-northeast-1.", true},
		{"region kept", "Log in with --region ap-northeast-2 before the pull.", "The pull needs a login in ap-northeast-2.", false},
		{"time zone", "Set timeZone: Asia/Seoul on the CronJob; schedules are UTC.", "Set timeZone: UTC on the CronJob.", true},
		{"time zone kept", "Set timeZone: Asia/Seoul on the CronJob.", "The CronJob needs TZ=Asia/Seoul.", false},
		{"way", "Replication runs from us-east-1 to eu-west-1.", "Objects replicate from eu-west-1 to us-east-1.", true},
		{"only", "The security group allows port 53 over UDP only; TCP answers are dropped.", "Port 53 was open for TCP only, so queries over UDP failed.", true},
		{"only kept", "The security group allows port 53 over UDP only.", "Port 53 is open only over UDP.", false},
		{"only list kept", "The allow list let through GET and PROPFIND only.", "It allowed only GET and PROPFIND.", false},
		{"way kept", "Replication runs from us-east-1 to eu-west-1.", "Objects replicate from us-east-1 into eu-west-1.", false},
	} {
		a, b := ParseDetails(c.a), ParseDetails(c.b)
		if got := DetailsConflict(a, b); got != c.want {
			t.Errorf("%s: DetailsConflict = %v, want %v", c.name, got, c.want)
		}
		if got := DetailsConflict(b, a); got != c.want {
			t.Errorf("%s: DetailsConflict reversed = %v, want %v", c.name, got, c.want)
		}
	}
}
