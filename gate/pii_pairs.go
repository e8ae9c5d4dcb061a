package gate

import (
	"encoding/base64"
	"regexp"
	"strings"
	"unicode"
)

// Secrets whose name and value stand apart (a Kubernetes env entry, an ECS
// environment list, a Terraform variable's default, XML elements and
// appSettings, .netrc), passwords in prose and in credential files, keys
// encoded in base64, and the documentation shapes of private keys and
// webhooks.

// rePair finds a value bound to a name that stands apart from it; the name
// is the first group that matched, the value the last:
// - name: DB_PASSWORD / value: "…" (Kubernetes env, Helm extraEnv) and
// {"name": "X", "value": "…"} (ECS, Cloud Run, a HAR file's headers, where
// an Authorization value opens on its scheme), also when the YAML is
// quoted on one line with its newlines written \n;
// variable "db_password" { … default = "…" } (Terraform);
// <password>…</password> (Maven settings.xml, XML configs);
// <add key="ApiSecret" value="…"/> (.NET appSettings);
// machine h login u password … (.netrc).
var rePair = regexp.MustCompile(`(?i)\bname["']?\s*:\s*["']?([A-Za-z_][\w.-]*)["']?(?:\s|\\n)*,?(?:\s|\\n)*["']?value["']?\s*:\s*["']?(?:(?:bearer|basic|token|apikey)\s+)?([^\s"',}\\]+)|` +
	`\bvariable\s+"([^"]+)"\s*\{[^{}]*?\bdefault\s*=\s*"([^"]*)"|` +
	`<([A-Za-z][\w.:-]*)>([^<>\s]{4,})</|` +
	`<add\s+key\s*=\s*"([^"]+)"\s+value\s*=\s*"([^"]*)"|` +
	// Postman's {"key": "apiKey", "value": "…"}, Java's XML properties
	// (<entry key="db.password">…</entry>) and Spring's and Ant's
	// <property name="password" value="…"/>.
	`"key"\s*:\s*"([A-Za-z_][\w.-]*)"\s*,\s*"value"\s*:\s*"([^"\\]+)"|` +
	`<entry\s+key\s*=\s*"([^"]+)"\s*>([^<>\s]{4,})</entry>|` +
	`<(?:property|param|parameter|setting)\s+name\s*=\s*"([^"]+)"\s+value\s*=\s*"([^"]*)"|` +
	`\bmachine\s+\S+\s+login\s+\S+\s+(password)\s+(\S+)|` +
	// PHP's constants (wp-config.php's define('DB_PASSWORD', '…')) and
	// Redis's directives (requirepass …, masterauth …), a name and a value
	// with no = between them.
	`\bdefine\s*\(\s*['"]([A-Za-z_]\w*)['"]\s*,\s*['"]([^'"\s]{4,})['"]|` +
	`\b(requirepass|masterauth)\s+["']?([^\s"'\x60]{4,})`)

var pairHints = []string{"value", "default", "</", "<add", "machine", "define", "requirepass", "masterauth"}

// pairName returns the name of a rePair match.
func pairName(m string) string {
	sm := rePair.FindStringSubmatch(m)
	for _, g := range sm[1:] {
		if g != "" {
			return g
		}
	}
	return ""
}

// passwordName reports whether a setting's name says it holds a password
// (DB_PASSWORD, master_password, MYSQL_PWD, DB_PASS, passphrase), not a
// rule about passwords (password_length, min_password_age).
func passwordName(name string) bool {
	l := strings.ToLower(name)
	for _, n := range []string{"length", "policy", "hash", "age", "expir", "reset", "file", "path", "min", "max", "rotation", "secretkeyref"} {
		if strings.Contains(l, n) {
			return false
		}
	}
	return strings.Contains(l, "password") || strings.Contains(l, "passwd") || strings.Contains(l, "passphrase") ||
		strings.HasSuffix(l, "pwd") || strings.HasSuffix(l, "_pass") || strings.HasSuffix(l, "-pass") || l == "pass" ||
		l == "requirepass" || l == "masterauth"
}

func pairPassword(m string) bool { return passwordName(pairName(m)) }

func pairSecret(m string) bool {
	n := pairName(m)
	return !passwordName(n) && secretName(n+"=")
}

// reProsePassword finds a password told in prose: "with password
// `Hx7v…`", "the password is Hx7v…", "비밀번호는 `Lp4z…`", "패스워드:
// Vr8k…". The value is the last group; provePassword judges it.
var reProsePassword = regexp.MustCompile("(?i)\\b(?:password|passphrase)(?:\\s+(?:is|was))?\\s+[`'\"]([^\\s`'\"]{6,})[`'\"]|" +
	"(?i)\\b(?:password|passphrase)\\s+(?:is|was)\\s+([!-~]{6,})|" +
	"(?:비밀번호|패스워드|비번)(?:는|은|가|를|이|:|\\s)*[:=]?\\s*[`'\"]?([A-Za-z0-9!#$%&()*+./:;<=>?@\\[\\]^_{|}~-]{6,})")

