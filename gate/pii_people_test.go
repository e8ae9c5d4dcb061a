package gate

import (
	"slices"
	"strings"
	"testing"
)

// TestPIIPeople pins the carriers of pii_people.go and My Number's named
// text, each beside a look-alike that must pass. None of these texts is
// in testdata/gate; all fail on the rules before pii_people.go.
func TestPIIPeople(t *testing.T) {
	for _, c := range []struct {
		text, want string // want "" passes
	}{
		// A login log names a person's account and the address they came from.
		{"2025-03-02 09:14:07 ERROR login failed username=park.sy88 remote=175.223.18.42", PIIIPAddress},
		{"Mar  2 09:14:07 web sshd[812]: Failed password for hyunwoo.lee from 49.175.22.103 port 50122 ssh2", PIIIPAddress},
		{"AUTH_FAILURE account=m.okafor src=86.41.200.17", PIIIPAddress},
		// The rule's hints come from its patterns: a line with no word
		// the hand-written list had (bad credentials, srcip=) still counts.
		{"WARN bad credentials account=jiwoo.han 121.134.55.201", PIIIPAddress},
		{"fw: action=deny srcip=121.134.55.201 user=jiwoo.han", PIIIPAddress},
		// A scanner's generic account, a documentation or private address,
		// or a line that records no login passes.
		{"Mar  2 09:14:07 web sshd[812]: Failed password for root from 49.175.22.103 port 50122 ssh2", ""},
		{"LOGIN_FAIL user=park.sy88 ip=203.0.113.50 reason=BAD_CREDENTIALS", ""},
		{"LOGIN_FAIL user=park.sy88 ip=10.20.3.4 reason=BAD_CREDENTIALS", ""},
		{"GET /health user=park.sy88 upstream=52.78.10.201 200", ""},
		// A user's record carrying the address they came from.
		{"breadcrumb: user { id: 4417, username: 'minsu.park', ip_address: '118.235.14.77' }", PIIIPAddress},
		{"event user=dahye.yoon client_ip=61.74.210.33 path=/cart", PIIIPAddress},
		{"event user=www-data client_ip=61.74.210.33 path=/cart", ""},
		{"upstream host=api.internal client_ip=61.74.210.33 path=/cart", ""},
		// A customer's own address handed over in prose.
		{"The client's office IP is 94.23.117.8 and the VPN drops after 60 s.", PIIIPAddress},
		{"그 고객사 사무실 공인 IP 121.134.55.61 을 보안 그룹에 추가", PIIIPAddress},
		{"Allowlist the customers\tstatic IP 94.23.117.8 on the bastion.", PIIIPAddress},
		{"Their egress IP was 203.0.113.9, so allowlist that range.", ""},
		{"The customer's ALB forwards to 10.0.4.12 in the private subnet.", ""},
		// A bank account in a log's bare account field, beside its bank.
		{"deposit bank=신한 account=110-482-739215 holder=정다은 amount=30000", PIIBankAccount},
		{"event=refund bank_code=088 account=562-910-338812", PIIBankAccount},
		{"aws sts account=123456789012 arn=arn:aws:iam::123456789012:role/x", ""},
		{"account=110-482-739215 region=ap-northeast-2 service=ec2", ""},
		// A Korean bank's name before an account number, with no 계좌.
		{"정산 파일 한 줄: 20241103,김서윤,농협,302-1187-4412-81,150000", PIIBankAccount},
		{"환불은 신한 110-482-739215 (예금주 정다은) 으로", PIIBankAccount},
		{"우리은행 1002-845-331907 로 입금 확인", PIIBankAccount},
		{"우리 서버 1002-845-331907 번 작업", ""},
		{"국민 사업자 123-45-67890 등록", ""},
		// A National Insurance number as a cell of a person's record.
		{"id,name,town,postcode\nJW583102A,Megan Price,Swansea,SA1 4PQ", PIINationalID},
		{"Payroll import fails on the quote:\n\tJW583102A\tMegan Price\t\"Senior, Ops\"", PIINationalID},
		{"sku,desc,price\nJW583102A,Cable Tie Pack,4.99", ""},
		{"Order refs look like JW583102A, see the orders table.", ""},
		// Japan's My Number, its check digit valid, in a text that names it.
		{"マイナンバー import: row 12 rejected, the value 731405286194 had a stray space.", PIINationalID},
		{"My Number validation (個人番号): the form sent 2058 3941 7625 and the API answered 400.", PIINationalID},
		{"My Number validation: 731405286195 fails the check digit as it should.", ""},
		{"The AWS account 731405286194 owns the bucket.", ""},
		// An HL7 v2 PID segment of a patient who is no example's.
		{"MSH|^~\\&|LAB|GEN|||202403051200||ADT^A01|88|P|2.5\nPID|1||MRN004821^^^HOSP||Okafor^Chidi||19870412|M", PIIBirthDate},
		{"segment: PID|1||77120^^^CLIN^MR||Lindqvist^Anna^M||19910623|F|||", PIIBirthDate},
		{"PID|1||123456^^^HOSP^MR||DOE^JOHN^A||19800412|M", ""},
		{"PID|1||123456^^^HOSP^MR||Okafor^Chidi||19800101|M", ""},
		{"PID|1||MRN004821^^^HOSP||||19870412|M", ""},
		// Google's OAuth refresh token.
		{"logcat: refresh_token 1//0gLx7vQ2mT9rA-CgYIARAAGBASNwF-L9IrZk3pQ8wXyV2bN7mK4jH6sD1fG0aE", PIIAPIToken},
		{"Google refresh tokens start with 1//0 and run about 100 characters", ""},
	} {
		got := DetectPII(c.text)
		if c.want == "" && len(got) != 0 || c.want != "" && !slices.Contains(got, c.want) {
			t.Errorf("DetectPII(%q) = %v, want %q", c.text, got, c.want)
		}
	}
}

