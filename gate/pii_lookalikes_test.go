package gate

import (
	"slices"
	"testing"
)

// TestLookalikesPass checks values in a datum's or a secret's form that are
// something else or nobody's (pii_lookalikes.go), and the real values
// beside each that must still be refused.
func TestLookalikesPass(t *testing.T) {
	for _, c := range []struct {
		text string
		want string // a kind DetectPII must name, "" for none
	}{
		// A template unit's instance is no mailbox.
		{"Restart it with systemctl restart openvpn-client@office-vpn.service and check journalctl.", ""},
		{"Timer units: backup@nightly.timer fires at 02:00.", ""},
		{"Escalations go to jana.novakova@seznam.cz on weekends.", PIIEmail},
		// A millisecond timestamp on a whole second is no resident number.
		{"Date.now() printed 1601053244000, which is UTC.", ""},
		{"주민등록번호 880215-1234518 이 로그에 남았다.", PIIKoreanRRN},
		// RFC 7617's credential in the clear, as its base64 already passes.
		{"The RFC shows it for user Aladdin with password 'open sesame' in every example.", ""},
		{"CREATE USER report_ro WITH password 'Vx81!quarry-Lamp';", PIIPassword},
		// Placeholder words with a counting run are a test's password; a
		// year after a word is a person's.
		{`client.post("/login", {"user": "qa", "password": "test-pass-123"})`, ""},
		{`client.post("/login", {"user": "qa", "password": "orchid-test-7731"})`, PIIPassword},
		{"index-url = https://deploy:Welcome2023!@pypi.internal.corp/simple", PIIPassword},
		{"DATABASE_URL=postgres://app:Changeme2025!@db.internal:5432/app", PIIPassword},
		// A vendor's prefix cut off before a template.
		{"[registry]\npassword = glpat-<paste your token>\n", ""},
		{"[registry]\npassword = Xk8vT2q-\n", PIIPassword},
		// A dummy of repeated blocks where the text calls it one.
		{"폼 테스트에는 010-3333-4444 같은 더미 번호를 쓴다.", ""},
		{"고객 연락처 010-3333-4444 로 회신 바람.", PIIPhone},
		{"고객 연락처 010-4821-7730 로 회신 바람 (더미 아님).", PIIPhone},
		// An IBAN's digits are no card's, even when the IBAN's check fails.
		{`INVALID = ["DE44 4990 6958 4830 4011"]  # wrong length`, ""},
		{"Charged card 4990 6958 4830 4011 twice.", PIICard},
		// The registry's examples in a list of test values; alone beside a
		// customer they count.
		{"Unit tests use the registry's examples:\n```\nVALID = [\"CZ65 0800 0000 1920 0014 5399\"]\n```", ""},
		{"Refund sent to CZ65 0800 0000 1920 0014 5399 for the customer.", PIIIBAN},
		// One digit repeated is a specimen's id.
		{"The DNI field rejects 88888888Y, the specimen card's number.", ""},
		{"Cliente con DNI 52918364X pidió la baja.", PIINationalID},
		// An events API's routing key; a broker's routing key is a word.
		{"pagerduty_configs:\n  - routing_key: 4f1c9a0be27d4c55a9e1f0b3c6d8e712\n", PIISecret},
		{`channel.basic_publish(exchange="orders", routing_key="orders.created.eu", body=msg)`, ""},
		{"pagerduty_configs:\n  - routing_key: <INTEGRATION_KEY>\n", ""},
	} {
		got := DetectPII(c.text)
		if c.want == "" && got != nil || c.want != "" && !slices.Contains(got, c.want) {
			t.Errorf("DetectPII(%q) = %v, want %q", c.text, got, c.want)
		}
	}
}
