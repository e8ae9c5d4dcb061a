package gate

import (
	"regexp"
	"strings"
)

// Personal data in the carriers the field rules do not read: the client
// address an application's login log records beside the account that
// tried, a customer's own address a text hands over, a bank account in a
// log's bare account= field and a UK National Insurance number as a
// cell of a person's record.

// reLoginEvent is a log line's word for a login attempt and its outcome
// (LOGIN_FAIL, "login failed", "authentication failure", sshd's "Failed
// password for", 로그인 실패).
var reLoginEvent = regexp.MustCompile(`(?i)\b(?:login|log-in|logon|sign-?in|auth(?:entication)?)[ _-]?(?:fail\w*|success\w*|denied|invalid|error|attempt\w*|ok)\b|\b(?:failed|invalid|bad) (?:password|login|credentials?)\b|\binvalid user\b|\baccepted (?:password|publickey)\b|로그인\s?(?:실패|성공|시도)`)

// reLoginUser is the account a login line names: a user, login or
// account field, or sshd's "for <user> from".
var reLoginUser = regexp.MustCompile(`(?i)\b(?:user(?:name)?|login|account|member(?:_?id)?|uid|email)\s*[=:]\s*["']?([^\s"',;&|\]]+)|\bfor (?:invalid user )?(\S+) from\b`)

// reClientIPField ends right before the value of a field that holds the
// address a user came from (a Sentry event's user.ip_address, an access
// record's client_ip): with the user's account on the line, the record is
// theirs.
var reClientIPField = regexp.MustCompile(`(?i)\b(?:ip_?address|client_?ip|remote_?(?:ip|addr)|user_?ip|src_?ip|source_?ip)["']?\s*[:=]\s*["']?$`)

// loginHints prefilter the login rule: loginLineUser needs a login
// event on the line or a client-address field before the address.
var loginHints = hintsOf(reLoginEvent, reClientIPField)

// genericAccounts are the accounts every brute force tries and every
// example writes: no one's name.
var genericAccounts = []string{"root", "admin", "administrator", "test", "tester", "user", "guest", "ubuntu", "ec2-user", "pi",
	"oracle", "postgres", "mysql", "deploy", "git", "www-data", "nobody", "demo", "support", "info", "alice", "bob", "carol",
	"john", "jane", "johndoe", "jdoe", "foo", "bar", "example", "username", "unknown", "anonymous", "null", "-"}

// loginLineUser passes a public address on a login log's line that names
// an account no example or scanner writes: the line ties a person's
// account to the address they came from (a brute force's target is named
// with its attacker, a user's successful login with their home).
func loginLineUser(text string, lo, hi int, m *lineMemo) bool {
	if lo > 0 && (text[lo-1] == '.' || text[lo-1] == 'v') || hi < len(text) && text[hi] == '.' && hi+1 < len(text) && text[hi+1] >= '0' && text[hi+1] <= '9' {
		return false
	}
	from := strings.LastIndexByte(text[:lo], '\n') + 1
	to := len(text)
	if i := strings.IndexByte(text[hi:], '\n'); i >= 0 {
		to = hi + i
	}
	event, user := m.get(text, from, to, loginLine)
	if !event && !reClientIPField.MatchString(text[max(from, lo-24):lo]) {
		return false
	}
	return user
}

