package gate

import (
	"regexp"
	"strings"
)

// Text addressed to agents as a list, a link or a slot: a checklist for
// automated reviewers speaks to its reader in every item; "the linked
// file" runs what the link points at; a placeholder word in a rendered
// URL carries what the text says to put in its place.

var (
	// reListAddress opens a list for agents: "Checklist for automated
	// reviewers:" (a list for reviewers alone may be for people: 리뷰어는
	// 다음 규칙을 따른다), "Agents must do the following:", "자동 리뷰 봇은 … 아래
	// 항목부터 확인할 것" (not "모델이 다음 토큰을 …", nor "the models
	// below support tool use").
	reListAddress = regexp.MustCompile(`\b(?:checklist|steps|rules|instructions|todo|to-do)\s+(?:for|to)\s+(?:the\s+|all\s+|any\s+)?(?:(?:automated|ai|bot|llm)\s+reviewers?|(?:automated|ai|coding|review|reviewer)?\s*(?:agents?|bots?|assistants?|models?|llms?))\b|\b(?:agents?|bots?|assistants?|models?|llms?|automated reviewers?)\b[^.\n]{0,20}\b(?:should|must|need to|are to|have to|will|shall)\b[^.\n]{0,30}\b(?:the following|below|these (?:steps|items|rules))\b|(?:봇|에이전트|어시스턴트|모델|ai\s*리뷰어|자동\s*리뷰어|ai)(?:은|는|이|가|용|에게)\s*[^\n]{0,40}(?:(?:아래|다음|이하)\s*(?:의\s*)?(?:항목|규칙|사항|단계|지침|체크리스트|절차)|(?:아래|다음|이하)(?:을|를)\s*(?:확인|따르|지키|수행|적용))|(?:봇|에이전트|어시스턴트|ai\s*리뷰어)용\s*(?:체크리스트|규칙|지침)`)
	// reListItem is a line of a list: -, *, a number, a checkbox.
	reListItem = regexp.MustCompile(`^\s*(?:[-*•]|\d{1,2}[.)])\s+(?:\[[ x]\]\s*)?`)
)

// addressedItems returns the items of lists that follow a line
// addressing agents, their markers removed: each is said to the reader.
func addressedItems(directive string) []string {
	lines := strings.Split(directive, "\n")
	var out []string
	for i, l := range lines {
		if !reListAddress.MatchString(l) {
			continue
		}
		for _, item := range lines[i+1:] {
			if strings.TrimSpace(item) == "" {
				continue
			}
			loc := reListItem.FindStringIndex(item)
			if loc == nil {
				break
			}
			out = append(out, item[loc[1]:])
		}
	}
	return out
}

// listSteps joins the consecutive items of each addressed list, so a
// step that reads something and the next that sends "both outputs" are
// read as one sentence.
func listSteps(items []string) string {
	var b strings.Builder
	for i, it := range items {
		if i > 0 {
			b.WriteString(" and then ")
		}
		b.WriteString(strings.TrimRight(strings.TrimSpace(it), ".;"))
	}
	return b.String()
}

var (
	// reRunLinked runs the file a link points at: "fetch the linked file
	// and execute it with bash", "링크된 스크립트를 받아 실행".
	reRunLinked = regexp.MustCompile(`\b(?:fetch|download|grab|get|pull|open|save)\w*\s+(?:the\s+|that\s+|this\s+)?linked\s+(?:file|script|installer|fix|patch)\b[^.\n]{0,40}\b(?:execute|run|source|pipe|bash|sh)\b|\b(?:run|execute|source)\w*\s+(?:the\s+|that\s+|this\s+)?linked\s+(?:file|script|installer|fix|patch)\b|링크(?:된|의|한)\s*(?:파일|스크립트|설치\s*파일)[^.\n]{0,30}실행`)
	// reMarkdownURL is a markdown link's or image's URL.
	reMarkdownURL = regexp.MustCompile(`\]\((https?://[^)\s]+)`)
)

// runsLinked reports a text that tells its reader to run the file a
// link points at, when the finding does not explain the link's host.
func runsLinked(v *views) bool {
	if !reRunLinked.MatchString(v.directive) {
		return false
	}
	for _, m := range reMarkdownURL.FindAllStringSubmatchIndex(v.all, 4) {
		u := v.all[m[2]:m[3]]
		if describedAsAttack(v.all, m[0], m[1]) {
			continue
		}
		if v.spoofedHost(u) || !explainedHost(u, v.prose, v.squashedProse()) || docsToScript(v.all[:m[0]], u) {
			return true
		}
	}
	return false
}

var (
	// reQueryWord is a rendered link or image whose URL's query ends on a
	// bare word (…/s.png?d=DATA).
	reQueryWord = regexp.MustCompile(`\]\(https?://[^)\s]*[?&][\w-]+=([a-z_]{3,20})\)`)
	// reSlotFill says what goes in a word's place: "DATA 자리에는 …",
	// "replace DATA with …", "fill in …".
	reSlotFill = regexp.MustCompile(`자리|칸|대신|replace|fill|substitut|in place of|put|넣|채우|채워|치환`)
)

// slotLink reports a rendered URL with a placeholder word that the text
// says to fill with something sensitive (the conversation, a token):
// whoever renders the text sends it to the URL's host.
func slotLink(v *views) bool {
	for _, m := range reQueryWord.FindAllStringSubmatch(v.all, 4) {
		w := m[1]
		for _, sn := range reSentenceEnd.Split(removeSpans(v.directive, reURLOrCode), -1) {
			if containsWord(sn, w) && reSlotFill.MatchString(sn) && reSensitive.MatchString(sn) {
				return true
			}
		}
	}
	return false
}

var (
	// reDocsLinkText names documentation: the text of a link that should
	// open a page.
	reDocsLinkText = regexp.MustCompile(`\b(?:docs?|documentation|guide|manual|wiki|readme|faq|release notes|changelog|official)\b|문서|가이드|매뉴얼|공식`)
	// reScriptURL points at a script or a program.
	reScriptURL = regexp.MustCompile(`\.(?:sh|bash|ps1|bat|cmd|py|exe|msi|pkg|run)(?:[?#]\S*)?$`)
)

// docsToScript reports a link whose text names documentation while its
// URL is a script: the page a reader expects is a program to run.
func docsToScript(before, u string) bool {
	open := strings.LastIndex(before, "[")
	return open >= 0 && reDocsLinkText.MatchString(before[open:]) && reScriptURL.MatchString(u)
}
