package gate

import (
	"regexp"
	"strings"
)

// National identity numbers of other countries than the US and Korea,
// each recognised by its written form and its own check: Brazil's CPF,
// India's Aadhaar, China's resident identity number and the UK's National
// Insurance number. The US SSN and the Korean RRN keep kinds of their own.

// reCPF is a CPF written as people write it (123.456.789-09).
var reCPF = regexp.MustCompile(`\b\d{3}\.\d{3}\.\d{3}-\d{2}\b`)

// validCPF checks a CPF's two mod-11 check digits; a number of one
// repeated digit passes the arithmetic but is never issued.
func validCPF(m string) bool {
	d := digitsOf(m)
	if len(d) != 11 || strings.Count(d, d[:1]) == 11 {
		return false
	}
	for n := 9; n <= 10; n++ {
		sum := 0
		for i := 0; i < n; i++ {
			sum += int(d[i]-'0') * (n + 1 - i)
		}
		c := sum * 10 % 11 % 10
		if c != int(d[n]-'0') {
			return false
		}
	}
	return true
}

// reAadhaar is an Aadhaar number in its printed 4-4-4 groups, separated
// by spaces (an AWS account id is written 1234-5678-9012); it never starts
// with 0 or 1.
var reAadhaar = regexp.MustCompile(`\b[2-9]\d{3} \d{4} \d{4}\b`)

