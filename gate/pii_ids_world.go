package gate

import (
	"regexp"
	"strings"
)

// Identity numbers of more countries, each by its written form, its own
// check where it carries one (a mistyped or invented number fails it, a
// counting run or a documentation sample is an example) and a word that
// names it within wordsNear's reach: a check digit passes one number in
// ten or in eleven by chance, so the word keeps order ids and counters
// out. Mexico's CURP, whose form alone says what it is, counts without
// one. All report PIINationalID.

// worldID is one country's identity number.
type worldID struct {
	re    *regexp.Regexp
	check func(d string) bool // the number's characters, separators removed
	words []string
}

func (w worldID) rule() piiRule {
	r := piiRule{kind: PIINationalID, re: w.re, placeholder: idPlaceholder, example: exampleOrSample}
	r.valid = func(m string) bool { return w.check(strings.Map(dropSeparator, strings.ToUpper(m))) }
	if len(w.words) > 0 {
		words, strong := w.words, strongIDChecks[w.words[0]]
		r.near = func(text string, lo, hi int) bool {
			if countedAfter(text, hi) {
				return false
			}
			return wordsNear(text, lo, hi, words) || idFieldNamed(text, lo, hi) || strong && textNames(text, words) || titleNames(text, words)
		}
	}
	return r
}

// countedAfter reports a unit right after a number (2384716508 bytes, 41
// ms, 1200 rows): it counts or measures, and is no one's number.
func countedAfter(text string, hi int) bool {
	after := strings.ToLower(strings.TrimLeft(text[hi:], " "))
	for _, u := range countUnits {
		if strings.HasPrefix(after, u) && !startsWord(after[len(u):]) {
			return true
		}
	}
	return false
}

// titleNames reports whether the text's first line (a finding's title)
// names one of words: "PESEL validation in the signup form" is about the
// number the body quotes, however far below.
func titleNames(text string, words []string) bool {
	if i := strings.IndexByte(text, '\n'); i >= 0 {
		text = text[:i]
	}
	return textNames(text, words)
}

func dropSeparator(r rune) rune {
	if strings.ContainsRune(" .-+/()", r) {
		return -1
	}
	return r
}

