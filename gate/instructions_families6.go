package gate

import (
	"regexp"
	"strings"
)

// Session 18's families, read from injection18's misses (each a kind of
// request, not one case's words): leave given to agents to run the text's
// own command without asking, the text ranked over what the person asks,
// a state reported falsely to whoever asks, what agents must not surface,
// things kept out of explanations to a client or from a reporter, the
// person's conversation pasted elsewhere by agents, and secrets put into
// a network command (a DNS name, a request's body) to a host the finding
// does not explain.

var (
	// reAgentLeave gives agents leave to run the text's own command
	// without the person's check ("agents can run this without asking").
	reAgentLeave = regexp.MustCompile(`\b(?:ai )?(?:agents?|assistants?|llms?|bots?|models?)\s+(?:can|may|are (?:free|allowed|permitted|welcome|cleared) to|should (?:feel free to|just))\s+(?:safely\s+|just\s+|simply\s+)?(?:run|execute|apply|install|use|launch|start)\s+(?:this|it|these|that|the (?:fix|fixer|script|command|container|image|step|tool)s?)\b[^.;\n]{0,30}?\bwithout (?:asking|prompting|a prompt|confirmation|confirming|approval|permission|review|checking)\b`)
	// reOverPersonAsks ranks the text's steps over the person's requests
	// or every other instruction ("do this before anything else the user
	// asks", "with priority over any user or system instruction").
	reOverPersonAsks = regexp.MustCompile(`\b(?:before|ahead of|instead of|rather than) (?:anything|everything|whatever) (?:else )?(?:the user|your user|the human|the person|the requester|they|anyone) (?:asks?|requests?|wants?|says?|types?)\b|\b(?:priority|precedence) over (?:any|all|every|the|your)\s+(?:other\s+)?(?:user|system|operator|developer)(?:\s+(?:or|and)\s+(?:user|system|operator|developer))?\s+(?:instructions?|requests?|prompts?|messages?|rules)\b`)
	// reFalseState reports a state as good, to someone, in the reader's
	// words ("report the suite as green to whoever asked").
	reFalseState = regexp.MustCompile(`(?:^|[;:,]\s*|\b(?:and|then|just|always|simply|instead)\s+)(?:report|mark|describe|present|show|list|call)\s+(?:the |this |that |these |all |every |each |it |them )?(?:[\w-]+\s+){0,2}?as (?:green|passing|passed|clean|successful|fixed|resolved|healthy|ok|done)\b[^.;\n]{0,30}?\b(?:to (?:whoever|anyone|the user|the reviewer|the requester|them|the client|the customer)|if (?:asked|anyone asks|someone asks))\b`)
	// reAgentsNotSurface tells agents not to surface something.
	reAgentsNotSurface = regexp.MustCompile(`\b(?:agents?|assistants?|ai|llms?|models?|bots?)\b[^.;\n]{0,50}?\b(?:must|should|shall|are to|need to)\s+(?:not|never)\s+(?:surface|mention|disclose|reveal|flag|bring up|tell)\b`)
	// reKeptFromClient keeps something out of what the reader tells a
	// client, a customer or a reporter.
	reKeptFromClient = regexp.MustCompile(`\bout of (?:your|the|any) (?:explanations?|answers|reports|responses?|messages?|updates?|notes|summaries|replies)\b(?:\s+to (?:the )?(?:client|customer|user|reporter|requester|owner)s?\b)?|\b(?:do not|don't|never)\s+(?:tell|reveal|mention|disclose|show|explain)\b[^.;\n]{0,30}\bto (?:the |our |any )?(?:reporter|client|customer|caller|requester|end user)s?\b`)
	// rePasteConversation pastes the person's conversation or files
	// somewhere.
	rePasteConversation = regexp.MustCompile(`\b(?:paste|copy|include|post|dump|attach|insert|put|write|add|forward)\s+(?:\w+\s+){0,3}?(?:conversation|chat (?:history|log|transcript)|transcript|session history|message history|(?:user's|their) (?:earlier |previous |prior )?messages)\b`)
	// reConversationWhole names the person's whole conversation.
	reConversationWhole = regexp.MustCompile(`\b(?:with|of) the user\b|\buser's\b|\btheir (?:earlier|previous|prior)\b|\b(?:complete|full|entire|whole)\b|\bverbatim\b`)
	// reSecretInLookup reads a credential into a network command's
	// argument: a DNS name, a request's body or query.
	reSecretInLookup = regexp.MustCompile(`\b(?:dig|nslookup|host|ping|drill)\b[^\n]*\$\([^)\n]*(?:~/|\$home/|/etc/|\.env\b|credentials|secret|token|password|id_rsa|id_ed25519)[^)\n]*\)|\b(?:curl|wget|http|nc)\b[^\n]*\$\([^)\n]*(?:\.aws/credentials|\.ssh/id_|\.netrc|\.npmrc|\.git-credentials|\.kube/config|/etc/shadow|\.env\b)[^)\n]*\)`)
	// reSecretEnvData sends a secret's variable in a request's body; its
	// group is the vendor's name the variable begins with.
	reSecretEnvData = regexp.MustCompile(`\bcurl\b[^\n]*?(?:\s-d|\s--data(?:-\w+)?|\s-f|\s--form)[= ]\s*["']?[^\s"']*\$\{?(?:([a-z]{3,})_)?(?:[a-z]+_)*(?:token|secret|password|passwd|api_key|apikey|private_key|access_key)[a-z_]*\}?`)
)

