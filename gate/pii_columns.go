package gate

import (
	"encoding/base64"
	"regexp"
	"strings"
	"unicode/utf8"
)

// Values whose name stands in a table's header rather than beside them (a
// CSV export's NINumber column), the UK's driving licence number, the
// documented examples of HMRC and of Korean forms, and placeholder words
// written with symbols for letters.

// PIIDriverLicence is a driving licence's number.
const PIIDriverLicence = "driver_licence"

// reDVLALicence is a DVLA driving licence number: five letters of the
// surname (9 pads a short one), the decade, month (plus 5 for women), day
// and year of birth, two initials (9 pads), a digit and two check letters.
var reDVLALicence = regexp.MustCompile(`\b[A-Z9]{5}\d[0156]\d[0-3]\d\d[A-Z9]{2}\d[A-Z]{2}\b`)

// validDVLALicence checks the month (01-12, 51-62) and the day.
func validDVLALicence(m string) bool {
	month, day := two(m, 6), two(m, 8)
	if month > 50 {
		month -= 50
	}
	return m[0] != '9' && validDate(day, month)
}

var licenceWords = []string{"licence", "license", "driving licence", "driver's licence", "driving", "dvla", "운전면허"}

// licenceNamedUK asks for a licence's word beside the number or in its
// column's header.
func licenceNamedUK(text string, lo, hi int) bool {
	return wordsNear(text, lo, hi, licenceWords) || columnNamed(text, lo, licenceWords)
}

// reHMRCExample is HMRC's documented National Insurance example (QQ 12 34
// 56 C): the QQ prefix is never issued. It passes, and counts as a
// documented value.
var reHMRCExample = regexp.MustCompile(`\bQQ ?\d{2} ?\d{2} ?\d{2} ?[A-D]\b`)

// columnNamed reports whether the header of the table column holding
// text[lo] names one of words (split into words as field names are:
// NINumber, DrivingLicence, passport_no). A table is a run of lines with
// the same separator (a comma, a tab, a semicolon or a bar) and at least
// two of them; its first line is the header.
func columnNamed(text string, lo int, words []string) bool {
	start := strings.LastIndexByte(text[:lo], '\n') + 1
	if lo-start > 2048 {
		return false // no table's row; and the walk stays linear
	}
	line := text[start:]
	if i := strings.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	}
	for _, sep := range []string{",", "\t", ";", "|"} {
		if strings.Count(line, sep) < 2 {
			continue
		}
		col := len(splitFields(text[start:lo], sep)) - 1
		header := line
		for s := start; s > 0; {
			prev := strings.LastIndexByte(text[:s-1], '\n') + 1
			l := text[prev : s-1]
			if borderLine(l) {
				s = prev // mysql's +----+ and psql's ----+---- rules
				continue
			}
			if strings.Count(l, sep) < 2 {
				break
			}
			header, s = l, prev
		}
		names := splitFields(header, sep)
		if header == line || col >= len(names) {
			continue
		}
		name := fieldWords(strings.Trim(names[col], ` "'`))
		for _, w := range words {
			if containsWord(name, fieldWords(w)) || strings.Contains(strings.ReplaceAll(name, " ", ""), strings.ReplaceAll(fieldWords(w), " ", "")) {
				return true
			}
		}
	}
	return false
}

// borderLine reports whether l is a rule drawn between a table's rows
// (+-----+----+, -----+-----, |---|:--|).
func borderLine(l string) bool {
	l = strings.TrimSpace(l)
	return len(l) >= 3 && strings.Trim(l, "+-=|: ") == "" && strings.Contains(l, "-")
}

// splitFields splits a table's line on sep outside double quotes.
func splitFields(line, sep string) []string {
	var out []string
	quoted, from := false, 0
	for i := 0; i < len(line); i++ {
		switch {
		case line[i] == '"':
			quoted = !quoted
		case !quoted && strings.HasPrefix(line[i:], sep):
			out = append(out, line[from:i])
			from = i + len(sep)
		}
	}
	return append(out, line[from:])
}

// rrnPlaceholder passes the dummy resident registration numbers forms and
// tests print: a serial that counts up (900101-1234567) or is one digit
// repeated, or a birth date of zeros.
func rrnPlaceholder(m string) bool {
	d := digitsOf(m)
	serial := d[7:]
	return d[6:] == "1234567" || serial == "234567" || strings.Count(serial, serial[:1]) == len(serial) || d[:6] == "000000"
}

// leetPlaceholder reports a lowercase value that is a placeholder word
// written with symbols for letters and separators inside (p@ss:word,
// p4ssw0rd!, s3cr3t): documentation's way of showing special characters,
// and the head of every leaked-password list.
func leetPlaceholder(l string) bool {
	var b strings.Builder
	// Only a counting run may follow the word (p4ssw0rd123!): a year or
	// another number (Changeme2024!) is a password's own.
	w := strings.TrimRight(l, "!")
	head := strings.TrimRight(w, "0123456789")
	if !strings.HasPrefix("1234567890", w[len(head):]) {
		return false
	}
	for _, r := range strings.TrimRight(head, "!") {
		switch r {
		case '@', '4':
			r = 'a'
		case '0':
			r = 'o'
		case '1', '!':
			r = 'i'
		case '3':
			r = 'e'
		case '$', '5':
			r = 's'
		case '7':
			r = 't'
		}
		if r >= 'a' && r <= 'z' {
			b.WriteRune(r)
		}
	}
	w = b.String()
	return w != l && (placeholderSecrets[w] || w == "passwort" || w == "letmein" || w == "qwerty")
}

// jwtClaims returns the personal data a token's claims carry (an email or
// a phone number in its payload), which a log, a HAR file or a Postman
// collection hands over with the token.
func jwtClaims(token string) map[string]bool {
	parts := strings.Split(token, ".")
	if len(parts) < 2 {
		return nil
	}
	b, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(parts[1], "="))
	if err != nil || !utf8.Valid(b) || strings.Contains(string(b), "eyJ") {
		return nil
	}
	found, _ := scanPII(string(b))
	for k := range found {
		if !personalKinds[k] {
			delete(found, k)
		}
	}
	return found
}

// personalKinds are the kinds that name a person rather than a secret.
var personalKinds = map[string]bool{PIIEmail: true, PIIPhone: true, PIIUSSSN: true, PIIKoreanRRN: true, PIINationalID: true,
	PIIBirthDate: true, PIIAddress: true, PIIIBAN: true, PIICard: true}

// reUSLicence is a US state's driving licence number in the common form of
// one letter and seven digits (California's D4829173; Wyoming's and
// others' differ): it counts beside a licence's word in a text about
// driving or a DMV (usLicenceNamed), where part numbers and keys of the
// same form are not written.
var reUSLicence = regexp.MustCompile(`\b[A-Z]\d{7}\b`)

// usDrivingWords say a text is about driving licences.
var usDrivingWords = []string{"dmv", "driver", "driver's", "drivers", "driving", "motor vehicle", "dl"}

func usLicenceNamed(text string, lo, hi int) bool {
	return (wordsNear(text, lo, hi, licenceWords) || wordsNear(text, lo, hi, []string{"dl", "dl#", "dl no"})) && containsAnyWord(foldLower(text), usDrivingWords)
}
