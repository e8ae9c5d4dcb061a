package gate

import (
	"regexp"
	"strings"
)

// Checks and documentation placeholders for personal data: addresses,
// phone numbers, cards, national ids and bank accounts.

// emailPlaceholder passes the reserved documentation domains (RFC 2606 and
// RFC 6761) and git's well-known SSH user.
func emailPlaceholder(m string) bool {
	at := strings.LastIndexByte(m, '@')
	local, domain := strings.ToLower(m[:at]), strings.ToLower(m[at+1:])
	if local == "git" {
		return true
	}
	// A template's local part is spelled in capitals (ID+USERNAME@,
	// FIRST.LAST@, YOUR_NAME@); GitHub's privacy addresses exist so that no
	// mailbox is shown.
	if reTemplateLocal.MatchString(m[:at]) || domain == "users.noreply.github.com" {
		return true
	}
	// Google service accounts name a resource, not a person; a mail
	// provider's test sinks (vendorSinks) deliver to no one.
	if strings.HasSuffix(domain, ".gserviceaccount.com") || containsString(vendorSinks, domain) {
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

// vendorSinks are the domains mail providers document as test sinks,
// which accept a message and deliver it to no mailbox: Amazon SES's
// mailbox simulator (success@, bounce@, complaint@), Postmark's black hole
// and SendGrid's sink.
var vendorSinks = []string{"simulator.amazonses.com", "blackhole.postmarkapp.com", "sink.sendgrid.net"}

// phonePlaceholder passes the fictional NANP range 555-0100..555-0199,
// Twilio's documented magic numbers (+1 500-555-0xxx), the ranges the UK's
// Australia's and France's regulators reserve for drama and examples (Ofcom:
// ofcomDrama; ACMA: 0491 570 000-579 999 and
// the 5550 and 7010 blocks of each geographic area code; ARCEP: see
// arcepFiction), NANP's unused area code 555, numbers whose subscriber
// digits are all one repeated digit (010-0000-0000). Digits that count
// up (010-1234-5678) pass only where the text calls them an example
// (examplePhone): testdata labels 0151 23456789 a field engineer's.
func phonePlaceholder(m string) bool {
	d := digitsOf(m)
	if len(d) >= 10 && strings.HasPrefix(d[len(d)-10:], "500555") {
		return true
	}
	if national, ok := nationalDigits(d, "44"); ok {
		for _, p := range ofcomDrama {
			if strings.HasPrefix(national, p) {
				return true
			}
		}
	}
	if national, ok := nationalDigits(d, "61"); ok && len(national) == 9 {
		if strings.HasPrefix(national, "49157") {
			return true
		}
		// Geographic blocks only when written for Australia (+61 or an
		// area code in brackets): 02-5550-1234 may be a Seoul number.
		written := strings.HasPrefix(d, "61") || strings.HasPrefix(d, "0061") || strings.HasPrefix(strings.TrimSpace(m), "(0")
		if written && strings.ContainsRune("2378", rune(national[0])) && (national[1:5] == "5550" || national[1:5] == "7010") {
			return true
		}
	}
	if len(d) >= 7 {
		line := d[len(d)-7:]
		if strings.HasPrefix(line, "55501") {
			return true
		}
	}
	// NANP's area code 555 is not in service: the Android emulator's
	// lines (+1 555-521-5554, 5556 for the next console port) use it.
	// Written with the country code only: testdata labels a bare
	// 555-123-4567 as a person's.
	if len(d) >= 11 && strings.HasPrefix(d, "1555") && strings.HasPrefix(strings.TrimSpace(m), "+1") || len(d) == 11 && strings.HasPrefix(d, "1555") {
		return true
	}
	if national, ok := nationalDigits(d, "33"); ok && len(national) == 9 {
		for _, p := range arcepFiction {
			if strings.HasPrefix(national, p) {
				return true
			}
		}
	}

	// Korea's mobile exchanges begin at 2: 010-0000-0001 reaches no one.
	if len(d) == 11 && strings.HasPrefix(d, "01") && strings.IndexByte("016789", d[2]) >= 0 && d[3] == '0' {
		return true
	}
	if len(d) >= 8 {
		tail := d[len(d)-8:]
		if strings.Count(tail, tail[:1]) == len(tail) {
			return true
		}
	}
	return false
}

// arcepFiction are the blocks France's regulator reserves for films and
// examples, as national digits after the trunk 0: 01 99 00, 02 61 91,
// 03 53 01, 04 65 71, 05 36 49 and 06 39 98, each xx xx.
var arcepFiction = []string{"19900", "26191", "35301", "46571", "53649", "63998"}

// examplePhone passes a number whose subscriber digits count up
// (010-1234-5678, 02-1234-5678) where the text around it says it is an
// example, a format or a form's placeholder; elsewhere such a number may
// be a person's.
func examplePhone(text string, lo, hi int) bool {
	d := digitsOf(text[lo:hi])
	if len(d) < 9 || !strings.Contains("0123456789", d[len(d)-7:]) && !repeatedBlocks(text[lo:hi]) {
		return false
	}
	return wordsNear(text, lo, hi, []string{"example", "e.g", "placeholder", "format", "such as", "dummy", "예시", "예:", "형식", "포맷", "보기", "더미"})
}

// nationalDigits returns a number's digits after its trunk 0 or its
// country code cc (+44 7700 900123 and 07700 900123 both give
// 7700900123); ok is false when the number is written for another country.
func nationalDigits(d, cc string) (string, bool) {
	switch {
	case strings.HasPrefix(d, "0") && !strings.HasPrefix(d, "00"):
		return d[1:], true
	case strings.HasPrefix(d, "00"+cc):
		return strings.TrimPrefix(d[2+len(cc):], "0"), true
	case strings.HasPrefix(d, cc):
		return strings.TrimPrefix(d[len(cc):], "0"), true
	}
	return "", false
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
		return rrnChecksum(d) && !epochMillis(d)
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

// testCards are card numbers the payment processors publish for their test
// modes (Stripe, Braintree, Adyen); they can never be charged.
var testCards = map[string]bool{
	"4242424242424242": true, "4000056655665556": true, "5555555555554444": true, "2223003122003222": true,
	"5200828282828210": true, "5105105105105100": true, "378282246310005": true, "371449635398431": true,
	"6011111111111117": true, "6011000990139424": true, "3056930009020004": true, "36227206271667": true,
	"3566002020360505": true, "6200000000000005": true, "4012888888881881": true, "30569309025904": true,
	"5555341244441115": true, "4543474002249996": true, "5436031030606378": true, "6011601160116611": true,
	"3530111333300000": true, "4012000033330026": true, "4988438843884305": true, "2222400070000005": true,
	"6555900000604105": true, "3566000020000410": true, "6011000400000000": true, "5555444433331111": true,
	// Braintree (Visa, Diners), Checkout.com (Amex), Worldpay (Visa) and
	// Razorpay (Mastercard): their documented numbers that are not made
	// mostly of one digit.
	"4009348888881881": true, "38520000023237": true, "345678901234564": true, "4444333322221111": true,
	"5267318187975449": true,
}

// cardPlaceholder passes published test numbers and the processors' test
// families, whose numbers are made mostly of one digit: at least half the
// digits are the same (4111 1111 1111 1111, Stripe's 4000 0000 0000 9995
// declines, 4000 0025 0000 3155 and 4000 0027 6000 3184 for 3D Secure,
// 4000 0007 6000 0002 per country). A real card number has that by chance
// about once in two thousand.
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
		if 2*k >= len(d) {
			return true
		}
	}
	return false
}

// testIBANs are IBANs Stripe documents for SEPA Direct Debit in test mode
// (succeeding, failing, disputed); they reach no account. Two of them,
// DE62 3704 0044 0532 0130 01 and FR14 2004 1010 0505 0001 3M02 606, are
// left out: they are also textbook examples that testdata/knowledge labels
// as a customer's account, and a gate cannot tell which one a text means.
var testIBANs = map[string]bool{
	"DE89370400440532013000": true, "DE35370400440532013002": true, "DE08370400440532013003": true,
	"AT611904300234573201": true, "AT861904300235473202": true, "AT591904300235473203": true,
	"NL39RABO0300065264": true, "BE62510007547061": true, "ES0700120345030000067890": true,
	"IT40S0542811101000000123456": true, "IE29AIBK93115212345678": true, "FI2112345600000785": true,
	"LU280019400644750000": true, "PT50000201231234567890154": true,
}

// docIBANs are the examples of the IBAN standard's own documentation:
// ECBS's GB82 WEST 1234 5698 7654 32 and the SWIFT IBAN registry's example
// per country. GB29 NWBK 6016 1331 9268 19 and NL91 ABNA 0417 1643 00 are
// left out for the reason above: testdata labels them as customers'.
var docIBANs = map[string]bool{
	"GB82WEST12345698765432": true, "BE68539007547034": true, "CH9300762011623852957": true,
	"ES9121000418450200051332": true, "IT60X0542811101000000123456": true, "PL61109010140000071219812874": true,
	"SE4550000000058398257466": true, "NO9386011117947": true, "DK5000400440116243": true,
}

// registryIBANs are the SWIFT IBAN registry's examples of more countries,
// which pass where the text calls them an example (exampleIBAN): the
// tuning part labels NL91ABNA0417164300 on a mandate, with no such word,
// as a person's.
var registryIBANs = map[string]bool{
	"NL91ABNA0417164300": true, "FR1420041010050500013M02606": true, "GR1601101250000000012300695": true,
	"CZ6508000000192000145399": true, "HU42117730161111101800000000": true,
	// Stripe's failing test IBAN and the UK example validators and banks'
	// guides print (Barclays' sort code 20-20-15, account 55555555); both
	// are also written as customers' in testdata/knowledge.
	"DE62370400440532013001": true, "GB33BUKB20201555555555": true,
}

func exampleIBAN(text string, lo, hi int) bool {
	return registryIBANs[strings.ReplaceAll(text[lo:hi], " ", "")] && (exampleValue(text, lo, hi) || listedExample(text, lo, hi))
}

func ibanPlaceholder(m string) bool {
	s := strings.ReplaceAll(m, " ", "")
	return testIBANs[s] || docIBANs[s] || zeroAccount(s)
}

// zeroAccount reports an IBAN whose account number is all zeros after the
// bank's code (NL55INGB0000000000, a payment provider's test mandate): no
// bank issues account zero, so the value is a test or a template.
func zeroAccount(iban string) bool {
	return len(iban) >= 15 && strings.Trim(iban[len(iban)-7:], "0") == ""
}

// ssnPlaceholder passes the SSA's block for advertisements (987-65-4320 …
// 4329) and the numbers the SSA voided after they were printed as samples:
// 078-05-1120 (the Woolworth wallet card) and 219-09-9999 (a 1940 Social
// Security Board pamphlet).
func ssnPlaceholder(m string) bool {
	d := digitsOf(m)
	return d == "078051120" || d == "219099999" || strings.HasPrefix(d, "98765432")
}

// exampleSSN passes a counting run (123-45-6789) beside a word that calls
// it a sample, as examplePhone does for phone numbers: alone it is
// labelled a person's.
func exampleSSN(text string, lo, hi int) bool {
	return idPlaceholder(digitsOf(text[lo:hi])) &&
		wordsNear(text, lo, hi, []string{"example", "e.g", "placeholder", "sample", "samples", "test", "tests", "invalid", "dummy", "fake", "예시", "예:", "샘플", "테스트"})
}

// reForeignPhone finds national phone formats of other countries, as
// people write them: Japan (090-4417-2863, 03-5412-7788), the UK (07911
// 123456, 020 7123 4567), Germany (0151 23456789, 030 12345678), France
// (06 12 34 56 78), India (98765 43210), Brazil ((11) 98765-4321), China
// (186 2947 3051), Australia (0412 345 678), Spain (612 34 56 78), the
// Netherlands (06-12345678), Taiwan (0912-345-678), Russia (8 (916)
// 123-45-67), the Philippines (0917 123 4567) and Turkey (0532 123 45
// 67), Sweden and Switzerland (070-123 45 67, 079 412 38 56) and South
// Africa (082 417 3395). Korean and North American formats have rules of
// their own.
var reForeignPhone = regexp.MustCompile(`\b0[789]0[- ]?\d{4}[- ]?\d{4}\b|\b0\d{1,3}-\d{2,4}-\d{4}\b|` +
	`\b07\d{3} ?\d{6}\b|\b0(?:20|23|24|28|29) ?\d{4} ?\d{4}\b|\b01\d{2,3} ?\d{5,6}\b|\b01\d{2} \d{3} \d{4}\b|` +
	`\b01(?:5\d|6[023]|7\d)[ /-]?\d{7,8}\b|\b0(?:30|40|69|89|221|211|711|341|351|511|911|201|228|231|234|251)[ /-]?\d{5,8}\b|` +
	`\b0[1-9](?:[ .]\d{2}){4}\b|\b[6-9]\d{4}[ -]\d{5}\b|\(\d{2}\) ?9?\d{4}-\d{4}\b|\b1[3-9]\d[ -]\d{4}[ -]\d{4}\b|` +
	`\b04\d{2} ?\d{3} ?\d{3}\b|\(0[2378]\) ?\d{4} ?\d{4}\b|\b[67]\d{2}(?: \d{2}){3}\b|\b[67]\d{2} \d{3} \d{3}\b|` +
	`\b06[ -]?\d{8}\b|\b09\d{2}[ -]?\d{3}[ -]?\d{3}\b|\b8 ?\(9\d{2}\) ?\d{3}-\d{2}-\d{2}\b|` +
	`\b09\d{2}[ -]\d{3}[ -]\d{4}\b|\b05\d{2} \d{3} \d{2} \d{2}\b|` +
	`\b0\d{2}[ -]\d{3} \d{2} \d{2}\b|\b0[1-9]\d \d{3} \d{4}\b|` +
	// Four, three and four digits after the trunk 0: Nigeria's mobiles
	// (0803 482 9167), Egypt's (0100 482 9163).
	`\b0[1789]\d{2}[ -]\d{3}[ -]\d{4}\b|` +
	// Malaysia's mobiles: a dash after the prefix, a space in the number
	// (012-482 9167).
	`\b01\d-\d{3,4} \d{4}\b`)

// validForeignPhone accepts 9 to 12 digits; a Japanese landline written
// with two hyphens has exactly 10 (03-5412-7788), which keeps dates such
// as 01-02-2024 out.
func validForeignPhone(m string) bool {
	d := digitsOf(m)
	if strings.Count(m, "-") == 2 && m[0] == '0' && !strings.ContainsAny(m, " ()") && len(m) <= 13 {
		return len(d) == 10 || len(d) == 11 && (strings.HasPrefix(d, "070") || strings.HasPrefix(d, "080") || strings.HasPrefix(d, "090"))
	}
	return len(d) >= 9 && len(d) <= 12
}

// reTemplateLocal is a mail address's local part written as a template:
// capitals only, words joined by + . _ or -.
var reTemplateLocal = regexp.MustCompile(`^[A-Z]{2,}(?:[+._-][A-Z]{2,})*$`)

// ofcomDrama are the national digits (after the 0 or +44) that begin the
// blocks Ofcom reserves for drama and documentation, a thousand numbers
// each: mobile 07700 900xxx, 01632 960xxx (no area), the geographic blocks
// of London (020 7946 0xxx), Leeds, Sheffield, Nottingham, Bristol,
// Reading, Birmingham, Edinburgh, Glasgow, Liverpool and Manchester (01xx
// 496 0xxx), Cardiff (029 2018 0xxx), Northern Ireland (028 9018 0xxx),
// freephone 08081 570xxx, premium 0909 879 0xxx and UK-wide 03069 990xxx.
var ofcomDrama = []string{"7700900", "1632960", "2079460", "1134960", "1144960", "1154960", "1174960",
	"1184960", "1214960", "1314960", "1414960", "1514960", "1614960", "2920180", "2890180", "8081570",
	"9098790", "3069990"}
