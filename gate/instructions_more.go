package gate

import (
	"encoding/hex"
	"regexp"
	"strings"
)

// More of the instructions stage: decoders a model follows when told to
// (ROT13, reversed text, hex), quotes that are not mentions, and the
// technical senses of words the directive patterns look for.

var (
	// reROT13 names ROT13: "decode with rot13", "ROT13 memo".
	reROT13 = regexp.MustCompile(`\brot[- ]?13\b`)
	// reBackwards tells the reader to read text in reverse.
	reBackwards = regexp.MustCompile(`\b(?:backwards|reversed?|in reverse|right to left)\b|거꾸로|역순`)
	// reHexRun is a run of hex digits long enough to spell a sentence.
	reHexRun = regexp.MustCompile(`\b(?:[0-9a-f]{2}){12,}\b`)
)

// rot13 rotates Latin letters by 13.
func rot13(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z':
			return 'a' + (r-'a'+13)%26
		case r >= 'A' && r <= 'Z':
			return 'A' + (r-'A'+13)%26
		}
		return r
	}, s)
}

// reversedLines reverses each line rune by rune.
func reversedLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		r := []rune(l)
		for a, b := 0, len(r)-1; a < b; a, b = a+1, b-1 {
			r[a], r[b] = r[b], r[a]
		}
		lines[i] = string(r)
	}
	return strings.Join(lines, "\n")
}

// hexText decodes hex runs that hold text (bytes.fromhex('696d…')), not
// hashes or ids.
func hexText(s string) []string {
	var out []string
	for _, m := range reHexRun.FindAllString(s, 8) {
		if b, err := hex.DecodeString(m); err == nil && printable(string(b)) && strings.Contains(string(b), " ") {
			out = append(out, strings.ToLower(string(b)))
		}
	}
	return out
}

// decodeOnRequest adds the views a text asks its reader to decode.
func decodeOnRequest(s string, extra []string, disguise func(string)) []string {
	if reROT13.MatchString(s) {
		disguise("rot13")
		extra = append(extra, rot13(s))
	}
	if reBackwards.MatchString(s) {
		disguise("reversed text")
		extra = append(extra, saidReversed(s, reversedLines(s)))
	}
	for _, d := range hexText(s) {
		disguise("hex")
		extra = append(extra, d)
	}
	return extra
}