var (
	verhoeffD = [10][10]int{
		{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, {1, 2, 3, 4, 0, 6, 7, 8, 9, 5}, {2, 3, 4, 0, 1, 7, 8, 9, 5, 6},
		{3, 4, 0, 1, 2, 8, 9, 5, 6, 7}, {4, 0, 1, 2, 3, 9, 5, 6, 7, 8}, {5, 9, 8, 7, 6, 0, 4, 3, 2, 1},
		{6, 5, 9, 8, 7, 1, 0, 4, 3, 2}, {7, 6, 5, 9, 8, 2, 1, 0, 4, 3}, {8, 7, 6, 5, 9, 3, 2, 1, 0, 4},
		{9, 8, 7, 6, 5, 4, 3, 2, 1, 0},
	}
	verhoeffP = [8][10]int{
		{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, {1, 5, 7, 6, 2, 8, 3, 0, 9, 4}, {5, 8, 0, 3, 7, 9, 6, 1, 4, 2},
		{8, 9, 1, 6, 0, 4, 3, 5, 2, 7}, {9, 4, 5, 3, 1, 2, 6, 8, 7, 0}, {4, 2, 8, 6, 5, 7, 3, 9, 0, 1},
		{2, 7, 9, 3, 8, 0, 6, 4, 1, 5}, {7, 0, 4, 6, 9, 1, 3, 2, 5, 8},
	}
)

// validAadhaar checks the Verhoeff check digit UIDAI uses.
func validAadhaar(m string) bool {
	d := digitsOf(m)
	if len(d) != 12 || strings.Count(d, d[:1]) == 12 {
		return false
	}
	c := 0
	for i := 0; i < len(d); i++ {
		c = verhoeffD[c][verhoeffP[i%8][int(d[len(d)-1-i]-'0')]]
	}
	return c == 0
}

// reAadhaarRun is an Aadhaar number as a form field or a log stores it:
// twelve digits in a run, or hyphenated 4-4-4 (aadhaar=483927160523).
// With its Verhoeff check, a word for Aadhaar beside it, in its field's
// name or in the title decides (an AWS account id has twelve digits too).
var reAadhaarRun = regexp.MustCompile(`\b[2-9]\d{3}(?:\d{4}\d{4}|-\d{4}-\d{4})\b`)

func aadhaarNear(text string, lo, hi int) bool {
	return wordsNear(text, lo, hi, aadhaarWords) || titleNames(text, aadhaarWords)
}

// reChinaID is an 18-character resident identity number: region, birth
// date, sequence and a check character (a digit or X).
var reChinaID = regexp.MustCompile(`\b[1-8]\d{5}(?:19|20)\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])\d{3}[\dXx]\b`)

// validChinaID checks the ISO 7064 MOD 11-2 check character.
func validChinaID(m string) bool {
	if len(m) != 18 {
		return false
	}
	w := []int{7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2}
	sum := 0
	for i, x := range w {
		sum += int(m[i]-'0') * x
	}
	return "10X98765432"[sum%11] == strings.ToUpper(m[17:])[0]
}

// reNINO is a UK National Insurance number (AB 12 34 56 C): HMRC never
// uses D, F, I, Q, U or V as the first letter, nor those and O as the
// second, which keeps its documented sample QQ 12 34 56 C out by rule.
// Order ids, part numbers and booking references share the format and
// it has no check digit, so it counts only next to its name (ninoNamed).
var reNINO = regexp.MustCompile(`\b[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z] ?\d{2} ?\d{2} ?\d{2} ?[A-D]\b`)

// validNINO refuses the prefixes HMRC never allocates.
func validNINO(m string) bool {
	switch m[:2] {
	case "BG", "GB", "NK", "KN", "TN", "NT", "ZZ":
		return false
	}
	return true
}

// ninoWords name a National Insurance number in prose; ninoNear is how
// many bytes before or after the number they may stand ("NI number AB 12
// 34 56 C", "AB123456C (her NINO)", "국민보험 번호 AB 12 34 56 C").
var ninoWords = []string{"ni", "nino", "national insurance", "국민보험"}

// ninoFieldWords name it in field, column and header names once those
// are split into words (fieldWords): ni_number, niNumber, NINumber,
// national_insurance_no, N.I. number. A bare "ni" split out of a name
// (NiFi, mini_order) is not one, so only the whole phrases count there.
var ninoFieldWords = []string{"ni number", "ni no", "ni num", "n i", "nino", "national insurance"}

const ninoNear = 40

// ninoNamed reports whether one of ninoWords, as a whole word, or one of
// ninoFieldWords in the words of its field names, stands within ninoNear
// bytes of text[lo:hi].
func ninoNamed(text string, lo, hi int) bool {
	from, to := runeWindow(text, lo, hi, ninoNear)
	around := text[from:lo] + " " + text[hi:to]
	lower, fields := strings.ToLower(around), fieldWords(around)
	for _, w := range ninoWords {
		if containsWord(lower, w) {
			return true
		}
	}
	for _, w := range ninoFieldWords {
		if containsWord(fields, w) {
			return true
		}
	}
	return columnNamed(text, lo, ninoFieldWords)
}

// fieldWords lowercases s with identifiers split into words: _, -, . and
// camelCase boundaries (niNumber, NINumber) become single spaces.
func fieldWords(s string) string {
	upper := func(c byte) bool { return 'A' <= c && c <= 'Z' }
	lower := func(c byte) bool { return 'a' <= c && c <= 'z' }
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '_' || c == '-' || c == '.':
			c = ' '
		case upper(c) && i > 0 && (lower(s[i-1]) || upper(s[i-1]) && i+1 < len(s) && lower(s[i+1])):
			b.WriteByte(' ')
		}
		b.WriteByte(c)
	}
	return strings.ToLower(strings.Join(strings.Fields(b.String()), " "))
}

// idPlaceholder passes the samples documentation prints for these
// numbers: CPF 123.456.789-09 and Aadhaar 2345 6789 0123's kin made of a
// counting run.
func idPlaceholder(m string) bool {
	d := digitsOf(m)
	// One digit repeated is a mask or a specimen card's (Spain's
	// 99999999R), no one's number.
	return issuerSamples[d] || strings.Contains("0123456789012345678901234567890", d) || len(d) >= 6 && strings.Count(d, d[:1]) == len(d)
}

// issuerSamples are the ids documentation prints as samples, which pass
// their checks: CPF 123.456.789-09 and the Dutch government's test BSN
// 111222333.
var issuerSamples = map[string]bool{"12345678909": true, "111222333": true}

