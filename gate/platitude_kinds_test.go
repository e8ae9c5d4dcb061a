package gate

import (
	"strings"
	"testing"
)

// TestKoreanOneSyllableTech: a one-syllable Korean name (맥, 깃) names the
// technology as a word with its particle, not as the first syllable of
// another word (맥락, 맥박, 깃발).
func TestKoreanOneSyllableTech(t *testing.T) {
	for text, want := range map[string]bool{
		"맥에서 brew 로 설치한다":    true,
		"깃으로 되돌린다":           true,
		"맥 사용자는 ⌘ 키를 쓴다":     true,
		"맥락 없는 메시지는 쓸모가 없다":  false,
		"서버의 맥박을 재는 헬스체크":    false,
		"배포 전에 깃발을 꽂아 두는 습관": false,
	} {
		got := false
		for _, tech := range namedTech(text, strings.ToLower(text)) {
			got = got || tech == "맥" || tech == "깃"
		}
		if got != want {
			t.Errorf("namedTech(%q) names 맥/깃 = %v, want %v", text, got, want)
		}
	}
}

// TestShortPlatitudesKo pins two kinds of Korean platitude the gate
// passed: a maxim whose only technology was 맥 inside 맥락, and advice to
// "consider" (고민해 보세요, 생각하면서) in place of a step; beside them,
// short findings that state a step and pass.
func TestShortPlatitudesKo(t *testing.T) {
	for _, c := range []struct {
		title, content string
		pass           bool
	}{
		{"로그 남기기", "로그는 장애가 나면 읽을 사람을 위해 남기세요. 맥락 없는 로그는 없는 것과 같습니다.", false},
		{"설정은 코드로", "설정을 손으로 바꾸고 있다면 코드로 관리하는 방법을 고민해 보세요. 손으로 바꾼 설정은 누가 언제 바꿨는지 남지 않고 되돌리기도 어렵습니다. 코드로 둔 설정은 그 자체가 변경 이력이 됩니다.", false},
		{"맥에서 pg_ctl 경로", "맥에서 Homebrew 로 설치한 PostgreSQL 16 은 pg_ctl 이 /opt/homebrew/opt/postgresql@16/bin 에 있다. PATH 에 넣지 않으면 command not found 가 난다.", true},
	} {
		if got := Check(c.title, c.content); got.Pass != c.pass {
			t.Errorf("Check(%q) pass = %v (%s %v), want %v", c.title, got.Pass, got.Stage, got.Details, c.pass)
		}
	}
}

// TestVagueCounted: advice that names nothing and reaches the floor on a
// tacked-on number or an error-like phrase is refused when it hedges;
// the same shape stating a step passes.
func TestVagueCounted(t *testing.T) {
	for _, c := range []struct {
		title, content string
		pass           bool
	}{
		{"Cache growth", "An unbounded cache grows until the heap fills and the garbage collector pauses every thread, which causes timeouts for each request on the server; revisit the eviction policy now and then and adjust it, every 3 months.", false},
		{"Too many connections", "Too many connections can exhaust the database, which makes every request slower because they all wait on the pool; keep an eye on it and adjust the pool when something looks off.", false},
		{"Worker count", "When a queue grows faster than its workers drain it, messages wait and the backlog causes timeouts downstream; add one worker per 500 queued messages and cap the pool at 32 workers.", true},
	} {
		if got := Check(c.title, c.content); got.Pass != c.pass {
			t.Errorf("Check(%q) pass = %v (%s %v), want %v", c.title, got.Pass, got.Stage, got.Details, c.pass)
		}
	}
}
