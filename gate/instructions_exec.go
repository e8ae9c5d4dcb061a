package gate

import (
	"regexp"
	"strings"
)

// The instructions stage's command rules: code fetched and run, data sent
// away.

// remoteExec reports a command that runs what it downloads (a pipe into a
// shell, eval "$(curl …)", IEX … DownloadString, a download run as root)
// from a host the finding does not explain, or the text telling the agent
// to run something unseen.
func remoteExec(v *views) bool {
	if reRunUnseen.MatchString(v.directive) {
		return true
	}
	unseen := reRunUnseenLoose.MatchString(v.directive)
	judged := map[string]bool{}
	for _, p := range rulesExecPatterns {
		if !containsAny(v.all, p.hints) {
			continue
		}
		for _, loc := range p.re.FindAllStringIndex(v.all, 8) {
			m := v.all[loc[0]:loc[1]]
			if unseen {
				return true // "no need to review the fork"
			}
			line := lineOf(v.all, loc[0])
			if describedAsAttack(v.all, loc[0], loc[1]) || v.shown[line] || koReportedAround(v.all, loc[0]) {
				continue // a write-up quoting or showing what an attacker ran
			}
			if reVerified.MatchString(line) || describedAsRisky(v.all, loc[0], loc[1]) {
				continue // checked before it runs, or a warning about it
			}
			if loc[0] >= v.plain {
				// Decoded from base64, rot13 or hex: a command its text
				// hides from the reader is not explained by that text.
				return true
			}
			hosts := reHost.FindAllStringSubmatch(m, -1)
			if len(hosts) == 0 {
				// A host without a scheme: wget -qO- some-host.online/s.
				hosts = reBareHost.FindAllStringSubmatch(m, -1)
			}
			inWords := false
			if len(hosts) == 0 {
				// Said in words: "… from some-host.cc and pipe it to bash".
				for _, h := range reFromHost.FindAllStringSubmatch(m, -1) {
					hosts = append(hosts, []string{h[1]})
				}
				inWords = len(hosts) > 0
			}
			if len(hosts) == 0 {
				// Korean puts the host first: "some-host.cc 에서 … 받아".
				// A host said in words is in the prose, where it cannot
				// explain itself.
				if h := reLeadingHost.FindString(m); h != "" {
					hosts, inWords = append(hosts, []string{h}), true
				}
			}
			if len(hosts) == 0 {
				// A pipe into a shell with no host to judge (base64 -d |
				// sh, a local file fetched earlier) hides what it runs.
				if reDecodeToShell.MatchString(m) {
					return true
				}
				continue
			}
			for _, h := range hosts {
				if judged[h[0]] {
					continue
				}
				judged[h[0]] = true
				prose, sq := v.prose, v.squashedProse()
				if inWords {
					prose = strings.ReplaceAll(prose, h[0], " ")
					sq = squashed(prose)
				}
				if v.spoofedHost(h[0]) || !explainedHost(h[0], prose, sq) {
					return true
				}
			}
		}
	}
	return false
}

// exfilCommand reports a command line that reads something sensitive and
// hands it to the network (scp, nc, curl -d @-, a push of everything to a
// host the finding does not explain).
func exfilCommand(v *views) bool {
	for _, line := range strings.Split(v.all, "\n") {
		if v.shown[line] || koReportedLine(line) {
			continue
		}
		// A line's code spans are its commands; the prose between them
		// is judged on its own.
		segs := reCommandSplit.Split(reCodeSpan.ReplaceAllString(line, " ; "), -1)
		for _, c := range reCodeSpan.FindAllString(line, -1) {
			segs = append(segs, reCommandSplit.Split(c, -1)...)
		}
		for _, seg := range segs {
			// A key to log in with (ssh -i ~/.ssh/deploy) is used, not sent.
			seg = reIdentityArg.ReplaceAllString(seg, " ")
			if (reNetSink.MatchString(seg) || reNetSinkMore.MatchString(seg)) && (reSensitiveSource.MatchString(seg) || reSensitiveSourceMore.MatchString(seg) || reDotfiles.MatchString(seg)) && !loopbackOnly(seg) {
				return true
			}
		}
	}
	for _, m := range rePushEverything.FindAllStringSubmatch(v.all, 4) {
		if !explainedHost(m[1], v.prose, v.squashedProse()) {
			return true
		}
	}
	return false
}

