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

// TestVagueCountedWeakNames: advice whose only names are a number glued
// to its unit or a multiplier (10x, 100ms), a process's acronym (PR, CI)
// and a limit left to the reader ("where possible", 가능하면) is refused;
// the same subjects with a tool, a path or a command pass.
func TestVagueCountedWeakNames(t *testing.T) {
	for _, c := range []struct {
		title, content string
		pass           bool
	}{
		{"Plan for scale", "Design your system with growth in mind. It is wise to plan for 10x your current load and revisit the architecture every year or so.", false},
		{"Fast CI", "A fast CI pipeline keeps developers productive. Keep builds under 10 minutes where possible and fix flaky tests quickly.", false},
		{"코드 리뷰", "코드 리뷰는 문제를 일찍 발견하고 지식을 공유하는 좋은 방법입니다. PR 은 가능하면 400줄 이하로 작게 유지하고 리뷰어는 2명 이상 두는 것이 좋습니다.", false},
		{"빠른 CI", "빠른 CI 는 개발 생산성을 높여 줍니다. 빌드는 가능하면 10분 이내로 유지하고 불안정한 테스트는 빨리 고치세요.", false},
		{"Go module cache in CI", "In GitHub Actions, cache ~/go/pkg/mod with actions/cache keyed on hashFiles('**/go.sum'); where possible the job then skips go mod download and builds drop from 9 to 3 minutes.", true},
		{"PR 크기 경고", "danger.js 의 `danger.github.pr.additions` 가 400 을 넘으면 경고 코멘트를 달게 하면, 가능하면 PR 을 나누라는 안내가 리뷰 전에 붙는다.", true},
	} {
		if got := Check(c.title, c.content); got.Pass != c.pass {
			t.Errorf("Check(%q) pass = %v (%s %v), want %v", c.title, got.Pass, got.Stage, got.Details, c.pass)
		}
	}
}

// TestVendorCopy: a vendor's praise ("cutting-edge", "world-class",
// "game-changer") with a tacked-on figure is a platitude; a finding that
// quotes the word to correct it (seamless failover) names its mechanism
// and passes.
func TestVendorCopy(t *testing.T) {
	for _, c := range []struct {
		title, content string
		pass           bool
	}{
		{"Meet the new observability suite", "Our cutting-edge observability suite gives you world-class visibility across every service in seconds. Seamless onboarding, 99.99% uptime and 24/7 support make it the game-changer your SRE team needs.", false},
		{"Seamless failover is not seamless in RDS Multi-AZ", "RDS Multi-AZ failover flips the DNS CNAME of the endpoint, so clients that cache DNS (the JVM's networkaddress.cache.ttl defaults to forever with a security manager) keep connecting to the old primary for minutes; set networkaddress.cache.ttl=5.", true},
	} {
		if got := Check(c.title, c.content); got.Pass != c.pass {
			t.Errorf("Check(%q) pass = %v (%s %v), want %v", c.title, got.Pass, got.Stage, got.Details, c.pass)
		}
	}
}

// TestVagueOneTech: advice about one technology at large, a limit tacked
// on and two hedges (React's re-renders, Git's commit sizes), is vague;
// a finding about the same technology that names its mechanism passes.
func TestVagueOneTech(t *testing.T) {
	for _, c := range []struct {
		title, content string
		pass           bool
	}{
		{"React performance", "React apps can get slow if you are not careful. Avoid unnecessary re-renders, keep components small and measure before optimizing; a 16ms frame budget is the goal.", false},
		{"Git workflow", "A clean Git history helps everyone. Commit often, write meaningful messages and rebase when it makes sense; keep commits under 200 lines.", false},
		{"리액트 성능", "리액트 앱은 신경 쓰지 않으면 느려집니다. 불필요한 리렌더링을 피하고 컴포넌트를 작게 유지하며, 최적화 전에 측정하세요. 목표는 16ms 프레임입니다.", false},
		{"React context re-renders", "Every consumer of a React context re-renders when the provider's value changes identity; wrap the value in useMemo so a parent render that keeps the same state does not re-render 200 list rows.", true},
	} {
		if got := Check(c.title, c.content); got.Pass != c.pass {
			t.Errorf("Check(%q) pass = %v (%s %v), want %v", c.title, got.Pass, got.Stage, got.Details, c.pass)
		}
	}
}