var (
	// reAgentKey is a key of structured text (JSON, YAML, front matter)
	// that names the agent it speaks to: note_for_llm, ai_instructions,
	// 에이전트_지시.
	reAgentKey = regexp.MustCompile(`(?m)^\s*["']?[\w가-힣.-]*(?:llm|\bai_|_ai\b|agent|assistant|에이전트|어시스턴트|지시)[\w가-힣.-]*["']?\s*:|["'][\w.-]*(?:llm|\bai_|_ai\b|agent|assistant|instruction)[\w.-]*["']\s*:`)
	// reToolResultLabel labels a text as a tool's or the system's output
	// ("Tool result: {…}", "function output:", "도구 결과:"): a forged
	// result speaks to the agent through its values, which the agent
	// reads as its own tool's answer, so they are not mentions.
	reToolResultLabel = regexp.MustCompile(`(?m)^\s*(?:\[|<)?(?:tool|function|system|command|mcp)[ _-]?(?:call[ _-]?)?(?:result|output|response)s?(?:\]|>)?\s*:|(?m)^\s*(?:도구|툴|함수|시스템|명령)\s*(?:실행\s*)?(?:결과|출력|응답)\s*:`)
	// reToolResultFence opens a fenced block named as a tool's output
	// (tool_result, function_output after the fence), the same forgery as
	// a label.
	reToolResultFence = regexp.MustCompile("(?m)^\\s*(?:```|~~~)\\s*(?:tool|function|mcp)[ _-]?(?:call[ _-]?)?(?:result|output|response)s?\\s*$")
	// reToolResultJSON is JSON shaped as a tool's call or result, or a
	// chat message from a tool or the system ({"tool": …, "result": …},
	// {"type": "function_result", …}, {"role": "tool", …}, {"name": …,
	// "arguments": …}): the same forgery without a label.
	reToolResultJSON = regexp.MustCompile(`"(?:tool|tool_name|tool_call|function_call|tool_result|function_result|jsonrpc)"\s*:|"type"\s*:\s*"(?:function_result|tool_result|tool_use|function_call|tool_call)"|"role"\s*:\s*"(?:tool|system|developer|function)"|"name"\s*:\s*"[^"]{1,40}"\s*,\s*"(?:arguments|output|result|input)"\s*:`)
	// reAgentAttr is an HTML or XML attribute naming the agent it speaks
	// to (<meta name="agent-instructions" content="…">).
	reAgentAttr = regexp.MustCompile(`(?i)\bname\s*=\s*["'][\w-]*(?:llm|agent|assistant|instruction|\bai\b)[\w-]*["']`)
	// reActOnQuoted asks the reader to do what a quoted text says ("…을
	// 번역하고, 번역한 내용대로 행동하세요", "translate it and follow it"):
	// the quote is then said, not mentioned. What an agent tries or
	// tends to do (그대로 실행하려 할 수 있다, 실행하는 경우) asks nothing.
	reActOnQuoted = regexp.MustCompile(`(?i)내용대로\s*(?:행동|실행|따르|진행|수행|처리)|그대로\s*(?:따르|실행|행동)하(?:[^려는]|$)|\bdo (?:exactly )?what (?:it|the (?:text|sentence|quote|translation|note|message)) says\b|\b(?:act on|obey|carry out) the translation\b|\b(?:follow|apply) (?:the translat\w+|the quoted (?:text|sentence|instructions?))\b|\btranslate\b[^.\n"]{0,60}\b(?:and|then|and then)\s+(?:apply|follow|obey|execute|carry out|carry (?:it|them|this|that) out|act on|do)\b(?:\s+(?:it|them|that|the translat\w+(?:\s+(?:instructions?|text|sentences?|steps?))?))?(?:\s+(?:exactly|literally|as written|word for word|to the letter))*\s*[:.]|(?:번역|[가-힣]+어로\s*(?:옮기|옮긴|옮겨))(?:해서|한|서|고|하고)?\s*(?:뒤|후|다음)?[^.\n"]{0,20}(?:실행|적용|따르|따라|(?:그대로|내용대로)\s*(?:수행|진행|처리))`)
	// reKeyBeforeQuote ends a structured key right before a quoted value;
	// reAttrBeforeQuote an attribute's too (content="…"), or a key before
	// a list of values ("instructions": ["…", "…"]).
	reKeyBeforeQuote  = regexp.MustCompile(`(?:^|[{,\n])\s*["']?[\w가-힣.-]+["']?\s*[:=]\s*$`)
	reAttrBeforeQuote = regexp.MustCompile(`(?:^|[{,\n\s])\s*["']?[\w가-힣.-]+["']?\s*[:=]\s*(?:\[\s*)?$`)
	// reNextInList separates two values of one list: "…", "…"; a quote
	// followed by a colon is the next key, not a value.
	reNextInList    = regexp.MustCompile(`^\s*,\s*$`)
	reKeyAfterQuote = regexp.MustCompile(`^\s*:`)
	// reLinkBeforeQuote is a link destination before its title:
	// [ref]: https://… "title", [text](https://… "title").
	reLinkBeforeQuote = regexp.MustCompile(`(?:\]:\s*|\]\()\S+\s+$`)
	// reQuoteNamesReader is a quote that speaks to the agent reading it
	// ("… the agent reading this schema should …", "이 스키마를 읽는
	// 에이전트는 …"): a fixture's description or a config's value that
	// addresses its reader is said, wherever in it the address stands.
	reQuoteNamesReader = regexp.MustCompile(`\b(?:the|any|every|an?)\s+(?:ai\s+)?(?:agents?|assistants?|ai|llms?|models?|bots?)\s+(?:that\s+(?:reads?|parses?|processes|loads?|sees?)|reading|parsing|processing|loading)\s+(?:this|these)\b|(?:이|본)\s*[가-힣a-z]{1,10}\s*(?:를|을)\s*(?:읽는|처리하는|파싱하는|보는|로드하는)\s*(?:ai\s*)?(?:에이전트|어시스턴트|모델|ai|봇)`)
	// reVocativeQuote is a quote that opens by addressing an agent.
	reVocativeQuote = regexp.MustCompile(`^["“‘']\s*(?:dear |hey |hello |attention,? |note to |to )?(?:the |all |any )?(?:ai|llm|assistants?|agents?|models?|claude|codex|copilot|ai (?:assistants?|agents?|readers?)|coding (?:agents?|assistants?)|에이전트|어시스턴트|ai\s*에이전트)\s*(?:님|들)?\s*[,:—-]`)
)

