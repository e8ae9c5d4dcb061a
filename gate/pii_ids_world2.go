package gate

import (
	"regexp"
	"strings"
)

// Identity numbers of more countries, written from probes of the forms
// records and logs carry them in (a KYC log's Emirates ID, a Vietnamese
// eKYC line's CCCD, a Philippine payroll's SSS number, an Argentine DNI
// with its dots), in worldIDs' shape: the written form, its check where it
// has one, and a word that names it.
var worldIDsMore = []worldID{
	// The UAE's Emirates ID: 784, the holder's birth year, a serial and a
	// Luhn check over the fifteen digits.
	{regexp.MustCompile(`\b784-?(?:19|20)\d{2}-?\d{7}-?\d\b`), validEmiratesID, []string{"emirates id", "emirates identity", "emirati",
		"uae", "eid", "icp", "الهوية"}},
	// Viet Nam's citizen identity number (CCCD): a province code, a digit
	// for sex and century, the birth year's two digits, a serial.
	{regexp.MustCompile(`\b0\d{11}\b`), validCCCD, []string{"cccd", "căn cước", "can cuoc", "cmnd", "citizen identity", "định danh",
		"dinh danh", "vietnam", "vietnamese", "việt nam"}},
	// The Philippines' SSS number (2-7-1), PhilHealth number (2-9-1) and
	// UMID common reference number (4-7-1); their check digits are not
	// published, so the form and the word decide.
	{regexp.MustCompile(`\b\d{2}-\d{7}-\d\b`), allDigits, []string{"sss", "social security system"}},
	{regexp.MustCompile(`\b\d{2}-\d{9}-\d\b`), allDigits, []string{"philhealth", "phic"}},
	{regexp.MustCompile(`\b\d{4}-\d{7}-\d\b`), allDigits, []string{"umid", "crn"}},
	// Argentina's DNI as printed, with dots between its groups (30.482.915).
	{regexp.MustCompile(`\b\d{1,2}\.\d{3}\.\d{3}\b`), func(d string) bool { return len(d) >= 7 && d[0] != '0' }, []string{"dni",
		"documento nacional", "documento", "argentina", "argentino", "argentine"}},
	// Germany's health insurance number (KVNR): a letter, eight digits and
	// a check digit over the letter's number and the digits.
	{regexp.MustCompile(`\b[A-Z]\d{9}\b`), validKVNR, []string{"kvnr", "krankenversicherungsnummer", "versichertennummer",
		"versicherten-nr", "egk", "krankenversichertennummer"}},
	// Serbia's and the former Yugoslav states' JMBG (EMŠO in Slovenia):
	// birth date, region, serial, mod-11 check.
	{regexp.MustCompile(`\b\d{13}\b`), validJMBG, []string{"jmbg", "emšo", "emso", "матични број", "maticni broj", "matični broj"}},
	// Bulgaria's EGN: birth date (the month carries the century), serial,
	// weighted check.
	{regexp.MustCompile(`\b\d{10}\b`), validEGN, []string{"egn", "егн", "единен граждански номер"}},
	// Russia's SNILS: nine digits and a two-digit check.
	{regexp.MustCompile(`\b\d{3}-\d{3}-\d{3}[ -]\d{2}\b|\b\d{11}\b`), validSNILS, []string{"snils", "снилс"}},
	// Iceland's kennitala: birth date, two digits, a mod-11 check digit,
	// the century.
	{regexp.MustCompile(`\b\d{6}-?\d{4}\b`), validKennitala, []string{"kennitala", "kt."}},
	// New Zealand's IRD number: eight or nine digits, mod-11 check.
	{regexp.MustCompile(`\b\d{2,3}-\d{3}-\d{3}\b|\b\d{8,9}\b`), validIRD, []string{"ird", "ird number", "inland revenue"}},
	// Pakistan's CNIC (5-7-1).
	{regexp.MustCompile(`\b\d{5}-\d{7}-\d\b`), allDigits, []string{"cnic", "nadra", "national identity card"}},
	// Egypt's national number: century, birth date, governorate, serial.
	{regexp.MustCompile(`\b[23]\d{13}\b`), validEgyptID, []string{"national id", "national number", "الرقم القومي", "egypt",
		"egyptian"}},
	// Saudi Arabia's national id and iqama: 1 or 2, eight digits, Luhn.
	{regexp.MustCompile(`\b[12]\d{9}\b`), func(d string) bool { return len(d) == 10 && allDigits(d) && luhn(d) }, []string{"iqama",
		"إقامة", "الإقامة", "saudi", "absher", "أبشر"}},
	// Nigeria's Bank Verification Number and National Identification
	// Number: eleven digits.
	{regexp.MustCompile(`\b\d{11}\b`), allDigits, []string{"bvn", "bank verification number", "nimc", "nin"}},
	// Peru's and Argentina's DNI as digits alone, and Colombia's and
	// Ecuador's cédula: no published check, the word decides.
	{regexp.MustCompile(`\b\d{7,8}\b`), func(d string) bool { return d[0] != '0' }, []string{"dni", "reniec", "documento nacional"}},
	{regexp.MustCompile(`\b\d{6,10}\b`), func(d string) bool { return d[0] != '0' }, []string{"cédula", "cedula", "cédula de ciudadanía"}},
}

