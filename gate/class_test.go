package gate

import (
	"strings"
	"testing"
)

// TestPIIByClass pins the kinds of #23's classes one case at a time, and
// the look-alikes that must pass.
func TestPIIByClass(t *testing.T) {
	tests := []struct {
		text string
		want string // comma-separated kinds; "" passes
	}{
		{"merchant_secret_key=Q3Jx9vT2mLp8sWz4Ka7dYf1NhB6cRe0U signs the callback", PIISecret},
		{`"client_secret": "8f3a1c9d4e7b2a6f0c5d8e1b3a9f7c2d"`, PIISecret},
		{"const hmacKey = 'b2c4e6f8a0d1c3e5f7a9b1d3e5f7a9c1b3d5e7f9'", PIISecret},
		{"SECRET_KEY_BASE=9a4f1c7e2b8d3a6f0e5c9b2d7a4f1e8c3b6d9a2f5e8c1b4d7a0f3e6c9b2d5a8f", PIISecret},
		{"curl -H 'Authorization: Bearer dXNyXzQ4MjE6a2p4OXZMcTJtVDhwWjRz' https://api.example.com", PIISecret},
		{"curl -X POST -H 'Fastly-Key: VCho6gwn1Y9Is3SlOqt8F-lHvZM4dG1A' https://api.fastly.com/service/x/purge_all", PIISecret},
		{"curl -H 'X-Auth-Token: <your token>' https://api.example.com", ""},
		{"curl -H 'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==' -H 'Upgrade: websocket'", ""},
		{"Authorization: ApiKey TkYyRjVaTHhQUzFXU2E3dzZQWFc6SVQ0aUJKUXBRN0VPcnFHZ0xQZ202MQ==", PIISecret},
		{`healthcheck: test: ["CMD", "redis-cli", "-a", "GSEF316#khAKIe", "ping"]`, PIIPassword},
		{"command: redis-server --requirepass GSEF316#khAKIe", PIIPassword},
		{"CREATE USER 'grafana_ro'@'%' IDENTIFIED WITH mysql_native_password BY 'Quartz7628#ZQV';", PIIPassword},
		{"ALTER ROLE app WITH LOGIN PASSWORD 'Zr7!pQ2xLw';", PIIPassword},
		// gatecls9: Oracle's bare and double-quoted IDENTIFIED BY, npm's
		// _auth, keys in URL queries, one-line YAML with \n, Spanish DNI
		// and NIE by their letter and name, Aadhaar named whatever its
		// check; sample passwords and elided key bodies pass.
		{"CREATE USER report_ro IDENTIFIED BY Rp!2024-xQ;", PIIPassword},
		{`CREATE USER report_ro IDENTIFIED BY "Rp!2024-xQ";`, PIIPassword},
		{"CREATE USER ops IDENTIFIED BY VALUES 'S:...' ;", ""},
		{"//npm.corp.local/repo/:_auth=Y2ktZGVwbG95ZXI6TnghODRrZFBxMnY=", PIIPassword},
		{"_auth=dXNlcjpwYXNzd29yZA==", ""},
		{"GET https://api.openweathermap.org/data/2.5/weather?q=Seoul&appid=aa470d41c62d0b95f0e5082f08ee3733", PIISecret},
		{"GET https://api.example.com/items?page=2&key=cache-entry", ""},
		{`env:\n- name: PUSHER_SECRET\n  value: "c9278b6efc6576833820"`, PIISecret},
		{"the customer's DNI 47660027W", PIINationalID},
		{"NIE X4816273G on the form", PIINationalID},
		{"NIE X1234567L de ejemplo", ""},
		{"DNI 47660027A (wrong letter)", ""},
		{"build 47660027W of the firmware", ""},
		{"DNI de ejemplo 12345678Z", ""},
		{"Aadhaar checks: the ticket's 4821 7730 9156 for customer Priya", PIINationalID},
		{"invoice 4821 7730 9156 is overdue", ""},
		{"KEYCLOAK_ADMIN_PASSWORD=password123", ""},
		{"validators print 123-45-6789 and 987-65-4321 as samples", ""},
		{"ssn 123-45-6789 on file", PIIUSSSN},
		{"중국 신분증 번호 110105199003078127 형식 검사", PIINationalID},
		{"order 110105199003078127 shipped", ""},
		{"가입 폼의 예시는 `010-2345-6789` 이고, 서버는 하이픈을 빼고 검증하며 그 결과 하이픈 없는 01023456789 도 받는다", ""},
		{"call 010-4417-2863 or 010 4417 2863", PIIPhone},
		{"the customer's SSN 471-28-3956", PIIUSSSN},
		{"password: `MWYyZDFlMmU2N2Rm` as in the Kubernetes docs", ""},
		{"use `${DB_PASSWORD:?must be set}` to fail fast", ""},
		{"without a password: `Error: superuser password is not specified.`", ""},
		{"DB_PASSWORD: Xq7!vL2mKp", PIIPassword},
		{"password: admin1234!", ""},
		{"password: Adm1n!9xQ", PIIPassword},
		{"-----BEGIN PRIVATE KEY-----\nMIIEv...\n-----END PRIVATE KEY-----", ""},
		{"-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSj...\n-----END PRIVATE KEY-----", PIIPrivateKey},
		{"ALTER ROLE app WITH LOGIN PASSWORD '${APP_DB_PASSWORD}';", ""},
		{"Ofcom's drama block: fixtures use 020 7946 0321 and 0113 496 0582", ""},
		{"set user.email to ID+USERNAME@users.noreply.github.com", ""},
		{"mail FIRST.LAST@acme-corp.com for access", ""},
		{"mail jane.doe@acme-corp.com for access", PIIEmail},
		{"cache_key = 5f2b6a1c9e0d7f3a4b8c2e6d1f0a9b7c", ""},
		{"Idempotency-Key: 8e03978e-40d5-43e8-bc93-6894a57f9324", ""},
		{"public_key: AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsab", ""},
		{"next_page_token=CAoQ9b2xNjQ0MzI1MTIzNDU2Nzg5", ""},
		{"SECRET_KEY=<generate with openssl rand -hex 32>", ""},
		{"git clone https://oauth2:glpat-Xq7vL2mK9pT4wZ8rB3nY@gitlab.com/acme/infra.git", PIIAPIToken},
		{"huggingface-cli login --token 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", PIIAPIToken},
		{"Mailgun's sample key-3ax6xnjp29jd6fds4gc373sgvjxteol0 answers 401", ""},
		{"redis-cli -h cache -a 'Vq8#tL2mKx' INFO", PIIPassword},
		{"redis-cli -a \"$REDIS_PASSWORD\" INFO", ""},
		{"redis-cli -a foobared PING", ""},
		{"redis-cli -p 6379 PING and psql -p 5432", ""},
		{"mysql -u root -p mydb prompts for the password", ""},
		{"sshpass -p 'Gx7kq2Lw9' ssh deploy@10.0.4.12", PIIIPAddress + "," + PIIPassword},
		{"curl -u admin:Zk4pW7qR2 http://jenkins:8080/job/x/build", PIIPassword},
		{"ldapsearch -x -D cn=admin -w 'Mx5pK9rT2' uid=jdoe", PIIPassword},
		{"docker login ghcr.io -u bot --password 'Wq9zP3xK7'", PIIPassword},
		{"a `-v $PWD:/app` bind mount shows node_modules", ""},
		{"call the DBA on 090-4417-2863 first", PIIPhone},
		{"Tokyo desk 03-5412-7788", PIIPhone},
		{"ring 07911 123456", PIIPhone},
		{"Frankfurt engineer 0151 23456789", PIIPhone},
		{"Paris on-call 06 12 34 56 78", PIIPhone},
		{"vendor engineer (98765 43210)", PIIPhone},
		{"integration desk (11) 98765-4321", PIIPhone},
		{"released on 01-02-2024 at 10:00", ""},
		{"Stripe's 4000 0025 0000 3155 requires authentication", ""},
		{"4000 0027 6000 3184 and 4000 0000 0000 3220 trigger 3DS", ""},
		{"Adyen 5555 3412 4444 1115 with CVC 737", ""},
		{"real card 4198 3444 1747 6617 was charged", PIICard},
		{"Stripe's test IBAN DE89370400440532013000 succeeds", ""},
		{"078-05-1120 was voided by the SSA", ""},
		{"docker run -e MYSQL_ROOT_PASSWORD=my-secret-pw mysql:8.4", ""},
		// Names and values apart, and their look-alikes.
		{"env:\n  - name: DB_PASSWORD\n    value: \"Rk4vQ9zLw2Tx\"", PIIPassword},
		{"env:\n  - name: SIGNING_SECRET\n    value: zYpgfhH55aWYkXZ5oUSaZM4M5arBob9B", PIISecret},
		{"env:\n  - name: GOMEMLIMIT\n    value: \"900MiB\"\n  - name: TOKEN_TTL_SECONDS\n    value: \"3600\"", ""},
		{`variable "datadog_api_key" { default = "4c7e9a1f3b6d8e2a5c9f1b7d3e6a8c2f" }`, PIISecret},
		{`variable "region" { default = "ap-northeast-2" }`, ""},
		{"<password>Tq9mX4vLz2</password>", PIIPassword},
		{"machine ci.internal login bot password Kz8vQ3mWx7", PIIPassword},
		{"SECRET_KEY = '0C4*L2oX(=rW8wSzJ88z2QCkmJI2'", PIISecret},
		{"NEXTAUTH_SECRET=Gq7!vZ2@mK9#xL4%Tw8", PIISecret},
		{"nextPageToken: \"CAoQ9b2xNjQ0MzI1MTIzNDU2Nzg5\"", ""},
		{"the admin password is `Hx7vQ2mRk9`", PIIPassword},
		{"the password is bcrypt-hashed with cost 12", ""},
		{"관리자 비밀번호는 `Lp4zX9qWm2` 이다", PIIPassword},
		{"비밀번호 변경 API 는 POST /v1/password 이다", ""},
		{"ipmitool -H 10.0.0.5 -U ADMIN -P 'Kq9vT3xWm7' chassis status", PIIIPAddress + "," + PIIPassword},
		{"ipmitool -H 10.0.0.5 -U ADMIN -E chassis status", ""},
		{"gpg --batch --passphrase 'Mz7#qR2vLx9' -c f", PIIPassword},
		{"gpg --batch --passphrase-file /run/secrets/p -c f", ""},
		// Keys: a header needs a key after it.
		{"-----BEGIN RSA PRIVATE KEY-----\n...\n-----END RSA PRIVATE KEY-----", ""},
		{"ssh-keygen writes -----BEGIN OPENSSH PRIVATE KEY----- since 7.8", ""},
		{"tls.key: LS0tLS1CRUdJTiBQUklWQVRFIEtFWS0tLS0tCk1JSUV2Z0lCQURBTkJna3Foa2lHOXcwQkFRRUZBQVND", PIIPrivateKey},
		// Documentation values.
		{"https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX", ""},
		{"https://hooks.slack.com/services/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", PIISlackWebhook},
		{"Authorization: Basic dGVzdDoxMjPCow==", ""},
		{"the emulator's line is +1 555 521 5554", ""},
		{"ARCEP's 06 39 98 45 67 is fiction", ""},
		{"Paris on-call 06 72 18 45 93", PIIPhone},
		{"예시 번호 010-1234-5678 형식", ""},
		{"담당자 010-1234-5678 로 전화", PIIPhone},
		// Formats grouped figures share count beside a phone word only.
		{"text Piotr at 512 847 336", PIIPhone},
		{"p99 was 512 347 336 ns", ""},
		{"the ring buffer grows from 8192-9216 slots; SIGUSR1 signal 5000-5999", ""},
		{"jane.okafor [at] northwind-logistics [dot] com", PIIEmail},
		// A key as a URL's whole userinfo is a secret, not mail; a Sentry DSN
		// with its public key alone is neither (the key ships in clients),
		// and its legacy form's secret key is a secret (session 15).
		{"git clone https://21a9d849aabaceb808e3c5a2c260544d@git.northwind.io/ops/app.git", PIISecret},
		{"SENTRY_DSN: https://21a9d849aabaceb808e3c5a2c260544d@o4505187171.ingest.sentry.io/4505520100", ""},
		{"SENTRY_DSN: https://21a9d849aabaceb808e3c5a2c260544d:9b1f0c6e2a7d4e38b5c1a9f0d3e6b274@o4505187171.ingest.sentry.io/4505520100", PIISecret},
		{"SENTRY_DSN=https://<key>@o0.ingest.sentry.io/0", ""},
	}
	for _, tt := range tests {
		if got := strings.Join(DetectPII(tt.text), ","); got != tt.want {
			t.Errorf("DetectPII(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
}

// TestNarrativeFindingExemption: first-person plural, past and passive
// tense and time words do not make a specific finding a diary, but a
// story marker, a session summary or "I" still do.
func TestNarrativeFindingExemption(t *testing.T) {
	finding := "We saw `prepared statement \"stmtcache_1\" already exists` after putting PgBouncer 1.21 in transaction mode; we fixed it with default_query_exec_mode=simple_protocol in the pgx DSN."
	tests := []struct {
		name, content string
		story         bool
	}{
		{"we and past tense", finding, false},
		{"passive", "Deployed to Vercel, the page was blank and the console showed \"Unexpected token '<'\": basePath was not set in next.config.js.", false},
		{"schedule", "정산 배치를 자정에 일괄 실행했더니 RDS 스냅샷과 겹쳐 IOPS 3000 이 바닥났고 쿼리가 30초 넘게 걸렸습니다. 배치를 새벽 1시 이후로 옮겼습니다.", false},
		{"story marker", finding + " It finally worked and we were so happy.", true},
		{"singular narration", "I opened server.go, I changed the pgx pool to 10 connections and I reran `go test ./...`.", true},
		{"we story with a story marker", "We migrated the cluster last week. We hit problems with the ingress and we rolled back.", true},
	}
	for _, tt := range tests {
		if n := Narrative("t", tt.content); n.Story != tt.story {
			t.Errorf("%s: story %v (%+v), want %v", tt.name, n.Story, n, tt.story)
		}
	}
}