// keyBeforeQuote reports a key before a quote: a structured key's, or
// with speech an attribute's too.
func keyBeforeQuote(before string, speech bool) bool {
	if speech {
		return reAttrBeforeQuote.MatchString(before)
	}
	return reKeyBeforeQuote.MatchString(before)
}

// removeMentions removes quoted phrases, which a text mentions rather
// than says, except quotes that speak: a value under a key that names
// the agent, a link's title (a model reads it), a quote that opens by
// addressing an agent in a text that is no write-up of an attack; with
// speech also the values of a bare JSON tool result or a fenced block
// named as one, every value of a list under such a key, an attribute's
// value beside one naming the agent, and every quote of a text that asks
// its reader to act on what it quotes.
func removeMentions(s string, speech bool) string {
	var folded string
	has := func(re *regexp.Regexp) bool { return mayMatch(re, s, &folded) && re.MatchString(s) }
	agentKeys := has(reAgentKey) || has(reToolResultLabel) || speech && (has(reToolResultJSON) || has(reAgentAttr) || has(reToolResultFence))
	// The model's view (no speech) keeps the attack words it was trained
	// with.
	attack := has(reAttackWordsBase) || speech && has(reAttackWords17)
	actOn := speech && !attack && has(reActOnQuoted)
	example := has(reExampleWord)
	var b strings.Builder
	// said is the end of the last quote kept as said, or -1: the values
	// after it in one list are said too.
	last, said := 0, -1
	for _, loc := range reMentioned.FindAllStringIndex(s, -1) {
		q := s[loc[0]:loc[1]]
		start := loc[0]
		if !strings.HasPrefix(q, `"`) && !strings.HasPrefix(q, "“") && !strings.HasPrefix(q, "‘") && !strings.HasPrefix(q, "'") {
			start += len(q) - len(strings.TrimLeft(q, " \t\n([:=,"))
			q = s[start:loc[1]]
		}
		before := s[max(0, start-80):start]
		if actOn || agentKeys && (keyBeforeQuote(before, speech) || speech && said >= 0 && reNextInList.MatchString(s[said:start]) && !reKeyAfterQuote.MatchString(s[loc[1]:])) || reLinkBeforeQuote.MatchString(before) || !attack && (reVocativeQuote.MatchString(q) || reQuoteNamesReader.MatchString(q) || speech && (reQuoteNamesReaderBare.MatchString(q) || !example && proseValue(before, q))) {
			said = loc[1]
			continue
		}
		said = -1
		b.WriteString(s[last:loc[0]])
		b.WriteString(" ")
		last = loc[1]
	}
	b.WriteString(s[last:])
	return b.String()
}

