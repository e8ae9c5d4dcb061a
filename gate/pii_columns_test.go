package gate

import (
	"strings"
	"testing"
)

// TestPIIFromGate11 pins the rules read from gate11's odd-numbered misses
// (session 11), each by its shape beside a look-alike that must pass: a
// table column named in its header, the DVLA licence, a token's claims,
// the host of a credential, Korea's new passports beside a name, and the
// dummies of documentation (mysql's -P port, placeholder words with
// symbols, counting RRN serials, HMRC's QQ example).
func TestPIIFromGate11(t *testing.T) {
	const csvHead = "EmployeeNo,Surname,Forename,NINumber,Mobile,DrivingLicence,Department\n"
	const jwtEmail = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIyMDQ0MTgiLCJlbWFpbCI6Im1pcmEubGluZHF2aXN0QGhhbmJpdC1sb2dpcy5jby5rciIsImlhdCI6MTcxNjUyMDkzMn0.HSkMb924Yq6LFJ0_BGUyM4fnwckuJRSFdRxdN14ajBd"
	const jwtRole = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIyMDQ0MTgiLCJyb2xlIjoiYWRtaW4iLCJpYXQiOjE3MTY1MjA5MzJ9.HSkMb924Yq6LFJ0_BGUyM4fnwckuJRSFdRxdN14ajBd"
	tests := []struct {
		text string
		want string
	}{
		{csvHead + `00417,"Ashby","Keira",JT 48 21 93 C,,,"Finance, Leeds"`, PIINationalID},
		{"OrderNo,Ref,Qty\n00417,JT 48 21 93 C,3", ""},
		{csvHead + `00418,"Mensah","Kofi",,,MENSA711039K99WP,Operations`, PIIDriverLicence},
		{"Build,Artifact,Hash\n0418,core,MENSA711039K99WP", ""},
		{"Authorization: Bearer " + jwtEmail, PIIEmail + "," + PIIJWT},
		{"Authorization: Bearer " + jwtRole, PIIJWT},
		{"REPORTDESK_DSN=postgresql://reporting:Qe7!vLm2#pX9@10.44.8.21:5432/finance", PIIIPAddress + "," + PIIPassword},
		{"REPORTDESK_DSN=postgresql://reporting:Qe7!vLm2#pX9@192.0.2.21:5432/finance", PIIPassword},
		{"iptables -A INPUT -s 10.44.8.21 -j DROP; exempt 10.44.8.0/24 from interception", ""},
		{"10.0.12.8 - - [24/May/2024] \"GET /admin\" 200 \"Bearer " + jwtRole + "\"", PIIJWT},
		{"여권 OCR 정규식이 신형 번호를 못 잡는 문제, 노트북 출력 셀에 남아 있던 결과:\n\"text\": [\"matched: M48217653 (정민호)\\n\", \"unmatched: M731K2084 (윤지아)\\n\"]", PIINationalID},
		// Without the holders: the old form (a letter and eight digits) is
		// any code's; the 2021 form (M731K2084) in a text about passports
		// is a passport's (gate18's writer labelled such a number alone).
		{"여권 OCR 정규식이 신형 번호를 못 잡는 문제, 노트북 출력 셀에 남아 있던 결과:\n\"text\": [\"matched: M48217653\\n\", \"unmatched: M731K2084\\n\"]", PIINationalID},
		{"여권 OCR 정규식이 신형 번호를 못 잡는 문제, 노트북 출력 셀에 남아 있던 결과:\n\"text\": [\"matched: M48217653\\n\"]", ""},
		// Documentation's dummies.
		{"mysql -h 127.0.0.1 -P 3306 -uroot -pchangeme", ""},
		{"mysql -h 127.0.0.1 -P 3306 -uroot -pKq9vT3xWm7", PIIPassword},
		{`URL.create("postgresql+psycopg", username="user", password="p@ss:word", host="localhost")`, ""},
		{`URL.create("postgresql+psycopg", username="user", password="p@ss:Kq9v7", host="localhost")`, PIIPassword},
		{"입력 900101-1234567 → 출력 900101-1******", ""},
		{"고객 주민번호 900101-1734528 이 로그에 남았다", PIIKoreanRRN},
	}
	for _, tt := range tests {
		if got := strings.Join(DetectPII(tt.text), ","); got != tt.want {
			t.Errorf("DetectPII(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
	if !documentedValue("HMRC's example format is QQ 12 34 56 C; the QQ prefix is never issued.") {
		t.Errorf("QQ 12 34 56 C is not read as HMRC's documented example")
	}
}
