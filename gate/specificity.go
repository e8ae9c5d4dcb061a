package gate

import (
	"math"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Specificity signals, as named in a verdict's details.
const (
	signalTech       = "named technology"
	signalVersion    = "version"
	signalError      = "error text"
	signalNumber     = "number with unit"
	signalIdentifier = "identifier"
	signalFlag       = "flag"
	signalPath       = "path or URL"
	signalCommand    = "command"
	signalCode       = "code"
	signalCause      = "cause and effect"
	signalTerms      = "technical terms"
	signalPlatitude  = "platitude"
	signalTooShort   = "too short"
	signalNoDetail   = "long prose without a detail"
)

var (
	reVersion = regexp.MustCompile(`\bv?\d+\.\d+(?:\.\d+)*(?:-[0-9A-Za-z.]+)?\b|\bv\d+\b|@v?\d+\b|(?i:\bversion\s+\d+|버전\s*\d+)`)
	// reNamedNumber finds "React 18", "Postgres 11", "Node 20": a version
	// without dots when the word before it is a known technology.
	reNamedNumber = regexp.MustCompile(`([A-Za-z][A-Za-z.+#-]*)\s+v?\d{1,4}\b`)

	reError = []*regexp.Regexp{
		// A quoted message: double quotes, curly quotes, or single quotes
		// that open after a space (not an apostrophe in "don't").
		regexp.MustCompile(`"[^"\n]+[\s:][^"\n]+"|“[^”\n]+”|(?:^|[\s(:=])'[^'\n]+\s[^'\n]+'(?:$|[\s),.;:])`),
		// Error codes and names: ERR_REQUIRE_ESM, EADDRNOTAVAIL, E0502,
		// ValueError, ErrPasswordTooLong, OOMKilled, AccessDenied.
		regexp.MustCompile(`\bE[A-Z]{4,}\b|\bE\d{3,4}\b|\b[A-Z][A-Z0-9]*_(?:[A-Z0-9]+_)*(?:ERROR|ERR|FAILED|FAILURE|DENIED|INVALID|EXCEEDED|EXHAUSTED|BUSY|LOCKED|FOUND|TIMEOUT|REJECT\w*|LIMIT|MISMATCH|MISSING|REFUSED|CONFLICT|EXISTS|UNAVAILABLE|COMPANY)\b|\b(?:ERR|ERROR|SQLITE|ORA|PG)_[A-Z0-9_]+\b|\b[A-Z]\w*(?:Error|Exception|Warning|Fault|Denied|Killed|BackOff|Failed|NotFound)\b|\bErr[A-Z]\w+|\b[a-z]+_(?:error|denied|invalid|exceeded|not_found|required|mismatch|payload|scope|channel)\b`),
		// Status codes where they are answers: "returns 403", "502s", "exit code 137".
		regexp.MustCompile(`(?i)\b(?:http|status|returns?|returned|gets?|got|gives?|answers?|with|throws?|sees?|an?)\s+[1-5]\d\d\b|\b[45]\d\ds\b|\b[45]\d\d\s+(?:error|response|status|errors)\b|\bexit (?:code|status)\s+\d+|종료 코드\s*\d+`),
		regexp.MustCompile(`\b[45]\d\d\s?(?:이|가|을|를|으로|로|에러|오류|응답|[A-Z][a-z])`),
		// Message fragments that are error text without the word "error".
		regexp.MustCompile(`(?i)\bfail(?:s|ed|ing)? (?:with|on)\b|\w failed:|\b(?:panic|fatal|error|warning):|\btraceback\b|\bsegfault\b|segmentation fault|permission denied|connection (?:refused|reset)|\btimed out\b|no such file|\bnot found\b|does not exist|is not defined|is not a function|\bdeadlock\b|out of memory|\btoo many\b|unbound variable|command not found|bad interpreter`),
	}
	reNumber = []*regexp.Regexp{
		regexp.MustCompile(`(?i)\b\d[\d,]*(?:\.\d+)?\s?(?:ms|µs|us|ns|s|sec|secs|seconds?|minutes?|mins?|m|hours?|hrs?|h|days?|weeks?|months?|kb|kib|mb|mib|gb|gib|tb|tib|k|bytes?|b|bits?|x|rps|qps|rpm|tpm|wcu|rcu|rows?|keys?|connections?|conns|threads?|workers?|cores?|pods?|nodes?|replicas?|requests?|items?|files?|lines?|characters?|chars?|digits?|tokens?|units?|attempts?|times|steps?|commits?|tests?|retries|messages?|records?|entries|partitions?|shards?|gi|mi|ghz|mhz|px|em|rem|vh|vw|dvh|svh|fps)\b`),
		regexp.MustCompile(`\d(?:[\d,.]*\d)?\s?(?:%|초|분|시간|바이트|자리|자|글자|개|배|건|번|회|행|줄|유닛|명|GB|MB|KB|ms|천|만|억)`),
		// A time of day, a schedule's window (03:00, 01:00–04:00, 새벽 3시):
		// a reader can check a cron line or a policy against it.
		regexp.MustCompile(`\b(?:[01]?\d|2[0-3]):[0-5]\d\b|\d{1,2}\s?시(?:\s?\d{1,2}\s?분)?(?:에|부터|까지|\s|$)`),
		regexp.MustCompile(`(?i)\b(?:at most|up to|max(?:imum)?|min(?:imum)?|limit(?:ed)? (?:of|to|is)|caps? at|above|below|over|under|more than|less than|exceeds?|defaults? to|from)\s+\d|\d\s?<<\s?\d|\b0[0-7]{3}\b|최대\s?\d|\d\s?(?:까지|이상|이하|미만|초과)|\b\d{3,}\b`),
	}
	reIdentifier = []*regexp.Regexp{
		regexp.MustCompile(`\b[A-Za-z_][\w.]*\([^()\n]*\)`),                        // call(), pkg.Func(x)
		regexp.MustCompile(`\b[A-Za-z_]\w*\.[A-Za-z_]\w+\b`),                       // resp.Body, go.mod
		regexp.MustCompile(`\b[a-z]+[A-Z][A-Za-z0-9]*\b|\b[A-Z][a-z0-9]+[A-Z]\w*`), // useEffect, HashMap
		regexp.MustCompile(`\b[a-z][a-z0-9]*_[a-z0-9_]+\b|\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b|\b[A-Z]{2,}\d+\b`),
		regexp.MustCompile(`\w::\w|\w+\[\]|\[\]\w+|\w<[\w, ]+>|\b[a-z][\w.-]*:\s?\d+\b|\b[A-Za-z_][\w.-]*=[^\s=]+`),
		// Slice expressions, HTTP header names, Go directives, $1 parameters,
		// regular expressions.
		regexp.MustCompile(`"\w+":\s?["\d\[{tfn]|\b[a-z_]+:\s(?:true|false|strict|none|null|auto|always|never)\b|\b\w+=\{[^}\n]*\}|\b[A-Z][A-Z0-9_]*=\S*|\b[a-z]+(?:-[a-z]+)*:\s?\d[\w%./ ]*|\b[A-Za-z_][\w.]*\s=\s'[^'\n]+'|\w\[[^\]\s]*:[^\]\s]*\]|\b[A-Z][a-z]+(?:-[A-Z][a-z]+)+\b|//\s?(?:go|nolint|eslint-disable)[:\w-]*|\$\d\b|\^[^\s]*\$|\\d[{+*]|\(\\d`),
		// IANA time zones: Asia/Seoul, America/Los_Angeles.
		regexp.MustCompile(`\b(?:Africa|America|Asia|Atlantic|Australia|Europe|Indian|Pacific)/[A-Z][A-Za-z_]+`),
		regexp.MustCompile(`\b(?:SELECT|INSERT|UPDATE|DELETE|CREATE|ALTER|DROP|WHERE|ORDER BY|GROUP BY|LIMIT|JOIN|VACUUM|EXPLAIN|INDEX|TABLE|NULL|NOT IN|NOT EXISTS|COUNT|RETURNING|ON CONFLICT|BEGIN|COMMIT|ROLLBACK|PRAGMA|TRUNCATE|GRANT|KEYS|SCAN|SET)\b`),
	}
	reFlag = regexp.MustCompile(`(?:^|[\s("'\x60])--?[A-Za-z][\w-]*(?:=\S+)?`)
	rePath = regexp.MustCompile(`\b[\w.-]+/(?:\*|[\w.-]*\*)|(?:^|\s)\.[\w-]+/|(?:~|\.{1,2})?/[\w.@*-]+(?:/[\w.@*-]*)+|(?:^|\s)/[a-z][\w.-]+|\b[\w-]+\.(?:go|py|ts|tsx|js|jsx|mjs|cjs|json|ya?ml|toml|sql|md|conf|ini|env|lock|sh|rs|java|kt|rb|php|cfg|xml|proto|tf|csv|pem|css|html|txt|log|db|service|plist|gradle)\b|\b[A-Z]:\\|\bhttps?://\S+|\b[a-z][\w-]*(?:\.[a-z][\w-]*)+/[\w./-]+`)
	// reCommand's words stand on one line: a title naming a tool above a
	// sentence that names it again is no command.
	reCommand = regexp.MustCompile(`(?i)\b(?:kubectl|docker|npx|pnpm|yarn|pip3?|uv|poetry|cargo|rustup|curl|wget|terraform|helm|aws|gcloud|gh|psql|mysql|sqlite3|redis-cli|brew|apt(?:-get)?|ssh|scp|rsync|sed|awk|grep|xargs|tar|systemctl|journalctl|openssl|dig|tcpdump|iptables|ulimit|chmod|chown|lsof|strace|jq|sudo|lftp|mvn|gradle)[ \t]+-{0,2}[a-z][\w.-]*|\bgit[ \t]+(?:clone|commit|push|pull|fetch|merge|rebase|reset|checkout|switch|restore|stash|log|diff|status|add|rm|mv|tag|branch|bisect|describe|config|cherry-pick|revert|blame|show|submodule|worktree|filter-repo|gc|remote|init|apply|reflog|clean|lfs)\b|\bgo[ \t]+(?:build|test|run|mod|get|install|vet|work|generate|env|tool|list|clean|fmt|doc|version)\b|\bnpm[ \t]+(?:install|ci|run|test|explain|why|ls|publish|audit|update|exec|init|pack|start|view|i)\b|\bfind[ \t]+[.~/]|\b(?:node|python3?)[ \t]+(?:-|[\w/.-]+\.(?:m?js|py)\b)|\bjava[ \t]+-|\becho[ \t]+["'$\w]|\b(?:ls|cp|mv|rm|ln|du|df|ps|kill|tail|head|wc|sort|uniq|cut|diff|make|less|watch|time|nc|env)[ \t]+-[A-Za-z]`)
	// reTechPattern names technologies by their syntax: CSS pseudo-classes
	// and at-rules, Go directives, npm scopes.
	reTechPattern = regexp.MustCompile(`(?:^|[\s(\x60])::?(?:focus|focus-visible|focus-within|hover|active|visited|before|after|has|is|where|not|nth-child|first-child|last-child|root|placeholder|checked|disabled)\b|@(?:media|container|supports|layer|keyframes|import)\b|//go:[a-z]+|(?:^|\s)@[a-z][\w-]*/[a-z][\w.-]*`)
	reFence       = regexp.MustCompile("(?s)```[^\n]*\n(.*?)```")
	reCause       = regexp.MustCompile(`(?i)\b(?:because|since|so|otherwise|which means|means that|leads? to|results? in|causes?|caused by|breaks?|unless|until|then|instead|makes|gives|if|when|rejects|returns?|panics|blocks|drops|ignores|truncates|overwrites|skips)\b|→|->|=>|때문|라서|해서|어서|아서|니까|므로|으면|하면|려면|더라도|경우|[가-힣]면\s`)
)

// Specificity scores how concrete a contribution is, in [0,1], and lists the
// signals found (or the "platitude" and "too short" penalties). It credits
// content, not formatting: a named technology, a version ("v1.2.3",
// "React 18"), error text (a quoted message, an error code, "failed: …"),
// numbers with units or limits, identifiers, flags, paths, commands, a
// fenced block that holds code, a cause and its effect, and technical
// vocabulary. Backticks and bullets earn nothing by themselves.
func Specificity(title, content string) (float64, []string) {
	text := title + "\n" + content
	lower := strings.ToLower(text)
	score := 0.0
	var signals []string
	add := func(name string, w float64) {
		score += w
		signals = append(signals, name)
	}
	var folded string
	tools := namedTech(text, lower)
	if reTechPattern.MatchString(text) || reDirective.MatchString(text) {
		tools = append(tools, "pattern")
	}
	// A command line names its program ("go test -race", "ls -A") as
	// surely as a product's name does.
	spanCommand, spanNamed := commandLineSpan(text)
	command := hasCommand(text)
	if (command || spanNamed) && len(tools) == 0 {
		tools = append(tools, "program")
	}
	if n := len(tools); n > 0 {
		add(signalTech, 0.25+0.05*math.Min(float64(n-1), 2))
	}
	if reVersion.MatchString(text) || namedVersion(text) {
		add(signalVersion, 0.20)
	}
	if hasErrorText(text, &folded) {
		add(signalError, 0.20)
	}
	// The number and identifier signals count at most 3 and 4 distinct
	// matches: past that the weight is the same, so the count stops there.
	if n := distinctMatches(reNumber, text, &folded, 3) + len(reMoreNumber.FindAllString(text, 2)); n > 0 {
		n = min(n, 3)
		add(signalNumber, 0.15+0.05*math.Min(float64(n-1), 2))
	}
	n := distinctMatches(reIdentifier, text, &folded, 4) + len(reMoreIdentifier.FindAllString(text, 2))
	n = min(n, 4)
	if n < 4 {
		n = max(n, codeTokens(text))
	}
	if n > 0 {
		add(signalIdentifier, 0.20+0.05*math.Min(float64(n-1), 3))
	}
	if reFlag.MatchString(text) {
		add(signalFlag, 0.10)
	}
	if rePath.MatchString(text) || reMorePath.MatchString(text) {
		add(signalPath, 0.10)
	}
	if command || spanCommand {
		add(signalCommand, 0.15)
	}
	switch {
	case hasCodeBlock(text) || reCallArgs.MatchString(text):
		add(signalCode, 0.15)
	case hasInlineCode(text) || reValueSpan.MatchString(text):
		add(signalCode, 0.10)
	}
	if reCause.MatchString(text) {
		add(signalCause, 0.10)
	}
	terms := 0
	for _, t := range techTermForms {
		// Each form begins with the term: a text without it has none.
		if strings.Contains(lower, t[0]) && (containsWord(lower, t[0]) || containsWord(lower, t[1]) || containsWord(lower, t[2])) {
			terms++
		}
	}
	if terms > 0 {
		add(signalTerms, 0.05*math.Min(float64(terms), 4))
	}
	plat := 0
	for _, p := range platitudes {
		if strings.Contains(lower, p) {
			plat++
		}
	}
	if plat > 0 {
		score -= 0.15 * math.Min(float64(plat), 2)
		signals = append(signals, signalPlatitude)
	}
	if len(strings.Fields(text)) < 5 {
		score -= 0.10
		signals = append(signals, signalTooShort)
	}
	if vagueProse(text, lower) {
		score -= vagueProsePenalty
		signals = append(signals, signalNoDetail)
	}
	// The weights are scaled so the weakest precise findings and the most
	// decorated platitudes of testdata/gate sit about equally far from the
	// floor.
	return math.Round(saturate(scoreScale*score)*100) / 100, signals
}

const scoreScale = 1.15

// saturate maps the summed weights into [0,1) without a ceiling that many
// findings would share: unchanged up to the floor, then approaching 1, so a
// finding with twice the signals still ranks above one that just passes
// (the score is stored as a quality weight).
func saturate(x float64) float64 {
	const knee = SpecificityFloor
	if x <= knee {
		return clamp01(x)
	}
	return knee + (1-knee)*(1-math.Exp(-(x-knee)/(1-knee)))
}

// namedTech returns the known technologies text names. List entries with a
// capital letter match as written ("Go", "React": the verbs do not count);
// lowercase entries match in any case.
func namedTech(text, lower string) []string {
	var out []string
	for i, t := range knownTech {
		s := lower
		if knownTechCased[i] {
			s = text
		}
		if containsWord(s, t) && (utf8.RuneCountInString(t) > 1 || firstRune(t) < 0x80 || koreanNameAlone(s, t)) {
			out = append(out, t)
		}
	}
	return out
}

// knownTechCased[i] says knownTech[i] has a capital letter (it matches as
// written), decided once instead of per text.
var knownTechCased = func() []bool {
	out := make([]bool, len(knownTech))
	for i, t := range knownTech {
		out[i] = t != strings.ToLower(t)
	}
	return out
}()

// techTermForms are each of techTerms with its plurals (t, ts, tes),
// spelled once instead of per text.
var techTermForms = func() [][3]string {
	out := make([][3]string, len(techTerms))
	for i, t := range techTerms {
		out[i] = [3]string{t, t + "s", t + "es"}
	}
	return out
}()

// koreanParticleStarts are the first syllables of the particles and
// endings that follow a Korean noun (맥에서, 깃으로, 맥용, 깃도).
const koreanParticleStarts = "은는이가을를에의와과도만로으용랑하처까보부서북"

// koreanNameAlone reports a one-syllable Korean name (맥, 깃) standing as
// a word: followed by no syllable but a particle's. One syllable begins
// many words (맥락, 맥박, 깃발): "맥락 없는 로그" names no Mac.
func koreanNameAlone(s, t string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], t)
		if j < 0 {
			return false
		}
		hi := i + j + len(t)
		r := firstRune(s[hi:])
		if hi == len(s) || !unicode.Is(unicode.Hangul, r) || strings.ContainsRune(koreanParticleStarts, r) {
			return true
		}
		i = hi
	}
}

