package gate

import (
	"strings"
	"unicode/utf8"
)

// Identity numbers in the carriers data travels in: a field or a column
// named for an identity number whatever the country (national_id,
// id_number, "identity number"), in a JSON or YAML key, a CSV's or an SQL
// INSERT's column list, or the header of a table whose columns are aligned
// with spaces (pandas' and psql's output). A number that passes its
// country's check there is given as a person's; and a number whose check
// is strong (two check digits, mod 97, mod 31) counts in a text that names
// its kind anywhere, as a FHIR resource's identifier under a title that
// names the NIR.

// idFieldWords name an identity number's field in any country, as field
// names split into words (fieldWords) read them.
var idFieldWords = []string{"national id", "national identity", "national identification", "id number", "id no", "id num",
	"identity number", "identity no", "identification number", "personal number", "personal id", "personal identity",
	"citizen id", "citizen number", "person number", "nat id"}

// idFieldNamed reports an identity number's field name beside the value
// (within wordsNear's reach, in its field-name words), in its column's
// header, or over its column in an aligned table.
func idFieldNamed(text string, lo, hi int) bool {
	from, to := runeWindow(text, lo, hi, 48)
	around := fieldWords(text[from:lo] + " " + text[hi:to])
	for _, w := range idFieldWords {
		if containsWord(around, w) {
			return true
		}
	}
	return columnNamed(text, lo, idFieldWords) || alignedColumnNamed(text, lo, hi, idFieldWords)
}

// alignedColumnNamed reports whether a line above the value, in its block
// of non-blank lines (at most 30 lines up: the header of a space-aligned
// table, under a notebook's Out[12]: or a query), names one of words with
// a name that overlaps the value's character columns.
func alignedColumnNamed(text string, lo, hi int, words []string) bool {
	start := strings.LastIndexByte(text[:lo], '\n') + 1
	if lo-start > 2048 {
		return false
	}
	col := utf8.RuneCountInString(text[start:lo])
	width := utf8.RuneCountInString(text[lo:hi])
	for s, n := start, 0; s > 0 && n < 30; n++ {
		prev := strings.LastIndexByte(text[:s-1], '\n') + 1
		l := text[prev : s-1]
		if strings.TrimSpace(l) == "" || strings.HasPrefix(strings.TrimSpace(l), "```") {
			return false
		}
		if nameOverColumn(l, col, width, words) {
			return true
		}
		s = prev
	}
	return false
}

// nameOverColumn reports a name in line, between spaces, tabs or bars,
// that overlaps the character columns [col, col+width) and holds one of
// words.
func nameOverColumn(line string, col, width int, words []string) bool {
	runes := []rune(line)
	for i := 0; i < len(runes); {
		if runes[i] == ' ' || runes[i] == '\t' || runes[i] == '|' {
			i++
			continue
		}
		j := i
		for j < len(runes) && runes[j] != ' ' && runes[j] != '\t' && runes[j] != '|' {
			j++
		}
		if i < col+width && col < j {
			name := fieldWords(string(runes[i:j]))
			for _, w := range words {
				if containsWord(name, w) {
					return true
				}
			}
		}
		i = j
	}
	return false
}

// strongIDChecks are the worldIDs, by their first word, whose check leaves
// one number in a hundred or fewer passing by chance (mod 97, mod 31, two
// check digits, a check digit and a birth date): in a text that names the
// kind anywhere, a number that passes is the person's.
var strongIDChecks = map[string]bool{"pesel": true, "nir": true, "rijksregisternummer": true, "personnummer": true,
	"fødselsnummer": true, "hetu": true, "tc kimlik": true, "south african": true, "cnp": true,
	// Taiwan's: a check digit after a region letter and a sex digit,
	// a form technical text seldom holds.
	"身分證": true,
	// Japan's My Number: one check digit in eleven, but twelve digits
	// standing alone are rare in a text that names My Number (a payroll
	// CSV, a year-end adjustment import); the number is the employee's
	// wherever the text quotes it.
	"マイナンバー": true}

// textNames reports whether the text names one of words anywhere.
func textNames(text string, words []string) bool {
	return containsAnyWord(strings.ToLower(text), words)
}
