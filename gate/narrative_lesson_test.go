package gate

import "testing"

// TestNarrativeLesson: a cause told with its fix is a finding whatever
// story words frame it; an account with no trouble, cause or rule in it,
// a Korean status list, a session log of past-tense openers and the
// writer's feelings are stories however specific their names.
func TestNarrativeLesson(t *testing.T) {
	for _, c := range []struct {
		title, content string
		story          bool
	}{
		// Story words around a cause and its fix.
		{"배포 뒤 장바구니 섞임: 캐시 키", "어제 새벽 배포 뒤 일부 사용자에게 다른 사람의 장바구니가 보였습니다. 원인은 CloudFront 캐시 정책의 캐시 키에 `session_id` 쿠키가 빠져 있어 `/api/cart` 응답이 공유됐기 때문입니다. 캐시 정책에 쿠키를 키로 추가하고 응답에 `Cache-Control: private, max-age=0`을 붙여 해결했습니다.", false},
		{"Last Tuesday's 502s were the keepalive timeout", "Last Tuesday the API returned 502s every few minutes because the Node server's `keepAliveTimeout` (5 s) was shorter than the ALB's idle timeout (60 s). We set `server.keepAliveTimeout = 65000` and `headersTimeout = 66000`, and the 502s stopped.", false},
		// Accounts and logs with no lesson.
		{"Wrapping up the queue migration", "We moved the order events from SQS to Kafka 3.6 over two sprints. The payment consumers went first, then the mailer. Bob wrote the bridge and Ana ran the cutover. Overall the migration went as planned.", true},
		{"Session log", "Ran the unit tests: 3 failed in test_cart.py. Opened cart/total.py and adjusted the tax rounding. Updated the fixtures and reran everything. Pushed the branch fix/tax-rounding.", true},
		{"이번 주 업무", "- 검색 API 캐시 적용 완료\n- 로그 수집 파이프라인 이전 작업 중\n- 신규 대시보드 리뷰 참석\n- 다음 주: 알림 정리 착수 예정", true},
		{"Honestly", "I love the new Rust codebase. I really feel at home in it and I'm tired of the old Java services.", true},
		// A Korean day told part by part, 했더니 and all; a schedule's rule
		// at two parts of the day is a finding.
		{"배포 날", "아침에 Grafana 10.2 대시보드를 정리했습니다. 오후에는 `helm upgrade`로 스테이징에 올렸더니 파드가 하나씩 재시작됐습니다. 저녁에는 릴리스 노트를 썼습니다.", true},
		{"주말 토큰 만료", "리프레시 토큰 유효기간이 7일이라 금요일 저녁에 배포하면 토요일 아침에 `invalid_grant`로 실패한다. 남은 기간이 10% 이하일 때 미리 갱신해야 한다.", false},
		// Korean bullet notes (개조식) that hold a setting or a condition,
		// and a change log of findings, are no status report or session log.
		{"Redis maxmemory-policy 기본값 함정", "- Redis 7 기본 maxmemory-policy는 noeviction임\n- 메모리가 가득 차면 쓰기 명령이 OOM 오류로 거부됨\n- 캐시 용도라면 allkeys-lru로 바꿔야 함\n- 세션 저장소라면 volatile-lru가 적절함", false},
		{"Django admin", "Fixed the N+1 in OrderAdmin by adding `list_select_related = ('customer',)`. Added an index on `orders(created_at)` with `CREATE INDEX CONCURRENTLY`. Changed `list_per_page` from 100 to 25. The page went from 9 s to 300 ms on Postgres 15.", false},
		{"Lint log", "Started by running eslint across the packages, which reported 340 warnings. Fixed the unused imports in packages/ui, replaced the deprecated React.FC types, and silenced two rules in the generated code folder. Ran the build again and pushed the branch.", true},
		// A list of values in Korean is no status report.
		{"JVM 시간대 설정", "- JVM 옵션: `-Duser.timezone=Asia/Seoul`\n- Dockerfile: `ENV TZ=Asia/Seoul`\n- 크론: `zone = \"Asia/Seoul\"` 명시", false},
	} {
		if got := Narrative(c.title, c.content).Story; got != c.story {
			t.Errorf("Narrative(%q).Story = %v, want %v", c.title, got, c.story)
		}
	}
}

func TestKoreanStatusLines(t *testing.T) {
	for _, c := range []struct {
		content string
		want    bool
	}{
		{"- 결제 모듈 리팩터링 진행 중 (60%)\n- 스테이징 배포 완료\n- 보안 점검 회의 참석", true},
		{"* 잘한 점: 일정 지킴\n* 아쉬운 점: 테스트 부족함\n* 다음 목표: 문서 정리", true},
		{"- `max_connections`를 300으로 올림\n- `shared_buffers=4GB` 설정\n- 재시작 후 확인", false},
		{"결제 모듈 리팩터링을 진행했습니다. 배포는 완료", false},
	} {
		if got := koreanStatusLines(c.content); got != c.want {
			t.Errorf("koreanStatusLines(%q) = %v, want %v", c.content, got, c.want)
		}
	}
}
