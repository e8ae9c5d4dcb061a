package gate

import (
	"regexp"
	"strings"
)

// More countries' identity numbers and devices' and vehicles' ids, each
// beside a word that names it and, where the number carries one, by its
// check: Canada's SIN (Luhn), Australia's TFN (weighted mod 11), the
// Netherlands' BSN (the eleven-test), Singapore's NRIC and FIN (check
// letter), Italy's codice fiscale (check letter), India's PAN (its form),
// a phone's IMEI (Luhn) and a car's VIN (its form: digits and letters).

// PII kinds of this file.
const (
	// PIIDeviceID is a device's hardware id (a phone's IMEI).
	PIIDeviceID = "device_id"
	// PIIVehicleID is a vehicle's identification number (VIN).
	PIIVehicleID = "vehicle_id"
)

var reNineDigits = regexp.MustCompile(`\b\d{3}[ .-]?\d{3}[ .-]?\d{3}\b`)

func weighted(d string, w []int) int {
	s := 0
	for i, c := range d {
		s += int(c-'0') * w[i]
	}
	return s
}

// validSIN: Canada's Social Insurance Number passes Luhn's check.
func validSIN(m string) bool { d := digitsOf(m); return len(d) == 9 && luhn(d) }

// validTFN: an Australian Tax File Number's weighted sum is a multiple of 11.
func validTFN(m string) bool {
	d := digitsOf(m)
	return len(d) == 9 && weighted(d, []int{1, 4, 3, 7, 5, 8, 6, 9, 10})%11 == 0
}

// validBSN: a Dutch citizen service number passes the eleven-test.
func validBSN(m string) bool {
	d := digitsOf(m)
	return len(d) == 9 && d != "000000000" && weighted(d, []int{9, 8, 7, 6, 5, 4, 3, 2, -1})%11 == 0
}

// validSSNDigits: a US SSN written without separators (529431806), which
// counts only beside its name or in a column named for it.
func validSSNDigits(m string) bool { return len(m) == 9 && validSSN(m[:3]+"-"+m[3:5]+"-"+m[5:]) }

func ssnNamed(text string, lo, hi int) bool {
	words := []string{"ssn", "social security", "social_security_number", "socialsecuritynumber"}
	return wordsNear(text, lo, hi, words) || columnNamed(text, lo, words)
}

var reSSNDigits = regexp.MustCompile(`\b\d{9}\b`)

func sinNamed(text string, lo, hi int) bool {
	return wordsNear(text, lo, hi, []string{"sin", "social insurance", "numéro d'assurance sociale", "nas"})
}
func tfnNamed(text string, lo, hi int) bool {
	return wordsNear(text, lo, hi, []string{"tfn", "tax file"})
}
func bsnNamed(text string, lo, hi int) bool {
	return wordsNear(text, lo, hi, []string{"bsn", "burgerservicenummer", "citizen service number", "sofinummer", "sofinr", "sofi-nummer", "sofi-nr"})
}

// reNRIC is a Singapore NRIC or FIN: S, T, F, G or M, seven digits, a letter.
var reNRIC = regexp.MustCompile(`\b[STFGstfg]\d{7}[A-Za-z]\b`)

// validNRIC checks the letter: the weighted digits (2 7 6 5 4 3 2), plus 4
// for T and G, modulo 11 index the letters of citizens or of foreigners.
func validNRIC(m string) bool {
	m = strings.ToUpper(m)
	s := weighted(m[1:8], []int{2, 7, 6, 5, 4, 3, 2})
	if m[0] == 'T' || m[0] == 'G' {
		s += 4
	}
	table := "JZIHGFEDCBA"
	if m[0] == 'F' || m[0] == 'G' {
		table = "XWUTRQPNMLK"
	}
	return table[s%11] == m[8]
}

func nricNamed(text string, lo, hi int) bool {
	return wordsNear(text, lo, hi, []string{"nric", "fin", "singapore", "ic number", "identity card"})
}

// reCodiceFiscale is an Italian tax code: six letters of the name, the
// birth year, month letter and day, the town's code and a check letter.
var reCodiceFiscale = regexp.MustCompile(`\b[A-Z]{6}\d{2}[ABCDEHLMPRST]\d{2}[A-Z]\d{3}[A-Z]\b`)

// validCodiceFiscale checks the last letter: the odd places' table values
// and the even places' plain values, summed modulo 26.
func validCodiceFiscale(m string) bool {
	odd := []int{1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8, 12, 14, 16, 10, 22, 25, 24, 23}
	s := 0
	for i := 0; i < 15; i++ {
		c := m[i]
		v := 0
		if c >= '0' && c <= '9' {
			v = int(c - '0')
		} else {
			v = int(c - 'A')
		}
		if i%2 == 0 {
			s += odd[v]
		} else {
			s += v
		}
	}
	return byte('A'+s%26) == m[15]
}

