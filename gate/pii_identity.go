package gate

import (
	"regexp"
	"strconv"
	"strings"
	"unicode"
)

// Personal data that no checksum guards, counted beside the words that
// name it: identity documents' numbers (a CPF retold with a wrong digit,
// passports), licence plates, dates of birth and street addresses.

// PII kinds of this file.
const (
	// PIIPlate is a vehicle's registration (its licence plate).
	PIIPlate = "licence_plate"
	// PIIBirthDate is a person's date of birth.
	PIIBirthDate = "date_of_birth"
	// PIIAddress is a postal address: a house number on a street.
	PIIAddress = "address"
)

// cpfWords name a Brazilian CPF. Beside one, a number in the CPF's printed
// form (123.456.789-09) is given as a person's even when its check digits
// fail (mistyped, or retold), as Aadhaar and China's resident id are.
var cpfWords = []string{"cpf", "cadastro de pessoas"}

func cpfNamed(text string, lo, hi int) bool { return wordsNear(text, lo, hi, cpfWords) }

// issuedCPF rejects the numbers of one repeated digit (000.000.000-00),
// which forms print as masks and the Receita never issues.
// Nor is 123.456.789-00 anyone's: its digits count up, as documentation's
// and validators' examples do.
func issuedCPF(m string) bool {
	d := digitsOf(m)
	return strings.Count(d, d[:1]) != len(d) && !strings.Contains("0123456789", d[:9])
}

// rePassportNo is a passport number as countries print it: one or two
// letters and six to eight digits (Korea's M12345678, India's, the
// Schengen states'), eight or nine digits (the US, the UK), or nine
// characters of Germany's alphabet.
// Korea's passports issued since December 2021 put a letter inside
// (M123A4567).
var rePassportNo = regexp.MustCompile(`\b(?:[A-Z]{1,2}\d{6,8}|[A-Z]\d{3}[A-Z]\d{4}|\d{8,9}|[CFGHJKLMNPRTVWXYZ][0-9CFGHJKLMNPRTVWXYZ]{8})\b`)

// reKRPassport2021 is the form of Korea's passport numbers since 2021.
var reKRPassport2021 = regexp.MustCompile(`^[A-Z]\d{3}[A-Z]\d{4}$`)

// passportWords name a passport in the languages tickets are written in.
var passportWords = []string{"passport", "passports", "여권", "护照", "護照", "パスポート", "reisepass", "passeport", "pasaporte", "passaporto", "paszport"}

// passportNamed asks for a passport's word near the number; a number of
// bare digits, which counts anything, needs the word right beside it
// (within two dozen bytes) and no unit after it: "Passport's default token
// lifetime is 31536000 seconds" gives a duration.
func passportNamed(text string, lo, hi int) bool {
	if !wordsNear(text, lo, hi, passportWords) {
		// Farther off, in a text that names passports, a number of
		// letters and digits counts beside its holder's name (a
		// notebook's output "M48217653 (정민호)").
		// Korea's passports since 2021 (M482K7193: a letter, three
		// digits, a letter, four digits) have a form no other code in
		// such a text shares: anywhere in it, the number is one.
		named := containsAny(strings.ToLower(text), passportWords)
		if named && reKRPassport2021.MatchString(text[lo:hi]) {
			return true
		}
		return strings.IndexFunc(text[lo:hi], unicode.IsLetter) >= 0 && named && ownerNear(text, lo, hi)
	}
	if strings.IndexFunc(text[lo:hi], unicode.IsLetter) >= 0 {
		return true
	}
	beside := strings.ToLower(text[max(lo-24, 0):lo] + " " + text[hi:min(hi+24, len(text))])
	if !containsAny(beside, passportWords) {
		return false
	}
	return !countedAfter(text, hi)
}

// countUnits follow a number that counts or measures something.
var countUnits = []string{"seconds", "second", "secs", "sec", "s", "ms", "bytes", "b", "kb", "mb", "gb", "rows", "requests", "users",
	"downloads", "times", "tokens", "초", "건", "명", "개"}

// startsWord reports text beginning with a letter or a digit.
func startsWord(text string) bool {
	for _, r := range text {
		return unicode.IsLetter(r) || unicode.IsDigit(r)
	}
	return false
}

// validPassportNo asks for five digits or more: a word in capitals is no
// document's number.
func validPassportNo(m string) bool { return len(digitsOf(m)) >= 5 }

