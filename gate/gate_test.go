package gate

import (
	"bufio"
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"
)

type corpusCase struct {
	ID      string   `json:"id"`
	Lang    string   `json:"lang"`
	Want    string   `json:"want"` // accepted, pii, narrative or specificity
	Kinds   []string `json:"kinds"`
	Title   string   `json:"title"`
	Content string   `json:"content"`
}

func loadCorpus(t *testing.T) []corpusCase {
	t.Helper()
	f, err := os.Open("../testdata/knowledge/corpus.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []corpusCase
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		var c corpusCase
		if err := json.Unmarshal([]byte(line), &c); err != nil {
			t.Fatalf("corpus line %d: %v", n, err)
		}
		out = append(out, c)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestGateCorpus runs every labelled contribution through the gate, prints
// accuracy per stage and asserts each case, including the PII kinds named.
func TestGateCorpus(t *testing.T) {
	cases := loadCorpus(t)
	if len(cases) < 80 {
		t.Fatalf("corpus has %d cases, want at least 80", len(cases))
	}
	langs := map[string]int{}
	labels := map[string]int{}
	for _, c := range cases {
		langs[c.Lang]++
		labels[c.Want]++
	}
	if langs["en"] == 0 || langs["ko"] == 0 {
		t.Fatalf("corpus languages = %v, want English and Korean", langs)
	}
	for _, w := range []string{"accepted", StagePII, StageNarrative, StageSpecificity} {
		if labels[w] == 0 {
			t.Fatalf("corpus has no %q cases", w)
		}
	}
	kinds := map[string]bool{}
	for _, c := range cases {
		for _, k := range c.Kinds {
			kinds[k] = true
		}
	}
	for _, k := range []string{PIIEmail, PIIPhone, PIICard, PIIUSSSN, PIIKoreanRRN, PIIIBAN, PIIAWSKey,
		PIIGitHubToken, PIISlackToken, PIIStripeKey, PIIOpenAIKey, PIIPrivateKey, PIIJWT} {
		if !kinds[k] {
			t.Errorf("corpus has no case of PII kind %s", k)
		}
	}

	type tally struct{ right, total int }
	perStage := map[string]*tally{}
	for _, w := range []string{"accepted", StagePII, StageNarrative, StageSpecificity} {
		perStage[w] = &tally{}
	}
	for _, c := range cases {
		res := Check(c.Title, c.Content)
		got := res.Stage
		if res.Pass {
			got = "accepted"
		}
		tl := perStage[c.Want]
		tl.total++
		ok := got == c.Want
		if ok && c.Want == StagePII && !reflect.DeepEqual(res.Names(SignalMatched), c.Kinds) {
			ok = false
			t.Errorf("%s: PII kinds = %v, want %v", c.ID, res.Names(SignalMatched), c.Kinds)
		}
		if ok {
			tl.right++
		} else if got != c.Want {
			t.Errorf("%s (%s): verdict %q (reason %q, specificity %.2f, details %v), want %q",
				c.ID, c.Lang, got, res.Reason, res.Specificity, res.Details, c.Want)
		}
		if !res.Pass && res.Reason == "" {
			t.Errorf("%s: rejected without a reason", c.ID)
		}
		if res.Stage == StagePII {
			assertNoValueLeak(t, c, res)
		}
		if res.Specificity < 0 || res.Specificity > 1 {
			t.Errorf("%s: specificity %v outside [0,1]", c.ID, res.Specificity)
		}
	}
	for _, w := range []string{StagePII, StageNarrative, StageSpecificity, "accepted"} {
		tl := perStage[w]
		t.Logf("gate accuracy %-12s %3d/%3d = %5.1f%%", w, tl.right, tl.total, 100*float64(tl.right)/float64(tl.total))
	}
	t.Logf("corpus: %d cases (%d English, %d Korean)", len(cases), langs["en"], langs["ko"])
}

// assertNoValueLeak checks that a PII reason names kinds, never the values:
// no run of 6+ characters of a matched secret or number may appear in it.
func assertNoValueLeak(t *testing.T, c corpusCase, res Result) {
	t.Helper()
	text := c.Title + "\n" + c.Content
	all := res.Reason + " " + strings.Join(res.Details, " ")
	for _, r := range piiRules {
		for _, m := range r.re.FindAllString(text, -1) {
			if len(m) >= 6 && strings.Contains(all, m) {
				t.Errorf("%s: reason leaks the matched value", c.ID)
			}
		}
	}
}

func TestDetectPIITable(t *testing.T) {
	tests := []struct {
		text string
		want []string
	}{
		{"write to ops@acme-corp.com", []string{PIIEmail}},
		{"write to user@example.com or a@b.example.org", nil},
		{"clone git@github.com:o/r.git", nil},
		{"call 010-1234-5678", []string{PIIPhone}},
		{"call 010.1234.5678", []string{PIIPhone}},
		{"call 010-0000-0000", nil},
		{"call +82 2-3471-8890", []string{PIIPhone}},
		{"call +1 (212) 736-5000", []string{PIIPhone}},
		{"call (212) 555-0100", nil},
		// Published test numbers pass (Stripe, Braintree); real-looking ones do not.
		{"card 4111 1111 1111 1111", nil},
		{"card 4242 4242 4242 4242", nil},
		{"card 4526 0181 5908 3012", []string{PIICard}},
		{"card 4526 0181 5908 3013", nil},
		{"card 4526-0181-5908-3012", []string{PIICard}},
		{"ssn 536-90-4399", []string{PIIUSSSN}},
		{"ssn 666-90-4399", nil},
		{"ssn 123-45-6789", []string{PIIUSSSN}},
		{"call 555-123-4567", []string{PIIPhone}},
		{"rrn 850412-1937864", []string{PIIKoreanRRN}},
		{"rrn 851332-1937864", nil}, // month 13
		{"rrn 8504121937864", []string{PIIKoreanRRN}},
		{"rrn 8504121937865", nil}, // unseparated, bad check digit
		{"iban GB49 MIDL 4005 1587 3421 68", []string{PIIIBAN}},
		{"iban GB49 MIDL 4005 1587 3421 69", nil},
		// The IBAN standard's own examples pass; the ranges regulators
		// reserve for fiction pass; national ids pass their checks.
		{"iban GB82 WEST 1234 5698 7654 32", nil},
		{"call 07700 900123 or +44 7700 900123", nil},
		{"call 07700 123456", []string{PIIPhone}},
		// An account told as user / password; not an error code or a path.
		{"관리자 페이지 계정은 admin / Sk!9wq#2Lm 입니다.", []string{PIIPassword}},
		{"the login is deploy / Hx7vQ29aRt", []string{PIIPassword}},
		{"login fails / ERR_AUTH_401 in the log", nil},
		{"The login is ghcr.io / ReadPackages2 scope", nil},
		{"account settings / security/two-factor2fa", nil},
		{"credentials are `user` / `<password>`", nil},
		{"call +61 491 570 156 or (02) 5550 4321", nil},
		{"call 02-5550-4321", []string{PIIPhone}},
		{"cpf 123.456.789-09", nil},
		{"cpf 529.982.247-25", []string{PIINationalID}},
		// A failing check digit passes, but beside the CPF's name it is
		// a person's number retold with a typo, as Aadhaar's is.
		{"pedido 529.982.247-26", nil},
		{"cpf 529.982.247-26", []string{PIINationalID}},
		{"nino QQ 12 34 56 C", nil},
		{"nino AB 48 21 73 C", []string{PIINationalID}},
		{"id 11010519491231002X", []string{PIINationalID}},
		{"id 110105194912310021", nil},
		{"account 4321-8765-2109", nil},
		{"--master-user-password Kq7!pZ2mWx", []string{PIIPassword}},
		{"--master-user-password \"$DB_PASSWORD\"", nil},
		{"Authorization: Basic dXNlcjpwYXNzd29yZA==", nil},
		{"Authorization: Basic b3BzLWV4cG9ydDpUcTh6UCF3M0xuNng=", []string{PIISecret}},
		{"sqlplus scott/tiger@orcl", nil},
		{"sqlplus billing/Hq4zX8mLp2@ORCLPDB1", []string{PIIPassword}},
		// AWS's documented example key passes; a key of the same shape does not.
		{"key AKIAIOSFODNN7EXAMPLE", nil},
		{"key AKIAGAABD6YL6AZKYOQK", []string{PIIAWSKey}},
		{"tok ghp_" + strings.Repeat("a1", 18), []string{PIIGitHubToken}},
		{"tok xoxp-1234567890-abcdef", []string{PIISlackToken}},
		{"tok xoxb-your-bot-token", nil},
		// Stripe's API reference key passes; another test-mode key is a secret.
		{"tok sk_test_4eC39HqLyjWDarjtT1zdp7dc", nil},
		{"tok sk_test_51Wvki5xqFq6GXoB2sWpqwHHQGecmCz2KseMbTJbQ0", []string{PIIStripeKey}},
		{"key AIza4ClswscCTf07I8PjUhmi2ogviaNfrWta57-", []string{PIIGoogleAPIKey}},
		{"db postgres://app:Vx8#qLm2pT9w@db.acme.io:5432/app", []string{PIIPassword}},
		{"db postgres://postgres:postgres@localhost:5432/app", nil},
		{"db postgres://app:${DB_PASSWORD}@db:5432/app", nil},
		{"dsn host=db user=etl password=Hn7s!k2LmQ", []string{PIIPassword}},
		{"dsn password: ${{ secrets.DB_PASSWORD }}", nil},
		{"AccountKey=+7rW5bSM2oejvrbv7nhPqgk6LANVW0QgZQV/Ut0GgrU=", []string{PIIAzureKey}},
		{"?sv=2022-11-02&sp=r&sig=IL%2FhZshDw0pXa6WXiroJ8u%2FlcEu89QDMVemdbtG5B8Y%3D", []string{PIIAzureSAS}},
		{"sa loader@acme.iam.gserviceaccount.com", nil},
		{"call +1 500-555-0006", nil},
		{"tok sk-" + strings.Repeat("Ab3", 16), []string{PIIOpenAIKey}},
		{"tok sk-ant-api03-" + strings.Repeat("Zx9_", 10), []string{PIIOpenAIKey}},
		{"-----BEGIN PRIVATE KEY-----\nMIIE", []string{PIIPrivateKey}},
		{"-----BEGIN EC PRIVATE KEY-----", []string{PIIPrivateKey}},
		{"-----BEGIN PUBLIC KEY-----", nil},
		{"jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.abc", []string{PIIJWT}},
		{"version 1.2.3-4567-8901 and 2024-01-15 and 192.168.100.1", nil},
		{"epoch 1735689600000 ms", nil},
		{"연락처 010-9876-5432로 전화", []string{PIIPhone}},
		{"mail a.b@corp.io, call 010-9876-5432", []string{PIIEmail, PIIPhone}},
	}
	for _, tt := range tests {
		got := DetectPII(tt.text)
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("DetectPII(%q) = %v, want %v", tt.text, got, tt.want)
		}
	}
}

func TestGateStagesReportWhy(t *testing.T) {
	r := Check("Contact", "mail ops@acme-corp.com and call 010-9876-5432 about `pg_dump`")
	if r.Pass || r.Stage != StagePII || !strings.Contains(r.Reason, "email") || !strings.Contains(r.Reason, "phone") {
		t.Fatalf("pii result = %+v", r)
	}
	if strings.Contains(r.Reason, "acme") || strings.Contains(r.Reason, "9876") {
		t.Fatalf("pii reason leaks values: %q", r.Reason)
	}
	r = Check("Day", "Today I spent three hours and finally got it working. I was so tired.")
	if r.Pass || r.Stage != StageNarrative || !strings.Contains(strings.Join(r.Details, " "), `story marker "today"`) {
		t.Fatalf("narrative result = %+v", r)
	}
	r = Check("Advice", "Always write tests and keep it simple.")
	if r.Pass || r.Stage != StageSpecificity || r.Specificity >= SpecificityFloor || !strings.Contains(r.Reason, "0.50") {
		t.Fatalf("specificity result = %+v", r)
	}
	r = Check("pgx pool", "pgx v5: set `pool_max_conns=10` in the DSN; the default is max(4, GOMAXPROCS) and Supabase caps at 60 connections.")
	if !r.Pass || r.Specificity < SpecificityFloor || r.Stage != "" {
		t.Fatalf("specific finding result = %+v", r)
	}
}

func TestSpecificityOrdersPlatitudeBelowFinding(t *testing.T) {
	low, _ := Specificity("Tip", "Use caching to make things faster.")
	high, _ := Specificity("Redis", "Redis 7: `SET key val NX PX 30000` returns nil when the lock is held; check the reply, not the error.")
	if !(low < SpecificityFloor && high >= SpecificityFloor && low < high) {
		t.Fatalf("specificity platitude %.2f, finding %.2f", low, high)
	}
}

func FuzzCheckContribution(f *testing.F) {
	for _, s := range []string{"010-1234-5678", "4526 0181 5908 3012", "Today I spent", "`x` v1.2", "GB82 WEST 1234 5698 7654 32", "오늘 드디어",
		"postgres://app:Vx8#qLm2pT9w@db:5432/app", "In this session I ran `go test ./...`", "```go\nx := 1\n```", "password: ${{ secrets.X }}",
		`{"kty":"EC","crv":"P-256","d":"q8b2e956114a23f5673b53e59a7bd16d7d5"}`, "auth-user-pass a.txt\n$ cat a.txt\nvpn.jlee\nT7m#qR2vLx9k\n",
		".github.com\tTRUE\t/\tTRUE\t1767225600\tuser_session\tq8b2e956114a23f5673b53e59a7bd16d", "급여계좌 국민 482301-04-117625 로 변경",
		"IMEI1: 353294096125531", "GET /?email=alice.kim%40gmail.com"} {
		// A title of three runes or more: "t" stops every seed at the
		// limits stage, before PII.
		f.Add("Seed title", s)
	}
	kinds := map[string]bool{}
	for _, r := range piiRules {
		kinds[r.kind] = true
	}
	f.Fuzz(func(t *testing.T, title, content string) {
		r := Check(title, content)
		if r.Specificity < 0 || r.Specificity > 1 {
			t.Fatalf("specificity %v", r.Specificity)
		}
		if !r.Pass && (r.Stage == "" || r.Reason == "") {
			t.Fatalf("rejected without a stage or reason: %+v", r)
		}
		if len(r.Details) != len(r.Signals) {
			t.Fatalf("details %v do not mirror signals %v", r.Details, r.Signals)
		}
		if r2 := Check(title, content); r2.Pass != r.Pass || r2.Stage != r.Stage || r2.Reason != r.Reason || r2.Specificity != r.Specificity {
			t.Fatalf("gate is not deterministic: %+v then %+v", r, r2)
		}
		// A PII verdict names only kinds.
		if r.Stage == StagePII {
			for _, k := range r.Names(SignalMatched) {
				if !kinds[k] {
					t.Fatalf("PII verdict names %q, not a kind", k)
				}
			}
		}
	})
}
