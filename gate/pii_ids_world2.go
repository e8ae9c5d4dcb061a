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