// rePlate is a licence plate: letters and digits in two or three groups
// (the UK's AB12 CDE, Germany's M AB 1234 and B-XY 123, France's AB-123-CD,
// California's 7ABC123, the Netherlands' 12-ABC-3) or Korea's 12가 3456.
var rePlate = regexp.MustCompile(`\b(?:[A-Z]{1,3}[ -]?\d{1,4}[ -]?[A-Z]{1,3}|[A-Z]{1,3}[ -][A-Z]{1,2}[ -]\d{1,4}|[A-Z]{1,3}-[A-Z]{1,2} ?\d{1,4}|\d{1,3}-[A-Z]{1,3}-\d{1,3}|\d[A-Z]{3}\d{3}|[A-Z]{1,3}[ -]\d{3,4})\b|\b\d{2,3}` + krPlateLetters + ` ?\d{4}\b`)

// plateWords name a vehicle's registration.
// Registration alone is left out: services, packages and names register.
var plateWords = []string{"plate", "plates", "numberplate", "licence plate", "license plate", "번호판", "차량번호", "차량 번호", "차번호", "kennzeichen", "immatriculation", "matrícula", "targa", "ナンバー"}

func plateNamed(text string, lo, hi int) bool { return wordsNear(text, lo, hi, plateWords) }

// productPrefixes open a product's or a standard's model number, which a
// plate's form also fits (RTX 3060, GTX 1080, RFC 5737).
var productPrefixes = []string{"RTX", "GTX", "RX", "MX", "GT", "HD", "UHD", "ISO", "RFC", "CVE", "PEP", "USB", "SM", "ARM"}

// validPlate asks for letters and digits both, and no product's prefix.
func validPlate(m string) bool {
	for _, p := range productPrefixes {
		if strings.HasPrefix(m, p) && len(m) > len(p) && (m[len(p)] == ' ' || m[len(p)] == '-') {
			return false
		}
	}
	letter, digit := false, false
	for _, r := range m {
		letter = letter || unicode.IsLetter(r)
		digit = digit || unicode.IsDigit(r)
	}
	return letter && digit
}

// dateForm is a full date (day, month and year) as people write it.
const dateForm = `(?:\d{1,2}[/.-]\d{1,2}[/.-](?:19|20)\d\d|(?:19|20)\d\d[/.-]\d{1,2}[/.-]\d{1,2}|` +
	`\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?,?\s+(?:19|20)\d\d|` +
	`(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{1,2}(?:st|nd|rd|th)?,?\s+(?:19|20)\d\d|` +
	`(?:19|20)\d\d\s*년\s*\d{1,2}\s*월\s*\d{1,2}\s*일|(?:19|20)\d\d\s*年\s*\d{1,2}\s*月\s*\d{1,2}\s*日)`

// compactDate is a date as eight digits, YYYYMMDD, as records store it.
const compactDate = `(?:19|20)\d\d(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])\b`

// codeDate is a date built in code: Python's date(1990, 3, 9) and
// datetime(…), Java's LocalDate.of(…), JavaScript's new Date(1990, 2, 9).
const codeDate = `(?:(?:date|datetime|LocalDate\.of|new\s+Date)\(\s*(?:19|20)\d\d\s*,\s*\d{1,2}\s*,\s*\d{1,2}\s*\))`

// reBirthDate is a full date after a word for a birth (DOB, date of birth,
// born, 생년월일, Geburtsdatum, né le) or a Korean date with 생 after it
// (1988년 11월 3일생).
//
// The words may be a field's name in a record's syntax (date_of_birth =,
// "birthDate": "…", dob:, birth=19950218): separators _ . - or camelCase
// between the words, the key's quotes around the sign, and there a date
// written as eight digits.
var reBirthDate = regexp.MustCompile(`(?i)(?:\bd\.?o\.?b\b\.?|\bdate[\s_.-]*of[\s_.-]*birth|\bbirth[\s_.-]*date|\bbirthday|\bborn(?:\s+on)?|\bgeburtsdatum|\bgeboren(?:\s+am)?|\bnée?\s+le|\bfecha\s+de\s+nacimiento|생년월일|생일|출생일?|生年月日|出生年月日|出生日期|誕生日)["']?\s*(?:[:：=]|is|was)?\s*["']?(?:` + dateForm + `|` + compactDate + `|` + codeDate + `)` +
	`|\bbirth["']?\s*[:=]\s*["']?(?:` + dateForm + `|` + compactDate + `)` +
	`|(?:19|20)\d\d\s*년\s*\d{1,2}\s*월\s*\d{1,2}\s*일\s*(?:생|출생)`)

