package knowledge

import "testing"

// TestFiguresRival: a figure each text writes and the other states in no
// form is one figure told otherwise; a figure restated in another unit, with
// a multiplier or in words, or a number inside a name, is no such figure.
func TestFiguresRival(t *testing.T) {
	cases := []struct {
		name, a, b string
		want       bool
	}{
		{"a port told otherwise", "We changed `Port 2222` in sshd_config and the firewall only allowed 22.",
			"Edited sshd_config to `Port 2022`; ufw only permitted 22.", true},
		{"a version told otherwise, in Korean", "surefire를 3.0.0으로 명시하니 JUnit 5 테스트가 실행됐다.",
			"pom에 surefire 버전을 2.22.2로 고정한 뒤 JUnit 5 테스트가 돌았다.", true},
		{"a value after a setting's name", "we lowered `gc_grace_seconds` to 86400 (default 864000).",
			"we set `gc_grace_seconds` to 3600, default 864000.", true},
		{"the same figures", "--timeout 120 after 30 seconds", "after 30s we set --timeout 120", false},
		{"a multiplier and a Korean one", "Logs showed 40k POSTs/hour to /xmlrpc.php.", "로그에 시간당 4만 건의 /xmlrpc.php POST 가 있었다.", false},
		{"a quantity in another unit", "TTL merges run every 4 hours.", "TTL merges run every merge_with_ttl_timeout (14400 s).", false},
		{"a number word", "40 pods each opened a pool of 5.", "Forty pods with a pool of 5 each need 200 connections.", false},
		{"a Korean number word", "한글 한 글자가 3으로 계산된다.", "`len(\"한글\")` 이 6 인 이유, 세 배가 나온다.", false},
		{"a time on the hour", "한국 시간 09:00 실행은 UTC 로 쓴다.", "KST 오전 9시는 UTC 자정이다.", false},
		{"another hour", "KST 09:00 is midnight UTC, port 8080", "KST 10:00 is 1 AM UTC, port 8080", true},
		{"numbers inside names", "UTF-8 bytes, use -v2c", "six bytes with SNMPv3", false},
		{"an ordinal and an address", "server app1 10.0.0.5:8080 maxconn 50", "the 51st request waited, maxconn 50", false},
		{"one side adds a figure", "maxconn 50", "maxconn 50 and 3 retries", false},
		{"figures of other shapes", "PostgreSQL 1.5 behaves", "it takes 3 tries", false},
		{"a unit before a Korean particle", "기본 scrape_timeout이 10s인데 응답에 15초 걸렸다.", "기본 scrape_timeout 37s를 넘겨 15초 걸렸다.", true},
		{"a unit of its own", "set text(size: 10pt) in the template", "set text(size: 12pt) in the template", true},
		{"a size written on its width", "builds the 4096x32 memory from registers", "builds the 2048x32 mem from registers", true},
		{"sub-second units", "Set the timeout to 500ms; retries 3.", "Set the timeout to 500000us; retries 3.", false},
		{"nanoseconds", "a 100ms budget for 3 calls", "a 100000000ns budget for 3 calls", false},
		{"a Korean amount of two numerals", "The table holds 120,000,000 rows; the job took 3 hours.", "테이블에 1억 2천만 행이 있고 작업은 3시간 걸렸다.", false},
		{"천 before 억", "The budget is 500,000,000,000 won for 7 teams.", "예산은 5천억 원, 7 팀이다.", false},
		{"천 and 백 before 만", "35,000,000 rows processed on 2 nodes", "3천5백만 건을 처리했고 2개 노드", false},
		{"조", "예산은 1조 2천억 원, 12 팀이다.", "The budget is 1,200,000,000,000 won for 12 teams.", false},
		{"a unit told otherwise", "a 5 minutes timeout on 3 nodes", "a 5 seconds timeout on 3 nodes", true},
		{"a multiplier told otherwise", "40k rows and 3 nodes", "40m rows and 3 nodes", true},
		{"a count with a multiplier, and an integer", "1.5k requests and 4 workers", "1501 requests and 4 workers", true},
		{"digits written bare stand for any unit", "the call timed out after 5000 ms, 2 retries", "call(:get, 5000) timed out after 7 s, 2 retries", false},
		{"digits written bare beside the unit", "after 5000 ms: call(:get, 5000), 3 tries", "call(:get, 5000) timed out after 7 s, 3 tries", false},
		{"many digits with a multiplier", "id 123456789012345k seen 3 times", "id 123456789012346k seen 3 times", true},
	}
	for _, c := range cases {
		if got := figuresRival(ParseDetails(c.a), ParseDetails(c.b)); got != c.want {
			t.Errorf("%s: figuresRival = %v, want %v", c.name, got, c.want)
		}
		if got := figuresRival(ParseDetails(c.b), ParseDetails(c.a)); got != c.want {
			t.Errorf("%s, the other way: figuresRival = %v, want %v", c.name, got, c.want)
		}
	}
}

// FuzzFiguresRival: reading figures never panics, whatever the text (huge
// digit runs, exponents, Korean numerals without a number, broken UTF-8);
// figuresRival is symmetric; and a text never tells its own figures
// otherwise, nor the same text written twice.
func FuzzFiguresRival(f *testing.F) {
	for _, s := range [][2]string{
		{"Logs showed 40k POSTs/hour.", "로그에 시간당 4만 건"},
		{"1억 2천만 행, 5천억 원, 1조 2천억", "120,000,000 rows"},
		{"timeout 500ms, 3 retries", "timeout 500000us, 3 retries"},
		{"KST 09:00 is 9시", "1e309 and 123456789012345678901234567890k"},
		{"만 천억 조", "3천5백만 10만 5천 4 만"},
		{"-1000 -5 4096x32 10pt 51st", "10s인데 512MB로 v2c UTF-8"},
		{"\xff9\xfe만\xc3", "0.000000000001ns 99999999999999999999999999999999999999999h"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		da, db := ParseDetails(a), ParseDetails(b)
		if figuresRival(da, db) != figuresRival(db, da) {
			t.Fatalf("figuresRival(%q, %q) is not symmetric", a, b)
		}
		if figuresRival(da, da) || figuresRival(da, ParseDetails(a+"\n"+a)) {
			t.Fatalf("figuresRival: %q tells its own figures otherwise", a)
		}
	})
}
