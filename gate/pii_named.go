package gate

import (
	"regexp"
	"strings"
	"unicode/utf8"
)

// Documents' numbers and plates whose word stands farther off than
// wordsNear reaches: the text names the kind (a National Insurance
// number, a driving licence, plates) in its title or a sentence before,
// and the value comes later with its holder beside it ("JT482173C
// (employee: Daniel Ashworth)", "name=정다은 … licenseNo=…"), or in a form
// that is the kind's alone (the UK's current plates, Korea's plates, a DVLA
// licence number, whose birth date and initials are part of it). A
// holder may be given as a record's name field too (nameFieldNear).

// reNameField is a person's name as a record's field gives it: a Korean
// name after a label for a person (성명, 이름, 차주, 수령인, 사용자, name=),
// or two or three capitalised words after name=, full_name: or "name": on
// the same line; or a traveller's name as airlines' reservation systems
// write it, SURNAME/GIVEN and a title (pax=OKAFOR/CHIDI MR); or a name
// in a passport's Latin capitals after 성명 (성명 KIM MINJI).
var reNameField = regexp.MustCompile(`(?:성명|이름|차주|소유자|명의자|수령인|예금주|사용자|고객명|회원명|\bname)\s*[=:：]\s*["']?(` + koreanSurnames + `[가-힣]{1,3})|` +
	`(?i:\b(?:full[_ ]?name|first[_ ]?name|last[_ ]?name|given[_ ]?name|surname|holder|name1|name))["']?\s*[=:]\s*["']?(\p{Lu}\p{Ll}+(?: \p{Lu}\p{Ll}+){1,2})\b|` +
	`\b([A-Z]{2,}/[A-Z]{2,}(?: [A-Z]{2,})? (?:MR|MRS|MS|MISS|MSTR|DR))\b|` +
	`성명\s*[=:：]?\s*["']?([A-Z]{2,12}(?: [A-Z]{2,12}){1,2})\b`)

// personNameAt reports whether a reNameField match (its submatch indexes
// in s) gives a person's name.
func personNameAt(s string, loc []int) bool {
	return loc[2] >= 0 && koreanName(s[loc[2]:loc[3]]) || loc[4] >= 0 && !techName(s[loc[4]:loc[5]]) ||
		loc[6] >= 0 && !samplePNR(s[loc[6]:loc[7]]) || loc[8] >= 0 && !techName(s[loc[8]:loc[9]])
}

// samplePNR reports a reservation's name that is documentation's sample
// person (SMITH/JOHN MR is John Smith).
func samplePNR(n string) bool {
	family, rest, _ := strings.Cut(strings.ToLower(n), "/")
	return containsString(samplePersons, strings.Fields(rest)[0]+" "+family)
}

// nameFieldNear reports a name field on the value's line within wordsNear's
// reach whose name is a person's: a Korean name that koreanName accepts,
// or capitalised words that name no software (techName).
func nameFieldNear(text string, lo, hi int) bool {
	// The line is read within ownerWindow of the value (the fields it
	// weighs sit within 64 bytes), so a long line of values costs each
	// value the window, not the line.
	wlo, whi := max(lo-ownerWindow, 0), min(hi+ownerWindow, len(text))
	for wlo > 0 && !utf8.RuneStart(text[wlo]) {
		wlo--
	}
	for whi < len(text) && !utf8.RuneStart(text[whi]) {
		whi++
	}
	from := wlo + strings.LastIndexByte(text[wlo:lo], '\n') + 1
	to := whi
	if i := strings.IndexByte(text[hi:whi], '\n'); i >= 0 {
		to = hi + i
	}
	line := text[from:to]
	for _, loc := range reNameField.FindAllStringSubmatchIndex(line, -1) {
		if from+loc[1] < lo-64 || from+loc[0] > hi+64 {
			continue
		}
		if personNameAt(line, loc) {
			return true
		}
	}
	return false
}

// holderNear reports the value's holder beside it: an owner in its
// sentence (ownerNear) or a record's name field on its line.
func holderNear(text string, lo, hi int) bool {
	return ownerNear(text, lo, hi) || nameFieldNear(text, lo, hi)
}

// ninoNamedFar passes a National Insurance number in a text that names it
// anywhere, with its holder beside the number.
func ninoNamedFar(text string, lo, hi int) bool {
	return ninoNamed(text, lo, hi) || textNames(text, []string{"nino", "national insurance"}) && holderNear(text, lo, hi)
}

// licenceWordsAll name a driving licence in the languages and the field
// names (licenseNo, licence_number) licences are written under.
var licenceWordsAll = []string{"licence", "license", "licences", "licenses", "driving licence", "driver's licence", "driver's license", "dvla", "면허", "운전면허"}

// licenceField reports a licence's word beside the value, as a word or in
// a field's name (licenseNo, driver_license_number).
func licenceField(text string, lo, hi int) bool {
	from, to := max(lo-48, 0), min(hi+48, len(text))
	around := fieldWords(text[from:lo] + " " + text[hi:to])
	return containsAnyWord(around, []string{"license", "licence", "license no", "licence no"})
}

// licenceNamedFarUK passes a DVLA number (its form holds a birth date and
// initials, so no other code has it) in a text that names a licence.
func licenceNamedFarUK(text string, lo, hi int) bool {
	return licenceNamedUK(text, lo, hi) || licenceField(text, lo, hi) || textNames(text, licenceWordsAll)
}

// krLicenceNamed passes a Korean licence number beside its word or field
// name, or in a text naming licences with its holder beside it.
func krLicenceNamed(text string, lo, hi int) bool {
	return licenceNamed(text, lo, hi) || licenceField(text, lo, hi) || textNames(text, licenceWordsAll) && holderNear(text, lo, hi)
}

// reKRLicenceRegion is a Korean licence number printed with its region's
// name before 2017 (서울-19-084532-71).
var reKRLicenceRegion = regexp.MustCompile(`(?:서울|부산|경기|강원|충북|충남|전북|전남|경북|경남|제주|대구|인천|광주|대전|울산)-?\d{2}-\d{6}-\d{2}\b`)

// reStrongPlate is a plate in a form only plates have: the UK's since 2001
// (two letters, the age identifier, three letters: LK19 XWR) and Korea's
// (12가 3456, 152루 7384), whose letter is one of krPlateLetters.
var reStrongPlate = regexp.MustCompile(`^[A-HJ-PR-Y]{2}(?:0[2-9]|[1-6]\d|7[0-5]) ?[A-HJ-PR-Z]{3}$|^\d{2,3}` + krPlateLetters + ` ?\d{4}$`)

// krPlateLetters are the syllables Korea's plates carry (private, commercial,
// rental, military): 105동 1203호 is a flat, not a plate.
const krPlateLetters = `[가나다라마거너더러머버서어저고노도로모보소오조구누두루무부수우주아바사자배하허호육해공국합]`

// plateNamedFar passes a plate beside its word, or in one of the strong
// forms in a text that names plates or vehicles.
func plateNamedFar(text string, lo, hi int) bool {
	return plateNamed(text, lo, hi) || reStrongPlate.MatchString(text[lo:hi]) && textNames(text, plateTextWords)
}

// plateTextWords name plates or a vehicle's registration anywhere in a
// text.
var plateTextWords = append([]string{"anpr", "alpr", "openalpr", "car park", "parking", "주차", "차량", "등록차량"}, plateWords...)