var worldIDs = []worldID{
	// Poland's PESEL: birth date (the month carries the century), serial,
	// weighted check digit.
	{regexp.MustCompile(`\b\d{11}\b`), validPESEL, []string{"pesel"}},
	// Germany's Steuer-ID: eleven digits, ISO 7064 MOD 11,10.
	{regexp.MustCompile(`\b[1-9]\d ?\d{3} ?\d{3} ?\d{3}\b`), validSteuerID, []string{"steuer-id", "steuerid", "steuer-identifikationsnummer",
		"steueridentifikationsnummer", "identifikationsnummer", "idnr", "tax id", "steuerliche"}},
	// France's NIR (numéro de sécurité sociale): sex, year, month,
	// département (2A, 2B for Corsica), commune, serial, key 97 - n mod 97.
	{regexp.MustCompile(`\b[12] ?\d{2} ?\d{2} ?(?:\d{2}|2[ABab]) ?\d{3} ?\d{3} ?\d{2}\b`), validNIR, []string{"nir", "sécurité sociale",
		"securite sociale", "sécu", "insee", "carte vitale", "numéro de sécurité", "french social security"}},
	// Belgium's national register number: birth date, serial, 97 - mod 97.
	{regexp.MustCompile(`\b\d{2}\.?\d{2}\.?\d{2}[- ]?\d{3}\.?\d{2}\b`), validBelgianNN, []string{"rijksregisternummer", "rijksregister",
		"registre national", "numéro national", "national register", "national number", "insz", "niss"}},
	// Sweden's personnummer: birth date, serial, Luhn over ten digits.
	{regexp.MustCompile(`\b(?:19|20)?\d{6}[-+]\d{4}\b|\b(?:19|20)\d{10}\b`), validPersonnummer, []string{"personnummer", "personal identity number",
		"samordningsnummer", "swedish"}},
	// Norway's fødselsnummer: birth date, serial, two mod-11 checks.
	{regexp.MustCompile(`\b\d{6} ?\d{5}\b`), validNorwayFNR, []string{"fødselsnummer", "fodselsnummer", "fnr", "d-nummer", "norwegian"}},
	// Denmark's CPR number: birth date and serial (no check since 2007).
	// Systems store it without its dash as often (cpr=1204851237).
	{regexp.MustCompile(`\b\d{6}-?\d{4}\b`), validDDMMYY, []string{"cpr", "cpr-nummer", "cpr-nr", "danish"}},
	// Finland's henkilötunnus: birth date, century sign, serial, check
	// character (mod 31).
	{regexp.MustCompile(`\b\d{6}[-+ABCDEFUVWXY]\d{3}[0-9A-FHJ-NPR-Y]\b`), validHETU, []string{"hetu", "henkilötunnus", "henkilotunnus",
		"personal identity code", "finnish"}},
	// Türkiye's T.C. Kimlik No: two check digits.
	{regexp.MustCompile(`\b[1-9]\d{10}\b`), validTCKimlik, []string{"tc kimlik", "t.c. kimlik", "kimlik no", "kimlik numarası", "tckn",
		"tc no", "turkish id", "kimlik"}},
	// Israel's Teudat Zehut: nine digits, Luhn.
	{regexp.MustCompile(`\b\d{9}\b`), validIsraelID, []string{"teudat zehut", "israeli id", "תעודת זהות", "ת.ז", "mispar zehut"}},
	// South Africa's identity number: birth date, serial, citizenship,
	// Luhn.
	{regexp.MustCompile(`\b\d{6} ?\d{4} ?\d{3}\b`), validZAID, []string{"south african", "south africa", "rsa id", "sa id"}},
	// Chile's RUT/RUN: digits and a mod-11 check (K for ten).
	{regexp.MustCompile(`\b\d{1,2}\.?\d{3}\.?\d{3}-[\dkK]\b`), validRUT, []string{"rut", "rol único", "rol unico", "chile", "chilean"}},
	// Argentina's CUIT/CUIL: type, DNI, mod-11 check.
	{regexp.MustCompile(`\b(?:20|23|24|27|30|33|34)-?\d{8}-?\d\b`), validCUIT, []string{"cuit", "cuil", "cdi"}},
	// Mexico's CURP: name letters, birth date, sex, state, consonants,
	// check digit; its form says what it is.
	{regexp.MustCompile(`\b[A-Z][AEIOUX][A-Z]{2}\d{6}[HMX][A-Z]{5}[A-Z\d]\d\b`), validCURP, nil},
	// Taiwan's national identification number: region letter, sex, digits,
	// check.
	{regexp.MustCompile(`\b[A-Z][12]\d{8}\b`), validTaiwanID, []string{"身分證", "身份證", "national id", "taiwan", "taiwanese", "台灣", "대만"}},
	// Hong Kong's HKID: one or two letters, six digits, check (0-9 or A).
	{regexp.MustCompile(`\b[A-Z]{1,2}\d{6} ?\(?[0-9A]\)?`), validHKID, []string{"hkid", "hong kong", "香港", "홍콩"}},
	// Japan's My Number: twelve digits, mod-11 check.
	{regexp.MustCompile(`\b\d{4} ?\d{4} ?\d{4}\b`), validMyNumber, []string{"マイナンバー", "個人番号", "my number", "mynumber", "my_number", "individual number", "마이넘버"}},
	// Thailand's citizen id: thirteen digits, mod-11 check.
	{regexp.MustCompile(`\b\d[ -]?\d{4}[ -]?\d{5}[ -]?\d{2}[ -]?\d\b`), validThaiID, []string{"thai", "thailand", "บัตรประชาชน", "เลขประจำตัวประชาชน"}},
	// Romania's CNP: sex and century, birth date, county, serial, check.
	{regexp.MustCompile(`\b[1-8]\d{12}\b`), validCNP, []string{"cnp", "cod numeric personal"}},
	// Portugal's NIF: nine digits, mod-11 check.
	{regexp.MustCompile(`\b[1235689]\d{2} ?\d{3} ?\d{3}\b`), validPortugalNIF, []string{"contribuinte", "nif", "portuguese", "portugal"}},
	// The US ITIN: 9xx, a group the IRS issues, serial.
	{regexp.MustCompile(`\b9\d{2}-(?:5\d|6[0-5]|7\d|8[0-8]|9[0-24-9])-\d{4}\b`), func(string) bool { return true }, []string{"itin", "taxpayer identification"}},
	// Malaysia's MyKad: birth date, place of birth, serial.
	{regexp.MustCompile(`\b\d{6}-\d{2}-\d{4}\b`), validDDMMYYRev, []string{"mykad", "mykid", "kad pengenalan", "malaysian", "malaysia", "ic no",
		"ic number", "i/c", "no. kp", "no kp", "nric", "identity card"}},
	// Indonesia's NIK: region, birth date (day + 40 for women), serial.
	{regexp.MustCompile(`\b\d{16}\b`), validNIK, []string{"nik", "ktp", "nomor induk kependudukan", "indonesian"}},
}

func digitAt(d string, i int) int { return int(d[i] - '0') }

func allDigits(d string) bool {
	for i := 0; i < len(d); i++ {
		if d[i] < '0' || d[i] > '9' {
			return false
		}
	}
	return d != ""
}

// validDate checks a day and month (1-31, 1-12).
func validDate(day, month int) bool { return day >= 1 && day <= 31 && month >= 1 && month <= 12 }

