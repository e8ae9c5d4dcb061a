package gate

import (
	"regexp"
	"strings"
)

// Where the stage's words have a sense that asks nothing of the reader,
// or a sense it missed: a loopback host receives nothing that leaves the
// machine, generated files kept out of a summary hide no change, the
// agent's scratch files kept to itself are hygiene, a passive "is
// silently cut" reports what a program does, and "feel free to push …
// without approval" grants the reader leave to skip a person's check.

var (
	// reLoopback is a host on the machine itself.
	reLoopback = regexp.MustCompile(`\b(?:localhost|127(?:\.\d{1,3}){3}|0\.0\.0\.0)(?::\d+)?\b|\[::1\](?::\d+)?`)
	// reLoopbackHost is a whole host that is the machine itself.
	reLoopbackHost = regexp.MustCompile(`^(?:localhost|127(?:\.\d{1,3}){3}|0\.0\.0\.0|\[::1\]|::1)$`)
	// reURLHost is a URL's authority: user@host:port.
	reURLHost = regexp.MustCompile(`(?i)[a-z][a-z0-9+.-]*://([^\s/'"$)\x60?#\\]+)`)
	// reHostLike is a name with a dot that could be a host, whatever
	// its suffix (attacker.club, collect.attacker.shop); what stands
	// before it tells a path (~/.aws, ./run, @payload.json) or code
	// (dict(os.environ), JSON.stringify(process.env)) from a host, which
	// stands after a space, a quote or "=".
	reHostLike = regexp.MustCompile("(?i)(?:^|[\\s'\"`=])" + `((?:[a-z0-9-]+\.)+[a-z][a-z0-9-]*[a-z])\b([(\[]?)`)
	// reDottedQuad is an IPv4 address.
	reDottedQuad = regexp.MustCompile(`\b(?:\d{1,3}\.){3}\d{1,3}\b`)
	// reScpHost is user@host: as scp and rsync write it.
	reScpHost = regexp.MustCompile(`\S+@([\w.-]+):`)
	// reShellComment and reHeaderArg are parts of a command that name no
	// destination: a comment, a header's value (Origin: http://localhost).
	reShellComment = regexp.MustCompile("(?:^|\\s)#[^`\\n]*")
	reHeaderArg    = regexp.MustCompile(`(?:\s-H|--header|--referer)\s*(?:'[^']*'|"[^"]*"|\S+)`)
)

// fileSuffixes end file names, not hosts.
var fileSuffixes = map[string]bool{
	"json": true, "txt": true, "log": true, "yaml": true, "yml": true, "toml": true, "pem": true, "pub": true,
	"key": true, "crt": true, "env": true, "conf": true, "cfg": true, "ini": true, "py": true, "go": true,
	"js": true, "mjs": true, "ts": true, "md": true, "html": true, "htm": true, "csv": true, "xml": true,
	"gz": true, "tgz": true, "tar": true, "zip": true, "out": true, "lock": true, "sock": true, "pid": true,
	"db": true, "sqlite": true, "bin": true, "jar": true, "whl": true, "rb": true, "gif": true, "png": true,
	"jpg": true, "svg": true, "bash": true, "ps1": true, "service": true,
}

// loopbackOnly reports a command whose every destination is the machine
// itself (curl localhost:8080 -d "$(printenv)" to a local echo server):
// what it sends never leaves the host. The loopback host must be the
// command's own, not a comment's or a header's; every other host the
// command names (a URL's host after any user@, a dotted name of any
// suffix, an address) must be loopback too. localhost.example.com is no
// loopback host.
func loopbackOnly(cmd string) bool {
	cmd = reHeaderArg.ReplaceAllString(reShellComment.ReplaceAllString(cmd, " "), " ")
	if !reLoopback.MatchString(cmd) || reLocalhostDomain.MatchString(cmd) {
		return false
	}
	var hosts []string
	for _, m := range reURLHost.FindAllStringSubmatch(cmd, -1) {
		h := m[1]
		if i := strings.LastIndexByte(h, '@'); i >= 0 {
			h = h[i+1:]
		}
		if i := strings.LastIndexByte(h, ':'); i >= 0 && !strings.HasSuffix(h, "]") {
			h = h[:i]
		}
		hosts = append(hosts, h)
	}
	rest := reURLHost.ReplaceAllString(cmd, " ")
	for _, m := range reHostLike.FindAllStringSubmatch(rest, -1) {
		// A call or an index (requests.post(, os.environ[) is code.
		if m[2] != "" || fileSuffixes[strings.ToLower(m[1][strings.LastIndexByte(m[1], '.')+1:])] {
			continue
		}
		hosts = append(hosts, m[1])
	}
	hosts = append(hosts, reDottedQuad.FindAllString(rest, -1)...)
	for _, m := range reScpHost.FindAllStringSubmatch(rest, -1) {
		hosts = append(hosts, m[1])
	}
	for _, h := range hosts {
		if !reLoopbackHost.MatchString(strings.ToLower(h)) {
			return false
		}
	}
	return true
}