var prosePasswordHints = []string{"password", "passphrase", "비밀번호", "패스워드", "비번"}

// reAccountPair finds an account told as user / password after a word for
// an account or a login ("관리자 계정은 admin / Sk!9wq#2Lm", "the login is
// deploy / Hx7v!29a"); the value is the last group, and accountPassword
// asks it to read as a password, not an error code or a path.
var reAccountPair = regexp.MustCompile(`(?i)(?:계정|account|login|credentials?|로그인)(?:은|는|이|:|\s+is|\s+was|\s)*\s*[A-Za-z0-9._@-]{2,32}\s*/\s*([!-~]{8,40})`)

var accountPairHints = []string{"계정", "account", "login", "credential", "로그인"}

// accountPassword reports whether the value after the slash of an account
// pair reads as a password: no further slash (a path), a digit, and a
// symbol or letters of both cases in no word (not ERR_AUTH_401, not
// ReadPackages2).
func accountPassword(m string) bool {
	v := strings.TrimRight(reAccountPair.FindStringSubmatch(m)[1], ".,;:)")
	if strings.Contains(v, "/") {
		return false
	}
	upper, lower, digit, symbol := false, false, false, false
	for _, r := range v {
		upper = upper || unicode.IsUpper(r)
		lower = lower || unicode.IsLower(r)
		digit = digit || unicode.IsDigit(r)
		symbol = symbol || strings.ContainsRune("!#$%&*@^~?+=", r)
	}
	return digit && (symbol || upper && lower && !reLowerRun.MatchString(v))
}

// reLowerRun is a run of four lower-case letters: a word's (ReadPackages2,
// OAuth2Proxy), which a generated password seldom holds.
var reLowerRun = regexp.MustCompile(`[a-z]{4}`)

// prosePlaceholder passes what prose says about a password that is not
// one: a word, a template, a mask, or anything without both a letter and
// a digit ("the password is bcrypt-hashed").
func prosePlaceholder(v string) bool {
	v = strings.TrimRight(v, ".,;:)")
	if secretPlaceholder(v) {
		return true
	}
	letter, digit := false, false
	for _, r := range v {
		letter = letter || unicode.IsLetter(r)
		digit = digit || unicode.IsDigit(r)
	}
	return !letter || !digit
}

// reDockerAuth is a registry credential in base64 of user:password:
// ~/.docker/config.json's "auth", and .npmrc's _auth (bare or after a
// registry's //host/path/: prefix).
var reDockerAuth = regexp.MustCompile(`"auth"\s*:\s*"([A-Za-z0-9+/]{12,}={0,2})"|(?:^|[\s:\x60'"])_auth\s*=\s*["']?([A-Za-z0-9+/]{12,}={0,2})`)

func dockerAuth(m string) bool {
	sm := reDockerAuth.FindStringSubmatch(m)
	v := sm[1] + sm[2]
	_, pw, ok := basicCredentials(v)
	return ok && pw != ""
}

func dockerAuthPlaceholder(v string) bool {
	_, pw, _ := basicCredentials(v)
	return docSecrets[v] || secretPlaceholder(pw)
}

// rePgpass is a line of a PostgreSQL password file,
// host:port:database:user:password; the rule runs only where the text
// names the file.
var rePgpass = regexp.MustCompile("\\b[\\w.-]+:(?:\\d+|\\*):[\\w*.-]+:[\\w*.-]+:([^\\s:`'\"]+)")

// rePEMBase64 is a PEM block encoded once more in base64 (a Kubernetes
// Secret's tls.key, an Argo CD sshPrivateKey): "-----BEGIN" is LS0tLS1CRUdJTi.
var rePEMBase64 = regexp.MustCompile(`\bLS0tLS1CRUdJTi[A-Za-z0-9+/]{20,}={0,2}`)

// pemBase64Key reports whether the value decodes to a private key's header
// followed by some of its body.
func pemBase64Key(m string) bool {
	b, err := base64.StdEncoding.DecodeString(m[:len(m)/4*4])
	if err != nil {
		b, _ = base64.RawStdEncoding.DecodeString(strings.TrimRight(m[:len(m)/4*4], "="))
	}
	s := string(b)
	i := strings.Index(s, "PRIVATE KEY-----")
	return i >= 0 && len(s)-i-len("PRIVATE KEY-----") >= 12
}