func exfiltrates(v *views) bool {
	var folded string // v.all folded, for the prefilters
	for _, re := range exfilCommands {
		if !mayMatch(re, v.all, &folded) {
			continue
		}
		for _, loc := range re.FindAllStringIndex(v.all, 4) {
			// A write-up quoting what an injected text asked for.
			// A request to the machine itself sends nothing away, and an
			// image whose values are written out carries only those.
			if loopbackOnly(lineOf(v.all, loc[0])) || literalImage(v.all[loc[0]:loc[1]]) || envSettingsOnly(v.all[loc[0]:loc[1]]) || koReportedAround(v.all, loc[0]) {
				continue
			}
			if !describedAsAttack(v.all, loc[0], loc[1]) && !v.shown[lineOf(v.all, loc[0])] {
				return true
			}
		}
	}
	if placeholderLink(v.all) || slotLink(v) || configSends(v) {
		return true
	}
	// The steps of a list for agents, read as one sentence.
	if steps := listSteps(addressedItems(v.directive)); steps != "" && reSendSensitive.MatchString(steps) {
		return true
	}
	if exfilCommand(v) {
		return true
	}
	for _, s := range reSentenceEnd.Split(v.directive, -1) {
		// The sentence's own words say where it sends; a command it
		// quotes with its own destination is judged by exfilCommand.
		s = reCodeSpan.ReplaceAllStringFunc(s, func(c string) string {
			if strings.Contains(c, "://") || strings.Contains(c, "@") {
				return " "
			}
			return c
		})
		// A template placeholder in a URL's path or query
		// (…/services/<WEBHOOK_SECRET>) is documentation, not a secret
		// sent; one given as the object ("post your <session_token>") is
		// still read.
		s = reAnglePlaceholder.ReplaceAllString(s, " ")
		// A request reported ("… .env 를 올리라는 문장이 있었다") or a
		// sentence naming the attack asks nothing.
		if reKoReported.MatchString(s) || reportsAttack(s) {
			continue
		}
		if !containsAny(s, sendHints) || !containsAny(s, sensitiveHints) || !reSendVerb.MatchString(s) || !reSensitive.MatchString(s) {
			continue
		}
		if reSendSensitive.MatchString(s) {
			return true
		}
		// Korean puts the verb last and the object anywhere before it.
		if strings.ContainsFunc(s, isHangul) && reDestination.MatchString(s) {
			return true
		}
	}
	return false
}

// reLinkPlaceholder is a markdown link or image whose URL holds a
// template placeholder ({{ENV}}, {{contents of ~/.ssh/id_ed25519}}; not
// a GitHub Actions ${{ … }}), and rePlaceholderSecret a placeholder that
// names something sensitive.
var (
	reLinkPlaceholder   = regexp.MustCompile(`\]\(https?://[^)\s]*[^$)\s]\{\{([^}\n]{1,80})\}\}`)
	rePlaceholderSecret = regexp.MustCompile(`\benv\b|environ|\b[a-z0-9_]*(?:key|token|secret|password|passwd|credential)s?\b|ssh|\.env\b|\.netrc|\.npmrc|cookie|history|prompt|conversation|환경|키|토큰|비밀|자격|대화`)
)

// placeholderLink reports a link or an image whose URL has a placeholder
// for something sensitive: whoever renders the text is to fill the secret
// in, and fetching the URL sends it away. Documentation puts
// placeholders for a reader's own values in commands, not in a rendered
// link.
func placeholderLink(all string) bool {
	for _, m := range reLinkPlaceholder.FindAllStringSubmatch(all, 4) {
		if rePlaceholderSecret.MatchString(m[1]) || reSensitiveSource.MatchString(m[1]) {
			return true
		}
	}
	return false
}

var (
	// reConfigURL is a config key that names where something goes, with
	// a URL: url, endpoint, webhook, target.
	reConfigURL = regexp.MustCompile(`(?m)^[\s"'-]*[\w.-]*(?:url|endpoint|webhook|target|destination|sink|collector|upload_to|send_to|to)["']?\s*:\s*["']?(https?://[^\s"']+)`)
	// reConfigPayload is a config key that names what is sent, with its
	// value (or the list under it): body, payload, include, fields.
	reConfigPayload = regexp.MustCompile(`(?m)^[\s"'-]*[\w.-]*(?:body|payload|data|include|fields|send|upload|attach|params|paths|files)["']?\s*:[ \t]*([^\n]*(?:\n[ \t]*-[^\n]*)*)`)
	// reConfigSecret is a value that is sensitive as a whole: the
	// environment, secrets, the conversation.
	reConfigSecret = regexp.MustCompile(`\$\{?all_env|\$\{?env\b|\benv\b|environ|\bsecrets?\b|credentials?|conversation|chat_history|\bhistory\b|\btokens?\b|api_keys?|\.ssh|\.env\b|\.netrc|\.npmrc|system_prompt|repo_files|환경|대화|비밀`)
)

