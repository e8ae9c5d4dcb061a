package gate

import (
	"regexp"
	"strings"
)

// Carriers whose credential sits in a URL's path, a URL's query, a URL's
// userinfo or an Apple property list rather than after a secret's name.

// reHookURL is an incoming-webhook URL: a path segment that names a hook
// (hooks, webhook, webhookb2, IncomingWebhook: Mattermost, Microsoft Teams,
// JANDI and most chat tools) and the segments after it, one of
// which is the token that is the hook's only credential. Slack's and
// Discord's hooks are claimed by their own rules first.
var reHookURL = regexp.MustCompile(`(?i)\bhttps?://[A-Za-z0-9.-]+(?::\d+)?/(?:[^\s/?#"'<>]+/)*?(?:hooks?|webhooks?|webhookb2|incomingwebhook)/[^\s?#"'<>\x60)]+`)

// hookToken reports whether a segment after the hook word is a generated
// token (twenty characters or more of letters and digits, not a word or a
// template): /hooks/catch/123456/ or /webhooks/<TOKEN> carry none.
func hookToken(m string) bool {
	l := strings.ToLower(m)
	i := strings.Index(l, "://")
	path := l[i+3:]
	path = path[strings.IndexByte(path, '/')+1:]
	segs := strings.FieldsFunc(m[len(m)-len(path):], func(r rune) bool { return r == '/' || r == '@' })
	after := false
	for _, s := range segs {
		switch strings.ToLower(s) {
		case "hook", "hooks", "webhook", "webhooks", "webhookb2", "incomingwebhook":
			after = true
			continue
		}
		if after && generatedToken(strings.ReplaceAll(s, "-", ""), 20) {
			return true
		}
	}
	return false
}

// generatedToken reports whether v, of n characters or more, reads as a
// generated value: letters and digits, no sample word, no template.
func generatedToken(v string, n int) bool {
	if len(v) < n || strings.ContainsAny(v, "<>{}$*") {
		return false
	}
	for _, r := range v {
		if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '_') {
			return false
		}
	}
	l := strings.ToLower(v)
	return !maskedValue(l) && !notGenerated(v, l)
}

// reUserinfoToken is a token as a URL's whole userinfo, shorter than the
// 32 characters reUserinfoKey needs (Gemfury's 20-character push and
// pull tokens: https://<token>@pypi.fury.io/acme/): letters of both cases
// and digits, which a person's user name seldom mixes.
var reUserinfoToken = regexp.MustCompile(`\b[A-Za-z][A-Za-z0-9+.-]*://([A-Za-z0-9]{16,31})@[^\s/?#"'<>]+`)

func mixedCaseToken(m string) bool {
	v := m[strings.Index(m, "://")+3 : strings.IndexByte(m, '@')]
	return strings.ContainsAny(v, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") && strings.ContainsAny(v, "abcdefghijklmnopqrstuvwxyz") &&
		strings.ContainsAny(v, "0123456789") && generatedToken(v, 16)
}

// rePlistSecret is a secret's or a password's name and its value in an
// Apple property list (<key>APISigningSecret</key><string>…</string>) or
// an Android resource (<string name="api_secret">…</string>). The value
// is the last group.
var rePlistSecret = regexp.MustCompile(`<key>([A-Za-z_][\w.-]*)</key>\s*<string>([^<>\s]{8,})</string>|<string\s+name="([A-Za-z_][\w.-]*)"\s*>([^<>\s]{8,})</string>`)

func plistName(m string) string {
	if rest, ok := strings.CutPrefix(m, "<key>"); ok {
		return rest[:strings.IndexByte(rest, '<')]
	}
	rest := m[strings.IndexByte(m, '"')+1:]
	return rest[:strings.IndexByte(rest, '"')]
}

func plistSecret(m string) bool   { return secretName(plistName(m) + "=") }
func plistPassword(m string) bool { return passwordName(plistName(m)) }

var plistHints = []string{"<key>", "<string name="}