// reLocalhostDomain is a public name that begins like the loopback one.
var reLocalhostDomain = regexp.MustCompile(`localhost\.[a-z]`)

var (
	// reImageFill asks its reader to put something into an image's URL:
	// fill, replace, append, encode.
	reImageFill = regexp.MustCompile(`\b(?:fill|replace|substitut\w*|append\w*|add|attach|encode\w*|base64|insert|put|include|carry|send|set)\b|자리|넣|채우|치환|붙여`)
	// reImageQueryValue is an image URL's query with a value written out.
	reImageQueryValue = regexp.MustCompile(`!\[[^\]]*\]\(https?://[^)\s]*\?([^)\s]*)\)`)
)

// literalImage reports an image whose query values are written out (a
// Codecov badge's ?token=…, the repository's read-only graph token) and
// whose text asks its reader to put nothing into it: rendering it sends
// what the text already shows.
func literalImage(match string) bool {
	m := reImageQueryValue.FindStringSubmatch(match)
	if m == nil || strings.ContainsAny(m[1], "{}<>$%") {
		return false
	}
	for _, kv := range strings.Split(m[1], "&") {
		if i := strings.IndexByte(kv, '='); i < 0 || i == len(kv)-1 {
			return false // an empty value is a slot
		}
	}
	return !reImageFill.MatchString(match[len(m[0]):])
}

var (
	// reGeneratedFiles are files a tool writes from a source a person
	// edits: protobuf and gRPC stubs, bundles, snapshots, vendored code.
	// A summary that leaves them out keeps the source's change in.
	// Lockfiles are not among them: a dependency swapped shows there.
	reGeneratedFiles = regexp.MustCompile(`\b(?:auto-?generated|generated|codegen|vendored)\s+(?:\w+\s+){0,2}?(?:files?|code|stubs?|sources?|bindings|clients?|protobufs?|changes|diffs?|output|artifacts?|bundles?|snapshots?)\b|\*?\.pb\.go\b|_pb2(?:_grpc)?\.py\b|\.pb\.(?:h|cc)\b|\.min\.(?:js|css)\b|\.snap\b|(?:자동\s*)?생성된\s*(?:\S+\s*)?(?:파일|코드|스텁|변경)`)
	// reMattersInSummary is what a summary owes its reader even when a
	// tool wrote it: schema and migrations, permissions, secrets, a
	// failure, a person kept out.
	reMattersInSummary = regexp.MustCompile(`\b(?:migrations?|schema|lock ?files?|dependenc\w*|permissions?|secrets?|credentials?|tokens?|passwords?|security|fail\w*|errors?|warnings?|vulnerabilit\w*|cve)\b|마이그레이션|스키마|권한|비밀|토큰|실패|오류|경고|보안|사용자에게|리뷰어에게`)
)

// generatedLeftOut reports a clause that keeps generated files out of a
// summary or a review (".coderabbit.yaml: leave *.pb.go out of the
// summary", "생성된 *.pb.go 변경은 요약에 적지 않는다"): the change a
// person made is in the source beside them. Migrations, permissions,
// secrets and failures are never noise.
// Told to keep them from a person ("do not tell the user about the
// generated code"), or kept out beside something else ("the generated
// files or the new telemetry endpoint"), it withholds.
func generatedLeftOut(c string) bool {
	if !reGeneratedFiles.MatchString(c) || reMattersInSummary.MatchString(c) || reWithheldFromPerson.MatchString(c) || reTellsPerson.MatchString(c) {
		return false
	}
	// Each generated phrase becomes a mark; marks joined to each other
	// (or to a bare generated noun) become one; a mark still joined to
	// anything else leaves out more than generated files.
	m := strings.NewReplacer("`", " ", "*", " ").Replace(reGeneratedFiles.ReplaceAllString(c, "\x00"))
	for {
		n := reJoinedGenerated.ReplaceAllString(m, "\x00")
		if n == m {
			break
		}
		m = n
	}
	return !reJoinedOther.MatchString(m)
}

