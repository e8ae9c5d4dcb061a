package gate

import (
	"regexp"
	"strings"
)

// Whose datum it is. A plate, a date of birth, an address or a document's
// number beside a technical word may be the software's figure (an epoch's
// edge, a GPU's model number), but a technical word says nothing about
// whose value it is: "the API returned customer Hannah Weisz's DOB
// 14/07/1986" speaks of software and still hands over a person's birth
// date. So the exemption by technical words holds only where no owner
// stands beside the value: a word for the person it belongs to
// (ownerWords), a title before a name, a name followed by its possessive,
// its comma or its bracket, or a Korean name with its honorific.

// ownerWords name the person a datum belongs to. "user" and "client" are
// left out: a users table and an HTTP client are no one.
var ownerWords = []string{"customer", "customers", "customer's", "patient", "patients", "patient's",
	"tenant", "tenant's", "employee", "employee's", "applicant", "applicant's", "passenger", "passenger's",
	"cardholder", "cardholder's", "policyholder", "account holder", "member's", "subscriber's", "client's",
	"user's", "his", "her", "my",
	"고객", "환자", "회원님", "직원", "신청자", "승객", "가입자", "임차인", "손님", "본인"}

// rePersonName is a person's name as text writes it beside a datum: a
// title and a capitalised name (Mr. Okafor, Dr Lee), two or three
// capitalised words followed by a possessive, a comma, a colon or a
// bracket (Hannah Weisz's, Ana Costa,), or a Korean name of two to four
// syllables with 님 or 씨.
var rePersonName = regexp.MustCompile(`\b(?:Mr|Mrs|Ms|Mx|Dr|Prof)\.? [A-Z][a-z]+|` +
	`\b[A-Z][a-z]+(?: [A-Z][a-z]+){1,2}(?:'s|’s|,|:| \()|` +
	`[가-힣]{2,4} ?(?:님|씨)(?:의|은|는|이|가|\s|$)|` +
	// A Korean full name in brackets after its value: a surname and
	// two syllables.
	`\([김이박최정강조윤장임한오서신권황안송류전홍고문양손배백허유남심노하곽성차주우구민진지엄채원천방공현함변염여추도소석선설마길연위표명기반왕금옥육인맹제모탁국어은편용예경봉사부가복태목형계피두감음빈동온호범좌팽승간상갈시화견당]{1}[가-힣]{2}\)`)

// ownerNear reports an owner of the value at text[lo:hi] in its own
// sentence and near it.
func ownerNear(text string, lo, hi int) bool {
	from, to := sentenceAround(text, lo, hi)
	s, l, h := text[from:to], lo-from, hi-from
	if wordsNear(s, l, h, ownerWords) {
		return true
	}
	for _, loc := range rePersonName.FindAllStringIndex(s, -1) {
		if loc[1] < l-48 || loc[0] > h+48 {
			continue
		}
		if !techName(s[loc[0]:loc[1]]) {
			return true
		}
	}
	return false
}

// techName reports a capitalised run that names software rather than a
// person: any of its words a known technology or a technical word
// (Google Drive, Unix Time, Laravel Passport).
func techName(name string) bool {
	name = strings.TrimRight(name, "'’s,:( ")
	for _, w := range strings.Fields(name) {
		l := strings.ToLower(strings.TrimSuffix(w, "."))
		for _, t := range knownTech {
			if strings.ToLower(t) == l {
				return true
			}
		}
		for _, t := range technicalWords {
			if t == l {
				return true
			}
		}
		for _, t := range []string{"google", "drive", "time", "passport", "apple", "microsoft", "amazon", "aws", "azure", "date", "street", "road"} {
			if t == l {
				return true
			}
		}
	}
	return false
}
