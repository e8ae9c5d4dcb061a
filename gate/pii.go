package gate

import (
	"regexp"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// PII and secret kinds the gate names in its reasons. A reason names kinds,
// never the matched values.
const (
	PIIEmail        = "email"
	PIIPhone        = "phone"
	PIICard         = "card_number"
	PIIUSSSN        = "us_ssn"
	PIIKoreanRRN    = "kr_rrn"
	PIIIBAN         = "iban"
	PIIAWSKey       = "aws_access_key"
	PIIAWSSecret    = "aws_secret_key"
	PIIGoogleAPIKey = "google_api_key"
	PIIAzureKey     = "azure_key"
	PIIAzureSAS     = "azure_sas"
	PIIGitHubToken  = "github_token"
	PIISlackToken   = "slack_token"
	PIIStripeKey    = "stripe_key"
	PIIOpenAIKey    = "openai_key"
	PIIPrivateKey   = "private_key"
	PIIJWT          = "jwt"
	PIISlackWebhook = "slack_webhook"
	PIIPassword     = "password"
)

type piiRule struct {
	kind string
	re   *regexp.Regexp
	// valid, when set, must accept the match (checksums, ranges).
	valid func(m string) bool
	// placeholder, when set and true, lets a documentation value pass.
	placeholder func(m string) bool
}

// piiRules run in order; a match claims its span, so a later rule cannot
// report the same characters again (a token inside a URL is a token, not a
// password; a card's digits are not also a phone number).
var piiRules = []piiRule{
	{kind: PIIPrivateKey, re: regexp.MustCompile(`-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----`)},
	{kind: PIIAWSKey, re: regexp.MustCompile(`\b(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AIPA|ANPA|ANVA|AROA|APKA|ASCA)[A-Z0-9]{16}\b`), placeholder: awsPlaceholder},
	{kind: PIIAWSSecret, re: regexp.MustCompile(`(?i)aws_?secret_?(?:access_?)?key["']?\s*[:=]\s*["']?[A-Za-z0-9/+]{40}\b`), placeholder: awsPlaceholder},
	{kind: PIIGoogleAPIKey, re: regexp.MustCompile(`\bAIza[0-9A-Za-z_-]{35}`), placeholder: tokenPlaceholder},
	{kind: PIIGitHubToken, re: regexp.MustCompile(`\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})\b`), placeholder: tokenPlaceholder},
	{kind: PIISlackToken, re: regexp.MustCompile(`\bxox[abposre]-[A-Za-z0-9-]{10,}|\bxapp-\d-[A-Za-z0-9-]{20,}`), placeholder: tokenPlaceholder},
	{kind: PIISlackWebhook, re: regexp.MustCompile(`hooks\.slack\.com/services/T[A-Z0-9]{6,}/B[A-Z0-9]{6,}/[A-Za-z0-9]{16,}`)},
	{kind: PIIStripeKey, re: regexp.MustCompile(`\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}\b|\bwhsec_[A-Za-z0-9]{24,}\b`), placeholder: stripePlaceholder},
	{kind: PIIOpenAIKey, re: regexp.MustCompile(`\bsk-(?:proj-|ant-(?:api\d\d-)?|svcacct-|admin-)?[A-Za-z0-9_-]{20,}`), placeholder: tokenPlaceholder},
	{kind: PIIJWT, re: regexp.MustCompile(`\beyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*`), placeholder: jwtPlaceholder},
	{kind: PIIAzureKey, re: regexp.MustCompile(`(?i)\b(?:AccountKey|SharedAccessKey)\s*=\s*[A-Za-z0-9+/]{20,}={0,2}`), placeholder: azurePlaceholder},
	{kind: PIIAzureSAS, re: regexp.MustCompile(`\bsv=\d{4}-\d\d-\d\d&[^\s"'<>]*?\bsig=[A-Za-z0-9%+/]{20,}|\bsig=[A-Za-z0-9%+/]{20,}[^\s"'<>]*?&sv=\d{4}`), placeholder: tokenPlaceholder},
	// Passwords: a URL's userinfo, a Go MySQL DSN, key=value and key: value
	// settings. Values that are templates, masks or placeholder words pass.
	{kind: PIIPassword, re: regexp.MustCompile(`\b[A-Za-z][A-Za-z0-9+.-]*://[^\s:/?#@"'<>]*:[^\s/?@"'<>]+@[^\s/?#"'<>]+`), placeholder: urlPasswordPlaceholder},
	{kind: PIIPassword, re: regexp.MustCompile(`\b[\w.-]+:[^\s:@/"'<>]+@(?:tcp|unix)\(`), placeholder: urlPasswordPlaceholder},
	{kind: PIIPassword, re: regexp.MustCompile(`(?i)\b[\w.]*(?:password|passwd|pwd)["']?\s*[:=]\s*["']?[^\s"'<>,;&)]+`), placeholder: settingPasswordPlaceholder},
	{kind: PIIPassword, re: regexp.MustCompile(`\bmysql(?:dump|admin)?\b[^\n]*?\s-p'?[^\s']{4,}`), placeholder: settingPasswordPlaceholder},
	{kind: PIIEmail, re: regexp.MustCompile(`[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,24}\b`), placeholder: emailPlaceholder},
	{kind: PIIIBAN, re: regexp.MustCompile(`\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?\b`), valid: validIBAN},
	{kind: PIIKoreanRRN, re: regexp.MustCompile(`\b\d{6}[- ]?[1-8]\d{6}\b`), valid: validRRN},
	{kind: PIIUSSSN, re: regexp.MustCompile(`\b\d{3}-\d{2}-\d{4}\b|\b\d{3} \d{2} \d{4}\b`), valid: validSSN},
	{kind: PIICard, re: regexp.MustCompile(`\b\d(?:[ -]?\d){12,18}\b`), valid: validCard, placeholder: cardPlaceholder},
	{kind: PIIPhone, re: regexp.MustCompile(`\+\d{1,3}(?:[ .-]?\(?\d{1,4}\)?){2,5}\b`), valid: validIntlPhone, placeholder: phonePlaceholder},
	{kind: PIIPhone, re: regexp.MustCompile(`\b01[016789][ .-]?\d{3,4}[ .-]?\d{4}\b`), valid: validKRMobile, placeholder: phonePlaceholder},
	{kind: PIIPhone, re: regexp.MustCompile(`\b0(?:2|[3-6][1-5]|70)[ .-]\d{3,4}[ .-]\d{4}\b|\(0(?:2|[3-6][1-5])\) ?\d{3,4}-\d{4}\b`), valid: standalone, placeholder: phonePlaceholder},
	{kind: PIIPhone, re: regexp.MustCompile(`(?:\(\d{3}\) ?|\b\d{3}[ .-])\d{3}[ .-]\d{4}\b`), valid: validNANP, placeholder: phonePlaceholder},
}

// DetectPII returns the kinds of personal data and secrets in text, sorted and
// deduplicated; nil when there are none. Matches that are documentation
// placeholders (example.com mail, 555-01xx numbers, masked digits) or that
// fail their checksum (Luhn, mod-97, dates) do not count.
func DetectPII(text string) []string {
	found := map[string]bool{}
	// covered keeps one kind from claiming digits another already matched
	// (a card number's digits also look like a phone number).
	var covered [][2]int
	overlaps := func(lo, hi int) bool {
		for _, c := range covered {
			if lo < c[1] && c[0] < hi {
				return true
			}
		}
		return false
	}
	for _, r := range piiRules {
		for _, loc := range r.re.FindAllStringIndex(text, -1) {
			if overlaps(loc[0], loc[1]) {
				continue
			}
			m := text[loc[0]:loc[1]]
			if !boundaryOK(text, loc[0], loc[1], r.kind) {
				continue
			}
			if r.valid != nil && !r.valid(m) {
				continue
			}
			if r.placeholder != nil && r.placeholder(m) {
				covered = append(covered, [2]int{loc[0], loc[1]})
				continue
			}
			found[r.kind] = true
			covered = append(covered, [2]int{loc[0], loc[1]})
		}
	}
	if len(found) == 0 {
		return nil
	}
	kinds := make([]string, 0, len(found))
	for k := range found {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	return kinds
}

// boundaryOK rejects numeric matches glued to more digits, dots or word
// characters: a version string 1.2.3-4567-8901 or a longer id is not a number
// of a person.
func boundaryOK(text string, lo, hi int, kind string) bool {
	switch kind {
	case PIICard, PIIUSSSN, PIIKoreanRRN, PIIPhone:
	default:
		return true
	}
	if lo > 0 {
		r, _ := utf8.DecodeLastRuneInString(text[:lo])
		if unicode.IsDigit(r) || r == '.' || r == '-' || r == '_' || r == '/' || unicode.IsLetter(r) && r < 0x80 {
			return false
		}
	}
	if hi < len(text) {
		r, _ := utf8.DecodeRuneInString(text[hi:])
		if unicode.IsDigit(r) || r == '-' || r == '_' || r == '/' || unicode.IsLetter(r) && r < 0x80 {
			return false
		}
		if r == '.' && hi+1 < len(text) {
			n, _ := utf8.DecodeRuneInString(text[hi+1:])
			if unicode.IsDigit(n) {
				return false
			}
		}
	}
	return true
}

func digitsOf(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r >= '0' && r <= '9' {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func standalone(string) bool { return true }

// emailPlaceholder passes the reserved documentation domains (RFC 2606 and
// RFC 6761) and git's well-known SSH user.
func emailPlaceholder(m string) bool {
	at := strings.LastIndexByte(m, '@')
	local, domain := strings.ToLower(m[:at]), strings.ToLower(m[at+1:])
	if local == "git" {
		return true
	}
	// Google service accounts name a resource, not a person.
	if strings.HasSuffix(domain, ".gserviceaccount.com") {
		return true
	}
	for _, d := range []string{"example.com", "example.org", "example.net", "example.edu"} {
		if domain == d || strings.HasSuffix(domain, "."+d) {
			return true
		}
	}
	for _, tld := range []string{".example", ".test", ".invalid", ".localhost", ".local"} {
		if strings.HasSuffix(domain, tld) {
			return true
		}
	}
	return false
}

// phonePlaceholder passes the fictional NANP range 555-0100..555-0199,
// Twilio's documented magic numbers (+1 500-555-0xxx) and numbers whose
// subscriber digits are all one repeated digit (010-0000-0000).
func phonePlaceholder(m string) bool {
	d := digitsOf(m)
	if len(d) >= 10 && strings.HasPrefix(d[len(d)-10:], "500555") {
		return true
	}
	if len(d) >= 7 {
		line := d[len(d)-7:]
		if strings.HasPrefix(line, "55501") {
			return true
		}
	}
	if len(d) >= 8 {
		tail := d[len(d)-8:]
		if strings.Count(tail, tail[:1]) == len(tail) {
			return true
		}
	}
	return false
}

// tokenPlaceholder passes values that are obviously redacted or templated:
// runs of x, *, dots or angle-bracket names.
func tokenPlaceholder(m string) bool {
	l := strings.ToLower(m)
	if strings.Contains(l, "xxxx") || strings.Contains(l, "****") || strings.Contains(l, "...") ||
		strings.Contains(l, "your_") || strings.Contains(l, "your-") || strings.Contains(l, "redacted") {
		return true
	}
	// Real keys mix letters and digits; a run without digits is a word
	// ("sk-learn-compatible-pipelines").
	for _, r := range m {
		if unicode.IsDigit(r) {
			return false
		}
	}
	return true
}

func validIntlPhone(m string) bool {
	d := digitsOf(m)
	return len(d) >= 8 && len(d) <= 15
}

func validKRMobile(m string) bool {
	d := digitsOf(m)
	return len(d) == 10 || len(d) == 11
}

// validNANP accepts 10-digit North American numbers whose area code starts
// with 2-9; the fictional 555-01xx lines are left to the placeholder check.
func validNANP(m string) bool {
	d := digitsOf(m)
	return len(d) == 10 && d[0] >= '2'
}

// validSSN applies the SSA's structural rules: area not 000, 666 or 9xx,
// group not 00, serial not 0000. Famous sample numbers (123-45-6789) still
// count: a gate cannot tell a sample from a leak, and rejecting costs little.
func validSSN(m string) bool {
	d := digitsOf(m)
	if len(d) != 9 {
		return false
	}
	area, group, serial := d[:3], d[3:5], d[5:]
	if area == "000" || area == "666" || area[0] == '9' || group == "00" || serial == "0000" {
		return false
	}
	return true
}

// validRRN checks a Korean resident registration number's birth date and
// century/sex digit. The old check digit is not required: numbers issued
// since October 2020 no longer carry one.
func validRRN(m string) bool {
	d := digitsOf(m)
	if len(d) != 13 {
		return false
	}
	mm := int(d[2]-'0')*10 + int(d[3]-'0')
	dd := int(d[4]-'0')*10 + int(d[5]-'0')
	if mm < 1 || mm > 12 || dd < 1 || dd > 31 {
		return false
	}
	if d[6] < '1' || d[6] > '8' {
		return false
	}
	// Unseparated 13-digit runs are often other ids; demand the checksum there.
	if !strings.ContainsAny(m, "- ") {
		return rrnChecksum(d)
	}
	return true
}

func rrnChecksum(d string) bool {
	w := []int{2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5}
	sum := 0
	for i, x := range w {
		sum += int(d[i]-'0') * x
	}
	return (11-sum%11)%10 == int(d[12]-'0')
}

// validCard accepts 13-19 digit numbers with a card network prefix that pass
// the Luhn check.
func validCard(m string) bool {
	d := digitsOf(m)
	if len(d) < 13 || len(d) > 19 {
		return false
	}
	if strings.Count(d, d[:1]) == len(d) {
		return false
	}
	switch {
	case d[0] == '4', d[0] == '5' && d[1] >= '1' && d[1] <= '5', d[0] == '2' && d[1] >= '2' && d[1] <= '7',
		strings.HasPrefix(d, "34"), strings.HasPrefix(d, "37"), strings.HasPrefix(d, "6011"),
		strings.HasPrefix(d, "65"), strings.HasPrefix(d, "64"), strings.HasPrefix(d, "35"),
		strings.HasPrefix(d, "36"), strings.HasPrefix(d, "38"), strings.HasPrefix(d, "62"),
		strings.HasPrefix(d, "9"):
	default:
		return false
	}
	return luhn(d)
}

func luhn(d string) bool {
	sum := 0
	double := false
	for i := len(d) - 1; i >= 0; i-- {
		n := int(d[i] - '0')
		if double {
			n *= 2
			if n > 9 {
				n -= 9
			}
		}
		sum += n
		double = !double
	}
	return sum%10 == 0
}

var ibanLength = map[string]int{
	"AD": 24, "AE": 23, "AL": 28, "AT": 20, "AZ": 28, "BA": 20, "BE": 16, "BG": 22, "BH": 22,
	"BR": 29, "CH": 21, "CR": 22, "CY": 28, "CZ": 24, "DE": 22, "DK": 18, "DO": 28, "EE": 20,
	"ES": 24, "FI": 18, "FO": 18, "FR": 27, "GB": 22, "GE": 22, "GI": 23, "GL": 18, "GR": 27,
	"GT": 28, "HR": 21, "HU": 28, "IE": 22, "IL": 23, "IS": 26, "IT": 27, "JO": 30, "KW": 30,
	"KZ": 20, "LB": 28, "LI": 21, "LT": 20, "LU": 20, "LV": 21, "MC": 27, "MD": 24, "ME": 22,
	"MK": 19, "MR": 27, "MT": 31, "MU": 30, "NL": 18, "NO": 15, "PK": 24, "PL": 28, "PS": 29,
	"PT": 25, "QA": 29, "RO": 24, "RS": 22, "SA": 24, "SE": 24, "SI": 19, "SK": 24, "SM": 27,
	"TN": 24, "TR": 26, "UA": 29, "VG": 24, "XK": 20,
}

// validIBAN checks the country's length when known (15-34 otherwise) and the
// ISO 13616 mod-97 checksum.
func validIBAN(m string) bool {
	s := strings.ReplaceAll(m, " ", "")
	if n, ok := ibanLength[s[:2]]; ok {
		if len(s) != n {
			return false
		}
	} else if len(s) < 15 || len(s) > 34 {
		return false
	}
	r := s[4:] + s[:4]
	rem := 0
	for _, c := range r {
		var v int
		switch {
		case c >= '0' && c <= '9':
			v = int(c - '0')
			rem = (rem*10 + v) % 97
		case c >= 'A' && c <= 'Z':
			v = int(c-'A') + 10
			rem = (rem*100 + v) % 97
		default:
			return false
		}
	}
	return rem == 1
}

// awsPlaceholder passes the example credentials of the AWS documentation
// (AKIAIOSFODNN7EXAMPLE, wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY): AWS
// publishes them for copy-paste and never issues them.
func awsPlaceholder(m string) bool {
	return strings.HasSuffix(m, "EXAMPLE") || strings.Contains(m, "EXAMPLEKEY")
}

// stripeDocKey is the test-mode key printed in every example of Stripe's
// API reference; it only reaches Stripe's own sample account.
const stripeDocKey = "sk_test_4eC39HqLyjWDarjtT1zdp7dc"

func stripePlaceholder(m string) bool { return m == stripeDocKey || tokenPlaceholder(m) }

// jwtIOSignature ends the sample token of jwt.io ("John Doe", signed with
// "your-256-bit-secret"), which documentation everywhere copies.
const jwtIOSignature = "SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"

func jwtPlaceholder(m string) bool { return strings.HasSuffix(m, "."+jwtIOSignature) }

// azuriteKey is the well-known account key of the Azure Storage emulator
// (devstoreaccount1), published by Microsoft.
const azuriteKey = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="

func azurePlaceholder(m string) bool { return strings.Contains(m, azuriteKey) || tokenPlaceholder(m) }

// testCards are card numbers the payment processors publish for their test
// modes (Stripe, Braintree, Adyen); they can never be charged.
var testCards = map[string]bool{
	"4242424242424242": true, "4000056655665556": true, "5555555555554444": true, "2223003122003222": true,
	"5200828282828210": true, "5105105105105100": true, "378282246310005": true, "371449635398431": true,
	"6011111111111117": true, "6011000990139424": true, "3056930009020004": true, "36227206271667": true,
	"3566002020360505": true, "6200000000000005": true, "4012888888881881": true, "30569309025904": true,
}

// cardPlaceholder passes published test numbers and numbers made mostly of
// one digit (4111 1111 1111 1111, Stripe's 4000 0000 0000 9995 family).
func cardPlaceholder(m string) bool {
	d := digitsOf(m)
	if testCards[d] {
		return true
	}
	var n [10]int
	for _, c := range d {
		n[c-'0']++
	}
	for _, k := range n {
		if k >= 10 {
			return true
		}
	}
	return false
}

// placeholderSecrets are words documentation writes where a password goes.
var placeholderSecrets = map[string]bool{
	"password": true, "passwd": true, "pass": true, "secret": true, "changeme": true, "example": true,
	"test": true, "postgres": true, "root": true, "admin": true, "string": true, "str": true,
	"none": true, "null": true, "nil": true, "true": true, "false": true, "required": true,
	"yourpassword": true, "your_password": true, "mypassword": true, "pw": true, "pwd": true,
}

// secretPlaceholder reports whether a password value is a template, a mask,
// a placeholder word or a reference in code rather than a secret. Real
// passwords mix letters with digits or symbols; a word alone is taken for a
// placeholder.
func secretPlaceholder(v string) bool {
	v = strings.Trim(v, `"'`+"`")
	l := strings.ToLower(v)
	switch {
	case len(v) < 4, placeholderSecrets[l]:
		return true
	case strings.ContainsAny(v[:1], "$<{%([*"), strings.Contains(v, "${"), strings.Contains(v, "{{"), strings.Contains(v, "$("):
		return true
	case strings.Contains(l, "xxx"), strings.Contains(l, "***"), strings.Contains(l, "..."), strings.Contains(l, "redacted"):
		return true
	}
	letter, other := false, false
	for _, r := range v {
		switch {
		case unicode.IsLetter(r):
			letter = true
		default:
			other = true
		}
	}
	if !letter || !other {
		return true
	}
	// os.Getenv("X"), cfg.DB.Password, request.form[...]: code, not a value.
	return strings.ContainsAny(v, "([") || reDottedName.MatchString(v)
}

var (
	reDottedName  = regexp.MustCompile(`^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+$`)
	rePasswordKey = regexp.MustCompile(`(?i)(?:password|passwd|pwd)["']?\s*[:=]\s*["']?|\s-p'?`)
)

// urlPasswordPlaceholder passes a URL or DSN whose password is a
// placeholder (postgres://user:password@localhost, app:${DB_PASSWORD}@db).
func urlPasswordPlaceholder(m string) bool {
	userinfo := m
	if i := strings.Index(m, "://"); i >= 0 {
		userinfo = m[i+3:]
	}
	at := strings.LastIndexByte(userinfo, '@')
	if at < 0 {
		return true
	}
	userinfo = userinfo[:at]
	colon := strings.IndexByte(userinfo, ':')
	if colon < 0 {
		return true
	}
	return secretPlaceholder(userinfo[colon+1:])
}

// settingPasswordPlaceholder passes password settings whose value is a
// placeholder (password: ${DB_PASSWORD}, POSTGRES_PASSWORD=postgres).
func settingPasswordPlaceholder(m string) bool {
	loc := rePasswordKey.FindStringIndex(m)
	if loc == nil {
		return true
	}
	return secretPlaceholder(m[loc[1]:])
}