func two(d string, i int) int { return digitAt(d, i)*10 + digitAt(d, i+1) }

func validPESEL(d string) bool {
	if len(d) != 11 || !allDigits(d) || !validDate(two(d, 4), two(d, 2)%20) {
		return false
	}
	w := []int{1, 3, 7, 9, 1, 3, 7, 9, 1, 3}
	return (10-weighted(d[:10], w)%10)%10 == digitAt(d, 10)
}

func validSteuerID(d string) bool {
	if len(d) != 11 || !allDigits(d) || d[0] == '0' {
		return false
	}
	return iso7064Mod1110(d[:10]) == digitAt(d, 10)
}

// iso7064Mod1110 is the check digit ISO 7064 MOD 11,10 gives the digits of
// d (Germany's Steuer-ID, Croatia's OIB).
func iso7064Mod1110(d string) int {
	p := 10
	for i := range len(d) {
		s := (digitAt(d, i) + p) % 10
		if s == 0 {
			s = 10
		}
		p = s * 2 % 11
	}
	return (11 - p) % 10
}

func validNIR(d string) bool {
	if len(d) != 15 {
		return false
	}
	n := d[:13]
	switch {
	case n[5:7] == "2A":
		n = n[:5] + "19" + n[7:]
	case n[5:7] == "2B":
		n = n[:5] + "18" + n[7:]
	}
	if !allDigits(n) || !allDigits(d[13:]) {
		return false
	}
	if m := two(n, 3); !(m >= 1 && m <= 12 || m >= 20) {
		return false
	}
	return 97-mod97(n) == two(d, 13)
}

func mod97(d string) int {
	r := 0
	for i := 0; i < len(d); i++ {
		r = (r*10 + digitAt(d, i)) % 97
	}
	return r
}

func validBelgianNN(d string) bool {
	if len(d) != 11 || !allDigits(d) || two(d, 2) > 12 || two(d, 4) > 31 {
		return false
	}
	c := two(d, 9)
	return 97-mod97(d[:9]) == c || 97-mod97("2"+d[:9]) == c
}

func validPersonnummer(d string) bool {
	if len(d) == 12 {
		d = d[2:]
	}
	// A day plus 60 marks a samordningsnummer.
	return len(d) == 10 && allDigits(d) && validDate(two(d, 4)%60, two(d, 2)) && luhn(d)
}

func validNorwayFNR(d string) bool {
	if len(d) != 11 || !allDigits(d) {
		return false
	}
	// A day plus 40 marks a D-number; a month plus 40 or 80 a test
	// person's synthetic number, which is no one's.
	if !validDate(two(d, 0)%40, two(d, 2)) {
		return false
	}
	k := func(n int, w []int) int {
		c := 11 - weighted(d[:n], w)%11
		if c == 11 {
			c = 0
		}
		return c
	}
	return k(9, []int{3, 7, 6, 1, 8, 9, 4, 5, 2}) == digitAt(d, 9) && k(10, []int{5, 4, 3, 2, 7, 6, 5, 4, 3, 2}) == digitAt(d, 10)
}

// validDDMMYY checks a number that opens on a day, a month and a year.
func validDDMMYY(d string) bool {
	return len(d) >= 6 && allDigits(d) && validDate(two(d, 0), two(d, 2))
}

// validDDMMYYRev checks a number that opens on a year, a month and a day.
func validDDMMYYRev(d string) bool {
	return len(d) >= 6 && allDigits(d) && validDate(two(d, 4), two(d, 2))
}

func validHETU(d string) bool {
	if len(d) == 10 {
		d = d[:6] + "-" + d[6:]
	}
	if len(d) != 11 || !allDigits(d[:6]) || !allDigits(d[7:10]) || !validDate(two(d, 0), two(d, 2)) {
		return false
	}
	n := 0
	for _, c := range d[:6] + d[7:10] {
		n = n*10 + int(c-'0')
	}
	return "0123456789ABCDEFHJKLMNPRSTUVWXY"[n%31] == d[10]
}

func validTCKimlik(d string) bool {
	if len(d) != 11 || !allDigits(d) || d[0] == '0' {
		return false
	}
	odd := digitAt(d, 0) + digitAt(d, 2) + digitAt(d, 4) + digitAt(d, 6) + digitAt(d, 8)
	even := digitAt(d, 1) + digitAt(d, 3) + digitAt(d, 5) + digitAt(d, 7)
	if ((odd*7-even)%10+10)%10 != digitAt(d, 9) {
		return false
	}
	sum := 0
	for i := 0; i < 10; i++ {
		sum += digitAt(d, i)
	}
	return sum%10 == digitAt(d, 10)
}

func validIsraelID(d string) bool { return len(d) == 9 && allDigits(d) && luhn(d) }