var (
	// reTellsPerson tells a person: "tell the user", "inform the reviewer".
	reTellsPerson = regexp.MustCompile(`\b(?:tell|inform|show|notify|alert|warn|let)\w*\s+(?:the\s+|your\s+|any\s+|our\s+)?(?:users?|reviewers?|humans?|owners?|maintainers?|team|anyone|anybody|them|operators?|requesters?|customers?)\b`)
	// reJoinedGenerated is a generated mark joined to another one, or to
	// a noun that names generated output on its own ("the generated
	// files and the snapshots").
	reJoinedGenerated = regexp.MustCompile(`\x00\s*(?:,|\band\b|\bor\b|\bnor\b|\bplus\b|과|와|및|이나|나)\s*(?:the\s+|any\s+|its\s+|their\s+|all\s+)?(?:\x00|(?:files?|stubs?|snapshots?|bundles?|bindings)\b|번들|스냅샷|스텁|파일)`)
	// reJoinedOther is a generated mark joined to something else.
	reJoinedOther = regexp.MustCompile(`\x00\s*(?:,|\band\b|\bor\b|\bnor\b|\bplus\b|\bas well as\b|\b(?:along|together) with\b|과|와|및|이나|나)\s*\S|(?:,|\band\b|\bor\b|\bnor\b|\bplus\b|\bas well as\b|\b(?:along|together) with\b)\s+(?:the\s+|any\s+|its\s+|their\s+|all\s+)?\x00`)
)

// reKeepsMaterial keeps the agent's working files to itself: scratch
// files, its temp directory, caches, worktrees (kept out of the
// repository, not from a person). Its output, results or what it did
// are information, and keeping those to itself stays concealment.
var reKeepsMaterial = regexp.MustCompile(`\bkeeps?\s+(?:its|their|your|the)?\s*(?:own\s+)?(?:scratch|temp|temporary|tmp|working|intermediate|throwaway)?\s*(?:scratch\s+)?(?:files?|director(?:y|ies)|dirs?|folders?|worktrees?|caches?|sandbox(?:es)?|workspaces?|clutter|scratch ?pads?)\s+to (?:itself|themselves|yourself)\b`)

// materialKeptOnly reports a clause whose only concealment cue keeps
// working files to the agent.
func materialKeptOnly(c string) bool {
	if !reKeepsMaterial.MatchString(c) {
		return false
	}
	rest := reKeepsMaterial.ReplaceAllString(c, " ")
	return !(containsAny(rest, concealHints) && reConcealCue.MatchString(rest))
}

var (
	// rePassiveSilently says what happens to a thing without notice, in
	// the passive: "the JSON is silently cut", "errors are quietly
	// swallowed". A request to hide is active ("silently drop …").
	// The adverb may follow its participle: "a push is never lost silently".
	rePassiveSilently = regexp.MustCompile(`\b(?:is|are|was|were|be|been|being|gets?|got|gotten|becomes?)\s+(?:\w+ly\s+)?(?:silently|quietly)\s+(?:\w+ed|cut|lost|dropped|kept|left|set|reset|put|shut|split|hidden|overwritten|rewritten|written|eaten|stripped|thrown|broken|shortened)\b|\b(?:is|are|was|were|be|been|gets?|got)\s+(?:never\s+|not\s+|no longer\s+)?(?:\w+ed|cut|lost|dropped|kept|left|reset|shut|split|hidden|overwritten|rewritten|written|eaten|stripped|thrown|broken|shortened)\s+(?:silently|quietly)\b`)
	// rePassiveUrge makes the reader bring the passive about: "make sure
	// the change is quietly merged".
	rePassiveUrge = regexp.MustCompile(`\b(?:make sure|ensure|see to it|arrange|let it|have it|should|must|need to|needs to|please)\b`)
)

// passiveSilently reports a clause where the only "silently" says what
// happens to a thing (max_tokens: the reply is silently cut).
// What is quietly dropped from the reader's own output (the summary you
// write, your reply, the report) is kept from its reader, passive or not.
func passiveSilently(c string) bool {
	if !rePassiveSilently.MatchString(c) || rePassiveUrge.MatchString(c) || reOwnOutput.MatchString(c) {
		return false
	}
	rest := rePassiveSilently.ReplaceAllString(c, " ")
	return !(containsAny(rest, concealHints) && reConcealCue.MatchString(rest))
}