// loginLine reports whether text[from:to], a line, records a login event
// and whether it names an account no example or scanner writes.
func loginLine(text string, from, to int) (event, user bool) {
	line := text[from:to]
	event = reLoginEvent.MatchString(line)
	for _, m := range reLoginUser.FindAllStringSubmatch(line, -1) {
		u := strings.ToLower(strings.Trim(m[1]+m[2], `"'<>()[]`))
		if len(u) >= 3 && !containsString(genericAccounts, u) && !strings.ContainsAny(u, `*$<{%\`) && !strings.Contains(u, "example") {
			return event, true
		}
	}
	return event, false
}

// lineMemo keeps what a pure function of one text's line decided for the
// last line it was asked about. scanPII makes one per rule and text, so
// the text is always the same: the line's bounds are the key. A near
// condition that reads a match's whole line was otherwise run over the
// line once per match, quadratic on a long one (a 12,000-character line
// of client_ip= fields, 650 addresses: DetectPII 5.5 s).
type lineMemo struct {
	set      bool
	from, to int
	a, b     bool
}

// get returns f(text, from, to), remembered for the last bounds asked.
func (m *lineMemo) get(text string, from, to int, f func(text string, from, to int) (bool, bool)) (bool, bool) {
	if !m.set || m.from != from || m.to != to {
		m.a, m.b = f(text, from, to)
		m.set, m.from, m.to = true, from, to
	}
	return m.a, m.b
}

// reKRBankNamed is a Korean bank's name right before an account number
// in a bank's hyphenated groups, as a settlement file's row or a transfer
// note writes it (농협,302-1187-4412-81; 신한 110-482-739215); the number
// is the group. Names that are also words (우리 "we", 하나 "one", 기업
// "company") count only with 은행.
var reKRBankNamed = regexp.MustCompile(`(?:KB국민|NH농협|IBK기업|SC제일|국민|신한|농협|카카오뱅크|토스뱅크|케이뱅크|새마을금고|우체국|수협|씨티|(?:우리|하나|기업|부산|대구|광주|경남|전북|제주|산업)은행)(?:은행)?["']?\s?[\s,:|/=(]\s?["']?(\d{2,6}-\d{2,7}-\d{2,7}(?:-\d{1,3})?)\b`)

// krBankNumber requires an account number's length (krAccountDigits) and
// refuses the two forms that share it: a mobile number (010-…) and a
// business registration number (123-45-67890).
func krBankNumber(m string) bool {
	g := reKRBankNamed.FindStringSubmatch(m)[1]
	parts := strings.Split(g, "-")
	if strings.HasPrefix(g, "01") && len(parts[0]) == 3 || len(parts) == 3 && len(parts[0]) == 3 && len(parts[1]) == 2 && len(parts[2]) == 5 {
		return false
	}
	return krAccountDigits(g)
}

// krBankHints prefilter reKRBankNamed.
var krBankHints = []string{"국민", "신한", "농협", "우리은행", "하나은행", "기업", "카카오뱅크", "토스뱅크", "케이뱅크", "새마을금고", "우체국", "수협", "씨티", "sc제일", "은행"}

// reBareAccount is a log's or a callback's bare account field holding a
// number in a bank's hyphenated groups (account=423701-04-187256); the
// number is the group. bankNamed asks for a bank beside it.
var reBareAccount = regexp.MustCompile(`(?i)\b(?:account|acct|acc_?no)\s*[:=]\s*["']?(\d{2,6}-\d{2,6}-\d{2,7}(?:-\d{1,3})?)\b`)

// reCSVName is a cell that is a person's name: two or three capitalised
// words.
var reCSVName = regexp.MustCompile(`^[A-Z][a-z]+(?:[ '-][A-Z][a-z]+){1,2}$`)

// reUKPostcodeCell is a UK postcode as a cell or a cell's end.
var reUKPostcodeCell = regexp.MustCompile(`\b[A-Z]{1,2}\d[A-Z\d]? \d[A-Z]{2}$`)

// employmentWords name the records National Insurance numbers travel in.
var employmentWords = []string{"payroll", "employee", "employees", "staff", "hr", "salary", "salaries", "pension", "paye", "hmrc", "employer", "p60", "p45"}

// ninoRecord passes a number in the National Insurance form as a cell of
// a person's record: its line is a delimited row (a CSV export, a
// tab-separated paste) that holds a UK postcode, or a name in a text
// about employees (payroll, HR, PAYE). An order id in the same form sits
// beside products and prices.
func ninoRecord(text string, lo, hi int, m *lineMemo) bool {
	from := strings.LastIndexByte(text[:lo], '\n') + 1
	to := len(text)
	if i := strings.IndexByte(text[hi:], '\n'); i >= 0 {
		to = hi + i
	}
	postcode, name := m.get(text, from, to, ninoLine)
	return postcode || name && textNames(text, employmentWords)
}

// ninoLine reports whether text[from:to], a line, is a delimited row
// (three cells or more by one separator) with a UK postcode for a cell,
// and whether such a row has a person's name for one.
func ninoLine(text string, from, to int) (postcode, name bool) {
	line := strings.TrimSpace(text[from:to])
	for _, sep := range []string{",", "\t", ";", "|"} {
		cells := strings.Split(line, sep)
		if len(cells) < 3 {
			continue
		}
		for _, c := range cells {
			c = strings.Trim(strings.TrimSpace(c), `"`)
			if reUKPostcodeCell.MatchString(c) {
				return true, name
			}
			name = name || reCSVName.MatchString(c) && !techName(c)
		}
	}
	return false, name
}

// reHL7PID is an HL7 v2 message's patient identification segment (PID),
// one line of |-separated fields: PID-5 the patient's name (family^given),
// PID-7 the date of birth.
// The match runs to the birth date only, leaving the fields after it to
// the rules for phones, addresses and identity numbers.
var reHL7PID = regexp.MustCompile(`(?m)(?:^|\s)PID(?:\|[^|\n]*){6}\|\d{8}`)

// hl7SampleNames are the patients of HL7's and vendors' examples.
var hl7SampleNames = []string{"DOE", "EVERYWOMAN", "EVERYMAN", "TEST", "TESTPATIENT", "PATIENT", "SAMPLE", "DUMMY", "MOUSE", "DUCK", "XXX", "LAST"}

// hl7Patient passes a PID segment naming a patient who is not an
// example's, with a birth date that is no placeholder (not a 1 January,
// which templates write): the segment is a patient's record.
func hl7Patient(m string) bool {
	f := strings.Split(strings.TrimSpace(m), "|")
	if len(f) < 8 {
		return false
	}
	name := strings.Split(f[5], "^")
	family := strings.ToUpper(strings.TrimSpace(name[0]))
	if len(name) < 2 || family == "" || strings.ContainsAny(family, "0123456789<{*") || containsString(hl7SampleNames, family) {
		return false
	}
	dob := f[7]
	if len(dob) < 8 || !allDigits(dob[:8]) || dob[4:8] == "0101" {
		return false
	}
	month, day := two(dob, 4), two(dob, 6)
	return validDate(day, month)
}
