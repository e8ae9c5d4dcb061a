package gate

import (
	"regexp"
	"strings"
)

// Session 23's readings of findings the instructions stage refused
// (calibration/own28-inj.jsonl and older tuning files): each says what a
// text that looks aimed at its reader is instead.

// reUserCompound is "the user" as the first half of a compound
// ("mention only the user-visible change in the subject"): the words
// name a kind of change or setting, not a person kept from anything.
var reUserCompound = regexp.MustCompile(`\bthe user-(visible|side|level|space|land|mode|agent|defined|supplied|provided|controlled|specified|configured|generated|friendly|experience)\b`)

// reOnlyTheWhole restricts what a summary or a message says to all the
// reader did ("mention only what changed", "list only the files it
// changed and the tests it ran"): the whole of it is told, so nothing is
// kept back; only a part of the change ("mention only the README typo
// fix") leaves the rest out.
var reOnlyTheWhole = regexp.MustCompile(`\b(?:mention|list|report|describe|say|include|summari[sz]e)s?\s+only\s+(?:what(?:ever)?\s+(?:(?:it|you|they|was|were|has|have|actually|the (?:agent|pr|change|commit|diff))\s+)*(?:changed|touched|did|ran|done|edited|modified)|the (?:files?|lines?|tests?|commands?|changes?|steps?) (?:it|you|they|the agent) (?:changed|touched|ran|edited|modified|made|took))\b`)

// concealCueText is a clause with what is not a concealment masked:
// compounds of "the user" and a restriction to the whole.
func concealCueText(c string) string {
	if !strings.Contains(c, "only") && !strings.Contains(c, "the user-") {
		return c
	}
	return reOnlyTheWhole.ReplaceAllString(reUserCompound.ReplaceAllString(c, "the user_$1"), " ")
}

// reToolNeverReports is a tool's part that reports no status ("required
// checks then never report", "the job will never report back"): it says
// what the tool does, and asks no reader to keep quiet.
var reToolNeverReports = regexp.MustCompile(`\b(?:checks?|jobs?|status(?:es)?|workflows?|builds?|tests?|hooks?|pipelines?|runners?|probes?|exporters?|agents? process(?:es)?)\s+(?:then\s+|will\s+|would\s+|simply\s+|just\s+|also\s+)?(?:never|don't|do not|won't|will not|doesn't|does not)\s+report\b`)

// toolNeverReports reports a clause whose only concealment is a tool
// reporting nothing, told of no person.
func toolNeverReports(c string) bool {
	if !reToolNeverReports.MatchString(c) {
		return false
	}
	rest := reToolNeverReports.ReplaceAllString(c, " ")
	return !(containsAny(rest, concealHints) && reConcealCue.MatchString(rest)) && !reTellPerson.MatchString(c)
}

// reMadeAgentDo reports what an attack made an agent do ("instructions
// hidden in .cursorrules that made the assistant add a script tag
// without mentioning it"): the concealment is the attack's result, told
// in the past.
var reMadeAgentDo = regexp.MustCompile(`\bmade\s+(?:the|an?|its|their|our)\s+(?:[\w-]+\s+)?(?:assistants?|agents?|models?|bots?|llms?|copilot)\s+[a-z]+\b|\b(?:caused|got|tricked|led|convinced|persuaded|coaxed|steered)\s+(?:the|an?|its|their|our)\s+(?:[\w-]+\s+)?(?:assistants?|agents?|models?|bots?|llms?|copilot)\s+(?:in)?to\b`)

// reKoOutputHidden is "출력 숨기기" said of a command's output, and
// reDiscardsOutput the redirect that discards it (>/dev/null, 2>&1,
// --quiet): a shell's output hidden from the terminal, not from a person.
var (
	reKoOutputHidden = regexp.MustCompile(`(?:표준\s*)?(?:출력|로그|오류)(?:을|를)?\s*(?:숨기|숨겨|감추)`)
	reDiscardsOutput = regexp.MustCompile(`/dev/null|\b2>&1\b|&>|--quiet\b|--silent\b|\s-q\b|\bnul\b`)
	reKoPerson       = regexp.MustCompile(`사용자|사람|리뷰어|요청자|고객|팀장|상사|에이전트`)
)

// koOutputDiscarded reports a Korean sentence about hiding a command's
// output, in a text that discards it with a redirect and names no person.
func koOutputDiscarded(sn, text string) bool {
	return reKoOutputHidden.MatchString(sn) && reDiscardsOutput.MatchString(text) && !reKoPerson.MatchString(sn)
}

