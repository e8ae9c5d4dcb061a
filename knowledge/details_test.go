package knowledge

import (
	"slices"
	"testing"
)

// TestDetailsConflict: each kind of decisive detail that differs keeps two
// texts apart; a rewording that adds, drops or restates details does not.
func TestDetailsConflict(t *testing.T) {
	tests := []struct {
		kind     string
		a, b     string
		conflict bool
	}{
		{"flag", "Use `git push --force-with-lease` after a rebase.", "Use `git push --force` after a rebase.", true},
		{"one flag each, the rest the same", "When generated files clash, run dart run build_runner build --delete-conflicting-outputs.", "When generated files clash, run dart run build_runner build --low-resources-mode.", true},
		{"rewording with another command's flag", "Run `pip install --user httpx` outside a venv.", "Outside a virtualenv httpx goes in with `pip install --break-system-packages httpx` or a venv.", true},
		{"flag value", "Set `NODE_OPTIONS=--max-old-space-size=4096`.", "Set `NODE_OPTIONS=--max-semi-space-size=64`.", true},
		{"version", "On PostgreSQL 12 gen_random_uuid needs pgcrypto.", "On PostgreSQL 13 gen_random_uuid needs pgcrypto.", true},
		{"setting", "With `pool_mode = transaction` prepared statements break.", "With `pool_mode = session` prepared statements break.", true},
		{"identifier", "A failing `readinessProbe` removes the pod.", "A failing `livenessProbe` removes the pod.", true},
		{"identifier variant", "Write the CSV with `encoding='utf-8'`.", "Write the CSV with `encoding='utf-8-sig'`.", true},
		{"command word", "`kill -15 <pid>` lets it clean up.", "`kill -9 <pid>` lets it clean up.", true},
		{"statement", "Use `CREATE INDEX CONCURRENTLY` on a busy table.", "Use `DROP INDEX CONCURRENTLY` on a busy table.", true},
		{"path", "Put it in `/etc/nginx/conf.d/app.conf`.", "Put it in `/etc/nginx/sites-enabled/app`.", true},
		{"one file in two places", "Settings in /etc/ansible/ansible.cfg were ignored.", "Settings in ./ansible.cfg were ignored.", true},
		{"one file a directory deeper", "Append the scan to /etc/mdadm/mdadm.conf.", "Append the scan to /etc/mdadm.conf.", true},
		{"rewording qualifies a name", "The producer threw org.apache.kafka.common.errors.TimeoutException after 120000 ms.", "A TimeoutException came after 120000 ms from the producer.", false},
		{"rewording gives the file its directory", "Set backend = systemd under [sshd] in jail.local.", "backend = systemd under [sshd] in /etc/fail2ban/jail.local made the bans work.", false},
		{"rewording keeps the relative path", "Settings in ./ansible.cfg were ignored.", "Ansible skipped ./ansible.cfg in a world-writable directory.", false},
		{"error string", "Node fails with ECONNREFUSED on 5432.", "Node fails with ECONNRESET on 5432.", true},
		{"strerror text told otherwise", "Writes to the mounted volume failed with Permission denied until the uid owned it.", "Until chown gave the container's uid the directory, each write ended in Operation not permitted.", true},
		{"strerror text, connection", "The app logged Connection refused: the database listened on localhost only.", "Because PostgreSQL only listened on localhost the client saw Connection reset by peer.", true},
		{"HTTP reason phrase", "Users saw the proxy's Bad Gateway page while old containers stopped.", "While the old containers went away the proxy answered Gateway Timeout.", true},
		{"rewording gives the status by its number", "Users get 502 from nginx while the upstream restarts: its log says Connection refused.",
			"Users get Bad Gateway from nginx while the upstream restarts: it refuses the connection.", false},
		{"a status number is no error by itself", "nginx answered 502 Bad Gateway and the log says Connection refused.",
			"nginx answered 504 and the log says Connection timed out.", true},
		{"rewording names the errno", "The client got Connection refused on 5432.", "ECONNREFUSED on 5432: nothing listens there.", false},
		{"rewording keeps the message in lower case", "Every write failed with Permission denied.", "The writes kept failing: permission denied.", false},
		{"a plain-prose phrase is no message", "The path is a directory, not a file; the argument is invalid.", "The path Is a directory in the listing.", false},
		{"rewording adds details", "Run `kubectl rollout restart` after editing the ConfigMap.",
			"Env from a ConfigMap is read at start: `kubectl rollout restart deployment/api` recreates the pods.", false},
		{"rewording restates a number", "The stop timeout is 10 seconds.", "After 10 s the container is killed.", false},
		{"number by its setting", "Set the TTL: 300 for records you change.", "Records you change want a TTL: 60 or less.", true},
		{"rewording other commands", "`docker stop` kills it after 10 seconds.", "Use `docker run --init` to forward signals.", false},
		{"setting value after =", "New groups read old messages with auto.offset.reset=earliest.", "New groups skip old messages with auto.offset.reset=latest.", true},
		{"setting value after a space", "On Windows set git config --global core.autocrlf true.", "On Linux set git config --global core.autocrlf input.", true},
		{"hyphenated setting value", "Set maxmemory-policy allkeys-lru for a cache.", "Set maxmemory-policy volatile-lru for a cache.", true},
		{"rewording keeps the setting", "Set maxmemory-policy allkeys-lru when keys have no TTL.", "Keys without a TTL need maxmemory-policy allkeys-lru, or nothing is evicted.", false},
		{"prose after a name is no value", "Check that go.mod says go 1.22.", "The go.mod declares go 1.22 there.", false},
		{"flag swapped in one command", "Run helm upgrade --install --atomic --timeout 5m.", "Run helm upgrade --install --wait --timeout 5m.", true},
		{"rewording adds a flag", "Run helm upgrade --install --atomic.", "CI runs helm upgrade --install --atomic --timeout 5m.", false},
		{"path-like identifiers with ::", "Hold it across .await with tokio::sync::Mutex.", "Hold it across .await with std::sync::Mutex.", true},
		{"braced group moved", "Keys {user:1}:a and {user:1}:b share a slot.", "Keys {user}:1:a and {user}:1:b share a slot.", true},
		{"plain setting after = without a space", "Move the DMARC record from p=none to p=quarantine.", "Move the DMARC record from p=quarantine to p=reject.", true},
		{"rewording keeps a plain setting", "Publish p=quarantine once reports are clean.", "With clean aggregate reports, go to p=quarantine.", false},
		{"prose = with spaces is no setting", "In the proof a = b holds for the pair.", "For the pair, a = c holds in that proof.", false},
		{"options reordered", "`ffmpeg -ss 00:10:00 -i in.mp4 -frames:v 1 thumb.jpg` seeks fast.", "`ffmpeg -i in.mp4 -ss 00:10:00 -frames:v 1 thumb.jpg` seeks fast.", true},
		{"rewording quotes the command as is", "`ffmpeg -ss 00:10:00 -i in.mp4 -frames:v 1 thumb.jpg` seeks fast.", "Seeking is quick with `ffmpeg -ss 00:10:00 -i in.mp4 -frames:v 1 thumb.jpg`.", false},
		{"hexadecimal code", "The service exits with 0xC0000005 when the DLL is missing.", "The service exits with 0xC0000409 when the DLL is missing.", true},
		{"rewording keeps a hexadecimal code", "The process died with exit code 0xC0000005, an access violation.", "An access violation shows as 0xC0000005 in the exit code.", false},
		{"JSON member value, however short", `Send the job with "delimiter": "TAB".`, `Send the job with "delimiter": "|".`, true},
		{"JSON member number", `Set "retries": 3 in the client config.`, `Set "retries": 5 in the client config.`, true},
		{"rewording keeps a JSON member", `Jobs sent with "delimiter": "TAB" read tab-separated files.`, `Tab-separated files need "delimiter": "TAB" on the job.`, false},
		{"setting closing a compound name", "Flash it as esp32:esp32:esp32cam:PartitionScheme=huge_app.", "Flash it as esp32:esp32:esp32cam:PartitionScheme=min_spiffs.", true},
		{"setting in a query string", "Open the file with file:data.db?mode=ro for readers.", "Open the file with file:data.db?mode=rwc for readers.", true},
		{"setting given in prose", "Set the consumer isolation level to read_committed for exactly-once reads.", "Set the consumer isolation level to uncommitted for exactly-once reads.", true},
		{"setting given in prose, passive", "Writes stall when journal mode is set to delete on the share.", "Writes stall when journal mode is set to wal on the share.", true},
		{"setting in prose and in code", "Set the eviction policy to allkeys-lru.", "Use `policy=volatile-lru` for eviction.", true},
		{"rewording restates a prose setting", "Set the isolation level to read_committed before the transactional reads.", "Transactional reads need isolation.level=read_committed, or set the level to read_committed.", false},
		{"a verb after set … to is no value", "Set up the runner to cache the modules.", "Set up the runner to skip the modules cache.", false},
		{"short name, other digits", "Burst credits run out on gp2 volumes under steady load.", "Burst credits run out on gp3 volumes under steady load.", true},
		{"name with digits, another width", "read_csv infers int64 for the zip column.", "read_csv infers int32 for the zip column.", true},
		{"name with digits extended", "Emoji fail to insert into a utf8 column.", "Emoji fail to insert into a utf8mb4 column.", true},
		{"possessives are no quotes", "Set the client's idle timeout below the proxy's, so the pool closes connections first.", "Lower the client's idle timeout under the proxy's so the pool retires them first.", false},
		{"a quote with a possessive inside", "The UI shows 'the user's session expired' after an hour.", "After an hour the UI shows 'the user's session expired'.", false},
		{"a Korean particle after a quote", "로그에 'connection pool exhausted'가 찍힌다.", "로그에 'connection pool timeout'이 찍힌다.", true},
		{"rewording keeps a name with digits", "Use psycopg2 with autocommit on for VACUUM.", "VACUUM cannot run in a transaction: turn autocommit on in psycopg2.", false},
		{"quoted keyword value", "Allocate it with np.zeros((n, m), order='F') for column access.", "Allocate it with np.zeros((n, m), order='C') for column access.", true},
		{"quoted setting value", "Set scene.cycles.device = 'GPU' in the startup file.", "Set scene.cycles.device = 'CPU' in the startup file.", true},
		{"label matcher value", `The alert on up{job="api"} == 0 never fired.`, `The alert on up{job="web"} == 0 never fired.`, true},
		{"unit of a number", "The proxy gives up after a read timeout of 30s.", "The proxy gives up after a read timeout of 30ms.", true},
		{"size unit", "The pod was killed at a memory limit of 512Mi.", "The pod was killed at a memory limit of 512Gi.", true},
		{"unit after a space", "Slow callbacks are logged over 100 ms.", "Slow callbacks are logged over 100 s.", true},
		{"rewording spells the unit out", "docker stop waits 10 seconds before SIGKILL.", "docker stop waits 10s, then sends SIGKILL.", false},
		{"rewording drops the unit", "Raise the read timeout to 30s.", "A read timeout of 30 is too short for the report.", false},
		{"rewording writes the size otherwise", "The heap is capped at 2GB by the limit.", "The limit caps the heap at 2 GB.", false},
		{"unit in Korean", "idle 연결은 keepalive 30초 뒤에 끊긴다.", "idle 연결은 keepalive 30분 뒤에 끊긴다.", true},
		{"rewording gives the Korean unit in English", "Idle connections drop after a keepalive of 30초.", "Idle connections drop after a keepalive of 30 seconds.", false},
		{"setting given in Korean prose", "형식을 텍스트로 지정하면 앞의 0이 남는다.", "형식을 숫자로 지정하면 앞의 0이 남는다.", true},
		{"Latin setting in Korean prose", "core.ignorecase를 false로 바꾸면 이름 변경이 보인다.", "core.ignorecase를 true로 바꾸면 이름 변경이 보인다.", true},
		{"rewording keeps the braced group", "MGET {user:1}:a {user:1}:b works on Redis Cluster.", "Hash tags such as {user:1}:a and {user:1}:b keep MGET in one slot.", false},
	}
	for _, tt := range tests {
		if got := DetailsConflict(ParseDetails(tt.a), ParseDetails(tt.b)); got != tt.conflict {
			t.Errorf("%s: DetailsConflict = %v, want %v\n  a: %s\n  b: %s", tt.kind, got, tt.conflict, tt.a, tt.b)
		}
	}
}

