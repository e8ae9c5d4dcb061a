package pumasi

import (
	"fmt"
	"math"
	"regexp"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Gate stages, in the order they run (DESIGN.md §6).
const (
	StagePII         = "pii"
	StageNarrative   = "narrative"
	StageSpecificity = "specificity"
)

// SpecificityFloor is the lowest specificity score that passes the gate.
const SpecificityFloor = 0.50

// PII and secret kinds the gate names in its reasons. A reason names kinds,
// never the matched values.
const (
	PIIEmail        = "email"
	PIIPhone        = "phone"
	PIICard         = "card_number"
	PIIUSSSN        = "us_ssn"
	PIIKoreanRRN    = "kr_rrn"
	PIIIBAN         = "iban"
	PIIAWSKey       = "aws_access_key"
	PIIAWSSecret    = "aws_secret_key"
	PIIGitHubToken  = "github_token"
	PIISlackToken   = "slack_token"
	PIIStripeKey    = "stripe_key"
	PIIOpenAIKey    = "openai_key"
	PIIPrivateKey   = "private_key"
	PIIJWT          = "jwt"
	PIISlackWebhook = "slack_webhook"
)

// GateResult is the gate's verdict on a contribution. When Pass is false,
// Stage names the stage that rejected it, Reason says why in one line and
// Details lists what was found (PII kinds, narrative markers or missing
// signals). Specificity is set once stage 3 ran.
type GateResult struct {
	Pass        bool     `json:"pass"`
	Stage       string   `json:"stage,omitempty"`
	Reason      string   `json:"reason,omitempty"`
	Details     []string `json:"details,omitempty"`
	Specificity float64  `json:"specificity"`
}

// CheckContribution runs the gate's pure stages on a contribution: PII,
// narrative filter, specificity floor. Embedding and dedup follow in the store.
func CheckContribution(title, content string) GateResult {
	text := norm.NFC.String(title + "\n" + content)
	if kinds := DetectPII(text); len(kinds) > 0 {
		return GateResult{
			Stage:   StagePII,
			Reason:  "contains personal data or secrets: " + strings.Join(kinds, ", "),
			Details: kinds,
		}
	}
	if markers, ok := IsNarrative(text); ok {
		quoted := make([]string, len(markers))
		for i, m := range markers {
			quoted[i] = fmt.Sprintf("%q", m)
		}
		return GateResult{
			Stage:   StageNarrative,
			Reason:  "reads as a diary or story (" + strings.Join(quoted, ", ") + "); state the finding as an actionable fact",
			Details: markers,
		}
	}
	score, signals := Specificity(title, content)
	if score < SpecificityFloor {
		return GateResult{
			Stage: StageSpecificity,
			Reason: fmt.Sprintf("specificity %.2f is below the floor %.2f; name the concrete tool, version, error message, flag, path or code involved",
				score, SpecificityFloor),
			Details:     signals,
			Specificity: score,
		}
	}
	return GateResult{Pass: true, Specificity: score, Details: signals}
}

// ---- Stage 1: PII and secrets ----

type piiRule struct {
	kind string
	re   *regexp.Regexp
	// valid, when set, must accept the match (checksums, ranges).
	valid func(m string) bool
	// placeholder, when set and true, lets a documentation value pass.
	placeholder func(m string) bool
}

var piiRules = []piiRule{
	{kind: PIIPrivateKey, re: regexp.MustCompile(`-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----`)},
	{kind: PIIAWSKey, re: regexp.MustCompile(`\b(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AIPA|ANPA|ANVA|AROA|APKA|ASCA)[A-Z0-9]{16}\b`)},
	{kind: PIIAWSSecret, re: regexp.MustCompile(`(?i)aws_?secret_?(?:access_?)?key["']?\s*[:=]\s*["']?[A-Za-z0-9/+]{40}\b`)},
	{kind: PIIGitHubToken, re: regexp.MustCompile(`\b(?:gh[pousr]_[A-Za-z0-9]{36,251}|github_pat_[A-Za-z0-9_]{22,255})\b`)},
	{kind: PIISlackToken, re: regexp.MustCompile(`\bxox[abposre]-[A-Za-z0-9-]{10,}`), placeholder: tokenPlaceholder},
	{kind: PIISlackWebhook, re: regexp.MustCompile(`hooks\.slack\.com/services/T[A-Z0-9]{6,}/B[A-Z0-9]{6,}/[A-Za-z0-9]{16,}`)},
	{kind: PIIStripeKey, re: regexp.MustCompile(`\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}\b|\bwhsec_[A-Za-z0-9]{24,}\b`), placeholder: tokenPlaceholder},
	{kind: PIIOpenAIKey, re: regexp.MustCompile(`\bsk-(?:proj-|ant-(?:api\d\d-)?|svcacct-|admin-)?[A-Za-z0-9_-]{20,}`), placeholder: tokenPlaceholder},
	{kind: PIIJWT, re: regexp.MustCompile(`\beyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*`)},
	{kind: PIIEmail, re: regexp.MustCompile(`[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,24}\b`), placeholder: emailPlaceholder},
	{kind: PIIIBAN, re: regexp.MustCompile(`\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?\b`), valid: validIBAN},
	{kind: PIIKoreanRRN, re: regexp.MustCompile(`\b\d{6}[- ]?[1-8]\d{6}\b`), valid: validRRN},
	{kind: PIIUSSSN, re: regexp.MustCompile(`\b\d{3}-\d{2}-\d{4}\b|\b\d{3} \d{2} \d{4}\b`), valid: validSSN},
	{kind: PIICard, re: regexp.MustCompile(`\b\d(?:[ -]?\d){12,18}\b`), valid: validCard},
	{kind: PIIPhone, re: regexp.MustCompile(`\+\d{1,3}(?:[ .-]?\(?\d{1,4}\)?){2,5}\b`), valid: validIntlPhone, placeholder: phonePlaceholder},
	{kind: PIIPhone, re: regexp.MustCompile(`\b01[016789][ .-]?\d{3,4}[ .-]?\d{4}\b`), valid: validKRMobile, placeholder: phonePlaceholder},
	{kind: PIIPhone, re: regexp.MustCompile(`\b0(?:2|[3-6][1-5]|70)[ .-]\d{3,4}[ .-]\d{4}\b|\(0(?:2|[3-6][1-5])\) ?\d{3,4}-\d{4}\b`), valid: standalone, placeholder: phonePlaceholder},
	{kind: PIIPhone, re: regexp.MustCompile(`(?:\(\d{3}\) ?|\b\d{3}[ .-])\d{3}[ .-]\d{4}\b`), valid: validNANP, placeholder: phonePlaceholder},
}

// DetectPII returns the kinds of personal data and secrets in text, sorted and
// deduplicated; nil when there are none. Matches that are documentation
// placeholders (example.com mail, 555-01xx numbers, masked digits) or that
// fail their checksum (Luhn, mod-97, dates) do not count.
func DetectPII(text string) []string {
	found := map[string]bool{}
	// covered keeps one kind from claiming digits another already matched
	// (a card number's digits also look like a phone number).
	var covered [][2]int
	overlaps := func(lo, hi int) bool {
		for _, c := range covered {
			if lo < c[1] && c[0] < hi {
				return true
			}
		}
		return false
	}
	for _, r := range piiRules {
		for _, loc := range r.re.FindAllStringIndex(text, -1) {
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
			if r.placeholder != nil && r.placeholder(m) {
				covered = append(covered, [2]int{loc[0], loc[1]})
				continue
			}
			found[r.kind] = true
			covered = append(covered, [2]int{loc[0], loc[1]})
		}
	}
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

// boundaryOK rejects numeric matches glued to more digits, dots or word
// characters: a version string 1.2.3-4567-8901 or a longer id is not a number
// of a person.
func boundaryOK(text string, lo, hi int, kind string) bool {
	switch kind {
	case PIICard, PIIUSSSN, PIIKoreanRRN, PIIPhone:
	default:
		return true
	}
	if lo > 0 {
		r, _ := utf8.DecodeLastRuneInString(text[:lo])
		if unicode.IsDigit(r) || r == '.' || r == '-' || r == '_' || r == '/' || unicode.IsLetter(r) && r < 0x80 {
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

// emailPlaceholder passes the reserved documentation domains (RFC 2606 and
// RFC 6761) and git's well-known SSH user.
func emailPlaceholder(m string) bool {
	at := strings.LastIndexByte(m, '@')
	local, domain := strings.ToLower(m[:at]), strings.ToLower(m[at+1:])
	if local == "git" {
		return true
	}
	for _, d := range []string{"example.com", "example.org", "example.net", "example.edu"} {
		if domain == d || strings.HasSuffix(domain, "."+d) {
			return true
		}
	}
	for _, tld := range []string{".example", ".test", ".invalid", ".localhost", ".local"} {
		if strings.HasSuffix(domain, tld) {
			return true
		}
	}
	return false
}

// phonePlaceholder passes the fictional NANP range 555-0100..555-0199 and
// numbers whose subscriber digits are all one repeated digit (010-0000-0000).
func phonePlaceholder(m string) bool {
	d := digitsOf(m)
	if len(d) >= 7 {
		line := d[len(d)-7:]
		if strings.HasPrefix(line, "55501") {
			return true
		}
	}
	if len(d) >= 8 {
		tail := d[len(d)-8:]
		if strings.Count(tail, tail[:1]) == len(tail) {
			return true
		}
	}
	return false
}

// tokenPlaceholder passes values that are obviously redacted or templated:
// runs of x, *, dots or angle-bracket names.
func tokenPlaceholder(m string) bool {
	l := strings.ToLower(m)
	if strings.Contains(l, "xxxx") || strings.Contains(l, "****") || strings.Contains(l, "...") ||
		strings.Contains(l, "your_") || strings.Contains(l, "your-") || strings.Contains(l, "redacted") {
		return true
	}
	// Real keys mix letters and digits; a run without digits is a word
	// ("sk-learn-compatible-pipelines").
	for _, r := range m {
		if unicode.IsDigit(r) {
			return false
		}
	}
	return true
}

func validIntlPhone(m string) bool {
	d := digitsOf(m)
	return len(d) >= 8 && len(d) <= 15
}

func validKRMobile(m string) bool {
	d := digitsOf(m)
	return len(d) == 10 || len(d) == 11
}

// validNANP accepts 10-digit North American numbers whose area code starts
// with 2-9; the fictional 555-01xx lines are left to the placeholder check.
func validNANP(m string) bool {
	d := digitsOf(m)
	return len(d) == 10 && d[0] >= '2'
}

// validSSN applies the SSA's structural rules: area not 000, 666 or 9xx,
// group not 00, serial not 0000. Famous sample numbers (123-45-6789) still
// count: a gate cannot tell a sample from a leak, and rejecting costs little.
func validSSN(m string) bool {
	d := digitsOf(m)
	if len(d) != 9 {
		return false
	}
	area, group, serial := d[:3], d[3:5], d[5:]
	if area == "000" || area == "666" || area[0] == '9' || group == "00" || serial == "0000" {
		return false
	}
	return true
}

// validRRN checks a Korean resident registration number's birth date and
// century/sex digit. The old check digit is not required: numbers issued
// since October 2020 no longer carry one.
func validRRN(m string) bool {
	d := digitsOf(m)
	if len(d) != 13 {
		return false
	}
	mm := int(d[2]-'0')*10 + int(d[3]-'0')
	dd := int(d[4]-'0')*10 + int(d[5]-'0')
	if mm < 1 || mm > 12 || dd < 1 || dd > 31 {
		return false
	}
	if d[6] < '1' || d[6] > '8' {
		return false
	}
	// Unseparated 13-digit runs are often other ids; demand the checksum there.
	if !strings.ContainsAny(m, "- ") {
		return rrnChecksum(d)
	}
	return true
}

func rrnChecksum(d string) bool {
	w := []int{2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5}
	sum := 0
	for i, x := range w {
		sum += int(d[i]-'0') * x
	}
	return (11-sum%11)%10 == int(d[12]-'0')
}

// validCard accepts 13-19 digit numbers with a card network prefix that pass
// the Luhn check.
func validCard(m string) bool {
	d := digitsOf(m)
	if len(d) < 13 || len(d) > 19 {
		return false
	}
	if strings.Count(d, d[:1]) == len(d) {
		return false
	}
	switch {
	case d[0] == '4', d[0] == '5' && d[1] >= '1' && d[1] <= '5', d[0] == '2' && d[1] >= '2' && d[1] <= '7',
		strings.HasPrefix(d, "34"), strings.HasPrefix(d, "37"), strings.HasPrefix(d, "6011"),
		strings.HasPrefix(d, "65"), strings.HasPrefix(d, "64"), strings.HasPrefix(d, "35"),
		strings.HasPrefix(d, "36"), strings.HasPrefix(d, "38"), strings.HasPrefix(d, "62"),
		strings.HasPrefix(d, "9"):
	default:
		return false
	}
	return luhn(d)
}

func luhn(d string) bool {
	sum := 0
	double := false
	for i := len(d) - 1; i >= 0; i-- {
		n := int(d[i] - '0')
		if double {
			n *= 2
			if n > 9 {
				n -= 9
			}
		}
		sum += n
		double = !double
	}
	return sum%10 == 0
}

var ibanLength = map[string]int{
	"AD": 24, "AE": 23, "AL": 28, "AT": 20, "AZ": 28, "BA": 20, "BE": 16, "BG": 22, "BH": 22,
	"BR": 29, "CH": 21, "CR": 22, "CY": 28, "CZ": 24, "DE": 22, "DK": 18, "DO": 28, "EE": 20,
	"ES": 24, "FI": 18, "FO": 18, "FR": 27, "GB": 22, "GE": 22, "GI": 23, "GL": 18, "GR": 27,
	"GT": 28, "HR": 21, "HU": 28, "IE": 22, "IL": 23, "IS": 26, "IT": 27, "JO": 30, "KW": 30,
	"KZ": 20, "LB": 28, "LI": 21, "LT": 20, "LU": 20, "LV": 21, "MC": 27, "MD": 24, "ME": 22,
	"MK": 19, "MR": 27, "MT": 31, "MU": 30, "NL": 18, "NO": 15, "PK": 24, "PL": 28, "PS": 29,
	"PT": 25, "QA": 29, "RO": 24, "RS": 22, "SA": 24, "SE": 24, "SI": 19, "SK": 24, "SM": 27,
	"TN": 24, "TR": 26, "UA": 29, "VG": 24, "XK": 20,
}

// validIBAN checks the country's length when known (15-34 otherwise) and the
// ISO 13616 mod-97 checksum.
func validIBAN(m string) bool {
	s := strings.ReplaceAll(m, " ", "")
	if n, ok := ibanLength[s[:2]]; ok {
		if len(s) != n {
			return false
		}
	} else if len(s) < 15 || len(s) > 34 {
		return false
	}
	r := s[4:] + s[:4]
	rem := 0
	for _, c := range r {
		var v int
		switch {
		case c >= '0' && c <= '9':
			v = int(c - '0')
			rem = (rem*10 + v) % 97
		case c >= 'A' && c <= 'Z':
			v = int(c-'A') + 10
			rem = (rem*100 + v) % 97
		default:
			return false
		}
	}
	return rem == 1
}

// ---- Stage 2: narrative filter ----

// narrativeMarkers are phrases of diaries and stories. Each distinct marker
// found adds one point; the match is on lowercased text.
var narrativeMarkers = []string{
	// English: time of the story.
	"today", "yesterday", "this morning", "this afternoon", "this evening", "last night",
	"last week", "last month", "the other day", "all day", "all night", "long day",
	// English: the story's arc and feelings.
	"i spent", "we spent", "spent hours", "spent the", "for hours", "after hours", "hours of",
	"finally", "at last", "eventually i", "i felt", "i feel", "i was so", "we were so",
	"i decided", "i realized", "i realised", "i learned a lot", "my journey", "our journey",
	"my team", "my boss", "my manager", "my colleague", "my coworker", "what a day",
	"struggled", "frustrat*", "excited", "proud of", "tired", "exhausted", "lesson learned",
	"i couldn't", "i could not", "i kept", "i tried", "we tried", "i started", "then i", "so i",
	"once upon", "story",
	// Korean.
	"오늘", "어제", "아침", "저녁", "밤새", "지난주", "지난달", "하루 종일", "하루종일",
	"드디어", "결국", "마침내", "삽질", "고생", "헤맸", "헤매", "느꼈", "느낀", "기분",
	"뿌듯", "힘들었", "피곤", "보람", "이야기", "일기", "내가", "저는", "제가",
	"우리 팀", "팀장님", "시간 동안", "시간을 보냈",
}

// actionMarkers are signs of an actionable statement: directives, causes,
// remedies. They outweigh incidental narrative words.
var actionMarkers = []string{
	"use", "set", "run", "add", "avoid", "pin", "prefer", "pass", "call", "enable",
	"disable", "upgrade", "downgrade", "replace", "wrap", "don't", "do not", "never",
	"instead of", "instead,", "because", "causes", "caused by", "fails when", "fails with",
	"returns", "fix:", "fix is", "workaround", "must", "requires", "→", "->", "so that",
	"하세요", "해야 한다", "해야 합니다", "해야 함", "하면 된다", "하면 됩니다", "사용하라",
	"설정하면", "설정하세요", "지정하세요", "원인은", "원인:", "해결:", "해결하려면", "대신", "때문에",
	"하지 마", "금지", "필요하다", "필요합니다", "넣으면", "추가하면",
}

var firstPerson = regexp.MustCompile(`(?i)\b(?:i|i'm|i've|i'd|i'll|me|my|mine|myself|we|we're|we've|our)\b`)

// storyOpeners start a diary entry; a text that opens with one scores an
// extra narrative point.
var storyOpeners = []string{"today", "yesterday", "this morning", "last night", "last week",
	"after hours", "after three hours", "after two days", "i spent", "we spent", "so i", "so today",
	"오늘", "어제", "드디어", "아침에", "밤새"}

// IsNarrative reports whether text reads as a diary or story rather than an
// actionable finding, with the narrative markers that decided it. Each
// distinct marker scores one point, a story opener one more, first-person
// density one or two; three points reject, two reject only when nothing in
// the text is actionable.
func IsNarrative(text string) ([]string, bool) {
	lower := strings.ToLower(strings.TrimSpace(text))
	var markers []string
	for _, m := range narrativeMarkers {
		if containsMarker(lower, m) {
			markers = append(markers, strings.TrimSuffix(m, "*"))
		}
	}
	score := len(markers)
	for _, o := range storyOpeners {
		if strings.HasPrefix(lower, o) {
			score++
			break
		}
	}
	words := len(strings.Fields(lower))
	if words > 0 {
		fp := len(firstPerson.FindAllString(lower, -1))
		density := float64(fp) / float64(words)
		switch {
		case density >= 0.10 && fp >= 3:
			score += 2
			markers = append(markers, "first person")
		case density >= 0.05 && fp >= 2:
			score++
			markers = append(markers, "first person")
		}
	}
	actions := 0
	for _, m := range actionMarkers {
		if containsMarker(lower, m) {
			actions++
		}
	}
	if strings.Contains(text, "`") {
		actions++
	}
	switch {
	case score >= 3:
		return markers, true
	case score >= 2 && actions == 0:
		return markers, true
	}
	return nil, false
}

// ---- Stage 3: specificity ----

var (
	reCodeSpan   = regexp.MustCompile("`[^`\n]+`")
	reVersion    = regexp.MustCompile(`(?i)\bv?\d+\.\d+(?:\.\d+)?(?:[-+][0-9a-z.]+)?\b|\b(?:version|버전)\s*\d+`)
	reErrorMsg   = regexp.MustCompile(`(?i:\b(?:error|exception|panic|traceback|fatal|errno|exit (?:code|status) \d+|segfault|timeout|timed out|deadlock|oom|denied|refused|not found|undefined|null pointer|nil pointer)\b)|\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b|\bE[A-Z]{3,}\b|\b[45]\d\d\b|"[^"\n]{8,}"|'[^'\n]{8,}'|에러|오류|예외`)
	reFlag       = regexp.MustCompile(`(?:^|\s)--?[a-zA-Z][a-zA-Z0-9-]*(?:=\S+)?`)
	rePath       = regexp.MustCompile(`(?:~|\.{1,2})?/[\w.@-]+(?:/[\w.@-]+)+|\b[\w-]+\.(?:go|py|ts|tsx|js|mjs|json|ya?ml|toml|sql|md|conf|ini|env|lock|sh|rs|java|kt|rb|php|cfg|xml|proto|tf|dockerfile)\b|\b[A-Z]:\\`)
	reIdentifier = regexp.MustCompile(`\b[a-z]+[A-Z][A-Za-z0-9]+\b|\b[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]+\b|\b[a-z0-9]+_[a-z0-9_]+\b|\b\w+\(\)|\b[a-z]\w*\.[a-z]\w*\(|::\w+|\b\w+\.\w+\.\w+\b`)
	reNumberUnit = regexp.MustCompile(`(?i)\b\d+(?:\.\d+)?\s?(?:ms|µs|us|ns|s|sec|secs|seconds|min|minutes|kb|kib|mb|mib|gb|gib|tb|%|x|rps|qps|req/s|rows|connections|threads|bytes|초|분|개|배)(?:\b|[^\w]|$)`)
	reConfig     = regexp.MustCompile(`\b[A-Za-z_][\w.]*\s?=\s?\S+|\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b|\b[a-z_][\w.]*:\s?\d+\b`)
	reCommand    = regexp.MustCompile(`(?i)\b(?:(?:npm|npx|pnpm|yarn|pip|pip3|cargo|docker|kubectl|git|psql|brew|apt|apt-get|curl|terraform|helm|aws|gcloud|uv|poetry|bun|deno)\s+[a-z][\w-]*|go (?:build|test|run|mod|get|install|vet|work|generate|env)\b)`)
)

// knownTools are names whose mention makes a statement concrete.
var knownTools = []string{
	"postgres", "postgresql", "pgvector", "pgbouncer", "mysql", "mariadb", "sqlite", "redis", "mongodb",
	"dynamodb", "cassandra", "elasticsearch", "opensearch", "kafka", "rabbitmq", "nats", "clickhouse",
	"supabase", "firebase", "prisma", "drizzle", "sqlalchemy", "django", "flask", "fastapi", "rails",
	"laravel", "spring", "express", "next.js", "nextjs", "nuxt", "react", "vue", "svelte", "angular",
	"vite", "webpack", "esbuild", "turbopack", "typescript", "javascript", "node.js", "nodejs", "deno",
	"bun", "python", "golang", "rust", "java", "kotlin", "swift", "ruby", "php", "c++",
	"docker", "kubernetes", "k8s", "helm", "terraform", "ansible", "nginx", "caddy", "envoy",
	"traefik", "aws", "lambda", "s3", "ec2", "ecs", "cloudfront", "api gateway", "gcp", "azure",
	"vercel", "netlify", "cloudflare", "fly.io", "heroku", "github actions", "gitlab", "jenkins",
	"git", "npm", "pnpm", "yarn", "pip", "poetry", "cargo", "go mod", "gradle", "maven", "homebrew",
	"systemd", "linux", "macos", "windows", "wsl", "bash", "zsh", "openssl", "ssh", "tls", "http/2",
	"grpc", "graphql", "websocket", "oauth", "jwt", "minio", "modernc", "pytest", "jest", "vitest",
	"playwright", "cypress", "selenium", "openai", "anthropic", "claude", "langchain", "llamaindex",
	"huggingface", "pytorch", "tensorflow", "cuda", "onnx", "ollama", "vllm", "tailwind", "eslint",
	"prettier", "gofmt", "pandas", "numpy", "jupyter", "vscode", "neovim", "tmux", "chrome",
	"safari", "firefox", "ios", "android", "xcode", "expo", "flutter", "stripe", "slack", "sentry",
	"datadog", "prometheus", "grafana", "opentelemetry", "mcp", "cron", "utf-8", "nfc", "sha256",
}

// platitudes are vague advice that says nothing a reader can act on.
var platitudes = []string{
	"always write tests", "write tests", "write good", "best practice", "best practices",
	"keep it simple", "keep things simple", "clean code", "good code", "readable code",
	"communication is key", "communicate", "be careful", "it depends", "is important",
	"are important", "very important", "make sure to", "don't forget", "remember to", "think about",
	"pay attention", "code quality", "quality matters", "document your code", "plan ahead",
	"take breaks", "stay focused", "work hard", "learn from mistakes", "follow the docs",
	"read the docs", "always check", "double check", "test everything", "security matters",
	"항상", "중요하다", "중요합니다", "중요해요", "잊지 말", "신경 써야", "신경써야", "주의해야",
	"좋은 코드", "깨끗한 코드", "꼼꼼히", "열심히", "기본이다", "기본입니다", "명심",
}

// Specificity scores how concrete a contribution is, in [0,1], and lists the
// signals found (or "platitude"/"too short" penalties). Concrete signals:
// code spans, identifiers, versions, error messages, flags, paths, numbers
// with units, config keys, commands and named tools.
func Specificity(title, content string) (float64, []string) {
	text := title + "\n" + content
	lower := strings.ToLower(text)
	score := 0.10
	var signals []string
	add := func(name string, w float64) {
		score += w
		signals = append(signals, name)
	}
	count := func(re *regexp.Regexp) int { return len(re.FindAllStringIndex(text, -1)) }
	if n := count(reCodeSpan); n > 0 {
		add("code span", 0.25+0.05*math.Min(float64(n-1), 2))
	}
	if n := count(reIdentifier); n > 0 {
		add("identifier", 0.15+0.04*math.Min(float64(n-1), 2))
	}
	if count(reVersion) > 0 {
		add("version", 0.20)
	}
	if count(reErrorMsg) > 0 {
		add("error message", 0.20)
	}
	if count(reFlag) > 0 {
		add("flag", 0.15)
	}
	if count(rePath) > 0 {
		add("path", 0.15)
	}
	if count(reNumberUnit) > 0 {
		add("number with unit", 0.10)
	}
	if count(reConfig) > 0 {
		add("config key", 0.15)
	}
	if count(reCommand) > 0 {
		add("command", 0.15)
	}
	tools := 0
	for _, t := range knownTools {
		if containsWord(lower, t) {
			tools++
		}
	}
	if tools > 0 {
		add("named tool", 0.15+0.08*math.Min(float64(tools-1), 3))
	}
	plat := 0
	for _, p := range platitudes {
		if strings.Contains(lower, p) {
			plat++
		}
	}
	if plat > 0 {
		score -= 0.12 * math.Min(float64(plat), 3)
		signals = append(signals, "platitude")
	}
	if words := len(strings.Fields(text)); words < 6 {
		score -= 0.15
		signals = append(signals, "too short")
	}
	return math.Round(clamp01(score)*100) / 100, signals
}

// containsWord reports whether word occurs in s not glued to letters or
// digits on either side (so "go" does not match "google", "s3" not "s33").
func containsWord(s, word string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], word)
		if j < 0 {
			return false
		}
		lo, hi := i+j, i+j+len(word)
		okL := lo == 0 || !isWordRune(lastRune(s[:lo]))
		okR := hi == len(s) || !isWordRune(firstRune(s[hi:]))
		if okL && okR {
			return true
		}
		i = lo + 1
	}
}

func isWordRune(r rune) bool {
	return r < 0x80 && (unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_')
}

// containsMarker finds a lowercase marker in s. A marker must not continue a
// word on its left ("제가" is not in "문제가", "pin" not in "spin"); ASCII
// markers must also end at a word boundary unless they end in "*", a prefix.
func containsMarker(s, marker string) bool {
	prefix := strings.HasSuffix(marker, "*")
	m := strings.TrimSuffix(marker, "*")
	ascii := m == "" || firstRune(m) < 0x80
	for i := 0; ; {
		j := strings.Index(s[i:], m)
		if j < 0 {
			return false
		}
		lo, hi := i+j, i+j+len(m)
		okL := lo == 0 || !unicode.IsLetter(lastRune(s[:lo])) && !(ascii && isWordRune(lastRune(s[:lo])))
		okR := prefix || !ascii || hi == len(s) || !isWordRune(firstRune(s[hi:])) || !isWordRune(lastRune(m))
		if okL && okR {
			return true
		}
		i = lo + 1
	}
}

func lastRune(s string) rune  { r, _ := utf8.DecodeLastRuneInString(s); return r }
func firstRune(s string) rune { r, _ := utf8.DecodeRuneInString(s); return r }