// namedVersion finds a bare major version after a known technology:
// "React 18", "Postgres 11", "Node 20", or after a product's name written
// with an inner capital, which prose words never have ("KiCad 7",
// "PowerShell 7", "macOS 14").
func namedVersion(text string) bool {
	for _, m := range reNamedNumber.FindAllStringSubmatch(text, -1) {
		w := m[1]
		// A product's release is one or two digits; four are a year
		// ("GitHub 2023").
		num := strings.TrimLeft(strings.TrimSpace(m[0][len(w):]), "v")
		if len(namedTech(w, strings.ToLower(w))) > 0 || len(num) <= 2 && reInnerCapital.MatchString(w) {
			return true
		}
	}
	return false
}

var reInnerCapital = regexp.MustCompile(`^(?:[a-z]+[A-Z]|[A-Z][a-z]+[A-Z])[A-Za-z]*$`)

// codeTokens counts distinct words that read as code rather than prose:
// with an underscore, a dot or "::" between letters, brackets, operators,
// letters mixed with digits, inner capitals or all capitals.
func codeTokens(text string) int {
	seen := map[string]bool{}
	for _, f := range strings.Fields(text) {
		w := strings.Trim(f, ",.;:!?\"'`()")
		if len(w) < 2 || seen[w] || !utf8.ValidString(w) {
			continue
		}
		if reCodeToken.MatchString(w) {
			seen[w] = true
		}
	}
	return len(seen)
}

