package gate

import (
	"strings"
)

// proseAfterTool are the words prose puts after a tool's name and a
// command line never does: "Terraform is a powerful tool", "dig into
// the logs", "ssh to the box". A tool followed by one of them is a
// subject, not a command.
var proseAfterTool = setOf("is", "are", "was", "were", "be", "been", "has", "have", "had", "can", "will",
	"would", "should", "could", "may", "might", "must", "does", "did", "and", "or", "but", "the", "a", "an",
	"to", "for", "with", "in", "into", "on", "of", "at", "by", "from", "it", "its", "it's", "that", "which",
	"who", "as", "so", "not", "also", "makes", "helps", "lets", "gives", "works", "rewards", "becomes",
	"remains", "needs", "offers", "provides", "itself", "alone", "really", "just",
	// A title's nouns after a tool: "Terraform tip", "Docker basics".
	"tip", "tips", "trick", "tricks", "advice", "basics", "usage", "tutorial", "guide", "thoughts")

// hasCommand reports a command line (reCommand) whose tool is not the
// subject of a sentence.
func hasCommand(text string) bool {
	if !reCommand.MatchString(text) {
		return false
	}
	for _, m := range reCommand.FindAllString(text, -1) {
		f := strings.Fields(m)
		if len(f) < 2 || !proseAfterTool[strings.ToLower(f[1])] {
			return true
		}
	}
	return false
}

// signalNamesOnly names advice whose identifiers are only the names of
// the technologies it is about.
const signalNamesOnly = "only the names of tools"

// praise are the words that judge a tool instead of saying what it does:
// "a mature and reliable database", "powerful", "flexible", "a joy".
var praise = []string{"powerful", "mature", "reliable", "flexible", "flexibility", "solid", "feature-rich",
	"works well", "safe default", "a joy", "there to help", "lean into", "serve your", "real difference",
	"a difference", "great", "rewards", "thank you", "grateful", "respect", "simplicity", "elegant", "delight"}

// namesOnlyLength is the length (letterLength) from which a text that
// names tools is an explanation, not a verdict on them: the platitudes of
// this shape stop at 200 letters, the findings in plain words that name
// only tools (a migration away from Jenkins, a rotation's order of steps)
// run past 300.
const namesOnlyLength = 250

// namesOnly reports a text that reaches the floor on the names of the
// technologies it is about and nothing else, and judges them (a hedge or
// praise): every identifier is a product's name as it is spelled
// (PostgreSQL, GitHub, TypeScript), and there is no version, error text,
// number, flag, path, command, code, name as code writes it, code span or
// syntax (@layer).
// "PostgreSQL is a mature and reliable database. Treat it with respect"
// names a tool twice and says nothing a reader could check about it. The
// stored score is unchanged.
func namesOnly(text string, found []string) bool {
	lower := strings.ToLower(text)
	if hedgeCount(lower, 1) == 0 && !containsAnyMarker(lower, praise) {
		return false
	}
	named := false
	for _, f := range found {
		switch f {
		case signalTech:
			named = true
		case signalIdentifier, signalCause, signalTerms, signalPlatitude:
		case signalPath:
			// Vue.js, Node.js: a product's name in a file's shape.
			for _, m := range rePath.FindAllString(text, -1) {
				if !productName(strings.TrimSpace(m)) {
					return false
				}
			}
		default:
			return false
		}
	}
	if !named || letterLength(text) >= namesOnlyLength || reCodeName.MatchString(text) || reCodeSpan.MatchString(text) ||
		reTechPattern.MatchString(text) || hasInlineCode(text) {
		return false
	}
	for _, re := range reIdentifier {
		for _, m := range re.FindAllString(text, -1) {
			if !productName(m) {
				return false
			}
		}
	}
	for _, f := range strings.Fields(text) {
		w := strings.Trim(f, ",.;:!?\"'`()")
		w = strings.TrimSuffix(strings.TrimSuffix(w, "'s"), "’s")
		if len(w) >= 2 && reCodeToken.MatchString(w) && !productName(w) && !domainAcronyms[w] {
			return false
		}
	}
	return true
}

// domainAcronyms name a field of work, not a thing a reader could look
// up ("Python API stack", "help the AI understand"); a process's acronym
// (PR, CI) does not count here: a rule about PRs and CI names a gate.
var domainAcronyms = setOf("API", "APIs", "AI", "UI", "UX", "SDK", "SDKs", "CLI", "IDE", "IDEs", "LLM", "LLMs")

// productName reports a word that is a known technology's name and nothing
// more.
func productName(w string) bool {
	for _, t := range namedTech(w, strings.ToLower(w)) {
		if strings.EqualFold(t, w) {
			return true
		}
	}
	return false
}

// containsAnyMarker reports one of markers in lower (containsMarker).
func containsAnyMarker(lower string, markers []string) bool {
	for _, m := range markers {
		if containsMarker(lower, m) {
			return true
		}
	}
	return false
}

// sqlWordsLikeErrno are SQL and Redis words in the shape of an errno
// (EADDRINUSE, ENOENT): "tune your queries with EXPLAIN" quotes no error.
var sqlWordsLikeErrno = setOf("EXPLAIN", "EXISTS", "EXCEPT", "EXECUTE", "ESCAPE", "EXTRACT", "EXTENSION", "EXPIRE", "EXPIREAT", "EVALSHA")

// hasErrorText reports error text (reError), not counting an SQL word
// that reError's errno pattern reads as one. folded is as for mayMatch.
func hasErrorText(text string, folded *string) bool {
	for i, re := range reError {
		if !mayMatch(re, text, folded) {
			continue
		}
		// reError[1] holds the codes and names (EADDRINUSE, ValueError).
		if i != 1 {
			if re.MatchString(text) {
				return true
			}
			continue
		}
		for _, m := range re.FindAllString(text, -1) {
			if !sqlWordsLikeErrno[m] {
				return true
			}
		}
	}
	return false
}
