package gate

import "testing"

// TestStoryShape pins the shape of an account with no lesson in it (a
// timeline, status lines, events told in the past) and the findings that
// share its form but say why or what to do.
func TestStoryShape(t *testing.T) {
	tests := []struct {
		title, content, shape string
	}{
		{"Incident timeline", "10:02 alert fired for the search API. 10:05 Jun acknowledged. 10:12 Ola joined the call. 10:31 error rate back to baseline. 10:45 closed.", "a timeline"},
		{"Friday outage", "At 07:40 UTC the gateway started returning 502s. Kai was paged at 07:42 and joined at 07:50 with Noor from networking. It recovered around 08:20 and we stood down.", "a timeline"},
		{"장애 기록", "09시 10분에 알람이 울렸습니다. 09시 15분에 담당자가 확인했습니다. 09시 40분에 정상화되었습니다.", "a timeline"},
		{"Daily", "Ana: finished the Kafka 3.6 bump, starting on the ACL ticket. Ben: on call, two pages both self-resolved. Cy: out until Friday. Me: still rolling out Consul 1.17.", "status lines"},
		// A retro told in the past throughout is not this shape (the
		// story markers may still catch it).
		{"Platform retro", "The team moved 9 services to Java 21 and Gradle 8.5 this iteration. Ivo paired with Lena on the build plugins. The changes were reviewed in Gerrit. Everything runs on 21 now.", ""},
		// Findings in the same forms: a cause, an effect, a fix, a rule.
		{"Outage cause", "At 07:40 UTC the gateway returned 502s. Kai was paged at 07:42. At 08:05 we found the cause: the upstream keepalive timeout was shorter than the LB's. At 08:20 we raised it.", ""},
		{"Build speed", "We moved the module download into its own layer and the image build went from 30 to 7 minutes.", ""},
		{"Java 21 upgrade", "The team moved 9 services to Java 21 and Gradle 8.5. Two builds failed with `Unsupported class file major version 65`. Ivo bumped the Kotlin plugin to 1.9.20. The builds passed after that.", ""},
		{"Rollback", "10:02 v5.3.0 went out. 10:05 logins dropped to zero. 10:20 we rolled back to v5.2.9 and logins came back.", ""},
		{"Cron overlap", "At 00:00 the export started. At 00:00 logrotate truncated its log too. We moved the export to 00:15 on Monday.", ""},
		{"Schedule", "The backup ran at 02:00, the same minute as VACUUM, and both ran three times longer. We moved VACUUM to 04:30.", ""},
		{"배치 시간", "배치를 자정에 돌렸더니 로그 로테이션과 겹쳤습니다. 00:15로 옮기니 로그가 남았습니다.", ""},
		{"Config lines", "timeout: 30s\nretries: 3\nbackoff: exponential", ""},
		// A schedule in the present, and findings told in the past whose
		// problem is named (a blank page, a limit) though no cause word is.
		{"Nightly jobs", "The nightly backup runs at 02:00. VACUUM starts at 02:00 too. At 02:00 the disk queue stays above 40.", ""},
		{"Blank page", "Deployed under /app/, the page was blank and the console listed 404s for /static/. The build had publicPath set to /. Setting it to /app/ made the chunks load.", ""},
		{"월말 리포트", "월말 리포트가 람다 제한 900초에 걸렸습니다. 일 단위 집계를 미리 만들어 두었습니다. 리포트는 30행만 더하도록 바꿨습니다.", ""},
	}
	for _, tt := range tests {
		if got := storyShape(tt.title, tt.content, hasLesson(tt.title, tt.content)); got != tt.shape {
			t.Errorf("storyShape(%q) = %q, want %q", tt.title, got, tt.shape)
		}
	}
	n := Narrative("Incident timeline", tests[0].content)
	if !n.Story || n.Shape != "a timeline" {
		t.Fatalf("Narrative: Story = %v, Shape = %q; want a story shaped as a timeline", n.Story, n.Shape)
	}
}

// TestExhaustedIsTheWritersState: exhausted tells the writer's day when
// a person is ("I'm exhausted"), not when a pool or the inodes are.
func TestExhaustedIsTheWritersState(t *testing.T) {
	for _, c := range []struct {
		content string
		marked  bool
	}{
		{"On 3 May at 10:20 the API returned 503s: the PgBouncer pool was exhausted by a batch job holding transactions open. We set `idle_in_transaction_session_timeout = '30s'`.", false},
		{"Millions of tiny files exhausted the inodes on /var; `df -i` showed 100%.", false},
		{"Long deploy night, it was done by two. I'm exhausted but glad it is over.", true},
		{"Everybody was just exhausted after the cutover.", true},
	} {
		n := Narrative("Notes", c.content)
		if got := hasString(n.Markers, "i'm exhausted") || hasString(n.Markers, "just exhausted"); got != c.marked {
			t.Errorf("Narrative(%q).Markers = %q, exhausted marked %v, want %v", c.content, n.Markers, got, c.marked)
		}
	}
}

// TestWeekTold: a week told day by day with no lesson in it is a story
// however many tools it names; a weekday beside a clock, a schedule
// ("every Monday") or a cause, fix or rule stays a finding.
func TestWeekTold(t *testing.T) {
	for _, c := range []struct {
		title, content string
		week           bool
	}{
		{"Launch week", "We cut the Kotlin 1.9 branch on Monday. The Play review took until Wednesday, and we rolled out to 100% on Friday with Gradle 8.4.", true},
		{"출시 주간", "월요일에 빌드를 올렸고 수요일에 승인이 났습니다. 금요일에 전체 배포했습니다.", true},
		{"Weekend deploys", "Deploys on Friday evening broke the Saturday batch because the schema migration locked the orders table.", false},
		{"Backups", "The Postgres 15 backup ran on Sunday at 02:30 and again on Monday at 02:30 with pg_dump 15.4.", false},
		{"Dependabot", "Dependabot opens its PRs every Monday and every Thursday, one per ecosystem.", false},
		{"One day", "We upgraded Terraform to 1.6 on Tuesday and the plans were reviewed in Atlantis.", false},
	} {
		if got := weekTold(c.title, c.content, hasLesson(c.title, c.content)); got != c.week {
			t.Errorf("weekTold(%q) = %v, want %v", c.content, got, c.week)
		}
	}
	n := Narrative("Launch week", "We cut the Kotlin 1.9 branch on Monday. The Play review took until Wednesday, and we rolled out to 100% on Friday with Gradle 8.4.")
	if !n.Story || n.Shape != "a week told day by day" {
		t.Errorf("Narrative: Story = %v, Shape = %q; want a story told day by day", n.Story, n.Shape)
	}
}
