package gate

import (
	"math"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Evidence the accept rule weighs beside the specificity score. The score
// is stored with each entry and ranks it (knowledge.Quality), so it stays
// what it was; what changes is only whether a finding just under the floor
// passes. A command line quoted in backticks (`nginx -t`, `crontab -r`) is
// code a reader can run, and the words of agent tooling (hooks, MCP,
// sandboxes, system prompts) are a technical domain like caches and locks:
// advice in them is as concrete as advice about a database.
const (
	signalCommandLine = "quoted command line"
	signalAgentTerms  = "agent-tooling terms"
	signalReasoned    = "reasoned explanation"
	signalDocumented  = "documented example value"
)

// documentedMargin is what a documented example value adds to the score
// for the accept rule, as reasonedMargin does.
const documentedMargin = 0.15

// reasonedLength is the length (letterLength) from which a reasoned
// explanation in technical words counts.
const reasonedLength = 150

// reasonedHedges is how many distinct hedges withhold the reasoned
// explanation.
const reasonedHedges = 3

// reasonedMargin is what a reasoned explanation adds to the score for the
// accept rule, a fixed weight and not the gap to the floor: the findings
// with a detail in testdata/gate's tuning part that need it sit within
// 0.10 of the floor with their other evidence (one sits 0.27 under and is
// refused), while long vague advice with a cause, a "mitigation:" or a
// bare number sits anywhere from 0.17 up
// (testdata/gate/calibration/long-vague.jsonl).
const reasonedMargin = 0.15

// acceptable reports whether a finding whose score is below the floor
// passes on that evidence, and names the evidence it counted. A platitude
// never does; nor does advice whose score rests on names alone (vagueNamed).
// documented says whether the text holds a documented example value
// (scanPII's count, which Check has from the PII stage).
func acceptable(title, content string, score float64, found []string, n NarrativeResult, documented bool) (bool, []string) {
	if !documented && adviceList(title, content, found) {
		return false, []string{signalAdviceList}
	}
	if score >= SpecificityFloor {
		if vagueNamed(title+"\n"+content, found) {
			return false, []string{signalVagueNamed}
		}
		if namesOnly(title+"\n"+content, found) {
			return false, []string{signalNamesOnly}
		}
		if vagueCounted(title+"\n"+content, found) {
			return false, []string{signalVagueCounted}
		}
		if !documented && platitudeUnchecked(title+"\n"+content, found) {
			return false, []string{signalVagueNamed}
		}
		return true, nil
	}
	adj, names := evidenceScore(title, content, score, found, n, documented)
	return adj >= SpecificityFloor-0.005, names
}

// evidenceScore is the score with the evidence added, for the accept rule
// only.
func evidenceScore(title, content string, score float64, found []string, n NarrativeResult, documented bool) (float64, []string) {
	if hasString(found, signalPlatitude) || hasString(found, signalTooShort) || hasString(found, signalNoDetail) {
		return score, nil
	}
	text := title + "\n" + content
	lower := strings.ToLower(text)
	extra := 0.0
	var names []string
	if hasCommandSpan(text) && !(hasString(found, signalCode) && hasString(found, signalCommand)) {
		// A command line in backticks is code and a command.
		if !hasString(found, signalCode) {
			extra += 0.10
		}
		if !hasString(found, signalCommand) {
			extra += 0.15
		}
		names = append(names, signalCommandLine)
	}
	terms, agent := 0, 0
	for _, t := range techTerms {
		if hasTerm(lower, t) {
			terms++
		}
	}
	for _, t := range agentTerms {
		if hasTerm(lower, t) {
			agent++
		}
	}
	// Agent tooling and security advice is written in such words; a
	// finding that uses many of them counts them past the score's cap.
	if more := math.Min(float64(terms+agent), maxEvidenceTerms) - math.Min(float64(terms), 4); more > 0 {
		extra += 0.05 * more
		names = append(names, signalAgentTerms)
	}
	// A finding that explains at length, in the words of its domain, with
	// a detail a reader can look up (a tool, an identifier, error text,
	// code, a flag or a path; a bare number is not one) is a finding even
	// when it names few tools: vague advice is short ("keep secrets safe")
	// or, when long, names nothing. The explanation counts for
	// reasonedMargin, not for whatever is missing, so only a finding just
	// under the floor passes on it.
	// Advice full of hedges (teams, culture, journey, carefully) explains
	// nothing, however long: the findings of the tuning part that pass on
	// the explanation hold at most two, its platitudes three or more.
	if terms+agent >= 2 && letterLength(text) >= reasonedLength && detailed(found) && hedgeCount(lower, reasonedHedges) < reasonedHedges {
		extra += reasonedMargin / scoreScale
		names = append(names, signalReasoned)
	}
	// A documented example value (a vendor's test card, a number from a
	// range reserved for fiction, an example domain) is a detail a reader
	// can look up: the finding is about that value.
	if documented {
		extra += documentedMargin / scoreScale
		names = append(names, signalDocumented)
	}
	adj := score + scoreScale*extra // below the floor the score is the weights times scoreScale
	if adj < SpecificityFloor && concretePractice(text, lower, found, n) {
		return SpecificityFloor, append(names, signalPractice)
	}
	return adj, names
}

// maxEvidenceTerms is how many distinct terms the accept rule counts, two
// more than the score does.
const maxEvidenceTerms = 6

func hasTerm(lower, t string) bool {
	return containsWord(lower, t) || containsWord(lower, t+"s") || containsWord(lower, t+"es")
}

// hasCommandSpan reports a code span that holds a command line: a
// lowercase program name followed by a flag or by arguments (`nginx -t`,
// `chflags hidden file`, `buf generate`), not a single word in backticks.
func hasCommandSpan(text string) bool {
	for _, m := range reCodeSpan.FindAllString(text, 16) {
		// A pipeline's tail (`| tail -n 50`) is a command line too.
		f := strings.Fields(strings.TrimPrefix(strings.TrimSpace(strings.Trim(m, "`")), "| "))
		if len(f) < 2 || !isProgramName(f[0]) {
			continue
		}
		if len(f) >= 3 || strings.HasPrefix(f[1], "-") || isProgramName(f[1]) {
			return true
		}
	}
	return false
}

// isProgramName reports whether w has the shape of a command's name:
// lowercase ASCII letters, digits, "-" and "_", starting with a letter.
func isProgramName(w string) bool {
	for i, r := range w {
		if !(r >= 'a' && r <= 'z' || i > 0 && (r >= '0' && r <= '9' || r == '-' || r == '_')) {
			return false
		}
	}
	return w != ""
}

// letterLength measures a text by its letters, a Hangul syllable counting
// for 2.5 Latin letters (about what it carries).
func letterLength(text string) float64 {
	n := 0.0
	for _, r := range text {
		switch {
		case r < 0x80 && unicode.IsLetter(r):
			n++
		case r >= 0xAC00 && r <= 0xD7A3:
			n += 2.5
		}
	}
	return n
}

// detailed reports a detail a reader can look up: a tool, a version, error
// text, an identifier, a flag, a path, a command or code. A number alone
// is not one ("for example 2 of them").
func detailed(found []string) bool {
	for _, f := range found {
		switch f {
		case signalTech, signalVersion, signalError, signalIdentifier, signalFlag, signalPath, signalCommand, signalCode:
			return true
		}
	}
	return false
}

// signalVagueNamed names advice that lists tools around vague words.
const signalVagueNamed = "names tools around general advice"

// vagueNamed reports a text whose score rests on names alone (technologies
// and identifiers, technical terms, a cause) with no detail a reader could
// check (a version, error text, a number with its unit, a flag, a path, a
// command or code) and that holds reasonedHedges distinct hedges or more:
// "Whether you use Kubeflow, MLflow or a homegrown stack, the principles
// remain the same", "Kafka 나 gRPC 같은 기술은 … 문화가 뒷받침되지 않으면". Of
// the tuning findings that pass on names alone (211) none holds more than
// two hedges; of the platitudes (15), eleven hold three or more. The stored
// score is unchanged.
func vagueNamed(text string, found []string) bool {
	lower := strings.ToLower(text)
	named := false
	for _, f := range found {
		switch f {
		case signalTech, signalIdentifier:
			named = true
		case signalCause, signalTerms, signalPlatitude:
		default:
			return false
		}
	}
	return named && !reCodeName.MatchString(text) && hedgeCount(lower, reasonedHedges) >= reasonedHedges
}

// signalVagueCounted names advice whose one detail is a bare count.
const signalVagueCounted = "a bare number around general advice"

// vagueCountedHedges is how many distinct hedges make such advice vague.
const vagueCountedHedges = 2

// vagueCounted reports a text that names nothing (no technology, no
// identifier, version, flag, path, command or code) and reaches the floor
// on technical terms, a cause and one detail that is no name either: a
// number tacked on ("within 2 weeks", "perhaps 4 times") or a phrase the
// error rule reads ("too many threads"), around two hedges or more ("now
// and then", "watch the numbers", "adjust them"). Of the tuning findings
// that reach the floor so, none holds more than one hedge
// (testdata/gate/calibration/long-vague.jsonl's platitudes two to four).
// The stored score is unchanged.
//
// An identifier that is only a number glued to its unit or a multiplier
// (100ms, 10x) or a process's acronym (PR, CI), and a technology that is
// only such an acronym (CI), name nothing a reader could look up either:
// "keep builds under 10 minutes where possible" names no build system.
func vagueCounted(text string, found []string) bool {
	detail := false
	for _, f := range found {
		switch f {
		case signalNumber, signalError:
			detail = true
		case signalCause, signalTerms, signalPlatitude:
		case signalIdentifier:
			if !weakIdentifiers(text) {
				return false
			}
		case signalTech:
			if !processNamesOnly(text) && !oneTechOnly(text) {
				return false
			}
		default:
			return false
		}
	}
	return detail && hedgeCount(strings.ToLower(text), vagueCountedHedges) >= vagueCountedHedges
}

// reWeakToken is a code token that names nothing: a number with a unit or
// a multiplier glued on (100ms, 10x, 24h), or the acronym of a team's
// process (PR, MR, CI, QA). An acronym that names a mechanism (TTL, DNS,
// TLS) is a name a reader can look up.
var reWeakToken = regexp.MustCompile(`^\d+(?:\.\d+)?(?:x|ms|s|m|h|d|k|kb|mb|gb|tb|%)$|^(?:PRs?|MRs?|CI|QA)$`)

// weakIdentifiers reports a text whose identifier signal rests on weak
// tokens alone: no identifier pattern matches and every code token is a
// reWeakToken.
func weakIdentifiers(text string) bool {
	var folded string
	if distinctMatches(reIdentifier, text, &folded, 1) > 0 {
		return false
	}
	for _, f := range strings.Fields(text) {
		w := strings.Trim(f, ",.;:!?\"'`()")
		if len(w) >= 2 && utf8.ValidString(w) && reCodeToken.MatchString(w) && !reWeakToken.MatchString(w) {
			return false
		}
	}
	return true
}

// processNames are the technologies namedTech finds that name a practice,
// not a tool: continuous integration.
var processNames = []string{"CI"}

// processNamesOnly reports a text whose named technologies are all
// processNames.
func processNamesOnly(text string) bool {
	tools := namedTech(text, strings.ToLower(text))
	for _, t := range tools {
		if !containsString(processNames, t) {
			return false
		}
	}
	return len(tools) > 0 && !reTechPattern.MatchString(text)
}

// reCodeName is a name as code writes it, which a reader can look up as a
// version or a flag: snake_case (pg_advisory_xact_lock), a dotted key
// (max.poll.records), a call (poll()), commands joined by a slash
// (MULTI/EXEC) or a braced tag ({user42}). A product's name (Kubeflow,
// MLflow) is none.
var reCodeName = regexp.MustCompile(`\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b|\b[a-z][a-z0-9]*(?:\.[a-z][a-z0-9]*){2,}\b|\b[A-Za-z_]\w*\(\)|\b[A-Z]{3,}/[A-Z]{3,}\b|\{[\w:-]+\}`)

// oneTechOnly reports a text that names one technology and nothing in its
// syntax: advice about Git or React at large.
func oneTechOnly(text string) bool {
	return len(namedTech(text, strings.ToLower(text))) == 1 && !reTechPattern.MatchString(text)
}

// platitudeUnchecked reports general advice ("follow best practices",
// "keep it simple": the platitude penalty) that reaches the floor on names
// and words alone, with no detail a reader could look up: no version,
// error text, number, flag, path or code, no name as code writes it
// (reCodeName) and no code span. Names do not make advice checkable
// ("always follow best practices … remote state in S3 with DynamoDB
// locking"). Of the tuning findings above the floor with the penalty, one
// holds no such detail, and it carries a documented example value
// (jwt.io's token), which exempts it; six platitudes are caught.
func platitudeUnchecked(text string, found []string) bool {
	if !hasString(found, signalPlatitude) {
		return false
	}
	for _, f := range found {
		switch f {
		case signalVersion, signalError, signalFlag, signalPath, signalCode, signalNumber:
			return false
		}
	}
	return !reCodeName.MatchString(text) && !hasInlineCode(text)
}
