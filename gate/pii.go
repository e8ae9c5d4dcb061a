package gate

import (
	"regexp"
	"sort"
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