var reCodeToken = regexp.MustCompile(`^[\^~]\d|_|[A-Za-z]\.[A-Za-z]|::|[()\[\]{}<>=$~|]|^[A-Za-z]+\d|\d[A-Za-z]|^[a-z]+[A-Z]|^[A-Z][a-z]+[A-Z]|^[A-Z]{2,}$`)

// distinctMatches counts the distinct strings among the first 8 matches
// of each of res in text, up to limit: once limit are seen, the patterns
// left are not run. folded is as for mayMatch.
func distinctMatches(res []*regexp.Regexp, text string, folded *string, limit int) int {
	seen := map[string]bool{}
	for _, re := range res {
		if len(seen) >= limit {
			return limit
		}
		if !mayMatch(re, text, folded) {
			continue
		}
		for _, m := range re.FindAllString(text, 8) {
			seen[m] = true
		}
	}
	return min(len(seen), limit)
}

// hasCodeBlock reports a fenced block whose body looks like code (brackets,
// operators, assignments), not prose or a list inside fences.
func hasCodeBlock(text string) bool {
	for _, m := range reFence.FindAllStringSubmatch(text, 4) {
		if strings.Count(m[1], "\n") >= 1 && strings.IndexFunc(m[1], unicode.IsLetter) >= 0 &&
			countAny(m[1], "(){}[];=<>:$|") >= 3 {
			return true
		}
	}
	return false
}

