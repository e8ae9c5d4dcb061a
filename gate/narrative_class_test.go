package gate

import "testing"

// TestNarrativeDayAndVoice pins what tells the writer's day (meals and
// breaks, a timeline on the writer's clock, interjections, "we used") and
// what does not (the I of I/O, a log line's timestamp).
func TestNarrativeDayAndVoice(t *testing.T) {
	tests := []struct {
		title, content string
		story          bool
	}{
		{"CSS refactor", "9:15 opened the stylesheet, 2,400 lines. 9:40 deleted a block that looked dead, half the settings page went white. 10:30 moved the buttons into button.css.", true},
		{"Settings page", "ok starting on the settings page. pulled main, npm install, dev server is up. hmm lots of props. renamed a few props so they read better, tests still green.", true},
		{"Index rebuild", "A SQL Server Agent job rebuilt all indexes every Sunday at 02:00, the same time the weekly full backup started. Both competing for I/O made the backup overrun into Monday. Moving rebuilds to Saturday 22:00 fixed the overlap.", false},
		// gatecls10: a tale retold from a former workplace, and a
		// technical session that is no work session.
		{"The printer", "A colleague at my old job told me about the printer nobody would admit owning. It jammed every Friday. When it finally died there was pizza, and to this day nobody knows who bought it.", true},
		{"회사 전설", "전 직장에서 친구가 해 준 이야기다. 서버실 구석 장비를 누가 껐고, 그날은 회식으로 끝났다. 아직도 모른다.", true},
		{"URLSession 백그라운드", "URLSessionConfiguration.background(withIdentifier:) 로 생성된 세션에서 downloadTask 를 실행해야 앱이 중단돼도 다운로드가 이어진다.", false},
		{"작업 기록", "09:00 저장소 클론\n09:20 문서 읽음\n10:10 빌드 실패\n12:00 점심\n15:00 PR 올림", true},
		{"배치 로그", "배치 로그는 `02:00 INFO 집계 시작`, `02:40 ERROR 집계 실패` 처럼 남는다; 재시도는 `--retry 3` 으로 켠다.", false},
		{"Log timestamps", "The worker logs `09:12 ERROR pool exhausted` when max_connections=100 is reached; raise the pool to 200 or add PgBouncer.", false},
	}
	for _, tt := range tests {
		if got := Narrative(tt.title, tt.content).Story; got != tt.story {
			t.Fatalf("Narrative(%q).Story = %v, want %v", tt.title, got, tt.story)
		}
	}
	n := Narrative("Demo notes", "Marco's laptop refused to mirror to the projector so we used mine.")
	if n.Narrated != 1 {
		t.Fatalf("Narrated = %d, want 1 (we used)", n.Narrated)
	}
}

// TestStoryWordsInFindings: words of a retold tale that findings use too
// (a friend function, a sample app, "to this day") make no story.
func TestStoryWordsInFindings(t *testing.T) {
	for _, content := range []string{
		"A friend function defined inside a class template is found only by ADL; GCC 13 reports `'foo' was not declared in this scope` when you call it without an argument of the class type, and the story is the same in Clang 17.",
		"The Spring Boot 3.2 pizza sample still ships `spring.jpa.open-in-view=true`, so every request holds a connection until the view renders; set it to false. It is still there to this day in the sample repo.",
	} {
		if r := Check("Story words in a finding", content); !r.Pass {
			t.Errorf("refused (%s: %s): %s", r.Stage, r.Reason, content)
		}
	}
}

// TestKoreanClockLogIsNoDiary: a program's log quoted with its times (in a
// fenced block, or with its levels) is no timeline of the writer's.
func TestKoreanClockLogIsNoDiary(t *testing.T) {
	for _, content := range []string{
		"Spring Batch 5 에서 집계 잡이 같은 JobParameters 로 재시작되면 실패한 step 부터 다시 돈다. 로그:\n```\n02:00 INFO 집계 시작\n02:40 ERROR 집계 실패\n02:41 INFO 집계 시작\n```\n`spring.batch.job.enabled=false` 로 자동 실행을 끄고 스케줄러에서 run.id 를 바꿔 주면 새 인스턴스로 돈다.",
		"Spring Batch 5 재시작 로그에서 같은 step 이 반복된다.\n02:00 INFO 집계 시작\n02:40 ERROR 집계 실패\n02:41 INFO 집계 시작\n`RunIdIncrementer` 를 잡에 붙이면 새 JobInstance 로 실행된다.",
	} {
		if koreanClockDiary(content) {
			t.Errorf("read as a diary: %s", content)
		}
	}
	if !koreanClockDiary("09:10 README 읽음\n09:30 빌드 돌림\n10:05 테스트 실패\n10:20 점심") {
		t.Error("the writer's own timeline is no longer a diary")
	}
}