// tutorialSamples pass in a sentence that calls them an example, a
// sample, a fixture or a tutorial's (sampleID): the CPF of Brazil's
// tutorials 111.444.777-35, the Government of Canada's sample SIN
// 046 454 286 and the Swedish tax agency's Tolvan Tolvansson,
// 121212-1212. The tuning part labels that SIN beside "the customer" as a
// person's.
var tutorialSamples = map[string]bool{"11144477735": true, "046454286": true, "1212121212": true, "191212121212": true}

func sampleID(text string, lo, hi int) bool {
	if !tutorialSamples[digitsOf(text[lo:hi])] {
		return false
	}
	from, to := sentenceAround(text, lo, hi)
	sentence := strings.ToLower(text[from:lo] + " " + text[hi:to])
	for _, w := range append([]string{"tutorial", "tutorials", "test"}, exampleWords...) {
		if containsWord(sentence, w) {
			return true
		}
	}
	return false
}

// exampleOrSample is the example check of the ids tutorialSamples holds.
func exampleOrSample(text string, lo, hi int) bool {
	return exampleValue(text, lo, hi) || sampleID(text, lo, hi)
}

// reDNI is a Spanish DNI (eight digits and a check letter) or NIE (X, Y or
// Z, seven digits and a check letter), as printed or typed in lowercase.
var reDNI = regexp.MustCompile(`\b(?:\d{8}|[XYZxyz]-?\d{7})-?[A-Za-z]\b`)

// validDNI checks the letter: the number (an NIE's X, Y, Z read as 0, 1,
// 2) modulo 23 indexes the Ministry of the Interior's table.
func validDNI(m string) bool {
	m = strings.ToUpper(strings.ReplaceAll(m, "-", ""))
	n := 0
	for i, c := range m[:len(m)-1] {
		switch {
		case i == 0 && c >= 'X' && c <= 'Z':
			n = int(c - 'X')
		case c >= '0' && c <= '9':
			n = n*10 + int(c-'0')
		default:
			return false
		}
	}
	return "TRWAGMYFPDXBNJZSQVHLCKE"[n%23] == m[len(m)-1]
}

// dniWords name a Spanish identity number; a DNI's form with a valid
// letter still counts only beside one of them (ninoNear bytes), since one
// number in 23 followed by a letter passes the check by chance.
var dniWords = []string{"dni", "nie", "nif", "documento nacional", "identidad", "spanish", "spain", "españa", "스페인"}

func dniNamed(text string, lo, hi int) bool {
	from, to := runeWindow(text, lo, hi, ninoNear)
	lower := strings.ToLower(text[from:lo] + " " + text[hi:to])
	for _, w := range dniWords {
		if containsWord(lower, w) {
			return true
		}
	}
	return idFieldNamed(text, lo, hi) || titleNames(text, dniWords)
}

// aadhaarWords name an Aadhaar number. In a text that names it, a number
// in Aadhaar's printed form is given as a person's even when its check
// digit fails (mistyped, or a customer's record retold), so it counts
// without the Verhoeff check.
var aadhaarWords = []string{"aadhaar", "aadhar", "uidai", "आधार", "아드하르", "아다르"}

func aadhaarNamed(text string, _, _ int) bool {
	lower := strings.ToLower(text)
	for _, w := range aadhaarWords {
		if strings.Contains(lower, w) {
			return true
		}
	}
	return false
}

// chinaIDWords name a Chinese resident identity number. Beside one, a
// number in its form (region, a real birth date, sequence) is given as a
// person's even when its check character fails (mistyped, or retold).
var chinaIDWords = []string{"身份证", "居民", "신분증", "resident id", "resident identity", "identity card", "id card", "id number", "중국", "china", "chinese"}

func chinaIDNamed(text string, lo, hi int) bool { return wordsNear(text, lo, hi, chinaIDWords) }