// reOwnOutput is what the reader writes: something left out of or kept
// in a summary, a report, a reply, or what "you write".
var reOwnOutput = regexp.MustCompile(`\b(?:from|out of|in|into)\s+(?:the\s+|your\s+|its\s+|this\s+|that\s+|any\s+)?(?:\w+\s+)?(?:summary|summaries|report|reply|answer|response|description|changelog|release notes|write-?up|status update|pr comment|review comment)\b|\byou (?:write|give|post|send|produce|file|submit|return)\b|(?:요약|보고서|답변|응답|설명)(?:에서|에|으로|엔)`)

// reBypassGrant gives the reader leave to skip a person's check: "feel
// free to push … without approval", "go ahead and merge straight to
// main". A finding reports what a setting allows ("admins can push
// without approval when …"); it does not grant it.
var reBypassGrant = regexp.MustCompile(`\b(?:feel free to|go ahead and|don't hesitate to|do not hesitate to|you(?:'re| are) (?:free|welcome|allowed|cleared) to|(?:it's|it is) (?:fine|ok|okay|safe) (?:for you )?to|you have (?:my |our )?(?:permission|blanket approval) to|have (?:it|them|the (?:agent|bot|assistant)))\s+(?:\w+\s+){0,3}?(?:push|merge|deploy|release|publish|force-push|ship|commit|apply|rebase)\w*\b[^.\n]{0,60}?(?:\bwithout (?:any |an? |the |waiting for )?(?:approvals?|reviews?|reviewers?|asking|confirmation|sign-?offs?|a human|anyone)\b|\b(?:straight|directly) (?:in)?to (?:main|master|prod\w*|the default branch)\b|--admin\b|--no-verify\b)`)

// reNobodyChecks says no person needs to check ("nobody needs to look",
// "no one has to review"); what nobody will see or check is a fact.
var reNobodyChecks = regexp.MustCompile(`\b(?:nobody|no one|no human|no reviewer|no-one)\s+(?:else\s+)?(?:needs? to|has to|must|should|is going to)\s+(?:look|review|check|approve|sign off|read)\b`)

// reAimedOrder is an order or a grant to the reader: second person, an
// agent told to act, "go ahead", or a change verb opening the sentence.
var reAimedOrder = regexp.MustCompile(`(?i)\b(?:you|your|yourself|go ahead|feel free|have (?:it|them|the (?:agent|bot|assistant)))\b|^\W*(?:just\s+)?(?:merge|push|deploy|ship|commit|release|publish|force-push)\b`)

// reImpersonalGrant is "it's fine to" with no "for you"; reSettingAllows
// is the setting or source it comes from ("when dependabot.yml sets
// auto-merge", "GitHub docs say so"): then it reports what is allowed.
var (
	reImpersonalGrant = regexp.MustCompile(`^(?:it's|it is) (?:fine|ok|okay|safe) to\b`)
	reSettingAllows   = regexp.MustCompile(`\b(?:when|if|once|as long as|because|since)\b[^.;\n]{0,80}?\b(?:sets?|enables?|enabled|configured|is (?:on|enabled|set)|turned on|allows?|auto-?merges?)\b|\b(?:docs?|documentation|guide|policy) says?\b|\baccording to\b`)
)

// reBypassAction is the change a bypass lets through.
var reBypassAction = regexp.MustCompile(`\b(?:push|merge|deploy|release|publish|ship|commit)\w*\b|푸시|머지|병합|배포`)

// grantsBypass reports a sentence that gives its reader leave to skip a
// person's check on a change it makes: a grant, or "nobody needs to look"
// beside an order or a grant to the reader ("go ahead and merge it,
// nobody needs to review this one").
func grantsBypass(sn string) bool {
	if !reBypassAction.MatchString(sn) {
		return false
	}
	if loc := reBypassGrant.FindStringIndex(sn); loc != nil && !reNegatedBefore.MatchString(sn[:loc[0]]) &&
		!(reImpersonalGrant.MatchString(sn[loc[0]:]) && reSettingAllows.MatchString(sn[loc[0]:])) {
		return true
	}
	loc := reNobodyChecks.FindStringIndex(sn)
	return loc != nil && !reNegatedBefore.MatchString(sn[:loc[0]]) && reAimedOrder.MatchString(reCodeSpan.ReplaceAllString(sn, " "))
}

// reNegatedBefore ends on a negation: "never have it merge straight to
// main" keeps the check.
var reNegatedBefore = regexp.MustCompile(`\b(?:don't|do not|never|not|shouldn't|should not|mustn't|must not)\s+(?:\w+\s+){0,2}$`)
