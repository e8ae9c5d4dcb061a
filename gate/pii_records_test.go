package gate

import (
	"slices"
	"testing"
)

// TestRecords checks bank details and passwords in their carriers (a NACHA
// entry record, a bank's table column, a value wrapped in an object) and
// the look-alikes beside each.
func TestRecords(t *testing.T) {
	for _, c := range []struct {
		text, kind string
		want       bool
	}{
		{"Line 3:\n    6220210000215550193821       0000052000EMP118         JANE Q PUBLIC           0091000010000001", PIIBankAccount, true},
		// Its routing number fails the ABA check.
		{"Line 3:\n    6221234567895550193821       0000052000EMP118         JANE Q PUBLIC           0091000010000001", PIIBankAccount, false},
		// A 6 in prose, not at a record's start.
		{"Build 6220210000215550193821 0000052000 failed.", PIIBankAccount, false},
		{"BACS payroll export:\n\n    employee_id,name,sort_code,account_number,amount\n    E1,Ann Lee,090128,71830294,100.00", PIIBankAccount, true},
		// A shop's customer number under account_number, no bank around.
		{"CRM export:\n\n    id,account_number,plan\n    7,48812931,pro\n    8,48812932,free", PIIBankAccount, false},
		{"입금 계좌번호(461102-01-298374)로 보냈다.", PIIBankAccount, true},
		{`"spring.datasource.password": {"value": "Hn4#wQ8zLe2Vr6Tm"}`, PIIPassword, true},
		{`"db_password": {"sensitive": true, "type": "string", "value": "s3Q!x9Lm2pWz"}`, PIIPassword, true},
		// The actuator's mask.
		{`"spring.datasource.password": {"value": "******"}`, PIIPassword, false},
		{"Keys:\n  last_registered_imei = 353912104827190\n", PIIDeviceID, true},
		{"app_log: login ok user=ana.silva@protonmail.com device_serial=F2LXK8QJHG7F ios=17.6.1", PIIDeviceID, true},
		{"app_log: login ok user=user@example.com device_serial=F2LXK8QJHG7F ios=17.6.1", PIIDeviceID, false},
		{"    member_id  name    birth       phone\n    100231     윤소희  1994-02-17  5\n", PIIBirthDate, true},
		{"id,name,dob\n1,Ann Lee,1990-04-02\n2,Bo Kim,1985-11-30", PIIBirthDate, true},
		// A date under another column.
		{"    member_id  name    joined      plan\n    100231     윤소희  1994-02-17  pro\n", PIIBirthDate, false},
	} {
		got := slices.Contains(DetectPII(c.text), c.kind)
		if got != c.want {
			t.Errorf("%s in %q = %v, want %v", c.kind, c.text, got, c.want)
		}
	}
}

// TestRecordPlaceholders checks documentation values that must pass: words
// asking for a value, Stripe's failing test IBAN in its list, an example
// phone number written again in E.164, a module pinned to a version.
func TestRecordPlaceholders(t *testing.T) {
	for _, text := range []string{
		"values.yaml ships `db.password: REPLACE_ME` until someone overrides it.",
		"~/.pgpass:\n\n    db.example.internal:5432:*:app:CHANGE_ME\n",
		"DB_PASSWORD=your_password_here in .env.example",
		"Stripe test IBANs:\n    DE89370400440532013000 succeeds\n    DE62370400440532013001 fails",
		"예시 번호 010-1234-5678 기준으로 변환하면 +821012345678 이 된다.",
		"go downloads `golang.org/toolchain@v0.0.1-go1.22.0.linux-amd64` via the proxy",
	} {
		if got := DetectPII(text); got != nil {
			t.Errorf("DetectPII(%q) = %v, want none", text, got)
		}
	}
	// Controls: a real-looking password, a phone in E.164 that no example
	// named, a mail address.
	for _, text := range []string{
		"db.password: Rq7!mZ2xLp",
		"예시 번호 010-1234-5678 외에 실제 번호 +821047718823 로 문자가 갔다.",
		"mail jane.doe@corp-mail.io for access",
	} {
		if DetectPII(text) == nil {
			t.Errorf("DetectPII(%q) = none, want a kind", text)
		}
	}
}