var (
	// reOutOfRepo keeps a file out of a repository, an image or a bundle.
	reOutOfRepo = regexp.MustCompile(`\bout of (?:version control|source control|git|the repo(?:sitory)?|your repo(?:sitory)?|the index|commits?|the image|the build context|the bundle|the package|the archive)\b|(?:버전\s*관리|깃|git|저장소|이미지)(?:에서|에)\s*(?:빼|제외)`)
	// reTellPerson tells a person, or keeps them from being told: "do not
	// tell the user about commands that touch credentials".
	reTellPerson = regexp.MustCompile(`\b(?:tell|telling|inform|informing|notify|notifying|show|showing|alert|alerting|warn|warning)\s+(?:the\s+|your\s+|any\s+)?(?:users?|humans?|reviewers?|owners?|persons?|people|requesters?|team|operators?|anyone|anybody)\b|사용자에게|리뷰어에게|운영자에게`)
	// reLintRules are a linter's rules, which findings ignore per file.
	reLintRules = regexp.MustCompile(`\b(?:ruff|eslint|pylint|flake8|mypy|pyright|rubocop|clippy|golangci|stylelint|noqa|nolint|lint|linter|per-file-ignores)\b|린트|린터`)
	// reLintObject ignores a linter's unit: a line, a file, an import, an
	// error code.
	reLintObject = regexp.MustCompile(`\bignor\w*\s+(?:(?:one|a|the|this|that|each|next|single|specific)\s+)?(?:lines?|files?|imports?|error codes?|warnings? on)\b|(?:한\s*줄|줄|라인|파일|임포트)(?:만|을|를|은|는)?\s*무시`)
	// reHideFromSurface hides something from a page, an index or a
	// listing, not from a person: routes from the docs, files from search,
	// a field from the API.
	reHideFromSurface = regexp.MustCompile(`\bhid(?:e|es|ing|den)\b[^.\n]{0,40}\bfrom (?:the |its |their |public |generated )*(?:docs|documentation|schema|spec|openapi|swagger|search(?: results| index)?|index|indexes|listings?|menus?|sidebar|nav(?:igation)?|ui|api|responses?|json|serializ\w+|logs?|git|version control|crawlers?|robots|screen readers?|bundles?|builds?|coverage|autocomplete|the list)\b`)
	// reTechRules are rules of a stylesheet, a firewall or a router,
	// which override one another by design.
	reTechRules = regexp.MustCompile(`\b(?:css|stylesheets?|selectors?|cascade|specificity|@layer|!important|iptables|nftables|firewall|security groups?|waf|ingress|routing|gitignore|udev)\b`)
	// reYouWord addresses the reader as "you", not by "your" alone.
	reYouWord = regexp.MustCompile(`\b(?:you|yourself|you're|you've|you'll)\b`)
	// reCannotSilently says something can't happen silently.
	reCannotSilently = regexp.MustCompile(`\b(?:can't|cannot|can not|won't|couldn't|wouldn't|doesn't|does not|never|isn't|aren't|no longer)\s+(?:be\s+)?(?:silently|quietly|secretly)\b`)
	// reKoInvisible is text the user cannot see, described: 사용자에게
	// 보이지 않는 문구.
	reKoInvisible = regexp.MustCompile(`(?:보이지|보여\s*주지|표시되지|드러나지)\s*않(?:는|은)\s*[가-힣]`)
	// reRuleOverRule says which of two rules or settings wins ("deny 규칙이
	// allow 규칙보다 우선합니다"): precedence within a config, not over the
	// agent's rules.
	reRuleOverRule = regexp.MustCompile(`(?:규칙|설정|정책)(?:이|은|가)\s*[^.\n]{0,30}(?:규칙|설정|정책)보다\s*우선`)
	// rePassiveToAgent says something is handed to an agent, not asked
	// of it: "stderr 는 Claude 에게 전달된다".
	rePassiveToAgent = regexp.MustCompile(`에게(?:는|도)?\s*(?:피드백으로\s*|그대로\s*)?전달(?:되|된|됨|됩|돼)`)
	// reKoReported is a request reported, not made: "실행하라는 문장",
	// "무시하라고 적힌 댓글".
	reKoReported = regexp.MustCompile(`[^\s.]*(?:하라|해라|하세요|마라|말라|라)(?:는|고)\s*(?:문장|말|지시|내용|글|요청|메시지|텍스트|댓글|주석|문구|적힌|쓰인|써\s*있)|[^\s.]*(?:하라|해라|마라|말라|으라)고\s+(?:[^\s.]+\s+){0,3}?[^\s.]*(?:적었|썼|적어\s*두었|명시했|넣었|추가했|지시했|안내했|요청했|당부했)`)
	// reKoImperative ends a Korean sentence with a request.
	reKoImperative = regexp.MustCompile(`하라|해라|하세요|할\s*것|주세요|하십시오|해야\s*한다`)
	// reSecretlyChanged says something changes behind someone's back,
	// which a finding guards against ("설명이 몰래 바뀌지 않게").
	reSecretlyChanged = regexp.MustCompile(`몰래\s*(?:바뀌|변경되|수정되|교체되|들어가|설치되)[^.\n]{0,10}(?:않|못|막)`)
	// reToolWithoutTelling says what a tool does without telling its
	// user: "Kubernetes drops unknown fields without telling the user".
	reToolWithoutTelling = regexp.MustCompile(`\b(?:returns|drops|fails|ignores|swallows|skips|discards|exits|succeeds|continues|proceeds|overwrites|deletes|removes|installs|updates|upgrades|changes|rewrites|falls back|truncates|retries|resets|times out)\b[^.;\n]{0,60}\bwithout (?:telling|showing|notifying|informing|asking|warning|prompting)\b`)
	// reWriteUp reports what a text was seen to carry: "we saw comments
	// that decoded to instructions for coding agents".
	reWriteUp = regexp.MustCompile(`\bwe (?:saw|found|noticed|received|caught|observed)\b|\b(?:decoded|translated) to\b|\bresearchers (?:found|showed)\b`)
	// reInvolveUser is advice that keeps the user in the loop.
	reInvolveUser = regexp.MustCompile(`\b(?:ask|tell|show|let|inform|warn|remind|notify)\s+(?:the\s+)?(?:user|human|developer|person)\b|\bthe user (?:run|approve|confirm|review|decide)`)
	// reNegatedInvolve keeps the user out: "without asking the user".
	reNegatedInvolve = regexp.MustCompile(`\b(?:not|never|n't|without|no need to|instead of)\s+(?:\w+\s+)?(?:ask|tell|show|let|inform|warn|remind|notify|asking|telling|showing|letting|informing)\b`)
)