// TestLineMemoChangesNothing: the rules whose near condition reads a
// match's whole line (lineNear) decide each match of a text as they do
// with a memo of their own, on every tuning text, TestPIIPeople's kinds of
// text and long lines of matches, where the memo spares reading the line
// once per match.
func TestLineMemoChangesNothing(t *testing.T) {
	texts := []string{
		"login failed " + strings.Repeat("user=root 8.8.4.4 ", 40) + "user=park.sy88 8.8.8.8",
		strings.Repeat("client_ip=8.8.4.4 ", 30) + "user=dahye.yoon client_ip=61.74.210.33\nLOGIN_FAIL user=bob 9.9.9.9",
		"payroll\n" + strings.Repeat("JW583102A,x,", 20) + "\nJW583102A,Megan Price,Swansea\nid,name,postcode\nJW583102A,Megan Price,SA1 4PQ",
		"my home IP " + strings.Repeat("94.23.117.8 ", 20) + "\nand 94.23.117.9 at home",
	}
	for _, tc := range tuningTexts(t) {
		texts = append(texts, tc[0]+"\n"+tc[1])
	}
	rules, compared := 0, 0
	for _, r := range piiRules {
		if r.lineNear == nil {
			continue
		}
		rules++
		for _, text := range texts {
			var shared lineMemo
			for _, loc := range r.re.FindAllStringIndex(text, -1) {
				var own lineMemo
				want := r.lineNear(text, loc[0], loc[1], &own)
				if got := r.lineNear(text, loc[0], loc[1], &shared); got != want {
					t.Fatalf("%s rule: lineNear(%q, %d, %d) = %v with the text's memo, %v with its own", r.kind, text, loc[0], loc[1], got, want)
				}
				compared++
			}
		}
	}
	if rules != 3 || compared == 0 {
		t.Fatalf("%d lineNear rules, %d matches compared: the test checks nothing", rules, compared)
	}
	t.Logf("%d rules, %d matches decided alike", rules, compared)
}

// BenchmarkLongLinePII is DetectPII on a 12,000-character line of
// client_ip= fields, each a public address with no account.
func BenchmarkLongLinePII(b *testing.B) {
	text := strings.Repeat("client_ip=8.8.4.4 ", 650)
	for b.Loop() {
		DetectPII(text)
	}
}