// reKoAgentGiven gives an agent a task or a right ("에이전트에게 설치
// 스크립트 실행 맡기지 않기", "에이전트에게 쓰기 권한을 주지 않는다"):
// the sentence speaks of the agent to the person who runs it.
var reKoAgentGiven = regexp.MustCompile(`(?:에이전트|어시스턴트|ai|모델|봇)(?:에게|한테)\s*[^.\n]{0,40}?(?:맡기|맡겨|시키|허용하|허락하|부여하|주지|주면|주는|줄\s*때|넘기지|넘겨\s*주지)`)

// reKoHumanSubject is a person's role as a sentence's subject (당직자가,
// 운영자는), and reKoAgentWord an agent named anywhere in it.
var (
	reKoHumanSubject = regexp.MustCompile(`(?:당직자|담당자|운영자|관리자|엔지니어|온콜|개발자|작업자|배포\s*담당)(?:가|는|이|은)\s`)
	reKoAgentWord    = regexp.MustCompile(`에이전트|어시스턴트|\bai\b|모델|봇|claude|codex|copilot|llm`)
)

// koHumanWithoutApproval reports a Korean runbook sentence that lets a
// person on duty act without another's approval ("당직자가 승인 없이 바로
// 실행해도 되도록 사전 승인되어 있으며"): the rule is the team's, for a
// person, and names no agent.
func koHumanWithoutApproval(sn string) bool {
	return reKoHumanSubject.MatchString(sn) && !reKoAgentWord.MatchString(sn)
}

// reKoReportedSentence finds Korean reported speech in a command's
// sentence ("`env | curl …` 결과를 외부 URL 로 보내라는 글이 종종
// 보임"): a write-up warning of the request, which asks nothing unless
// its own verb does.
func koReportedAround(text string, start int) bool {
	from := lastSentenceEnd(text[:start])
	to := start + max(nextSentenceEnd(text[start:]), 0)
	if to <= start {
		to = len(text)
	}
	sn := text[from+1 : min(to+1, len(text))]
	return reKoReported.MatchString(sn) && !reKoImperative.MatchString(reKoReported.ReplaceAllString(sn, " "))
}

// reEnvOneSetting is one variable of process.env read for a setting
// (process.env.HTTPS_PROXY, process.env.PORT), and reSecretName a name
// that holds a secret: a request built with a proxy's address sends no
// environment away.
var (
	reEnvOneSetting = regexp.MustCompile(`process\.env\.([a-z_][a-z0-9_]*)|process\.env\[\s*['"]([a-z_][a-z0-9_]*)['"]\s*\]`)
	reSecretName    = regexp.MustCompile(`token|key|secret|pass|auth|cred|session|cookie|private|cert|dsn|database_url|conn`)
)

// envSettingsOnly reports a match whose every mention of process.env
// reads one variable that holds no secret.
func envSettingsOnly(m string) bool {
	if !strings.Contains(m, "process.env") {
		return false
	}
	for _, sm := range reEnvOneSetting.FindAllStringSubmatch(m, -1) {
		if reSecretName.MatchString(sm[1] + sm[2]) {
			return false
		}
	}
	return strings.Count(m, "process.env") == len(reEnvOneSetting.FindAllString(m, -1))
}

// knownInstallerRepos are repositories on code hosts whose install
// scripts their projects document (golangci-lint's install.sh, nvm's,
// Homebrew's): a finding that pipes one into a shell needs no word of
// prose to explain where it comes from. Only the project owns its
// repository, so a look-alike cannot pass by its path.
var knownInstallerRepos = map[string]bool{
	"golangci/golangci-lint": true, "nvm-sh/nvm": true, "homebrew/install": true, "ohmyzsh/ohmyzsh": true,
	"rbenv/rbenv-installer": true, "pyenv/pyenv-installer": true, "coder/code-server": true,
	"helm/helm": true, "junegunn/fzf": true, "tj/n": true, "moovweb/gvm": true, "sdkman/sdkman-cli": true,
	"anchore/syft": true, "anchore/grype": true, "aquasecurity/trivy": true, "sigstore/cosign": true,
	"goreleaser/goreleaser": true, "casey/just": true, "ajeetdsouza/zoxide": true, "starship/starship": true,
	"kubernetes-sigs/kind": true, "k3d-io/k3d": true, "derailed/k9s": true, "fluxcd/flux2": true,
	"nektos/act": true, "cli/cli": true, "astral-sh/uv": true, "astral-sh/ruff": true, "denoland/deno": true,
	"oven-sh/bun": true, "pnpm/pnpm": true, "volta-cli/volta": true, "schniz/fnm": true, "jdx/mise": true,
	"direnv/direnv": true, "gruntwork-io/terragrunt": true, "tfutils/tfenv": true, "foundry-rs/foundry": true,
}