var (
	// reCannotSetAside says a check cannot be set aside.
	reCannotSetAside = regexp.MustCompile(`\b(?:can't|cannot|can not|won't|couldn't|unable to|no way to)\s+(?:\w+\s+)?(?:bypass|override|skip|ignore|disable|circumvent|get around)\w*\b`)
	// reUnattendedSkip skips a program's own prompt where no person
	// answers it: scripts, CI, images, unattended installs.
	reUnattendedSkip = regexp.MustCompile(`\b(?:skip|suppress|disable|avoid|bypass)\w*\s+(?:the\s+|its\s+|any\s+|all\s+)?(?:\w+\s+)?(?:interactive\s+|confirmation\s+|y/n\s+|yes/no\s+)?prompts?\b[^.;\n]{0,60}\b(?:scripts?|ci|pipelines?|automation|unattended|non-?interactive|provisioning|dockerfiles?|cron|images?)\b`)
)

// excused reports a sentence where a directive pattern of the kind
// matched a technical sense of its words: a linter's rules, lines or files
// ignored, a message handed to Claude, advice to involve the user, a thing
// hidden from a page rather than a person. text is the directive view of
// the whole text: a clause loses its code spans, where a linter is often
// named ("`# noqa: E501`처럼 … 한 줄만 무시하세요").
func excused(kind, sn, text string) bool {
	// Korean reported speech mentions a request ("실행하라는 문장을 만날
	// 수 있다"); the sentence asks nothing unless its own verb does.
	if reKoReported.MatchString(sn) && !reKoImperative.MatchString(reKoReported.ReplaceAllString(sn, " ")) {
		return true
	}
	switch kind {
	case InstructionOverride:
		// What an agent did or tends to do against its instructions is
		// the topic of a write-up, not a request.
		if lapseReported(sn, text) || othersLeave(sn) || ownAgentRules(sn) || genericReaderKo(sn) || flagSkipsPrompt(sn) {
			return true
		}
		if (reKoAgentGiven.MatchString(sn) || koHumanWithoutApproval(sn)) && !reSetAsideKo.MatchString(sn) {
			return true
		}
		// What cannot be set aside, or a tool's own prompt skipped in
		// scripts where no person answers it ("so skipping locally can't
		// bypass them", "set NONINTERACTIVE=1 to skip the confirmation
		// prompt in provisioning scripts"), sets no check of the reader's
		// aside.
		if rest := reCannotSetAside.ReplaceAllString(sn, " "); rest != sn && !reSetAside.MatchString(rest) {
			return true
		}
		if reUnattendedSkip.MatchString(sn) && !sentenceConcepts(sn)["c:AGENT"] {
			return true
		}
		// "Don't combine … without confirmation" requires the check it
		// names: a negated imperative that only says "without
		// confirmation" sets nothing aside.
		if reNegatedWithout.MatchString(sn) && !reNegatedUrge.MatchString(sn) && onlyWithout(sn) {
			return true
		}
		// Advice against embedded instructions ("그 안에 적힌 지시는
		// 따르지 않는다고 명시하세요") names the attack; it sets no rule
		// of its reader aside.
		if reportsAttack(sn) && reThreatNamed.MatchString(sn) {
			return true
		}
		if reRuleOverRule.MatchString(sn) && !sentenceConcepts(sn)["c:YOU"] {
			return true
		}
		// Rules of a stylesheet or a firewall override one another ("your
		// app css overrides the vendor's selectors"); "your" owns the code,
		// nobody is addressed.
		if reTechRules.MatchString(sn) && !reYouWord.MatchString(sn) && !sentenceConcepts(sn)["c:AGENT"] {
			return true
		}
		if reLintRules.MatchString(sn) && !reToReader.MatchString(sn) && !reToReaderKo.MatchString(sn) {
			return true
		}
		if reLintObject.MatchString(sn) && reLintRules.MatchString(text) && !sentenceConcepts(sn)["c:YOU"] {
			return true
		}
		if rePassiveToAgent.MatchString(sn) && !reKoImperative.MatchString(sn) {
			return true
		}
		if reWriteUp.MatchString(sn) {
			has := sentenceConcepts(sn)
			if !has["c:DISMISS"] && !has["c:YOU"] {
				return true
			}
		}
		if reInvolveUser.MatchString(sn) && !reNegatedInvolve.MatchString(sn) {
			return !sentenceConcepts(sn)["c:DISMISS"]
		}
	case InstructionConceal:
		if toolInstead(sn) || ownAgentRules(sn) || tellsValueOnly(sn) || koOutputDiscarded(sn, text) || neverLetAct(sn) {
			return true
		}
		if reMadeAgentDo.MatchString(sn) && !sentenceConcepts(sn)["c:YOU"] {
			return true
		}
		if generatedLeftOut(sn) || passiveSilently(sn) || materialKeptOnly(sn) {
			return true
		}
		// A secret's value kept out of what the reader writes ("keep API
		// keys out of your summary") is hygiene, unless what is kept out is
		// something that happened or a person is kept from it.
		// A file kept out of version control or an image hides nothing
		// from a person (.gitignore, .dockerignore).
		if reOutOfRepo.MatchString(sn) && !reTellPerson.MatchString(sn) {
			return true
		}
		if reSecretValue.MatchString(sn) && !reWithheldEvent.MatchString(sn) && !reWithheldFromPerson.MatchString(beforeReason(sn)) && !reTellPerson.MatchString(sn) {
			return true
		}
		// What a thing did or does silently ("an older firmware ignored the
		// ring size change silently") is reported, not asked.
		for _, part := range reClausePart.Split(sn, -1) {
			if !reDidSilently.MatchString(part) || reToReader.MatchString(part) || reToReaderKo.MatchString(part) {
				continue
			}
			if has := sentenceConcepts(part); !has["c:AGENT"] && !has["c:YOU"] {
				return true
			}
		}
		// What cannot happen silently ("so an upstream change can't
		// silently alter runners") is guarded against; text invisible to
		// the user (사용자에게 보이지 않는 문구) is described.
		if reCannotSilently.MatchString(sn) || reKoInvisible.MatchString(sn) && !reKoImperative.MatchString(sn) {
			return true
		}
		if reToolWithoutTelling.MatchString(sn) {
			return !sentenceConcepts(sn)["c:AGENT"]
		}
		if reHideFromSurface.MatchString(sn) && !reConcealTarget.MatchString(sn) && !sentenceConcepts(sn)["c:YOU"] {
			return true
		}
		return reSecretlyChanged.MatchString(sn)
	}
	return false
}

