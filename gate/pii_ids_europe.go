package gate

import "regexp"

// Identity numbers of more European countries, read as worldIDs are (form,
// check, a word that names the number within wordsNear's reach).
var worldIDsEurope = []worldID{
	// Switzerland's AHV/AVS number: 756, nine digits, EAN-13 check.
	{regexp.MustCompile(`\b756\.?\d{4}\.?\d{4}\.?\d{2}\b`), validAHV, []string{"ahv", "avs", "ahv-nr", "ahvn13", "sozialversicherungsnummer",
		"numéro avs", "swiss social security", "svn"}},
	// Ireland's PPS number: seven digits, a mod-23 check letter, and for
	// numbers issued since 2013 a second letter.
	{regexp.MustCompile(`\b\d{7}[A-Wa-w][A-IWa-iw]?\b`), validPPSN, []string{"ppsn", "pps", "pps number", "personal public service"}},
	// Croatia's OIB: eleven digits, ISO 7064 MOD 11,10 (Germany's
	// Steuer-ID's check, without its digit pattern).
	{regexp.MustCompile(`\b\d{11}\b`), validOIB, []string{"oib", "osobni identifikacijski broj", "croatian"}},
	// Czechia's and Slovakia's rodné číslo: birth date (women's month
	// + 50), serial, the whole divisible by eleven.
	{regexp.MustCompile(`\b\d{6}/?\d{4}\b`), validRodneCislo, []string{"rodné číslo", "rodne cislo", "rč", "birth number", "czech", "slovak"}},
	// Estonia's isikukood: sex and century, birth date, serial, check.
	{regexp.MustCompile(`\b[1-6]\d{10}\b`), validIsikukood, []string{"isikukood", "personal identification code", "estonian", "eesti"}},
}

func validAHV(d string) bool {
	if len(d) != 13 || !allDigits(d) {
		return false
	}
	s := weighted(d[:12], []int{1, 3, 1, 3, 1, 3, 1, 3, 1, 3, 1, 3})
	return (10-s%10)%10 == digitAt(d, 12)
}

func validPPSN(d string) bool {
	if len(d) < 8 || !allDigits(d[:7]) {
		return false
	}
	s := weighted(d[:7], []int{8, 7, 6, 5, 4, 3, 2})
	if len(d) == 9 && d[8] != 'W' {
		s += 9 * int(d[8]-'A'+1)
	}
	want := byte('W')
	if r := s % 23; r > 0 {
		want = byte('A' + r - 1)
	}
	return d[7] == want
}

func validOIB(d string) bool {
	if len(d) != 11 || !allDigits(d) {
		return false
	}
	return iso7064Mod1110(d[:10]) == digitAt(d, 10)
}

func validRodneCislo(d string) bool {
	if len(d) != 10 || !allDigits(d) {
		return false
	}
	month := two(d, 2) % 50
	if month > 20 {
		month -= 20 // the extra range of 2004
	}
	if !validDate(two(d, 4), month) {
		return false
	}
	n := 0
	for i := 0; i < 10; i++ {
		n = (n*10 + digitAt(d, i)) % 11
	}
	return n == 0
}

func validIsikukood(d string) bool {
	if len(d) != 11 || !allDigits(d) || !validDate(two(d, 5), two(d, 3)) {
		return false
	}
	c := weighted(d[:10], []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 1}) % 11
	if c == 10 {
		if c = weighted(d[:10], []int{3, 4, 5, 6, 7, 8, 9, 1, 2, 3}) % 11; c == 10 {
			c = 0
		}
	}
	return c == digitAt(d, 10)
}
