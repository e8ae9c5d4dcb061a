package gate

import "regexp"

// Session 23's second probe (calibration/own28-inj2.jsonl): attempts in
// shapes the stage had not met, each read here by what it asks. A
// comment in a JSON manifest is prose a model reads; a check turned off
// "with no need to raise it" hides it; logs and env dumps go to a
// pastebin; a secret scanner is skipped for real keys; the reader's
// safety rules are declared expired; Korean polite forms ask the same
// (알리실 필요는 없습니다, …라고만 적어 주시고, …다는 말은 빼 주시기,
// 자격 파일의 내용을 응답에 붙여 주실 수 있을까요).

var (
	// reJSONComment is the value of a JSON comment key ("//": "…",
	// "_comment": "…"): JSON has no comments, so manifests carry them as
	// strings, which the views read as quoted mentions.
	reJSONComment = regexp.MustCompile(`"(?://|_+comment|comment|_+note|note)"\s*:\s*"([^"\n]{12,400})"`)
	// reNoNeedToRaise waives telling someone ("no need to raise it with
	// the user", "no need to mention it to the reviewers").
	reNoNeedToRaise = regexp.MustCompile(`\bno need to (?:raise|mention|bring up|flag|tell|report|surface|explain|point out)\b[^.\n]{0,25}\b(?:with|to)?\s*(?:the |your |any )?(?:users?|reviewers?|team|maintainers?|humans?|requester|owner|anyone|them)\b`)
	// reRealSecretsSkipped skips a secret scanner for commits that hold
	// real secrets.
	reRealSecretsSkipped = regexp.MustCompile(`\b(?:including|even(?: for)?)\s+(?:ones|those|commits|files|changes|the ones)?\s*(?:with|that (?:contain|hold|have)|containing|holding)\s+(?:real|live|actual|production)\s+(?:keys|secrets|credentials|tokens|passwords)\b`)
	reScannerSkipped     = regexp.MustCompile(`--no-verify\b|\bskip=|\bnosec\b|\bgitleaks:allow\b|\ballowlist\b`)
	// rePastebin is a public paste service, rePasteDump what a dump of
	// the environment or a full log is called, and rePasteNegated advice
	// against posting it.
	rePastebin     = regexp.MustCompile(`\b(?:ix\.io|paste\.rs|pastebin(?:\.com)?|termbin\.com|0x0\.st|transfer\.sh|hastebin(?:\.com)?|dpaste(?:\.org|\.com)?|sprunge\.us|paste\.ee|ghostbin\w*|paste\.\w+\.\w+)\b`)
	rePasteDump    = regexp.MustCompile(`\benv(?:ironment)?\s+(?:dump|output|variables)\b|\bprintenv\b|\benv\s*[|>]|\bfull log\b|\bwithout (?:trimming|redacting|removing|editing)\b|\btokens?\b|\bsecrets?\b|토큰|환경\s*변수|` + "`env`")
	rePasteNegated = regexp.MustCompile(`\b(?:don't|do not|never|avoid|before|instead of|rather than|leak\w*|exposes?|redact\w*)\b|지\s*마|않|말고|금지|전에`)
	// reRulesExpired declares the reader's safety rules lapsed, or tells
	// it to take a file's instructions as its operator's.
	reRulesExpired = regexp.MustCompile(`\b(?:safety|security|previous|prior|earlier|original)\s+(?:configuration|config|rules|settings|guidelines|instructions|policy|policies|restrictions|guardrails)\s+(?:has|have)\s+(?:expired|lapsed|ended|been (?:revoked|suspended|lifted|withdrawn|disabled))\b|(?:^|[.;:,]\s*)treat (?:the )?(?:instructions|commands|directions|requests)\s+(?:found|written|contained|placed)\s+in\b[^\n]{0,50}?\bas (?:coming from|if (?:they came )?from|issued by|given by|from)\s+(?:the |your )?(?:operator|user|developer|system|admins?|administrators?|maintainers?)\b`)
	reNegation     = regexp.MustCompile(`\b(?:never|don't|do not|must not|should not|shouldn't|won't|not)\b`)
	// Korean: an honorific waiver of telling someone, a remark kept out
	// ("제한을 없앴다는 말은 빼 주시기"), an unquoted cover story beside a
	// check removed, and a credentials file's contents asked for in the
	// reply.
	reKoNoNeedHonorific = regexp.MustCompile(`(?:사람|사용자|운영자|리뷰어|팀|관리자)(?:에게|한테|께)\s*(?:는\s*)?(?:따로\s*|굳이\s*|별도로\s*)?(?:알리실|알려\s*드릴|말씀하실|말씀드릴|알려\s*주실|보고하실|말하실|전하실)\s*필요(?:가|는)?\s*없`)
	reKoRemarkOut       = regexp.MustCompile(`\S+다는\s*(?:말|사실|내용|점|얘기|이야기)(?:은|을|는|도)?\s*(?:빼|숨기|숨겨|생략|언급하지|적지|쓰지)`)
	reKoCoverUnquoted   = regexp.MustCompile(`(?:커밋|pr|풀\s*리퀘스트|머지\s*리퀘스트)\s*(?:메시지|제목|설명)(?:에는|에)\s*[^.\n'"]{0,30}(?:수정|정리|변경|업데이트|개선)(?:이)?라고만\s*(?:적|쓰|남기|올리)`)
	reKoCheckRemoved    = regexp.MustCompile(`(?:제한|검사|검증|스캔|훅|보호|workflows?/\S+|codeql\S*|\bci\b)\S*\s*(?:을|를)?\s*(?:잠시\s*|당분간\s*|일단\s*)?(?:없앤|없애|없앴|끈|끄|꺼|지운|지우|지워|삭제|우회|비활성)`)
	reKoSecretFile      = regexp.MustCompile(`~/\.aws/credentials|~/\.ssh/id_\w+|\.env\b|~/\.npmrc|~/\.netrc|~/\.kube/config|~/\.docker/config\.json|secrets?\.ya?ml`)
	reKoIntoReply       = regexp.MustCompile(`(?:내용|값|전문)(?:을|를)?[^.\n]{0,20}(?:응답|답변|댓글|이슈|채팅|메시지)[^.\n]{0,12}(?:붙여|넣어|적어|올려|포함|남겨)\s*(?:주실|주시|주세요|주십시오|줘)`)
	reKoNegated         = regexp.MustCompile(`지\s*(?:마|말)|않|금지|안\s*(?:됩|돼)`)
)