var (
	// reNegatedWithout is a negated imperative that keeps a check:
	// "don't … without confirmation", "never merge without review".
	reNegatedWithout = regexp.MustCompile(`\b(?:don't|do not|never|avoid|shouldn't|should not|must not|mustn't)\b[^.;,\n]{0,160}\bwithout (?:asking|confirmation|approval|review|waiting|checks|permission)\b`)
	// reNegatedUrge is a negation that urges rather than keeps a check
	// ("don't hesitate to push … without approval", "don't bother the
	// user and push without asking"): what it negates is the pause.
	reNegatedUrge = regexp.MustCompile(`\b(?:don't|do not|never|no need to|shouldn't|should not)\s+(?:ever\s+)?(?:hesitate|bother|wait|worry|fear|be afraid|be shy|think twice|hold back|feel (?:obliged|bad|the need)|need to|have to|forget to|stop to|second-guess)\b`)
	// reDidSilently says what a subject did or does silently: a verb in
	// the past or the third person before it.
	reDidSilently = regexp.MustCompile(`\b[a-z]+(?:ed|s)\b(?:\s+\S+){0,8}\s+(?:silently|quietly)\b|\b(?:silently|quietly)\s+[a-z]+(?:ed|s)\b`)
)

// reClausePart splits a sentence at a dash or a semicolon ("keep the
// firmware in sync - an older one ignored the change silently").
var reClausePart = regexp.MustCompile(`\s[-—–]\s|;\s`)