// birthPlaceholder passes the dates that stand for no birth: 1900-01-01,
// which legacy tables and forms write for an unknown one, and the Unix
// epoch's edges (1970-01-01, 1969-12-31) that a zero or a -1 timestamp
// prints.
func birthPlaceholder(m string) bool {
	l := strings.ToLower(m)
	var year string
	var rest []string
	for _, n := range reDateNumber.FindAllString(l, -1) {
		if year == "" && len(n) == 4 {
			year = n
		} else {
			rest = append(rest, strings.TrimLeft(n, "0"))
		}
	}
	if len(rest) == 1 {
		for i, mon := range []string{"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"} {
			if strings.Contains(l, mon) {
				rest = append(rest, strconv.Itoa(i+1))
				break
			}
		}
	}
	if len(rest) != 2 {
		return false
	}
	pair := rest[0] + "/" + rest[1]
	switch year {
	case "1900", "1970":
		return pair == "1/1"
	case "1969":
		return pair == "31/12" || pair == "12/31"
	}
	return false
}

var reDateNumber = regexp.MustCompile(`\d+`)

var birthHints = []string{"dob", "d.o.b", "birth", "born", "geburt", "geboren", "né", "nacimiento", "생년월일", "생일", "출생", "일생",
	"生年月日", "出生", "誕生日"}

// exampleValue reports a value the words around it call an example, or
// that belongs to the sample person documentation and forms fill in
// (John Doe, Erika Mustermann, 홍길동, ICAO's and the states' specimen
// documents).
//
// Both are read near the value and in its own sentence: a form's
// placeholder named a sentence later ("Our form's placeholder reads John
// Smith.") says nothing of the customer's date of birth before it.
func exampleValue(text string, lo, hi int) bool {
	from, to := sentenceAround(text, lo, hi)
	return wordsNear(text[from:to], lo-from, hi-from, exampleWords) || wordsNear(text[from:to], lo-from, hi-from, samplePersons)
}

// sentenceAround narrows the text around a value (lo, hi) to its own
// sentence: from the last sentence end before it to the first after. An
// abbreviation's dot (e.g., i.e.) ends no sentence.
func sentenceAround(text string, lo, hi int) (from, to int) {
	from, to = 0, len(text)
	for i := lo - 1; i > 0; i-- {
		if sentenceEnd(text, i) {
			from = i + 1
			if text[i] != '\n' && text[i] > 0x7F {
				from = i + len("。")
			}
			break
		}
	}
	for i := hi; i < len(text); i++ {
		if sentenceEnd(text, i) {
			to = i
			break
		}
	}
	return from, to
}

// sentenceEnd reports a sentence ending at text[i]: a line break, 。, or
// . ! ? before a space.
func sentenceEnd(text string, i int) bool {
	switch c := text[i]; {
	case c == '\n':
		return true
	case strings.HasPrefix(text[i:], "。"):
		return true
	case c == '.' || c == '!' || c == '?':
		if i+1 < len(text) && text[i+1] != ' ' {
			return false
		}
		l := strings.ToLower(text[max(i-3, 0):i])
		return !strings.HasSuffix(l, "e.g") && !strings.HasSuffix(l, "i.e")
	}
	return false
}

// technicalWords are a program's, a model's or a service's: beside one, a
// date, a number or a street in a personal datum's form is a figure of the
// software (an epoch's edge, a token's lifetime in seconds, a GPU's model
// number in an OCR benchmark, files counted against a quota), not a
// person's own.
var technicalWords = []string{"api", "sdk", "ocr", "model", "fps", "gpu", "quota", "upload", "sync", "files", "gb", "token",
	"lifetime", "seconds", "unix", "epoch", "timestamp", "javascript", "mysql", "pandas", "null", "validate", "benchmark",
	"inference", "모델", "인식", "좌표", "테이블", "레거시"}

// personalExempt passes a datum that needs a person beside it (a plate, a
// date of birth, an address, a document's number) where its own sentence
// calls it an example, or speaks of software and names no owner of the
// value (ownerNear): the value's form and its owner decide, not the
// presence of a technical word.
func personalExempt(text string, lo, hi int) bool {
	if exampleValue(text, lo, hi) {
		return true
	}
	if holderNear(text, lo, hi) {
		return false
	}
	from, to := sentenceAround(text, lo, hi)
	return wordsNear(text[from:to], lo-from, hi-from, technicalWords)
}

var exampleWords = []string{"example", "examples", "e.g", "sample", "samples", "placeholder", "fake", "dummy", "fixture", "specimen", "예시", "예:", "샘플", "가짜", "견본"}

// samplePersons are the names documentation gives its sample person.
var samplePersons = []string{"john doe", "jane doe", "john smith", "mustermann", "홍길동", "김철수", "山田太郎", "张三", "fulano de tal", "max mustermann"}

// icaoSpecimen is the passport number of ICAO Doc 9303's specimen
// (Anna Maria Eriksson of Utopia), printed in every MRZ example.
const icaoSpecimen = "L898902C3"

func passportPlaceholder(m string) bool { return m == icaoSpecimen || idPlaceholder(m) }