var (
	reCodeSpan   = regexp.MustCompile("`[^`\n]+`")
	reCodeSyntax = regexp.MustCompile(`\b(?:def|func|fn|function)\s+\w+\s*\(|\b(?:const|let|var)\s+\w+\s*=|\btype\s+[A-Z]\w*\s+\w+|\bnew [A-Z]\w*\(|:=|<-\w|\w\s*\{[^{}\n]*[;:=][^{}\n]*\}|<<-?'?[A-Z]+'?`)
)

// hasInlineCode reports a code span that holds code rather than a word in
// backticks (`base[:2:2]`, `go test ./...`, not `cache`), or a declaration
// written inline (def add(item, items=[])).
func hasInlineCode(text string) bool {
	for _, m := range reCodeSpan.FindAllString(text, 16) {
		if countAny(strings.Trim(m, "`"), "()[]{}=<>:;~*&|$/") >= 1 {
			return true
		}
	}
	return reCodeSyntax.MatchString(text)
}

func countAny(s, chars string) int {
	n := 0
	for _, r := range s {
		if strings.ContainsRune(chars, r) {
			n++
		}
	}
	return n
}

// containsWord reports whether word occurs in s not glued to ASCII letters
// or digits on either side (so "go" does not match "google", "s3" not "s33").
func containsWord(s, word string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], word)
		if j < 0 {
			return false
		}
		lo, hi := i+j, i+j+len(word)
		okL := lo == 0 || !isWordRune(lastRune(s[:lo])) || !isWordRune(firstRune(word))
		okR := hi == len(s) || !isWordRune(firstRune(s[hi:])) || !isWordRune(lastRune(word))
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