// rePAN is India's Permanent Account Number: five letters (the fourth
// says who holds it), four digits, a letter.
var rePAN = regexp.MustCompile(`\b[A-Z]{3}[ABCFGHLJPT][A-Z]\d{4}[A-Z]\b`)

func panNamed(text string, lo, hi int) bool {
	return wordsNear(text, lo, hi, []string{"pan", "permanent account", "income tax", "aadhaar"})
}

// reIMEI is a phone's IMEI, fifteen digits (Luhn), beside its name.
var reIMEI = regexp.MustCompile(`\b\d{2}[ -]?\d{6}[ -]?\d{6}[ -]?\d\b|\b\d{15}\b`)

func validIMEI(m string) bool { d := digitsOf(m); return len(d) == 15 && luhn(d) }

// imeiNamed: the IMEI by its name, a dual-SIM phone's IMEI1 and IMEI2, a
// CDMA phone's MEID in its decimal form, or the *#06# screen that shows
// them.
func imeiNamed(text string, lo, hi int) bool {
	words := []string{"imei", "imei1", "imei2", "meid", "*#06#", "device id", "단말기", "기기 번호"}
	if wordsNear(text, lo, hi, words) {
		return true
	}
	// A field named for it (last_registered_imei =, deviceImei:).
	before := fieldWords(text[max(lo-48, 0):lo])
	return containsAnyWord(before, words[:4])
}

// reGSMAExampleIMEI is the IMEI GSMA's documents print as their example
// (TAC 49015420, serial 323751, check digit 8). It passes, and counts as a
// documented value, wherever it stands: Luhn-valid, it reads as a card too.
var reGSMAExampleIMEI = regexp.MustCompile(`\b49[ -]?015420[ -]?323751[ -]?8\b`)

// imeiPlaceholder passes what idPlaceholder passes and one digit repeated
// (the emulator's 000000000000000).
func imeiPlaceholder(m string) bool {
	d := digitsOf(m)
	return idPlaceholder(d) || d != "" && strings.Trim(d, d[:1]) == ""
}

// reVIN is a vehicle identification number: 17 characters without I, O, Q.
var reVIN = regexp.MustCompile(`\b[A-HJ-NPR-Z0-9]{17}\b`)

// validVIN checks the form only: a mix of digits and letters, as a VIN
// is, not a 17-letter word or number. Its ninth character is a check
// digit in North America only (a European VIN may carry none), so it is
// not checked; the name beside it (vinNamed) decides.
func validVIN(m string) bool {
	digits, letters := 0, 0
	for _, c := range m {
		if c >= '0' && c <= '9' {
			digits++
		} else {
			letters++
		}
	}
	return digits >= 5 && letters >= 2
}

func vinNamed(text string, lo, hi int) bool {
	return wordsNear(text, lo, hi, []string{"vin", "vehicle identification", "chassis", "차대번호"})
}

// validPortugueseNIF checks Portugal's tax number: nine digits, the last
// 11 minus the weighted sum (9 down to 2) of the first eight modulo 11,
// 0 for 10 or 11.
func validPortugueseNIF(m string) bool {
	d := digitsOf(m)
	if len(d) != 9 || !strings.ContainsRune("123568", rune(d[0])) && !strings.HasPrefix(d, "45") && !strings.HasPrefix(d, "7") && !strings.HasPrefix(d, "9") {
		return false
	}
	sum := 0
	for i := 0; i < 8; i++ {
		sum += int(d[i]-'0') * (9 - i)
	}
	c := 11 - sum%11
	if c >= 10 {
		c = 0
	}
	return int(d[8]-'0') == c
}

// nifNamed asks for Portugal's name of the number beside it.
func nifNamed(text string, lo, hi int) bool {
	return wordsNear(text, lo, hi, []string{"nif", "contribuinte", "número de contribuinte", "nipc"})
}

// phoneDenied reports a sentence that says the figure is no phone number
// ("is not a phone number", "not a number to call", 전화번호가 아니).
func phoneDenied(text string, lo, hi int) bool {
	from, to := sentenceAround(text, lo, hi)
	s := strings.ToLower(text[from:to])
	return containsAny(s, []string{"not a phone", "not phone", "no phone number", "isn't a phone", "not a number to call", "not a mobile", "전화번호가 아니", "전화번호 아님"})
}

func notPhoneDenied(text string, lo, hi int) bool { return !phoneDenied(text, lo, hi) }

// reSINField is a Social Insurance Number as a record's field (a Rails
// log's "sin_number"=>"527 384 619", sin: 527-384-619,
// social_insurance_number=…): under its field's name nine digits are the
// person's number even where a typo or a redaction tool's change breaks
// Luhn's check, which the number in prose must pass. The value is the
// group.
var reSINField = regexp.MustCompile(`(?i)(?:^|[^a-z0-9_])["':]?(?:sin|sin_?(?:number|no|num|nbr)|social_?insurance(?:_?(?:number|no|num))?)["']?\s*(?:=>|[:=])\s*["']?(\d{3}[ -]?\d{3}[ -]?\d{3})\b`)