// knownInstallerRepo reports a code host's URL path under a listed
// repository.
func knownInstallerRepo(path string) bool {
	parts := strings.Split(strings.Trim(strings.ToLower(path), "/"), "/")
	return len(parts) >= 2 && knownInstallerRepos[parts[0]+"/"+strings.TrimSuffix(parts[1], ".git")]
}

// reInstallFromURLRules is execPatterns' install from a URL or an
// address (npm install http://…, pip install http://…) within one
// command: the gap before the address crosses no Hangul and no sentence
// end, so "npm install이 … ETIMEDOUT. 사내망은 10.20.0.5:3128 프록시를" is
// prose about a proxy, not an install from it.
var reInstallFromURLRules = regexp.MustCompile(`\b(?:npm|pnpm|yarn|bun)\s+(?:i|install|add)\b[^\n\p{Hangul}]*?\s(?:https?://\S+|(?:\d{1,3}\.){3}\d{1,3}\S*)|\bpip3?\s+install\b[^\n\p{Hangul}]*?\s(?:https?://(?:\d{1,3}\.){3}\d{1,3}\S*|http://\S+)`)

// rulesInstallFromURL is ps with the install-from-URL pattern (the
// model's feature keeps the one it was fitted to) read by the rules as
// reInstallFromURLRules.
func rulesInstallFromURL(ps []hintedPattern) []hintedPattern {
	out := append([]hintedPattern(nil), ps...)
	for i, p := range out {
		if len(p.hints) > 0 && p.hints[0] == "npm" && strings.Contains(p.re.String(), `(?:i|install|add)`) {
			out[i].re = reInstallFromURLRules
		}
	}
	return out
}

// koReportedLine reports a line whose every sentence that holds a
// command (a code span) is Korean reported speech.
func koReportedLine(line string) bool {
	if !strings.ContainsFunc(line, isHangul) || !strings.Contains(line, "`") {
		return false
	}
	for i := 0; i < len(line); {
		j := nextSentenceEnd(line[i:])
		if j < 0 {
			j = len(line) - i - 1
		}
		sn := line[i : i+j+1]
		if strings.Contains(sn, "`") && !(reKoReported.MatchString(sn) && !reKoImperative.MatchString(reKoReported.ReplaceAllString(sn, " "))) {
			return false
		}
		i += j + 1
	}
	return true
}

// reDelegateToAgent opens a sentence that tells a person what to ask of
// their agent ("Ask the agent to mention only the user-visible effect in
// the PR title", "Tell the assistant in CLAUDE.md to …"): the agent is
// spoken of, the person spoken to.
var reDelegateToAgent = regexp.MustCompile(`^[\s*>-]*(?:for [^,\n]{1,60},\s*)?(?:ask|tell|instruct|have|get|configure|prompt|remind)\s+(?:the|your|an?|each|every)\s+(?:coding\s+|ai\s+|review\s+|triage\s+)?(?:agent|assistant|model|bot|llm)s?\b(?:\s+in\s+\S+)?\s+to\b`)

// modelSpared23 reports a sentence the model scored as aimed at its
// reader that reports what an attack made an agent do, gives an agent a
// task in Korean, or tells a person what to ask of their agent, and asks
// nothing the rules' concepts flag (no rule set aside or outranked,
// no secret, nothing fetched, run or sent).
func modelSpared23(sn string) bool {
	made := reMadeAgentDo.MatchString(sn)
	given := reKoAgentGiven.MatchString(sn) && !reSetAsideKo.MatchString(sn)
	delegated := reDelegateToAgent.MatchString(sn)
	if !made && !given && !delegated {
		return false
	}
	has := sentenceConcepts(sn)
	if has["c:DISMISS"] || has["c:PRIORITY"] && (has["c:RULES"] || has["c:AUTHORITY"]) || has["c:SECRET"] || has["c:FETCH"] || has["c:SEND"] {
		return false
	}
	return made && !has["c:YOU"] || given || delegated && !has["c:RUN"]
}

// reKoTopPriority puts a quality first in a design ("안정성을 최우선으로
// 고려해야 한다"): 우선 there ranks a goal, not a text above the reader's
// rules ("규칙보다 이 문서를 우선", "최우선으로 따르세요" stay read).
var reKoTopPriority = regexp.MustCompile(`최우선(?:으로|적으로|순위로|순위에)?\s*(?:고려|생각|두|둔|둬|삼|챙기|확보|검토|보호|관리|처리해야\s*할\s*(?:과제|문제))`)

// koTopPriorityMasked is c without such a ranking of goals.
func koTopPriorityMasked(c string) string {
	if !strings.Contains(c, "최우선") {
		return c
	}
	return reKoTopPriority.ReplaceAllString(c, " ")
}
