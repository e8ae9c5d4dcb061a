package knowledge

import "testing"

func TestSciToDecimal(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"rope_theta to 1e6 in config.json", "rope_theta to 1000000 in config.json"},
		{"a learning rate of 1e-4.", "a learning rate of 0.0001."},
		{"eps=1e-8, 2.5E3 and 1e+05", "eps=0.00000001, 2500 and 100000"},
		{"-1e5 rows", "-100000 rows"},
		{"commit 3e4a9f and 0x1e5 and v1e5 and 1e5x", "commit 3e4a9f and 0x1e5 and v1e5 and 1e5x"},
		{"1e99 stays", "1e99 stays"},
		{"1e5로 낮추자", "100000로 낮추자"},
	} {
		if got := sciToDecimal(c.in); got != c.want {
			t.Errorf("sciToDecimal(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestLiteralConflicts pins the kinds of details_literals.go on pairs of
// short texts: a look-alike that changes the literal conflicts, a
// rewording that keeps it (or writes its value otherwise) does not.
func TestLiteralConflicts(t *testing.T) {
	for _, c := range []struct {
		name, a, b string
		want       bool
	}{
		{"sci", "Raise rope_theta to 1e6 for 32k context.", "For 32k context, rope_theta must be 1e5.", true},
		{"sci kept", "Raise rope_theta to 1e6 for 32k context.", "For 32k context, rope_theta must be 1e6.", false},
		{"sci as decimal", "Insert in chunks of 1e5 rows.", "Insert in chunks of 100000 rows.", false},
		{"negative", "The newest tag is at index -1 of the list, the first one.", "Take the item at index 1 of the list, not the first one.", true},
		{"negative kept", "Write -1000 to oom_score_adj for postgres.", "Give postgres an oom_score_adj of -1000.", false},
		{"negative korean", "백업을 nice 값 10으로 실행한다.", "백업을 nice 값 -10으로 돌린다.", true},
		{"range is no negative", "Retry 5-10 times with backoff.", "Retry 5-10 times, backing off.", false},
		{"hex against 0", "The wakeup mask was 0x200000000 for GPIO 33.", "We passed 0 as the wakeup mask for GPIO 33.", true},
		{"hex kept", "The wakeup mask was 0x200000000 for GPIO 33.", "We passed 0x200000000 as the wakeup mask for GPIO 33.", false},
		{"dimensions", "The int8 matmul is slow for a 4096x32 projection.", "One projection shaped 4096x64 takes the slow int8 path.", true},
		{"dimensions kept", "The int8 matmul is slow for a 4096x32 projection.", "One projection shaped 4096 x 32 takes the slow int8 path.", false},
		{"ordinal", "The amount is the CSV's third column.", "In this CSV the amount sits in the second column.", true},
		{"ordinal korean", "롤링 업데이트가 두 번째 파드에서 멈췄다.", "세 번째 파드에서 업데이트가 멈췄다.", true},
		{"second of time", "Wait a second and retry the third call.", "Retry the third call after a second.", false},
		{"boolean", "The developers had core.autocrlf set to true.", "core.autocrlf was false on their machines.", true},
		{"boolean in code too", "`if (process.env.X)` is true for 'false'; compare with === 'true'.", "Set to false, it still ran: check `process.env.X === 'true'`.", false},
		{"rsync slash", "Deploy with rsync -az dist/ deploy@web1:/var/www/site and reload nginx.", "We reload nginx after rsync -az dist deploy@web1:/var/www/site.", true},
		{"rsync kept", "Deploy with rsync -az dist/ deploy@web1:/var/www/site and reload nginx.", "We reload nginx after rsync -az dist/ deploy@web1:/var/www/site.", false},
		{"git config value", "Run git config --global init.defaultBranch main once.", "A single git config --global init.defaultBranch trunk fixes it.", true},
		{"dotted word", "Setting storage.type filesystem on the tail input spills chunks to disk.", "We configured storage.type memory on the tail input.", true},
		{"dotted word no value", "Serve fullchain.pem instead of cert.pem.", "Point the server at fullchain.pem rather than cert.pem.", false},
	} {
		if got := DetailsConflict(ParseDetails(c.a), ParseDetails(c.b)); got != c.want {
			t.Errorf("%s: DetailsConflict = %v, want %v", c.name, got, c.want)
		}
		if got := DetailsConflict(ParseDetails(c.b), ParseDetails(c.a)); got != c.want {
			t.Errorf("%s (b, a): DetailsConflict = %v, want %v", c.name, got, c.want)
		}
	}
}

// TestBoundConflicts pins details_bounds.go as TestLiteralConflicts does
// details_literals.go.
func TestBoundConflicts(t *testing.T) {
	for _, c := range []struct {
		name, a, b string
		want       bool
	}{
		{"korean bound", "풀 크기 합이 100을 초과하면 연결이 거절된다.", "풀 크기 합계가 100 미만이면 연결이 거부된다.", true},
		{"korean bound kept", "풀 크기 합이 100을 초과하면 연결이 거절된다.", "풀 크기 합계가 100을 초과하면 연결이 거부된다.", false},
		{"korean excess is no bound", "메모리 초과는 나눠서 쓰면 피한다. 2 GB 아래로 유지됐다.", "메모리가 2 GB 이하로 머물렀다.", false},
		{"extent", "Raise the pool's maximum to 40.", "Raise the pool's minimum to 40.", true},
		{"korean extent", "HPA의 최소 레플리카가 10이었다.", "HPA 최대 레플리카 값이 10이었다.", true},
		{"korean order", "마이그레이션은 배포 전에 실행해야 한다.", "마이그레이션은 배포 후에 돌려야 한다.", true},
		{"isolation level", "The transactions ran at READ COMMITTED.", "At REPEATABLE READ isolation the write was lost.", true},
		{"isolation level kept", "The transactions ran at READ COMMITTED.", "At read committed isolation the write was lost.", false},
		{"version range", `package.json declared "^2.27.0" for the plugin.`, `The manifest had the plugin at "~2.27.0".`, true},
		{"version range kept", "requirements.txt said requests>=2.31.", "requests>=2.31 was in requirements.txt.", false},
		{"approximately is no range", "It took ~30 seconds.", "It took about 30 seconds.", false},
		{"image tag", "CI pulled postgres:latest.", "The compose file referenced postgres:alpine.", true},
		{"time unit in words", "The socket timeout was 500 microseconds.", "With a socket timeout of 500 milliseconds calls were retried.", true},
		{"time unit in words kept", "The socket timeout was 500 microseconds.", "A socket timeout of 500 us made calls retry.", false},
	} {
		if got := DetailsConflict(ParseDetails(c.a), ParseDetails(c.b)); got != c.want {
			t.Errorf("%s: DetailsConflict = %v, want %v", c.name, got, c.want)
		}
		if got := DetailsConflict(ParseDetails(c.b), ParseDetails(c.a)); got != c.want {
			t.Errorf("%s (b, a): DetailsConflict = %v, want %v", c.name, got, c.want)
		}
	}
}

// TestSignalWeight: a signal's name weighs as an identifier in the
// agreement of two texts, another word in capitals half of one.
func TestSignalWeight(t *testing.T) {
	for _, c := range []struct {
		atom string
		want float64
	}{{"sighup", 1}, {"sigterm", 1}, {"sigusr1", 1}, {"moved", 0.5}, {"signal", 0.5}} {
		if got := atomWeight(c.atom); got != c.want {
			t.Errorf("atomWeight(%q) = %v, want %v", c.atom, got, c.want)
		}
	}
}