// pemBody reports whether a private key's header holds or opens a key:
// base64 on the next line (even cut short, MIIE), on the same line, or
// nothing after it at all. A header followed by prose or inline code ("…
// PRIVATE KEY----- and some libraries", "`…-----`, not"), or by a template
// line ("...", "<paste the key here>", xxxx) names a format and holds no
// key.
func pemBody(text string, _, hi int) bool {
	rest := text[hi:]
	i := 0
	for i < len(rest) && (rest[i] == ' ' || rest[i] == '\t') {
		i++
	}
	newline := false
	for i < len(rest) {
		switch {
		case rest[i] == '\n' || rest[i] == '\r':
			i++
		case rest[i] == '\\' && i+1 < len(rest) && rest[i+1] == 'n':
			i += 2
		default:
			goto body
		}
		newline = true
		for i < len(rest) && (rest[i] == ' ' || rest[i] == '\t' || rest[i] == '|') {
			i++
		}
	}
body:
	if i >= len(rest) {
		return true
	}
	run := 0
	for j := i; j < len(rest) && isBase64Byte(rest[j]); j++ {
		run++
	}
	line, _, _ := strings.Cut(rest[i:], "\n")
	switch l := strings.ToLower(line); {
	case strings.Contains(l, "xxxx"), strings.HasPrefix(l, "..."), strings.HasPrefix(l, "<"), strings.HasPrefix(l, "{{"), strings.HasPrefix(l, "$"):
		return false
	case (run < elidedBody || run <= 64 && opensshHeader(rest[i:i+run])) && (strings.HasPrefix(rest[i+run:], "...") || strings.HasPrefix(rest[i+run:], "…")):
		// MIIEv... : the opening bytes of every key of its type and
		// size (its ASN.1 header), then an ellipsis, is a key elided.
		return false
	case strings.HasPrefix(line, "-----END"):
		return false
	case newline:
		// Proc-Type: 4,ENCRYPTED opens an old encrypted key.
		return run >= 4 || strings.Contains(line, ": ")
	}
	return run >= 16
}

// opensshHeader reports whether a base64 run decodes to the opening every
// OpenSSH private key shares: the magic "openssh-key-v1", then the cipher
// and KDF names and the KDF's salt, no key (b3BlbnNzaC1rZXktdjEA… is the
// magic alone).
func opensshHeader(run string) bool {
	b, _ := base64.StdEncoding.DecodeString(run[:len(run)/4*4])
	return strings.HasPrefix(string(b), "openssh-key-v1")
}

// elidedBody bounds the base64 characters a key's body may show before an
// ellipsis and still be elided: up to 12 are an ASN.1 header the keys of a
// type and size share (MIIEvQIBADAN, MIIEowIBAAKC, MHcCAQEEI), no key.
const elidedBody = 13

// slackWebhookPlaceholder passes the shape Slack's documentation prints,
// https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX:
// a workspace or bot id of zeros, or a masked token.
func slackWebhookPlaceholder(m string) bool {
	parts := strings.Split(m[strings.Index(m, "/services/")+len("/services/"):], "/")
	if len(parts) < 3 {
		return true
	}
	zeros := func(s string) bool { return strings.Trim(s[1:], "0") == "" }
	return zeros(parts[0]) || zeros(parts[1]) || tokenPlaceholder(parts[2]) || strings.Count(strings.ToUpper(parts[2]), "X") == len(parts[2])
}

// reObfuscatedEmail is an address written to dodge scrapers: jane [at]
// corp [dot] com, minsu(at)corp.co.kr.
var reObfuscatedEmail = regexp.MustCompile(`(?i)\b[A-Za-z0-9._%+-]+\s*[\[(]\s*at\s*[\])]\s*[A-Za-z0-9-]+(?:\s*(?:[\[(]\s*dot\s*[\])]|\.)\s*[A-Za-z0-9-]+)*(?:\s*[\[(]\s*dot\s*[\])]|\.)\s*[A-Za-z]{2,24}\b`)

var reAtDot = regexp.MustCompile(`(?i)\s*[\[(]\s*(at|dot)\s*[\])]\s*`)

func obfuscatedEmailPlaceholder(m string) bool {
	plain := reAtDot.ReplaceAllStringFunc(m, func(s string) string {
		if strings.Contains(strings.ToLower(s), "at") {
			return "@"
		}
		return "."
	})
	return !strings.Contains(plain, "@") || emailPlaceholder(plain)
}