func validZAID(d string) bool {
	return len(d) == 13 && allDigits(d) && validDate(two(d, 4), two(d, 2)) && d[10] <= '2' && luhn(d)
}

func validRUT(d string) bool {
	body, dv := d[:len(d)-1], d[len(d)-1]
	if !allDigits(body) {
		return false
	}
	s, w := 0, 2
	for i := len(body) - 1; i >= 0; i-- {
		s += digitAt(body, i) * w
		if w++; w > 7 {
			w = 2
		}
	}
	want := "0123456789K0"[11-s%11]
	return dv == want
}

func validCUIT(d string) bool {
	if len(d) != 11 || !allDigits(d) {
		return false
	}
	c := 11 - weighted(d[:10], []int{5, 4, 3, 2, 7, 6, 5, 4, 3, 2})%11
	if c == 11 {
		c = 0
	}
	return c == digitAt(d, 10)
}

func validCURP(d string) bool {
	if len([]rune(d)) != 18 || !validDate(two(d, 8), two(d, 6)) {
		return false
	}
	const alphabet = "0123456789ABCDEFGHIJKLMNÑOPQRSTUVWXYZ"
	letters, s := []rune(alphabet), 0
	for i, c := range []rune(d)[:17] {
		for v, a := range letters {
			if a == c {
				s += v * (18 - i)
			}
		}
	}
	return (10-s%10)%10 == digitAt(d, 17)
}

// taiwanLetters gives each region letter its two-digit code.
const taiwanLetters = "ABCDEFGHJKLMNPQRSTUVXYWZIO"

func validTaiwanID(d string) bool {
	if len(d) != 10 || !allDigits(d[1:]) {
		return false
	}
	n := strings.IndexByte(taiwanLetters, d[0]) + 10
	s := n/10 + n%10*9 + digitAt(d, 9)
	for i := 1; i <= 8; i++ {
		s += digitAt(d, i) * (9 - i)
	}
	return s%10 == 0
}

func validHKID(d string) bool {
	if len(d) == 8 {
		d = " " + d
	}
	if len(d) != 9 || !allDigits(d[2:8]) {
		return false
	}
	val := func(c byte) int {
		switch {
		case c == ' ':
			return 36
		case c >= 'A' && c <= 'Z':
			return int(c-'A') + 10
		}
		return int(c - '0')
	}
	s := 0
	for i := 0; i < 8; i++ {
		s += val(d[i]) * (9 - i)
	}
	c := (11 - s%11) % 11
	return "0123456789A"[c] == d[8]
}

func validMyNumber(d string) bool {
	if len(d) != 12 || !allDigits(d) {
		return false
	}
	s := 0
	for n := 1; n <= 11; n++ {
		q := n + 1
		if n >= 7 {
			q = n - 5
		}
		s += digitAt(d, 11-n) * q
	}
	c := 0
	if r := s % 11; r > 1 {
		c = 11 - r
	}
	return c == digitAt(d, 11)
}

func validThaiID(d string) bool {
	if len(d) != 13 || !allDigits(d) {
		return false
	}
	s := 0
	for i := 0; i < 12; i++ {
		s += digitAt(d, i) * (13 - i)
	}
	return (11-s%11)%10 == digitAt(d, 12)
}

func validCNP(d string) bool {
	if len(d) != 13 || !allDigits(d) || !validDate(two(d, 5), two(d, 3)) {
		return false
	}
	c := weighted(d[:12], []int{2, 7, 9, 1, 4, 6, 3, 5, 8, 2, 7, 9}) % 11
	if c == 10 {
		c = 1
	}
	return c == digitAt(d, 12)
}

func validPortugalNIF(d string) bool {
	if len(d) != 9 || !allDigits(d) {
		return false
	}
	c := 11 - weighted(d[:8], []int{9, 8, 7, 6, 5, 4, 3, 2})%11
	if c >= 10 {
		c = 0
	}
	return c == digitAt(d, 8)
}

func validNIK(d string) bool {
	if len(d) != 16 || !allDigits(d) {
		return false
	}
	p := two(d, 0)
	return p >= 11 && p <= 94 && validDate(two(d, 6)%40, two(d, 8))
}

// init places the countries' rules before the device and card rules,
// which would otherwise claim their digits (a Thai id passing Luhn's
// check with a card network's first digit, Indonesia's sixteen digits).
func init() {
	at := len(piiRules)
	for i, r := range piiRules {
		if r.kind == PIIDeviceID {
			at = i
			break
		}
	}
	rules := make([]piiRule, 0, len(worldIDs)+len(worldIDsEurope)+len(worldIDsMore))
	for _, w := range append(append(worldIDs[:len(worldIDs):len(worldIDs)], worldIDsEurope...), worldIDsMore...) {
		rules = append(rules, w.rule())
	}
	piiRules = append(piiRules[:at:at], append(rules, piiRules[at:]...)...)
}