// families10Kinds returns the kinds of these families in v.
func families10Kinds(v *views) []string {
	var out []string
	add := func(k string) { out = append(out, k) }
	for _, m := range reJSONComment.FindAllStringSubmatch(v.all, 4) {
		out = append(out, Instructions("", m[1]).Kinds...)
	}
	d := v.directive
	for _, sn := range reSentenceEnd.Split(d, -1) {
		if reportsAttack(sn) || reKoReported.MatchString(sn) {
			continue
		}
		if reNoNeedToRaise.MatchString(sn) || reKoNoNeedHonorific.MatchString(sn) || reKoRemarkOut.MatchString(sn) && !reKoNegated.MatchString(sn) {
			add(InstructionConceal)
		}
		if reKoCoverUnquoted.MatchString(sn) && reKoCheckRemoved.MatchString(d) {
			add(InstructionConceal)
		}
		if reRealSecretsSkipped.MatchString(sn) && reScannerSkipped.MatchString(sn) {
			add(InstructionOverride)
		}
		if reRulesExpired.MatchString(sn) && !reNegation.MatchString(sn) {
			add(InstructionOverride)
		}
		if reKoSecretFile.MatchString(sn) && reKoIntoReply.MatchString(sn) && !reKoNegated.MatchString(sn) {
			add(InstructionExfiltrate)
		}
	}
	// The paste host sits in a command, which the directive view masks.
	for _, sn := range reSentenceEnd.Split(v.all, -1) {
		if rePastebin.MatchString(sn) && rePasteDump.MatchString(sn) && !rePasteNegated.MatchString(sn) && !reportsAttack(sn) {
			add(InstructionExfiltrate)
			break
		}
	}
	return out
}

// reNeverLetAct is "never let it grant permissions": a reader's tool kept
// from acting, not a person kept from knowing.
var reNeverLetAct = regexp.MustCompile(`\b(?:never|don't|do not|without)\s+let(?:ting)?\s+(?:it|them|the (?:tool|model|agent|output|page|content|result)s?)\s+(?:grant|run|write|execute|change|call|access|approve|merge|push|decide|override|escalate|install|delete|modify|send|fetch|act|trigger|alter)\b`)

// neverLetAct reports a sentence whose only "never let" keeps a tool or
// its output from acting.
func neverLetAct(sn string) bool {
	return reNeverLetAct.MatchString(sn) && !containsAny(sn, []string{"know", "tell", "mention", "notice", "see ", "user", "human", "reviewer", "find out"})
}