func validJMBG(d string) bool {
	if len(d) != 13 || !allDigits(d) || !validDate(two(d, 0), two(d, 2)) {
		return false
	}
	c := 11 - weighted(d[:12], []int{7, 6, 5, 4, 3, 2, 7, 6, 5, 4, 3, 2})%11
	if c > 9 {
		c = 0
	}
	return c == digitAt(d, 12)
}

func validEGN(d string) bool {
	if len(d) != 10 || !allDigits(d) || !validDate(two(d, 4), two(d, 2)%20) {
		return false
	}
	c := weighted(d[:9], []int{2, 4, 8, 5, 10, 9, 7, 3, 6}) % 11
	if c == 10 {
		c = 0
	}
	return c == digitAt(d, 9)
}

func validSNILS(d string) bool {
	if len(d) != 11 || !allDigits(d) || strings.Count(d[:9], d[:1]) == 9 {
		return false
	}
	s := weighted(d[:9], []int{9, 8, 7, 6, 5, 4, 3, 2, 1})
	if s > 101 {
		s %= 101
	}
	if s == 100 || s == 101 {
		s = 0
	}
	return s == two(d, 9)
}

func validKennitala(d string) bool {
	if len(d) != 10 || !allDigits(d) || !validDate(two(d, 0), two(d, 2)) || !strings.ContainsRune("089", rune(d[9])) {
		return false
	}
	c := 11 - weighted(d[:8], []int{3, 2, 7, 6, 5, 4, 3, 2})%11
	if c == 11 {
		c = 0
	}
	return c == digitAt(d, 8)
}

// validIRD checks an IRD number (10,000,000 to 150,000,000, padded to nine
// digits): the primary weights, or the secondary ones where they give 10.
func validIRD(d string) bool {
	if len(d) == 8 {
		d = "0" + d
	}
	if len(d) != 9 || !allDigits(d) || d < "010000000" || d > "150000000" {
		return false
	}
	for _, w := range [][]int{{3, 2, 7, 6, 5, 4, 3, 2}, {7, 4, 3, 2, 5, 2, 7, 6}} {
		c := weighted(d[:8], w) % 11
		if c != 0 {
			c = 11 - c
		}
		if c != 10 {
			return c == digitAt(d, 8)
		}
	}
	return false
}

func validEgyptID(d string) bool {
	if len(d) != 14 || !allDigits(d) || !validDate(two(d, 5), two(d, 3)) {
		return false
	}
	g := two(d, 7)
	return g >= 1 && g <= 35 || g == 88
}

// validKVNR checks the KVNR's digit: the letter as two digits (A = 01)
// and the first eight digits, weighted 1, 2 alternately, each product's
// digits summed, modulo 10.
func validKVNR(d string) bool {
	if len(d) != 10 || d[0] < 'A' || d[0] > 'Z' || !allDigits(d[1:]) {
		return false
	}
	n := int(d[0]-'A') + 1
	s := string(rune('0'+n/10)) + string(rune('0'+n%10)) + d[1:9]
	sum := 0
	for i := 0; i < len(s); i++ {
		p := digitAt(s, i) * (1 + i%2)
		sum += p/10 + p%10
	}
	return sum%10 == digitAt(d, 9)
}

func validEmiratesID(d string) bool {
	return len(d) == 15 && allDigits(d) && strings.HasPrefix(d, "784") && luhn(d)
}

// cccdProvinces are the province codes that open a CCCD number (Circular
// 07/2016/TT-BCA).
var cccdProvinces = "001 002 004 006 008 010 011 012 014 015 017 019 020 022 024 025 026 027 030 031 033 034 035 036 037 038 040 042 " +
	"044 045 046 048 049 051 052 054 056 058 060 062 064 066 067 068 070 072 074 075 077 079 080 082 083 084 086 087 089 091 " +
	"092 093 094 095 096"

func validCCCD(d string) bool {
	return len(d) == 12 && allDigits(d) && strings.Contains(cccdProvinces, d[:3]) && d[3] <= '3' && strings.Count(d, d[:1]) != 12
}
