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
var recipientWords = []string{"recipient", "recipients", "consignee", "addressee", "ship to", "ship-to", "deliver to", "수령인", "받는 분", "받는분", "받는 사람", "수취인", "주문자",
	// The same in the languages whose street forms reAddress reads: the
	// customer, the recipient, the tenant, a delivery address.
	"cliente", "clienta", "destinatario", "destinataria", "destinatário", "destinatária", "destinataire",
	"empfänger", "kunde", "kundin", "klant", "ontvanger", "odbiorca", "klient", "klientka", "inquilino",
	"arrendatario", "locataire", "mieter", "indirizzo di consegna", "dirección de entrega",
	"endereço de entrega", "lieferadresse", "adresse de livraison", "adres dostawy", "paczki", "paczka"}

// rePostcode is a postcode completing an address: the UK's (GL52 3QT,
// SW1A 1AA), or five digits as a field's value, or a postcode after a
// comma before the town.
var rePostcode = regexp.MustCompile(`\b[A-Z]{1,2}\d[A-Z\d]?[ +]\d[A-Z]{2}\b|(?i:post(?:al)?_?code|zip(?:_?code)?|plz)["']?\s*[:=]\s*["']?\d{4,5}\b|` +
	// After a comma, before the town: five digits (10969 Berlin, 20121
	// Milano), Poland's 00-514 and the Netherlands' 1016 GV.
	`,\s*(?:\d{5}|\d{2}-\d{3}|\d{4} ?[A-Z]{2})\s+\p{Lu}\p{Ll}+`)

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

// reJPAddress is a Japanese street address: a postcode (〒150-0041), a
// prefecture (東京都, 北海道, 大阪府, 神奈川県), a city, ward, town or village
// and the block's numbers (神南1-19-11, 3丁目5番2号).
var reJPAddress = regexp.MustCompile(`(?:〒\s?)?\d{3}-\d{4}\s*(?:東京都|北海道|京都府|大阪府|\p{Han}{2,3}県)\p{Han}{1,6}?[市区町村郡]\p{Han}{0,8}?(?:\d+丁目\d+(?:番地?)?(?:\d+号?)?|\d+-\d+(?:-\d+)?)`)

// jpRecipientWords name whom a Japanese address is for: 様 and さん after a
// name, the fields of a parcel (お届け先, 受取人, 宛先) and of a person (氏名).
var jpRecipientWords = []string{"様", "さん", "お届け先", "届け先", "受取人", "宛先", "氏名", "配送先", "自宅", "住所"}

// jpAddressNamed reports a Japanese address with whom it is for beside it:
// a recipient's word or a holder (a name, a name field). A company's
// published office address stands alone.
func jpAddressNamed(text string, lo, hi int) bool {
	return wordsNear(text, lo, hi, jpRecipientWords) || wordsNear(text, lo, hi, recipientWords) || holderNear(text, lo, hi)
}