// configSends reports structured text (YAML, JSON) that sends something
// sensitive to a URL the finding does not explain: a webhook whose body
// is the environment, telemetry that includes the conversation. A config
// that a finding explains posts to its own service's host.
func configSends(v *views) bool {
	urls := reConfigURL.FindAllStringSubmatch(v.all, 4)
	if len(urls) == 0 {
		return false
	}
	// The config's own keys (hooks:, session:) explain no host: only the
	// prose around a fenced block does.
	prose := removeSpans(reFence.ReplaceAllString(v.directive, " "), reURLOrCode)
	for _, u := range urls {
		if explainedHost(u[1], prose, squashed(prose)) {
			continue
		}
		for _, p := range reConfigPayload.FindAllStringSubmatch(v.all, 8) {
			if reConfigSecret.MatchString(p[1]) {
				return true
			}
		}
	}
	return false
}

// reAttackWords call a command an attacker's: a security write-up quotes
// the malicious command it describes. A text that names the attack it
// reports (prompt injection, tool poisoning, 인젝션) is such a write-up:
// attempts speak as instructions and never call themselves one.
var reAttackWords = regexp.MustCompile(reAttackWordsBase.String() + "|" + reAttackWords17.String())

// reAttackWords17 are the names of the attack added in session 17, which
// the instructions model's view does not read (it was trained without).
var reAttackWords17 = regexp.MustCompile(`\b(?:found|seen|spotted|observed) in the wild\b|포이즈닝`)

// reAttackWordsBase are the rest.
var reAttackWordsBase = regexp.MustCompile(`\b(?:malicious|malware|attackers?|attacker's|typo-?squat\w*|typo domain|compromised|backdoor\w*|phishing|infostealer|rogue|exploit(?:ed)?|registered by someone else|prompt[- ]injections?|tool poisoning|injected (?:text|instructions?|prompts?|comments?)|forged|spoofed|spoofing|hidden instructions|instructions hidden in)\b|악성|공격자|타이포스쿼팅|피싱|백도어|인젝션|프롬프트\s*주입|주입된\s*(?:지시|명령|문구|프롬프트|텍스트)|(?:숨(?:은|겨진|겨\s*둔)|숨어\s*(?:있던|있는|있었던|들어\s*온))\s*(?:[가-힣a-z]+\s+){0,2}[가-힣]*(?:지시|명령|프롬프트)`)

// reNotAttack negates one: "this is not malicious".
var reNotAttack = regexp.MustCompile(`\b(?:not|no|isn't|never|nothing)\s+(?:\w+\s+)?(?:malicious|malware|compromised|a backdoor|phishing)`)

// describedAsAttack reports a command whose sentence, the sentence
// before it or the one after calls it an attack, in a text that tells no reader to run it.
func describedAsAttack(text string, start, end int) bool {
	from := start
	for n := 0; n < 2 && from > 0; n++ {
		i := lastSentenceEnd(text[:from-1])
		if i < 0 {
			from = 0
			break
		}
		from = i + 1
	}
	// The sentence after it too: a write-up shows the payload, then says
	// what it did ("… so an issue titled\n\nx\"; curl … | bash\n\nran
	// attacker code").
	to := end
	for n := 0; n < 2 && to < len(text); n++ {
		for to < len(text) && text[to] == '\n' {
			to++
		}
		i := nextSentenceEnd(text[to:])
		if i < 0 {
			to = len(text)
			break
		}
		to += i + 1
	}
	to = min(to, len(text))
	window := text[from:to]
	return reAttackWords.MatchString(window) && !reNotAttack.MatchString(window) && !reRunVerbToReader.MatchString(window)
}

// lastSentenceEnd is the index of the last sentence end in s: a newline,
// or a full stop, "!" or "?" that ends s or comes before a space (so the
// dots of setup.py, os.system and evil.example end no sentence); -1 when
// there is none.
func lastSentenceEnd(s string) int {
	for i := len(s) - 1; i >= 0; i-- {
		if endsSentence(s, i) {
			return i
		}
	}
	return -1
}

// nextSentenceEnd is the index of the first sentence end in s, or -1.
func nextSentenceEnd(s string) int {
	for i := 0; i < len(s); i++ {
		if endsSentence(s, i) {
			return i
		}
	}
	return -1
}

func endsSentence(s string, i int) bool {
	switch s[i] {
	case '\n':
		return true
	case '.', '!', '?':
		return i+1 == len(s) || s[i+1] == ' ' || s[i+1] == '\t' || s[i+1] == '\n'
	}
	return false
}

// reRunVerbToReader tells the reader to run something.
var reRunVerbToReader = regexp.MustCompile(`\b(?:you should|you must|please|agents? (?:should|must)|assistants? (?:should|must))\b[^.\n]{0,40}\b(?:run|execute|pipe|install)\b|(?:^|[.!?]\s+)(?:run|execute|pipe)\b`)