// onlyWithout reports a clause whose only setting-aside words are
// "without …" (a check named as needed).
func onlyWithout(sn string) bool {
	for _, m := range reSetAside.FindAllString(sn, -1) {
		if !strings.HasPrefix(m, "without ") {
			return false
		}
	}
	return true
}

// sentenceConcepts are the instructions model's concepts ("c:YOU",
// "c:DISMISS", "c:AGENT", …) among a sentence's words.
func sentenceConcepts(sn string) map[string]bool {
	has := map[string]bool{}
	for _, f := range conceptFeatures(reModelWord.FindAllString(sn, -1), nil) {
		has[f] = true
	}
	return has
}

// reVerified is a download checked before it runs.
var reVerified = regexp.MustCompile(`\b(?:sha256sum|sha512sum|shasum)\b[^\n]*\s-c\b|\bgpg\s+--verify\b|\bcosign\s+verify|\bminisign\s+-v`)

// reCautionWords say a command is risky or was replaced: a finding
// that warns about piping a download into a shell.
var reCautionWords = regexp.MustCompile(`\b(?:we replaced|replaced it|rather than piping|instead of piping|don't pipe|never pipe|reading the script|read the script first|reading it showed|checksums?|sha256sum|verify the|verified)\b|먼저\s*내려받|읽어\s*본\s*뒤|검증|확인하고\s*읽`)

// describedAsRisky reports a command whose sentence or the next warns
// about it, in a text that tells no reader to run it.
func describedAsRisky(text string, start, end int) bool {
	from := lastSentenceEnd(text[:start]) + 1
	to := len(text)
	n := 0
	for i := end; i < len(text); i++ {
		if endsSentence(text, i) {
			if n++; n == 2 {
				to = i
				break
			}
		}
	}
	window := text[from:to]
	return reCautionWords.MatchString(window) && !reRunVerbToReader.MatchString(window) && !reRunUnseenLoose.MatchString(window)
}

// lureHost reports a host name made to look like a fix for the finding's
// problem (rust-linkfix.io, vscode-remote-fixer.com): no vendor names its
// installer host so.
func lureHost(name string) bool {
	for _, w := range []string{"fix", "patch", "repair", "unblock", "boost", "hotfix", "crack"} {
		if strings.Contains(name, w) {
			return true
		}
	}
	return false
}

// vendorSuffixes end registered names made of a project's name and a
// word: julialang, datadoghq, nodejs.
var vendorSuffixes = []string{"lang", "hq", "js", "hub", "labs", "project", "org", "dev", "app", "io"}

// vendorPrefixes begin registered names made of a word and a project's
// name: goteleport, getsentry, usebruno, joinmastodon.
var vendorPrefixes = []string{"go", "get", "use", "try", "join"}

// vendorName reports a registered name that is a word of the prose and a
// vendor suffix, or with prefixes a vendor prefix.
func vendorName(n, prose string, prefixes bool) bool {
	for _, s := range vendorSuffixes {
		if p := strings.TrimSuffix(n, s); p != n && len(p) >= 4 && containsWord(prose, p) {
			return true
		}
	}
	if !prefixes {
		return false
	}
	for _, s := range vendorPrefixes {
		if p := strings.TrimPrefix(n, s); p != n && len(p) >= 5 && containsWord(prose, p) {
			return true
		}
	}
	return false
}