// TestProseConflict: in texts that read almost alike, a name, a negation or
// an antonym swapped decides; synonyms swapped do not.
func TestProseConflict(t *testing.T) {
	tests := []struct {
		kind     string
		a, b     string
		conflict bool
	}{
		{"product", "On Alpine the base image has no zoneinfo, so install tzdata.", "On Ubuntu the base image has no zoneinfo, so install tzdata.", true},
		{"antonym", "Run the additive migrations before the new code rolls out.", "Run the additive migrations after the new code rolls out.", true},
		{"negation", "The kubelet restarts the container when the probe fails.", "The kubelet does not restart the container when the probe fails.", true},
		{"korean 안 before a verb", "컨테이너는 이미지에서 새로 만들어지므로 안에서 고친 파일은 남는다고 보면 안 된다.", "컨테이너는 이미지에서 새로 만들어지므로 안에서 고친 파일은 남는다고 보면 된다.", true},
		{"public, internal", "Recreate the load balancer as public so that the admin API gets addresses.", "Recreate the load balancer as internal so that the admin API gets addresses.", true},
		{"upper, lower", "Convert the address to upper case before saving and looking it up.", "Convert the address to lower case before saving and looking it up.", true},
		{"korean antonym", "배포 전에 마이그레이션을 실행하면 옵션을 켜면 된다.", "배포 전에 마이그레이션을 실행하면 옵션을 끄면 된다.", true},
		{"korean antonym, noun", "`max_connections` 값이 100 이상이면 풀을 나눠서 쓴다.", "`max_connections` 값이 100 이하이면 풀을 나눠서 쓴다.", true},
		{"error outcome", "Clients see connection refused from the sidecar while the pod starts.", "Clients see connection reset from the sidecar while the pod starts.", true},
		{"direction", "Uploads over 1 MB stall behind the proxy until the buffer is raised.", "Downloads over 1 MB stall behind the proxy until the buffer is raised.", true},
		{"side", "The client closes idle streams after the keepalive expires here.", "The server closes idle streams after the keepalive expires here.", true},
		{"negation, without", "Clients connect to the broker without TLS on port 5672 inside the cluster.", "Clients connect to the broker with TLS on port 5672 inside the cluster.", true},
		{"negation, no longer", "The legacy endpoint is no longer supported by the gateway after the upgrade.", "The legacy endpoint is supported by the gateway after the upgrade.", true},
		{"negation that denies nothing the other says", "Apache could not determine the server's name and used 127.0.1.1; set ServerName globally. It is a warning, not an error.", "Apache could not determine the server's name and used 127.0.1.1, so it is only a warning; set ServerName globally.", false},
		{"synonym", "Raise the limit when the pool is exhausted under load.", "Increase the limit when the pool is exhausted under load.", false},
		{"antonym inflected", "Raising `worker_prefetch_multiplier` to 8 let each process reserve more messages ahead.", "Lowering `worker_prefetch_multiplier` to 8 let each process reserve more messages ahead.", true},
		{"antonym inflected, past", "The cache was enabled for the read replicas after the failover last week.", "The cache was disabled for the read replicas after the failover last week.", true},
		{"antonym inflected, gerund and base", "Decreasing the batch size for the importer fixed the memory spikes.", "Increase the batch size for the importer and the memory spikes are fixed.", true},
		{"both directions in both", "Lower the pool size first, then raise it again after the migration finishes.", "Lowering the pool size first and raising it again after the migration finishes works.", false},
		{"thing swapped", "Jobs in queue :mailers never ran because the queue was missing from the Oban config.", "Jobs in queue :billing never ran because the queue was missing from the Oban config.", true},
		{"thing swapped, plural", "Retention is counted in hours for each partition of the topic here.", "Retention is counted in days for each partition of the topic here.", true},
		{"modifier swapped", "Private modules fail with 410 Gone from the checksum database here.", "Internal modules fail with 410 Gone from the checksum database here.", false},
		{"verb form swapped", "The error is caught by the handler around the task in the pool.", "The error is handled by the handler around the task in the pool.", false},
		{"rewrite", "Env from a ConfigMap is fixed at start; restart the pods.", "Pods keep old values until they are recreated by a rollout.", false},
	}
	for _, tt := range tests {
		if got := proseConflict(ParseDetails(tt.a), ParseDetails(tt.b)); got != tt.conflict {
			t.Errorf("%s: proseConflict = %v, want %v", tt.kind, got, tt.conflict)
		}
	}
}

