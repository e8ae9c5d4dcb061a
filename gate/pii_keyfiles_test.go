package gate

import (
	"slices"
	"testing"
)

// TestPIIKeyFiles pins session 15's families (own15): each leak names its
// kind, and the look-alike beside it passes the PII stage.
func TestPIIKeyFiles(t *testing.T) {
	for _, c := range []struct {
		name, text string
		want       string // "" when nothing may be found
	}{
		{"jwk rsa private", `{"kty":"RSA","n":"sXchDaQebHnPiGvyDOAT4saGEUetSyo9MKLOoWFsueri23bOdgWp4Dy1Wl","e":"AQAB","d":"VFCWOqXr8nvZNyaaJLXdnNPXZKRaWCjkU5Q2egQQpTBMwhprMzWzpR8Sxq1OPThh"}`, PIISecret},
		{"jwk oct", `{"kty": "oct", "kid": "hmac", "k": "FdFYFzERwC2uCBB46pZQi4GG85LujR8obt-KWRBICVQ"}`, PIISecret},
		{"jwk escaped in a string", `jwk: '{\"kty\":\"EC\",\"crv\":\"P-256\",\"d\":\"q8b2e956114a23f5673b53e59a7bd16d7d5\"}'`, PIISecret},
		{"jwk public", `{"kty":"EC","crv":"P-256","x":"f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU","y":"x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0"}`, ""},
		{"jwk RFC 7517 example", `{"kty":"EC","crv":"P-256","d":"870MB6gfuTJ4HtUnUvYMyJpr5eUZNP4Bk43bVdj3eAE"}`, ""},
		{"openvpn static key", "-----BEGIN OpenVPN Static key V1-----\n0e17212f56b9a1940fb4b96caf9c4f80\n2024a6252acbad50f937a252e512a0dd\n08b2e956114a23f5673b53e59a7bd16d\n-----END OpenVPN Static key V1-----", PIISecret},
		{"openvpn elided", "-----BEGIN OpenVPN Static key V1-----\n...\n-----END OpenVPN Static key V1-----", ""},
		{"auth-user-pass file", "auth-user-pass /etc/openvpn/login.conf\n$ cat /etc/openvpn/login.conf\nvpn.jlee\nT7m#qR2vLx9k\n", PIIPassword},
		{"auth-user-pass note", "auth-user-pass creds.txt\n# creds.txt: jiwoo.han / Dalbit#Vpn2024\n", PIIPassword},
		{"a profile shown with cat", "auth-user-pass creds.txt is in the profile:\n$ cat client.ovpn\nclient\npersist-key\npersist-tun\nauth-user-pass creds.txt\n", ""},
		{"a profile's directives in a block", "Put these next to auth-user-pass in the profile:\n```\nauth-user-pass\nauth-nocache\n```", ""},
		{"auth-user-pass template", "auth-user-pass login.conf\n```\nYOUR_USERNAME\nYOUR_PASSWORD\n```", ""},
		{"cookies.txt session", ".github.com\tTRUE\t/\tTRUE\t1767225600\tuser_session\tq8b2e956114a23f5673b53e59a7bd16d", PIISecret},
		{"cookies.txt preference", ".docs.rs\tTRUE\t/\tTRUE\t1767225600\trustdoc-theme\tayu", ""},
		{"cookies.txt placeholder", ".example.com\tTRUE\t/\tFALSE\t0\tsession_id\tYOUR_SESSION_COOKIE", ""},
		{"encoded mail", "GET /lookup?email=alice.kim%40gmail.com HTTP/1.1", PIIEmail},
		{"encoded example mail", "GET /lookup?email=user%40example.com HTTP/1.1", ""},
		{"npm scope", "https://registry.npmjs.org/%40types%2Fnode", ""},
		{"payout json", `{"account_number": "4839201756", "routing_number": "021000021"}`, PIIBankAccount},
		{"sort code", `sort_code: "20-45-77"`, PIIBankAccount},
		{"payout account", "payout.bank: 신한은행\npayout.account: 110-482-739215", PIIBankAccount},
		{"korean account in prose", "급여계좌 국민 482301-04-117625 로 변경", PIIBankAccount},
		{"korean account and a date", "급여 계좌 변경은 2024-01-15 부터 적용된다.", ""},
		{"korean account feature and a date", "계좌 이체 기능은 2026-12-07 배포에서 켜졌다.", ""},
		{"account number alone", `"account_number": "4839201756"`, ""},
		{"stripe test bank", `{"account_number": "000123456789", "routing_number": "110000000"}`, ""},
		{"template bank", `{"account_number": "<ACCOUNT_NUMBER>"}`, ""},
		{"imei1", "IMEI1: 353294096125531", PIIDeviceID},
		{"meid", "ACTIVATE ok MEID=990004281134563", PIIDeviceID},
		{"gsma example imei", "GSMA's own example 490154203237518 is valid", ""},
		{"emulator imei", "the emulator returns IMEI 000000000000000", ""},
		{"wireguard private", "[Interface]\nPrivateKey = OS72f48Dx421p2lu6sZKz9RMpUY6FXFx9bmZj5ftYUc=", PIISecret},
		{"wireguard preshared", "[Peer]\nPresharedKey = c7OqURma5+GI5jlHdtSb+8ruIXUIbDgS83cjHaJFWGc=", PIISecret},
		{"wireguard public", "[Peer]\nPublicKey = c7OqURma5+GI5jlHdtSb+8ruIXUIbDgS83cjHaJFWGc=", ""},
		{"wireguard man page", "[Interface]\nPrivateKey = yAnz5TF+lXXJte14tji3zlMNq+hd2rYUIgJBgB3fBmk=", ""},
		{"sentry legacy dsn", `SENTRY_DSN = "https://1f2d1e2e67df4a1b9c3d5e7f8a9b0c1d:9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d@o123456.ingest.sentry.io/5512345"`, PIISecret},
		{"sentry self-hosted legacy", `dsn: https://1f2d1e2e67df4a1b9c3d5e7f8a9b0c1d:9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d@sentry.corp.kr/7`, PIISecret},
		{"sentry public dsn", `Sentry.init({ dsn: "https://1f2d1e2e67df4a1b9c3d5e7f8a9b0c1d@o4504018231.ingest.us.sentry.io/4506612301" })`, ""},
		{"sentry docs dsn", `dsn: "https://examplePublicKey@o0.ingest.sentry.io/0"`, ""},
		{"sentry legacy docs dsn", "https://public:secret@sentry.example.com/1", ""},
		{"token as userinfo elsewhere", "git clone https://1f2d1e2e67df4a1b9c3d5e7f8a9b0c1d@git.corp.kr/team/app.git", PIISecret},
	} {
		got := DetectPII(c.text)
		if c.want == "" && got != nil || c.want != "" && !slices.Contains(got, c.want) {
			t.Errorf("%s: DetectPII = %v, want %q", c.name, got, c.want)
		}
	}
}