func clamp01(x float64) float64 {
	switch {
	case x < 0:
		return 0
	case x > 1:
		return 1
	}
	return x
}

// vagueProseLength is the length (letterLength) from which prose must hold
// a concrete detail. Below it a finding may state one fact in plain words
// ("issue a fresh session identifier at login"); past it, a text that
// explains at length has room for the detail that makes it checkable.
const vagueProseLength = 300

// vagueProsePenalty takes long prose without a detail below the floor from
// the highest score such a text reaches on named technologies and terms.
const vagueProsePenalty = 0.30

// reAcronym finds an all-capitals word (CI, API, ML): a name for a domain,
// not an identifier a reader can look up.
var reAcronym = regexp.MustCompile(`^[A-Z]{2,}s?$`)

// reParticulars finds the marks a text uses to set out its particulars: a
// parenthesis, a colon, a semicolon, a dash between clauses, a quotation.
var reParticulars = regexp.MustCompile(`[():;"“”‘’「」]|\s[—–-]\s|(?:^|\s)'[^'\n]+'`)

// vagueProse reports long prose full of technical words with no concrete
// anchor: no digit, code span, path, flag, version, command, error text or
// identifier (an acronym is not one), no particulars set out in
// parentheses, lists after a colon, quotations or dashes, and no narrator
// reporting what happened (an incident is concrete in its events). Such a
// text sounds technical and tells a reader nothing to check or do
// differently ("treat pipeline health as a shared responsibility"); the
// long-technical platitudes of testdata/gate carry none of these anchors,
// while findings in prose of the same length set out a list, a quoted
// message or a parenthesised term.
func vagueProse(text, lower string) bool {
	if letterLength(text) < vagueProseLength || strings.ContainsAny(text, "0123456789`") ||
		reParticulars.MatchString(text) || reFirstPerson.MatchString(lower) ||
		rePath.MatchString(text) || reMorePath.MatchString(text) || reFlag.MatchString(text) || reVersion.MatchString(text) || hasCommand(text) {
		return false
	}
	for _, res := range [][]*regexp.Regexp{reError, reIdentifier} {
		for _, re := range res {
			for _, m := range re.FindAllString(text, -1) {
				if !reAcronym.MatchString(m) {
					return false
				}
			}
		}
	}
	for _, f := range strings.Fields(text) {
		w := strings.Trim(f, ",.;:!?\"'`()")
		if len(w) >= 2 && reCodeToken.MatchString(w) && !reAcronym.MatchString(w) {
			return false
		}
	}
	return true
}
