package gate

import (
	"regexp"
	"strings"
)

// Addresses as records and requests carry them: a street line a few
// fields away from its recipient (a shipping API's consignee, a delivery's
// 수령인) or from the word that says whose it is, told by the postcode that
// completes it (the UK's GL52 3QT, a five-digit postal code); a geocoder's
// query with + for spaces.

// recipientWords name the person a parcel or a letter goes to.
var recipientWords = []string{"recipient", "recipients", "consignee", "addressee", "ship to", "ship-to", "deliver to", "수령인", "받는 분", "받는분", "받는 사람", "수취인", "주문자"}

// rePostcode is a postcode completing an address: the UK's (GL52 3QT,
// SW1A 1AA), or five digits as a field's value or after a comma.
var rePostcode = regexp.MustCompile(`\b[A-Z]{1,2}\d[A-Z\d]?[ +]\d[A-Z]{2}\b|(?i:post(?:al)?_?code|zip(?:_?code)?|plz)["']?\s*[:=]\s*["']?\d{4,5}\b`)

// postcodeNear reports a postcode within 160 bytes after the street.
func postcodeNear(text string, hi int) bool {
	return rePostcode.MatchString(text[hi:min(hi+160, len(text))])
}

// addressNamedWide passes an address beside a person's or a recipient's
// word, or its holder (holderNear); and an address a postcode completes
// where such a word stands within 200 bytes of it (the sentence before a
// request's code block: "the customer's home:").
func addressNamedWide(text string, lo, hi int) bool {
	if !housesNumbered(text, hi) {
		return false
	}
	if personNamed(text, lo, hi) || wordsNear(text, lo, hi, recipientWords) || holderNear(text, lo, hi) {
		return true
	}
	if !postcodeNear(text, hi) {
		return false
	}
	from := max(lo-200, 0)
	for from > 0 && text[from]&0xC0 == 0x80 {
		from--
	}
	around := strings.ToLower(text[from:min(hi+200, len(text))])
	return containsAnyWord(around, personWords) || containsAnyWord(around, recipientWords) || nameFieldIn(text[from:min(hi+200, len(text))])
}

// nameFieldIn reports a record's name field with a person's name in s.
func nameFieldIn(s string) bool {
	for _, loc := range reNameField.FindAllStringSubmatchIndex(s, -1) {
		if personNameAt(s, loc) {
			return true
		}
	}
	return false
}

// countingHouse reports an address whose number, one of its numbers on
// its own, counts up (123 Main St): a road's number and a building's (12길
// 34) are two numbers, not one run.
func countingHouse(m string) bool {
	for _, n := range reDateNumber.FindAllString(m, -1) {
		if len(n) >= 3 && strings.Contains("1234567890", n) {
			return true
		}
	}
	return false
}