// reContextPhone holds national formats that grouped figures share
// (Poland's 512 847 336, Mexico's 55 3487 2196, Singapore's and Hong
// Kong's 9123 4567): they count only beside a word that says phone.
var reContextPhone = regexp.MustCompile(`\b[4-8]\d{2} \d{3} \d{3}\b|\(?\b\d{2}\)? \d{4} \d{4}\b|\b[35689]\d{3}[ -]\d{4}\b`)

// phoneWords say that a number nearby is someone's phone. Words with
// technical senses beside grouped figures (ring buffers, signals, "reach
// 5000-6000 rps") are left out.
var phoneWords = []string{"phone", "phones", "mobile", "cell", "call", "text", "tel", "whatsapp", "sms", "contact",
	"전화", "휴대폰", "핸드폰", "연락", "폰"}

func phoneNamed(text string, lo, hi int) bool { return wordsNear(text, lo, hi, phoneWords) }

// reNationalPhone is a national number as people group it, whatever the
// country: a trunk 0 or not, two to four groups of digits (0300 4827193,
// 01712-482916, 012-482 9167, 0712 482 916, 694 482 9173, 0664 4829173,
// 0470 48 29 17). Alone it is any grouped figure; it counts beside a word
// that says phone, in the languages phones are written beside
// (phoneNamedWide), with 9 to 12 digits.
var reNationalPhone = regexp.MustCompile(`\(?\b\d{2,5}\)?[ .-]\d{2,7}(?:[ .-]\d{2,4}){0,3}\b`)

// phoneWordsWide are phoneWords and the same in other languages and in
// field names (msisdn, gsm, Handy, celular, telemóvel, 携帯).
var phoneWordsWide = append([]string{"msisdn", "gsm", "handy", "mobil", "móvil", "movil", "celular", "cellulare",
	"telemóvel", "telemovel", "telefone", "telefono", "teléfono", "telefon", "téléphone", "portable", "mobiel",
	"puhelin", "tlf", "tel.", "cellphone", "mobile_no", "phone_no", "携帯", "電話"}, phoneWords...)

func phoneNamedWide(text string, lo, hi int) bool {
	return (wordsNear(text, lo, hi, phoneWordsWide) || fieldNamesPhone(text, lo)) && !phoneDenied(text, lo, hi)
}

// fieldNamesPhone reports a field name that says phone right before the
// value (customer_phone=, mobileNumber:, "msisdn":).
func fieldNamesPhone(text string, lo int) bool {
	m := reFieldBefore.FindStringSubmatch(text[max(lo-40, 0):lo])
	return m != nil && containsAnyWord(fieldWords(m[1]), []string{"phone", "mobile", "msisdn", "tel", "cell", "gsm", "handy", "celular"})
}

var reFieldBefore = regexp.MustCompile(`([A-Za-z_][\w.-]*)["']?\s*[:=]\s*["']?$`)

// validNationalPhone asks for 9 to 12 digits, no dot (a version's, a
// date's), and none of the forms other rules own: an SSN's 3-2-4 and a
// Korean mobile's 010 prefix (their rules judge them, and turn invalid
// ones down: "rejected value [010-4827-39]").
func validNationalPhone(m string) bool {
	d := digitsOf(m)
	return len(d) >= 9 && len(d) <= 12 && !strings.Contains(m, ".") && !reSSNShape.MatchString(m) && !reKRMobileHead.MatchString(m)
}

var (
	reSSNShape     = regexp.MustCompile(`^\d{3}[ -]\d{2}[ -]\d{4}$`)
	reKRMobileHead = regexp.MustCompile(`^01[016789][ .-]`)
)

// reKRDriverLicence is a Korean driver's licence number (11-19-347823-61:
// region, year, serial, check), counted beside its name.
var reKRDriverLicence = regexp.MustCompile(`\b\d{2}-\d{2}-\d{6}-\d{2}\b`)

func licenceNamed(text string, lo, hi int) bool {
	return wordsNear(text, lo, hi, []string{"면허", "licence", "license", "driver"})
}

// wordsNear reports whether one of words (lowercase) stands within 48 bytes
// of text[lo:hi]; ASCII words must stand as whole words.
func wordsNear(text string, lo, hi int, words []string) bool {
	from, to := max(lo-48, 0), min(hi+48, len(text))
	for from > 0 && from < len(text) && text[from]&0xC0 == 0x80 {
		from--
	}
	for to < len(text) && text[to]&0xC0 == 0x80 {
		to++
	}
	around := strings.ToLower(text[from:lo] + " " + text[hi:to])
	for _, w := range words {
		if w[0] < 0x80 {
			if containsWord(around, w) {
				return true
			}
		} else if strings.Contains(around, w) {
			return true
		}
	}
	return false
}
