package gate

import (
	"regexp"
	"strings"
)

// A passport's or a visa's machine-readable zone (ICAO Doc 9303): the
// second line of a TD3 passport (44 characters) or a TD2 document (36)
// holds the document's number, the holder's nationality, date of birth,
// sex and the expiry, each field with its check digit. Three check digits
// that all agree leave a code one chance in a thousand of being anything
// else; the holder's date of birth comes with the number.

// reMRZLine is the part TD2 and TD3 share: number (9), check, nationality
// (3), birth date (YYMMDD), check, sex, expiry (YYMMDD), check.
var reMRZLine = regexp.MustCompile(`\b[A-Z0-9<]{9}\d[A-Z<]{3}\d{6}\d[MFX<]\d{6}\d`)

// validMRZ checks the three fields' check digits and the two dates.
func validMRZ(m string) bool {
	if !mrzCheck(m[:9], m[9]) || !mrzCheck(m[13:19], m[19]) || !mrzCheck(m[21:27], m[27]) {
		return false
	}
	return validDate(two(m, 17), two(m, 15)) && validDate(two(m, 25), two(m, 23))
}

// mrzCheck computes Doc 9303's check digit: weights 7, 3, 1 repeating,
// digits at their value, A–Z as 10–35, the filler < as 0.
func mrzCheck(field string, check byte) bool {
	sum := 0
	for i := 0; i < len(field); i++ {
		c := field[i]
		v := 0
		switch {
		case c >= '0' && c <= '9':
			v = int(c - '0')
		case c >= 'A' && c <= 'Z':
			v = int(c-'A') + 10
		}
		sum += v * []int{7, 3, 1}[i%3]
	}
	return byte('0'+sum%10) == check
}

// mrzPlaceholder passes the specimens: ICAO's Utopia (UTO), which no
// state issues, and its specimen passport's number.
func mrzPlaceholder(m string) bool {
	return m[10:13] == "UTO" || m[:9] == icaoSpecimen
}

// reMRZLineTD1 is the second line of a TD1 identity card (30 characters):
// birth date, check, sex, expiry, check, nationality, optional data, the
// composite check. The card's number stands on the first line.
var reMRZLineTD1 = regexp.MustCompile(`\b\d{6}\d[MFX<]\d{6}\d[A-Z<]{3}[A-Z0-9<]{11}\d\b`)

// validMRZTD1 checks the birth date's and the expiry's check digits and
// dates.
func validMRZTD1(m string) bool {
	return mrzCheck(m[:6], m[6]) && mrzCheck(m[8:14], m[14]) && validDate(two(m, 4), two(m, 2)) && validDate(two(m, 12), two(m, 10))
}

// mrzTD1Placeholder passes Utopia's specimen cards.
func mrzTD1Placeholder(m string) bool { return m[15:18] == "UTO" }

// reMRZNameLine is the first line of a TD3 passport or a TD2 document: P,
// the type's second letter or <, the issuing state, then the holder's
// surname and given names, << between them and < between words, filled
// with < to the line's length. The form names its holder by itself, with
// no check digit needed: the surname<<given names shape is no other
// code's.
var reMRZNameLine = regexp.MustCompile(`\bP[A-Z<][A-Z]{3}[A-Z]+(?:<[A-Z]+)*<<[A-Z]+(?:<[A-Z]+)*<*`)

// validMRZName takes a line as long as TD2's or TD3's (36 or 44), or
// longer than 30 where a quote cut its filler.
func validMRZName(m string) bool { return len(m) >= 30 && len(m) <= 44 }

// mrzNamePlaceholder passes Utopia's specimens and documentation's sample
// persons (DOE<<JOHN).
func mrzNamePlaceholder(m string) bool {
	if m[2:5] == "UTO" {
		return true
	}
	surname, given, _ := strings.Cut(m[5:], "<<")
	first, _, _ := strings.Cut(strings.Trim(given, "<"), "<")
	return containsString(samplePersons, strings.ToLower(first+" "+surname))
}
