package gate

import (
	"regexp"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// PII and secret kinds the gate names in its reasons. A reason names kinds,
// never the matched values.
const (
	PIIEmail     = "email"
	PIIPhone     = "phone"
	PIICard      = "card_number"
	PIIUSSSN     = "us_ssn"
	PIIKoreanRRN = "kr_rrn"
	PIIIBAN      = "iban"
	// PIINationalID is another country's identity number, by its form and
	// check (Brazil's CPF, India's Aadhaar, China's resident id, the UK's
	// National Insurance number).
	PIINationalID   = "national_id"
	PIIAWSKey       = "aws_access_key"
	PIIAWSSecret    = "aws_secret_key"
	PIIGoogleAPIKey = "google_api_key"
	PIIAzureKey     = "azure_key"
	PIIAzureSAS     = "azure_sas"
	PIIGitHubToken  = "github_token"
	PIISlackToken   = "slack_token"
	PIIStripeKey    = "stripe_key"
	PIIOpenAIKey    = "openai_key"
	PIIPrivateKey   = "private_key"
	PIIJWT          = "jwt"
	PIISlackWebhook = "slack_webhook"
	PIIPassword     = "password"
	// PIIAPIToken is a service's token recognised by its prefix (GitLab,
	// npm, PyPI, Hugging Face, SendGrid, Vault, Telegram, DigitalOcean…).
	PIIAPIToken = "api_token"
	// PIISecret is a random-looking value (base64, hex, a long mixed
	// token) assigned to a name that says it is secret: *secret*, *token*,
	// *key*, *password*, an Authorization header.
	PIISecret = "secret"
)

type piiRule struct {
	kind string
	// re finds a candidate; the whole match is the span it claims.
	re *regexp.Regexp
	// valid, when set, must accept the match (checksums, ranges, the name
	// a value is assigned to).
	valid func(m string) bool
	// near, when set, must accept the text around the match (lo, hi): a
	// format ordinary codes share counts only beside the words that name
	// it.
	near func(text string, lo, hi int) bool
	// lineNear is near for a condition that reads the match's whole line
	// (or the title): the scan hands it a memo of the last line's verdict,
	// one per rule and text, so a long line of matches is read once, not
	// once per match.
	lineNear func(text string, lo, hi int, m *lineMemo) bool
	// placeholder, when set and true, lets a documentation value pass. It
	// judges the value: the last group of re that matched, else the match.
	placeholder func(v string) bool
	// example, when set and true, lets a match pass where the text around
	// it says it is an example (a phone number counting up beside "예시").
	example func(text string, lo, hi int) bool
	// hints, when set, are lowercase strings one of which the text, as
	// foldLower lower-cases it, must contain for re to run at all (a cheap filter in front of
	// an expensive pattern).
	hints []string
	// may, when set, is a condition every text re matches in meets, far
	// cheaper to test than re (a run of token characters as long as the
	// shortest match): false skips re. It never changes a result.
	may func(text string) bool
	// digits runs re only inside runs of digits and ( ) . / - and spaces,
	// which is all a phone or card number is made of: re never scans
	// prose.
	digits bool
	// named: re starts at the word that makes a name secret (secret, token,
	// key); the whole name before it, the run of letters, digits and _ . -,
	// joins the match valid judges.
	named bool
	// also are kinds the match names besides kind (the date of birth a
	// passport's machine-readable line carries).
	also []string
}

var reDigitRun = regexp.MustCompile(`[\d(][\d ()./-]*\d`)

// piiRules run in order; a match claims its span, so a later rule cannot
// report the same characters again (a token inside a URL is a token, not a
// password; a card's digits are not also a phone number).
var piiRules = []piiRule{
	// A private key's header counts when a key follows it; alone it
	// names a format.
	{kind: PIIPrivateKey, re: regexp.MustCompile(`-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----`), near: pemBody},
	{kind: PIIPrivateKey, re: rePEMBase64, valid: pemBase64Key, hints: []string{"ls0tls1crudjti"}},
	// A JWK's private members and OpenVPN's static keys.
	{kind: PIISecret, re: reJWK, valid: jwkPrivate, hints: []string{"kty"}},
	{kind: PIISecret, re: reOpenVPNKey, hints: []string{"begin openvpn"}},
	// Push registrations and advertising ids address one device
	// (pii_devices.go), before the secret rules read "token".
	{kind: PIIDeviceID, re: reFCMToken, placeholder: tokenPlaceholder, hints: []string{"apa91b"}},
	{kind: PIIDeviceID, re: reAPNsToken, near: pushTokenNamed, placeholder: tokenPlaceholder, hints: apnsWords},
	{kind: PIIDeviceID, re: reAdvertisingID, placeholder: advertisingPlaceholder, example: exampleValue, hints: []string{"adid", "gaid", "aaid", "idfa", "advertising", "ad_id", "ad id", "ad-id", "광고"}},
	// A passport's machine-readable line, by its three check digits.
	{kind: PIINationalID, re: reMRZLine, valid: validMRZ, placeholder: mrzPlaceholder, example: exampleValue, also: []string{PIIBirthDate}},
	{kind: PIINationalID, re: reMRZNameLine, valid: validMRZName, placeholder: mrzNamePlaceholder, example: exampleValue},
	{kind: PIINationalID, re: reMRZLineTD1, valid: validMRZTD1, placeholder: mrzTD1Placeholder, example: exampleValue, also: []string{PIIBirthDate}},
	{kind: PIIAWSKey, re: regexp.MustCompile(`\b(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AIPA|ANPA|ANVA|AROA|APKA|ASCA)[A-Z0-9]{16}\b`), placeholder: awsPlaceholder},
	{kind: PIIAWSSecret, re: regexp.MustCompile(`(?i)aws_?secret_?(?:access_?)?key["']?(?:\s*[:=]\s*|[ \t]+)["']?[A-Za-z0-9/+]{40}\b`), placeholder: awsPlaceholder},
	{kind: PIIGoogleAPIKey, re: regexp.MustCompile(`\bAIza[0-9A-Za-z_-]{35}`), placeholder: tokenPlaceholder},
	{kind: PIIGitHubToken, re: regexp.MustCompile(`\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})\b`), placeholder: tokenPlaceholder},
	{kind: PIISlackToken, re: regexp.MustCompile(`\bxox[abposre]-[A-Za-z0-9-]{10,}|\bxapp-\d-[A-Za-z0-9-]{20,}`), placeholder: slackPlaceholder},
	{kind: PIISlackWebhook, re: regexp.MustCompile(`hooks\.slack\.com/services/T[A-Z0-9]{6,}/B[A-Z0-9]{6,}/[A-Za-z0-9]{16,}`), placeholder: slackWebhookPlaceholder},
	{kind: PIIStripeKey, re: regexp.MustCompile(`\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}\b|\bwhsec_[A-Za-z0-9]{24,}\b`), placeholder: stripePlaceholder},
	{kind: PIIOpenAIKey, re: regexp.MustCompile(`\bsk-(?:proj-|ant-(?:api\d\d-)?|svcacct-|admin-)?[A-Za-z0-9_-]{20,}`), placeholder: tokenPlaceholder},
	{kind: PIIAPIToken, re: reVendorToken, placeholder: vendorTokenPlaceholder, hints: vendorTokenHints},
	{kind: PIIAPIToken, re: reVendorTokenMore, placeholder: vendorTokenMorePlaceholder, hints: vendorTokenMoreHints, may: vendorTokenMoreMay},
	{kind: PIIJWT, re: regexp.MustCompile(`\beyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*`), placeholder: jwtPlaceholder},
	{kind: PIIAzureKey, re: regexp.MustCompile(`(?i)\b(?:AccountKey|SharedAccessKey)\s*=\s*[A-Za-z0-9+/]{20,}={0,2}`), placeholder: azurePlaceholder},
	{kind: PIIAzureSAS, re: regexp.MustCompile(`\bsv=\d{4}-\d\d-\d\d&[^\s"'<>]*?\bsig=[A-Za-z0-9%+/]{20,}|\bsig=[A-Za-z0-9%+/]{20,}[^\s"'<>]*?&sv=\d{4}`), placeholder: tokenPlaceholder},
	// Sentry's DSNs: the legacy form's secret key is a secret; a public key
	// alone ships in clients by design (pii_keyfiles.go) and passes.
	{kind: PIISecret, re: reSentrySecretDSN, hints: []string{"://"}},
	{kind: PIISecret, re: reSentryPublicDSN, near: sentryDSNNamed, placeholder: standalone, hints: []string{"://"}},
	// A key as a URL's whole userinfo (another service's token at
	// https://<key>@host/1) is a secret, not a mail address.
	{kind: PIISecret, re: regexp.MustCompile(`\b[A-Za-z][A-Za-z0-9+.-]*://(?:[0-9a-f]{32}|[A-Za-z0-9_-]{32,})@[^\s/?#"'<>]+`), placeholder: tokenPlaceholder},
	{kind: PIISecret, re: reUserinfoToken, valid: mixedCaseToken, placeholder: tokenPlaceholder, hints: []string{"://"}},
	// An incoming webhook's token in its path (pii_carriers.go).
	{kind: PIISecret, re: reHookURL, valid: hookToken, hints: []string{"hook"}},
	// A key in a URL's query (OpenWeather's appid=, api_key=, access_token=).
	{kind: PIISecret, re: reQuerySecret, placeholder: secretValuePlaceholder, hints: []string{"?", "&"}},
	{kind: PIIPassword, re: reAppPassword, placeholder: appPasswordPlaceholder, hints: []string{"app"}},
	{kind: PIISecret, re: reGCPKeyID, near: keyIDAlone, placeholder: tokenPlaceholder, hints: []string{"private_key_id"}},
	{kind: PIIPassword, re: reSQLInsert, valid: sqlInsertPassword, hints: []string{"insert"}},
	{kind: PIIPassword, re: reWrappedPassword, placeholder: secretPlaceholder, hints: []string{`value`}},
	// Passwords: a URL's userinfo, a Go MySQL DSN, key=value and key: value
	// settings. Values that are templates, masks or placeholder words pass.
	{kind: PIIPassword, re: regexp.MustCompile(`\b[A-Za-z][A-Za-z0-9+.-]*://[^\s:/?#@"'<>]*:[^\s/?@"'<>]+@[^\s/?#"'<>]+`), placeholder: urlPasswordPlaceholder},
	{kind: PIIPassword, re: regexp.MustCompile(`\b[\w.-]+:[^\s:@/"'<>]+@(?:tcp|unix)\(`), placeholder: urlPasswordPlaceholder},
	// A shell's escaped dollar (POSTGRES_PASSWORD=Jm5\$wQ8z) is part of
	// the value, not its end; a value that opens with one is a variable.
	{kind: PIIPassword, re: regexp.MustCompile(`(?i)\b[\w.]*(?:password|passwd|pwd|_pass)` + assignSep + `(?:&[^\s"'<>,;&)\\]+|[^\s"'<>,;&)\\](?:\\\$|[^\s"'<>,;&)\\])*)`), placeholder: settingPasswordPlaceholder},
	{kind: PIIPassword, re: regexp.MustCompile(`\b(?:mysql(?:dump|admin|import|check|sh|binlog|pump)?|mariadb(?:-?dump|-?admin|-?import|-?check)?)\b[^\n]*?\s-p'?[^\s']{4,}`), placeholder: settingPasswordPlaceholder},
	// Names and values that stand apart, credential files and prose.
	{kind: PIIPassword, re: rePair, valid: pairPassword, placeholder: secretPlaceholder, hints: pairHints},
	{kind: PIISecret, re: rePair, valid: pairSecret, placeholder: secretValuePlaceholder, hints: pairHints},
	{kind: PIIPassword, re: rePlistSecret, valid: plistPassword, placeholder: secretPlaceholder, hints: plistHints},
	{kind: PIISecret, re: rePlistSecret, valid: plistSecret, placeholder: secretValuePlaceholder, hints: plistHints},
	{kind: PIIPassword, re: reDockerAuth, valid: dockerAuth, placeholder: dockerAuthPlaceholder, hints: []string{`"auth"`, "_auth"}},
	{kind: PIIPassword, re: rePgpass, placeholder: secretPlaceholder, hints: []string{"pgpass"}},
	{kind: PIIPassword, re: reProsePassword, placeholder: prosePlaceholder, hints: prosePasswordHints},
	{kind: PIIPassword, re: reAccountPair, valid: accountPassword, placeholder: prosePlaceholder, hints: accountPairHints},
	{kind: PIIPassword, re: reAuthUserPass, valid: authUserPassLogin, near: authUserPassNamed, placeholder: secretPlaceholder, hints: []string{"auth-user-pass"}},
	{kind: PIIPassword, re: reAuthUserPassNote, near: authUserPassFile, placeholder: secretPlaceholder, hints: []string{"auth-user-pass"}},
	// Passwords given to a command on its command line.
	{kind: PIIPassword, re: reCLIPassword, placeholder: secretPlaceholder, hints: cliPasswordHints, may: cliPasswordMay},
	{kind: PIIPassword, re: reCLIPasswordMore, placeholder: secretPlaceholder, hints: cliPasswordMoreHints},
	{kind: PIIPassword, re: reHtpasswd, placeholder: tokenPlaceholder, hints: htpasswdHints},
	// A session cookie's value.
	{kind: PIISecret, re: reCookieSecret, placeholder: secretValuePlaceholder, hints: cookieHints},
	{kind: PIISecret, re: reCookiesTxt, valid: cookiesTxtSession, placeholder: secretValuePlaceholder, hints: []string{"\ttrue\t", "\tfalse\t"}},
	// Secret-looking values assigned to secret names.
	{kind: PIISecret, re: reQuotedSecret, valid: secretName, placeholder: quotedSecretPlaceholder, named: true, hints: []string{"secret", "token", "key"}},
	{kind: PIISecret, re: reSecretAssignment, valid: secretName, placeholder: secretValuePlaceholder, named: true, hints: []string{"secret", "token", "key", "authorization"}},
	{kind: PIIEmail, re: regexp.MustCompile(`[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,24}\b`), valid: mailAddress, near: notRemoteTarget, placeholder: emailPlaceholder},
	{kind: PIIEmail, re: reObfuscatedEmail, placeholder: obfuscatedEmailPlaceholder, hints: []string{"at]", "at)"}},
	{kind: PIIEmail, re: reEncodedEmail, placeholder: encodedEmailPlaceholder, hints: []string{"%40"}},
	{kind: PIIIBAN, re: regexp.MustCompile(`\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?\b`), valid: validIBAN, placeholder: ibanPlaceholder, example: exampleIBAN},
	{kind: PIIBankAccount, re: reBankField, near: bankNamed, placeholder: bankPlaceholder, hints: bankFieldHints},
	{kind: PIIBankAccount, re: reSortCodeProse, placeholder: bankPlaceholder, example: exampleValue, hints: []string{"sort"}},
	{kind: PIIBankAccount, re: reRoutingProse, valid: validABA, near: accountNear, placeholder: bankPlaceholder, example: exampleValue, hints: []string{"routing", "aba"}},
	{kind: PIIBankAccount, re: reNACHAEntry, valid: nachaEntry, near: nachaLine, placeholder: bankPlaceholder, digits: true},
	{kind: PIIBankAccount, re: reColumnNumber, near: bankColumn, placeholder: bankPlaceholder, hints: []string{"account", "acct", "sort", "routing", "bsb"}, digits: true},
	{kind: PIIBankAccount, re: reKRBankAccount, valid: krAccountDigits, placeholder: bankPlaceholder, hints: []string{"계좌"}},
	{kind: PIIBankAccount, re: reBareAccount, valid: krAccountDigits, near: bankNamed, placeholder: bankPlaceholder, hints: []string{"acc"}},
	{kind: PIIBankAccount, re: reKRBankNamed, valid: krBankNumber, placeholder: bankPlaceholder, example: exampleValue, hints: krBankHints},
	{kind: PIIKoreanRRN, re: regexp.MustCompile(`\b\d{6}[- ]?[1-8]\d{6}\b`), valid: validRRN, placeholder: rrnPlaceholder, digits: true},
	{kind: PIIUSSSN, re: regexp.MustCompile(`\b\d{3}-\d{2}-\d{4}\b|\b\d{3} \d{2} \d{4}\b`), valid: validSSN, placeholder: ssnPlaceholder, example: exampleSSN, digits: true},
	{kind: PIIUSSSN, re: reSSNDigits, valid: validSSNDigits, near: ssnNamed, placeholder: ssnPlaceholder, example: exampleSSN, digits: true},
	{kind: PIINationalID, re: reCPF, valid: validCPF, placeholder: idPlaceholder, example: sampleID},
	{kind: PIINationalID, re: reCPF, valid: issuedCPF, near: cpfNamed, placeholder: idPlaceholder, example: personalExempt},
	{kind: PIINationalID, re: rePassportNo, valid: validPassportNo, near: passportNamed, placeholder: passportPlaceholder, example: personalExempt},
	{kind: PIINationalID, re: reChinaID, valid: validChinaID, placeholder: idPlaceholder},
	{kind: PIINationalID, re: reChinaID, near: chinaIDNamed, placeholder: idPlaceholder},
	{kind: PIINationalID, re: reNINO, valid: validNINO, near: ninoNamedFar},
	{kind: PIINationalID, re: reNINO, valid: validNINO, lineNear: ninoRecord, example: personalExempt},
	{kind: PIINationalID, re: reHMRCExample, placeholder: standalone},
	{kind: PIIDriverLicence, re: reDVLALicence, valid: validDVLALicence, near: licenceNamedFarUK, example: exampleValue},
	{kind: PIIDriverLicence, re: reKRDriverLicence, near: krLicenceNamed, example: exampleValue, digits: true},
	{kind: PIIDriverLicence, re: reKRLicenceRegion, near: krLicenceNamed, example: exampleValue},
	{kind: PIIDriverLicence, re: reUSLicence, near: usLicenceNamed, placeholder: idPlaceholder, example: exampleValue, hints: []string{"licen", "dl"}},
	{kind: PIINationalID, re: reDNI, valid: validDNI, near: dniNamed, placeholder: idPlaceholder},
	// Before cards: an IMEI passes Luhn's check too.
	{kind: PIIDeviceID, re: reGSMAExampleIMEI, placeholder: standalone},
	{kind: PIIDeviceID, re: reIMEI, valid: validIMEI, near: imeiNamed, placeholder: imeiPlaceholder, example: exampleValue, digits: true},
	{kind: PIINationalID, re: reSINField, placeholder: idPlaceholder, example: exampleOrSample, hints: []string{"sin", "social"}},
	{kind: PIINationalID, re: reNineDigits, valid: validSIN, near: sinNamed, placeholder: idPlaceholder, example: exampleOrSample, digits: true},
	{kind: PIINationalID, re: reNineDigits, valid: validTFN, near: tfnNamed, placeholder: idPlaceholder, example: exampleValue, digits: true},
	{kind: PIINationalID, re: reNineDigits, valid: validBSN, near: bsnNamed, placeholder: idPlaceholder, example: exampleValue, digits: true},
	{kind: PIINationalID, re: reNineDigits, valid: validPortugueseNIF, near: nifNamed, placeholder: idPlaceholder, example: exampleValue, digits: true},
	{kind: PIINationalID, re: reNRIC, valid: validNRIC, near: nricNamed, placeholder: idPlaceholder, example: exampleValue},
	{kind: PIINationalID, re: reCodiceFiscale, valid: validCodiceFiscale, placeholder: idPlaceholder, example: exampleValue},
	{kind: PIINationalID, re: rePAN, near: panNamed, example: exampleValue},
	{kind: PIIVehicleID, re: reVIN, valid: validVIN, near: vinNamed, example: exampleValue},
	{kind: PIICard, re: regexp.MustCompile(`\b\d(?:[ -]?\d){12,18}\b`), valid: validCard, near: cardNear, placeholder: cardPlaceholder, digits: true},
	// After cards: the first twelve digits of a card are not an Aadhaar.
	{kind: PIINationalID, re: reAadhaar, valid: validAadhaar, placeholder: idPlaceholder, digits: true},
	{kind: PIINationalID, re: reAadhaarRun, valid: validAadhaar, near: aadhaarNear, placeholder: idPlaceholder, example: exampleOrSample, digits: true},
	{kind: PIIPhone, re: regexp.MustCompile(`\+\d{1,3}(?:[ .-]?\(?\d{1,4}\)?){2,5}\b`), valid: validIntlPhone, placeholder: phonePlaceholder, example: examplePhone},
	{kind: PIIPhone, re: regexp.MustCompile(`\b01[016789][ .-]?\d{3,4}[ .-]?\d{4}\b`), valid: validKRMobile, placeholder: phonePlaceholder, example: examplePhone, digits: true},
	{kind: PIIPhone, re: regexp.MustCompile(`\b0(?:2|[3-6][1-5]|70)[ .-]\d{3,4}[ .-]\d{4}\b|\(0(?:2|[3-6][1-5])\) ?\d{3,4}-\d{4}\b`), valid: standalone, placeholder: phonePlaceholder, example: examplePhone, digits: true},
	{kind: PIIPhone, re: regexp.MustCompile(`(?:\(\d{3}\) ?|\b\d{3}[ .-])\d{3}[ .-]\d{4}\b`), valid: validNANP, placeholder: phonePlaceholder, example: examplePhone, digits: true},
	// Other countries' national formats, written as people write them.
	{kind: PIIPhone, re: reForeignPhone, valid: validForeignPhone, near: notPhoneDenied, placeholder: phonePlaceholder, example: examplePhone, digits: true},
	{kind: PIIPhone, re: reContextPhone, near: phoneNamed, placeholder: phonePlaceholder, example: examplePhone, digits: true},
	{kind: PIIPhone, re: reNationalPhone, valid: validNationalPhone, near: phoneNamedWide, placeholder: phonePlaceholder, example: examplePhone, digits: true},
	// Plates, dates of birth and addresses, beside their words or in their
	// forms.
	{kind: PIIPlate, re: rePlate, valid: validPlate, near: plateNamedFar, example: personalExempt},
	{kind: PIIBirthDate, re: reHL7PID, valid: hl7Patient, hints: []string{"pid|"}},
	{kind: PIIBirthDate, re: reColumnDate, near: birthColumn, placeholder: birthPlaceholder, example: personalExempt, hints: birthHints},
	{kind: PIIBirthDate, re: reBirthDate, placeholder: birthPlaceholder, example: personalExempt, hints: birthHints},
	// Health data beside its patient (pii_health.go).
	{kind: PIIHealth, re: reHealthField, valid: healthValue, near: patientNear, hints: healthHints},
	{kind: PIIHealth, re: reHealthColumns, near: healthRowsNear, hints: healthHints},
	{kind: PIIHealth, re: reHealthProse, near: healthTold, hints: healthToldWords},
	{kind: PIIAddress, re: reAddress, near: addressNamedWide, placeholder: addressPlaceholder, example: personalExempt, hints: addressHints},
	{kind: PIIAddress, re: reJPAddress, near: jpAddressNamed, example: personalExempt, hints: []string{"都", "道", "府", "県"}},
	// A home's or a user's coordinates (pii_location.go).
	{kind: PIILocation, re: reHomeCoords, valid: validCoords, example: exampleValue, hints: []string{"lat", "coord", "loc", "position", "geo", "좌표", "위치"}},
	{kind: PIILocation, re: reCoordPair, valid: validCoordPair, near: coordsHolder, example: exampleValue},
	// A person's machine and a person's own address (pii_devices.go).
	{kind: PIIDeviceID, re: reMAC, valid: validMAC, near: personalMachine, example: exampleValue},
	{kind: PIIDeviceID, re: reDeviceSerial, valid: validSerial, near: personalMachine, example: exampleValue, hints: []string{"serial", "시리얼", "s/n"}},
	{kind: PIIIPAddress, re: reSSHAccepted, valid: sshLoginIP, hints: []string{"accepted "}},
	{kind: PIIIPAddress, re: reHostIPv4Host, valid: homeIP, lineNear: loginLineUser, example: exampleValue, hints: loginHints},
	{kind: PIIIPAddress, re: reHostIPv4Host, valid: homeIP, lineNear: homeIPNamed, example: exampleValue, hints: homeIPHints},
	// Last: a number in Aadhaar's form in a text naming it, whatever its check.
	{kind: PIINationalID, re: reAadhaar, near: aadhaarNamed, placeholder: idPlaceholder, digits: true},
}

// DetectPII returns the kinds of personal data and secrets in text, sorted and
// deduplicated; nil when there are none. Matches that are documentation
// placeholders (example.com mail, 555-01xx numbers, masked digits) or that
// fail their checksum (Luhn, mod-97, dates) do not count.
func DetectPII(text string) []string {
	found, _ := scanPII(text)
	if len(found) == 0 {
		return nil
	}
	kinds := make([]string, 0, len(found))
	for k := range found {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	return kinds
}

// documentedKinds are the kinds whose placeholders are values a reader can
// look up (a vendor's test card, a reserved fictional phone range, an
// example domain, AWS's example key), not words or templates in a secret's
// place.
var documentedKinds = map[string]bool{
	PIIEmail: true, PIIPhone: true, PIICard: true, PIIUSSSN: true, PIIKoreanRRN: true, PIIIBAN: true,
	PIINationalID: true, PIIBankAccount: true, PIIDeviceID: true, PIIAWSKey: true, PIIAWSSecret: true, PIIJWT: true, PIIStripeKey: true, PIISlackWebhook: true,
}

// documentedValue reports whether text holds a documented example value of
// one of documentedKinds (which the PII stage let pass).
func documentedValue(text string) bool {
	_, n := scanPII(text)
	return n > 0
}

// scanPII returns the kinds found in text and how many documented example
// values of documentedKinds passed as placeholders.
func scanPII(text string) (map[string]bool, int) {
	found := map[string]bool{}
	documented := 0
	// passed holds the digits of numbers that passed as examples.
	passed := map[string]bool{}
	// phones are the digits of the phone numbers that counted.
	var phones []string
	// covered keeps one kind from claiming digits another already matched
	// (a card number's digits also look like a phone number).
	var covered [][2]int
	// spans are the matches that count, for the kinds named beside them.
	var spans [][2]int
	overlaps := func(lo, hi int) bool {
		for _, c := range covered {
			if lo < c[1] && c[0] < hi {
				return true
			}
		}
		return false
	}
	var folded string
	var runs [][]int
	for _, r := range piiRules {
		var memo lineMemo
		if !mayMatch(r.re, text, &folded) {
			continue
		}
		if len(r.hints) > 0 {
			if folded == "" {
				folded = foldLower(text)
			}
			if !containsAny(folded, r.hints) {
				continue
			}
		}
		if r.may != nil && !r.may(text) {
			continue
		}
		if r.digits && runs == nil {
			runs = reDigitRun.FindAllStringIndex(text, -1)
		}
		for _, loc := range r.find(text, runs) {
			if r.named {
				for n := 0; n < 64 && loc[0] > 0 && isNameByte(text[loc[0]-1]); n++ {
					loc[0]--
				}
			}
			if overlaps(loc[0], loc[1]) {
				continue
			}
			m := text[loc[0]:loc[1]]
			if !boundaryOK(text, loc[0], loc[1], r.kind) {
				continue
			}
			if r.valid != nil && !r.valid(m) {
				continue
			}
			if r.near != nil && !r.near(text, loc[0], loc[1]) {
				continue
			}
			if r.lineNear != nil && !r.lineNear(text, loc[0], loc[1], &memo) {
				continue
			}
			for g := len(loc)/2 - 1; g > 0; g-- {
				if loc[2*g] >= 0 {
					m = text[loc[2*g]:loc[2*g+1]]
					break
				}
			}
			// The same number written again (010-1234-5678, then
			// 01012345678) is the example again.
			d := ""
			switch {
			case r.digits:
				d = digitsOf(text[loc[0]:loc[1]])
			case r.kind == PIIIBAN:
				d = strings.ReplaceAll(text[loc[0]:loc[1]], " ", "")
			}

			unsigned := r.kind == PIIJWT && jwtUnsigned(text, loc[0], loc[1]) && len(jwtClaims(m)) == 0
			if unsigned || r.placeholder != nil && r.placeholder(m) || r.example != nil && r.example(text, loc[0], loc[1]) || len(d) >= 7 && passed[d] {
				if documentedKinds[r.kind] {
					documented++
				}
				if len(d) >= 7 {
					passed[d] = true
				}
				covered = append(covered, [2]int{loc[0], loc[1]})
				continue
			}
			found[r.kind] = true
			if r.kind == PIIPhone {
				e := ""
				if text[loc[0]] == '+' {
					e = digitsOf(text[loc[0]:loc[1]])
				}
				phones = append(phones, e)
			}
			for _, k := range r.also {
				found[k] = true
			}
			spans = append(spans, [2]int{loc[0], loc[1]})
			if r.kind == PIIJWT {
				for k := range jwtClaims(m) {
					found[k] = true
				}
			}
			covered = append(covered, [2]int{loc[0], loc[1]})
		}
	}
	if len(phones) > 0 && e164Examples(phones, passed) {
		delete(found, PIIPhone)
		documented++
	}
	if len(spans) > 0 && ipNear(text, spans) {
		found[PIIIPAddress] = true
	}
	return found, documented
}

// find returns the rule's matches in text as FindAllStringSubmatchIndex
// does, searching only the digit runs when the rule is about numbers.
func (r piiRule) find(text string, runs [][]int) [][]int {
	if !r.digits {
		if r.re.NumSubexp() > 0 {
			return r.re.FindAllStringSubmatchIndex(text, -1)
		}
		return r.re.FindAllStringIndex(text, -1)
	}
	var out [][]int
	for _, run := range runs {
		// Widen the run by one byte each side so the pattern's own
		// boundaries and "(" see what they would in the whole text.
		lo, hi := max(run[0]-1, 0), min(run[1]+1, len(text))
		for _, loc := range r.re.FindAllStringIndex(text[lo:hi], -1) {
			out = append(out, []int{lo + loc[0], lo + loc[1]})
		}
	}
	return out
}

func containsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

func isNameByte(c byte) bool {
	return c == '_' || c == '.' || c == '-' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// boundaryOK rejects numeric matches glued to more digits, dots or word
// characters: a version string 1.2.3-4567-8901 or a longer id is not a number
// of a person.
func boundaryOK(text string, lo, hi int, kind string) bool {
	switch kind {
	case PIICard, PIIUSSSN, PIIKoreanRRN, PIIPhone, PIINationalID:
	default:
		return true
	}
	if lo > 0 {
		r, _ := utf8.DecodeLastRuneInString(text[:lo])
		// A number in E.164 after a dial string's slash or a URI's scheme
		// (PJSIP/+4915…, tel:+44…, sip:+1…) is dialled as written.
		dialled := kind == PIIPhone && text[lo] == '+' && (r == '/' || r == ':')
		if !dialled && (unicode.IsDigit(r) || r == '.' || r == '-' || r == '_' || r == '/' || unicode.IsLetter(r) && r < 0x80) {
			return false
		}
	}
	if hi < len(text) {
		r, _ := utf8.DecodeRuneInString(text[hi:])
		if unicode.IsDigit(r) || r == '-' || r == '_' || r == '/' || unicode.IsLetter(r) && r < 0x80 {
			return false
		}
		if r == '.' && hi+1 < len(text) {
			n, _ := utf8.DecodeRuneInString(text[hi+1:])
			if unicode.IsDigit(n) {
				return false
			}
		}
	}
	return true
}

func digitsOf(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r >= '0' && r <= '9' {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func standalone(string) bool { return true }

// e164Examples reports phone numbers that counted (digits) that are all
// an example number written again in E.164 (+82 10-1234-5678 after
// 010-1234-5678 was called an example): the country code (1 to 3 digits)
// replaces the trunk 0 of the national digits that passed. The E.164 rule
// runs before the national ones, so this is judged once all have run.
func e164Examples(phones []string, passed map[string]bool) bool {
	for _, d := range phones {
		same := false
		for cc := 1; cc <= 3 && cc < len(d)-6; cc++ {
			if passed["0"+d[cc:]] {
				same = true
				break
			}
		}
		if !same {
			return false
		}
	}
	return true
}