// personWords say that an address nearby is someone's: where a person
// lives or receives things, a customer's or a patient's. A landmark's or a
// company's public address stands beside none of them.
var personWords = []string{"live", "lives", "lived", "living", "home address", "postal address", "resident", "residence",
	"customer", "customer's", "client", "patient", "employee", "tenant", "my", "deliver", "delivery", "delivered", "ship to",
	"shipping", "billing", "고객", "자택", "거주", "배송", "주소지", "회원"}

func personNamed(text string, lo, hi int) bool { return wordsNear(text, lo, hi, personWords) }

// addressNamed asks for a person's word near the address, and no plural
// noun right after its street word: in "1200 Google Drive files" the
// number counts the files, no house is numbered.
func addressNamed(text string, lo, hi int) bool {
	return personNamed(text, lo, hi) && housesNumbered(text, hi)
}

// housesNumbered reports no plural noun right after the street's word:
// "1200 Google Drive files" counts files.
func housesNumbered(text string, hi int) bool {
	next := reNextWord.FindStringSubmatch(text[hi:])
	if next == nil {
		return true
	}
	w := next[1]
	return len(w) < 4 || !strings.HasSuffix(w, "s") || w == "address" || w == "always"
}

var reNextWord = regexp.MustCompile(`^ ([a-z]+)\b`)

// reAddress is a house number on a named street: English (118 Ngong Road,
// 27 Hartington Rd), German and Dutch (Lindenstrasse 27, Hauptstr. 5),
// French (12 rue de la Paix), Spanish, Italian and Portuguese (Calle Mayor
// 10, Via Roma 5, Rua Augusta 27), Korean road addresses (마포구 월드컵북로
// 402) and Japanese blocks (3丁目2-1).
var reAddress = regexp.MustCompile(`\b\d{1,5}[A-Za-z]?,?[\s+]+(?:[A-Z][a-z]+[\s+]+){1,3}(?:Road|Rd|Street|St|Avenue|Ave|Lane|Ln|Drive|Dr|Court|Ct|Place|Pl|Way|Circle|Cir|Trail|Square|Boulevard|Blvd|Terrace|Crescent|Close|Parkway|Pkwy|Highway|Hwy|Gardens|Grove|Mews)\b\.?|` +
	`\b[A-ZÄÖÜ][a-zäöüß]+(?:strasse|straße|str\.|weg|gasse|allee|platz|laan|straat|gracht)\s+\d{1,4}[a-z]?\b|` +
	`\b\d{1,4},?\s+(?:[Rr]ue|[Aa]venue|[Bb]oulevard|[Cc]hemin|[Aa]llée|[Ii]mpasse)\s+(?:d[eu]s?\s+|de\s+la\s+|d')?[A-Z]\w+|` +
	`\b(?:Calle|Avenida|Via|Viale|Rua|Carrer|Plaza|Praça)\s+(?:d[eoa]s?\s+|del\s+)?[A-Z][\wáéíóúãç]+(?:\s+[A-Z][\wáéíóúãç]+){0,2},?\s+\d{1,4}\b|` +
	`[가-힣]{1,6}(?:구|군|시)\s+[가-힣0-9]{1,12}(?:로|길)\s?\d{1,4}(?:-\d{1,4})?|` +
	// Polish (ul. Marszałkowska 84/92, al. Jerozolimskie 44).
	`\b(?:ul|al|pl|os)\.\s?\p{Lu}\p{Ll}+(?:\s\p{Lu}\p{Ll}+){0,2}\s\d{1,4}[a-z]?(?:/\d{1,4})?\b|` +
	`\d{1,2}\s?丁目\s?\d{1,4}(?:番地?|-)\s?\d{1,4}`)

var addressHints = []string{"road", "rd", "street", "st", "ave", "lane", "ln", "drive", "blvd", "boulevard", "terrace", "crescent",
	"close", "parkway", "pkwy", "highway", "hwy", "gardens", "grove", "mews", "str", "weg", "gasse", "allee", "platz", "laan", "straat", "gracht",
	"rue", "avenue", "chemin", "allée", "impasse", "calle", "avenida", "via", "viale", "rua", "carrer", "plaza", "praça", "로", "길", "丁目",
	"ul.", "al.", "pl.", "os."}

// addressPlaceholder passes the addresses documentation prints: a counting
// house number on Main Street or in Anytown (123 Main St), a street named
// for an example, and Google's own address, which the Geocoding API's
// reference geocodes in every example.
func addressPlaceholder(m string) bool {
	l := strings.ToLower(m)
	if containsAny(l, []string{"example", "sample", "fake", "anytown", "amphitheatre", "main st"}) {
		return true
	}
	return countingHouse(m)
}