// TestMergeable: under the hashed model, agreeing details merge a
// rewording below the threshold, down to evidenceFloor, and a conflict
// keeps even a near-identical text apart; a semantic embedder's cosine
// alone decides.
func TestMergeable(t *testing.T) {
	const hashed, semantic = LexicalModelPrefix + "ngram-test", "openai:test"
	a := EmbeddingText("goose: CREATE INDEX CONCURRENTLY fails", "goose wraps migrations in a transaction, and Postgres refuses `CREATE INDEX CONCURRENTLY` with `cannot run inside a transaction block`; add `-- +goose NO TRANSACTION`.")
	b := EmbeddingText("Mark concurrent index migrations NO TRANSACTION", "`ERROR: CREATE INDEX CONCURRENTLY cannot run inside a transaction block` under `goose up`: put `-- +goose NO TRANSACTION` at the top of the file.")
	c := EmbeddingText("goose: CREATE INDEX CONCURRENTLY fails", "goose wraps migrations in a transaction, and Postgres refuses `DROP INDEX CONCURRENTLY` with `cannot run inside a transaction block`; add `-- +goose NO TRANSACTION`.")
	tests := []struct {
		name  string
		model string
		sim   float64
		x, y  string
		want  bool
	}{
		{"rewording, details agree", hashed, 0.6, a, b, true},
		{"rewording under the floor", hashed, evidenceFloor, a, b, false},
		{"rewording under a stricter threshold", hashed, 0.9, a, b, false},
		{"semantic below its threshold", semantic, 0.6, a, b, false},
		{"semantic above it", semantic, 0.95, a, b, true},
		{"look-alike above the threshold", hashed, 0.97, a, c, false},
		{"semantic look-alike: its cosine decides", semantic, 0.97, a, c, true},
	}
	for _, tt := range tests {
		threshold := 0.80
		if tt.model == semantic || tt.name == "rewording under a stricter threshold" {
			threshold = 0.94
		}
		if got := mergeable(tt.model, tt.sim, threshold, tt.x, tt.y); got != tt.want {
			t.Errorf("%s: mergeable = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestKoreanAn: the adverb 안 before a verb negates (로그 안 나오는 문제); 안
// as inside (안에서, 안으로, 컨테이너 안 파일, 컨테이너 안 돌아가는 프로세스) and
// words that start with it (안전, 안내) do not.
func TestKoreanAn(t *testing.T) {
	tests := []struct {
		text string
		want int
	}{
		{"재시작하면 안 된다.", 1},
		{"이 옵션은 안돼.", 1},
		{"설정이 안되면 로그를 본다.", 1},
		{"컨테이너 안에서 고친 파일은 안전하다.", 0},
		{"디렉터리 안으로 복사하라는 안내가 나왔다.", 0},
		// 안 as a word of its own: "not" before a predicate, "inside" after
		// a noun or before a particle or another noun.
		{"서버가 안 뜬다.", 1},
		{"알림이 안 보여요.", 1},
		{"로그 안 나와요.", 1},
		{"왜 안 되는지 모르겠다.", 1},
		{"서버가 안 뜨는 문제", 1},
		{"컨테이너 안 파일을 지웠다.", 0},
		{"함수 안 변수는 전역이다.", 0},
		{"Docker 안 이미지를 본다.", 0},
		{"pod 안 에서 실행한다.", 0},
		{"컨테이너 안 돌아가는 프로세스를 본다.", 0},
		// A bare noun, 안 and an adnominal form: "inside" only after a noun
		// of a place or container, unless the form names a problem (c929717
		// read every bare noun there as a place).
		{"로그 안 나오는 문제", 1},
		{"로그 안 나오는 경우 확인할 것", 1},
		{"알림 안 뜨는 현상이 있다.", 1},
		{"nginx 안 뜨는 이유", 1},
		{"설정 안 된 값", 1},
		{"컨테이너 안 뜨는 문제", 1},
		{"컨테이너가 안 돌아가는 프로세스를 본다.", 1},
		{"폴더 안 남은 파일을 지웠다.", 0},
		{"함수 안 선언된 변수는 지역이다.", 0},
		{"pod 안 실행 중인 프로세스", 0},
		{"로그 안 파일을 지웠다.", 0},
		{"이미지 안 레이어를 본다.", 0},
		{"중괄호 안 문자열로만 슬롯을 계산한다.", 0},
		{"오류를 내며 안 뜨는 경우입니다.", 1},
		{"캐시 안 지워지는 문제", 1},
		{"메일 안 보내는 이유", 1},
	}
	for _, tt := range tests {
		if got := ParseDetails(tt.text).Negations; got != tt.want {
			t.Errorf("ParseDetails(%q).Negations = %d, want %d", tt.text, got, tt.want)
		}
	}
}

func TestSingleQuoted(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"the client's idle timeout below the load balancer's", nil},
		{"don't set it, it's 'read only' now", []string{"'read only'"}},
		{"shows 'the user's session expired' here", []string{"'the user's session expired'"}},
		{"로그에 '연결 거부'가 찍힌다", []string{"'연결 거부'"}},
		{"'ab' is short, 'abc' is not", []string{"'abc'"}},
		{"'open but\nnot closed'", nil},
		{"'", nil},
		{"x''y ''' '\xff\xfe\xfd'", []string{"'\xff\xfe\xfd'"}},
	} {
		var got []string
		for _, sp := range singleQuoted(c.in) {
			got = append(got, c.in[sp[0]:sp[1]])
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("singleQuoted(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestSignedSettings: a setting given a negative number keeps its sign
// (OOMScoreAdjust=-500, vm.overcommit_memory = -1), so that the same
// setting given the positive number keeps two texts apart; a flag after a
// setting's name is no value of it.
func TestSignedSettings(t *testing.T) {
	for _, c := range [][2]string{
		{"Set OOMScoreAdjust=-500 on the 3 daemons.", "Set OOMScoreAdjust=500 on the 3 daemons."},
		{"set vm.overcommit_memory = -1 here", "set vm.overcommit_memory = 1 here"},
	} {
		a, b := ParseDetails(c[0]), ParseDetails(c[1])
		if !DetailsConflict(a, b) || !DetailsConflict(b, a) {
			t.Errorf("%q, %q: DetailsConflict = false, want true (settings %v, %v)", c[0], c[1], a.Settings, b.Settings)
		}
	}
	if d := ParseDetails("build with go.mod -n and dpkg.cfg -v"); len(d.Settings) != 0 {
		t.Errorf("flags read as settings' values: %v", d.Settings)
	}
}