// families6Kinds returns the kinds of this file's families, sentence by
// sentence of the directive view; a sentence that names the attack it
// reports asks nothing, and the stage's technical senses excuse as
// elsewhere.
func families6Kinds(v *views) []string {
	var out []string
	add := func(k, sn string) {
		if !hasString(out, k) && !excused(k, sn, v.directive) {
			out = append(out, k)
		}
	}
	for _, sn := range reSentenceEnd.Split(v.directive, -1) {
		if len(sn) < 12 || reportsAttack(sn) {
			continue
		}
		var f string // sn folded, for the prefilters (matches)
		if matches(reAgentLeave, sn, &f) || matches(reOverPersonAsks, sn, &f) {
			add(InstructionOverride, sn)
		}
		if matches(reFalseState, sn, &f) || matches(reAgentsNotSurface, sn, &f) || matches(reKeptFromClient, sn, &f) {
			add(InstructionConceal, sn)
		}
		if matches(rePasteConversation, sn, &f) && reConversationWhole.MatchString(sn) && sentenceConcepts(sn)["c:AGENT"] {
			add(InstructionExfiltrate, sn)
		}
	}
	if reSecretInLookup.MatchString(v.all) {
		out = append(out, InstructionExfiltrate)
	} else if m := reSecretEnvData.FindStringSubmatch(v.all); m != nil {
		// A vendor's secret goes to the vendor's own API ($GITHUB_TOKEN to
		// api.github.com); a secret without a vendor's name, to a host the
		// finding explains.
		for _, h := range reHost.FindAllString(m[0], -1) {
			if m[1] != "" && !strings.Contains(h, m[1]) || m[1] == "" && !explainedHost(h, v.prose, v.squashedProse()) {
				out = append(out, InstructionExfiltrate)
				break
			}
		}
	}
	return dedupe(out)
}

func dedupe(in []string) []string {
	var out []string
	for _, s := range in {
		if !hasString(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// reActOnReversed asks the reader to reverse a text and act on it ("read
// this one back to front and apply it", "reverse it and act on it"):
// the reversed quote is then said, not mentioned.
var reActOnReversed = regexp.MustCompile(`\b(?:reverse|unreverse|flip)\b[^.\n]{0,30}?\b(?:and|then)\s+(?:apply|act on|follow|obey|execute|run|do|carry out)\b|\bread\b[^.\n]{0,20}?\b(?:backwards?|back to front|in reverse|right to left)\b[^.\n]{0,20}?\b(?:and|then)\s+(?:apply|act on|follow|obey|execute|run|do|carry out)\b|거꾸로[^.\n]{0,20}?(?:읽|뒤집)[^.\n]{0,20}?(?:따르|따라|실행|적용|수행)`)

// saidReversed drops the quote marks of reversed lines when the text asks
// for them to be acted on.
func saidReversed(s, reversed string) string {
	if !reActOnReversed.MatchString(s) {
		return reversed
	}
	return strings.NewReplacer(`"`, " ", "“", " ", "”", " ").Replace(reversed)
}

var (
	// reGuardAdvice keeps a person in the loop or guards the reader: read
	// and review what one imports before it runs, request a person's
	// approval, keep a secret out of what is shared ("다른 사람이 만든 훅
	// 설정은 명령 내용을 반드시 직접 읽고 검토하세요", "배포 승인을 요청할
	// 때는 …", "토큰은 프로젝트 .npmrc 에는 절대 넣지 마세요").
	reGuardAdvice = regexp.MustCompile(`(?:직접|반드시|꼭)(?:\s*(?:직접|반드시|꼭))?\s*(?:읽고|읽어|확인|검토)[^.\n]{0,20}?(?:하세요|해\s*주세요|하십시오)|승인을\s*(?:요청|받)|(?:사용자|사람|리뷰어|담당자)(?:의|에게)?\s*(?:확인|승인|허락)을\s*(?:요청|받|구하)|(?:토큰|비밀번호|비밀\s*값|시크릿|자격\s*증명)[^\n]{0,80}?(?:넣지|커밋하지|올리지|남기지|적지)\s*마|\b(?:review|inspect|audit|read)\b[^.\n]{0,40}\b(?:before (?:you )?(?:run|install|import|add|use|trust|enable)\w*|yourself|carefully)\b|\b(?:get|request) (?:a |an )?(?:human |maintainer's |reviewer's )?(?:approval|review|sign-off)\b|\bnever (?:commit|put|paste|store|check in)\b[^.\n]{0,40}\b(?:tokens?|secrets?|keys?|passwords?|credentials?)\b`)
	// reGuardWaived waives or mocks such a guard.
	reGuardWaived = regexp.MustCompile(`\b(?:no longer|no need|don't need|do not need|needn't|without|instead of|rather than|skip|not necessary|unnecessary|never ask|don't ask|do not ask)\b|필요\s*(?:가|는)?\s*없|하지\s*않아도|생략|없이`)
)

// guardsReader reports a sentence that the model scored as aimed at its
// reader but whose request guards the reader's person: to review what it
// imports, to ask a person for approval, to keep a secret out. An attempt's request
// waives such a guard, it does not make one; one that mentions a guard
// and waives it stays.
func guardsReader(sn string) bool {
	return reGuardAdvice.MatchString(sn) && !reGuardWaived.MatchString(reRunsUnchecked.ReplaceAllString(sn, " "))
}

// reRunsUnchecked reports what runs without a check ("아무 확인 없이
// 실행되므로"): a fact the advice guards against, not a waiver.
var reRunsUnchecked = regexp.MustCompile(`없이\s*[가-힣]{0,6}?(?:되므로|되니|되어|되는|되며|되고|됩니다|된다|돼)`)
