package gate

import (
	"regexp"
	"strings"
)

// Keys and credentials in the files VPNs and signers keep them in: a JWK's
// private members, OpenVPN's static keys and auth-user-pass files, and
// Sentry DSNs, whose legacy form carries a secret key.

// reJWK is a flat JSON object naming its key type ("kty"), as a JWK or a
// JWKS entry is written, also inside a JSON or YAML string where its quotes
// are escaped. jwkPrivate judges its members.
var reJWK = regexp.MustCompile(`\{[^{}]*\\?"kty\\?"\s*:\s*\\?"[A-Za-z]+\\?"[^{}]*\}`)

// reJWKMember is a member of a JWK with a base64url value; the name is the
// first group, the value the second.
var reJWKMember = regexp.MustCompile(`\\?"([a-z]{1,3})\\?"\s*:\s*\\?"([A-Za-z0-9_-]{16,})\\?"`)

// jwkPrivateMembers are the members that hold a private key: RSA's private
// exponent and CRT factors (RFC 7518 section 6.3.2), an EC or OKP key's d
// (6.2.2, RFC 8037). A symmetric key ("kty": "oct") is its k (6.4.1). A
// public JWK holds n and e, or x and y, only.
var jwkPrivateMembers = map[string]bool{"d": true, "p": true, "q": true, "dp": true, "dq": true, "qi": true}

// docJWKValues are the private members of the example keys the JOSE RFCs
// print (RFC 7515 A.1 and A.3, RFC 7517 A.2 and A.3, RFC 8037 A.1), which
// tests and documentation copy: published, so they guard nothing.
var docJWKValues = map[string]bool{
	"870MB6gfuTJ4HtUnUvYMyJpr5eUZNP4Bk43bVdj3eAE":                                            true,
	"jpsQnnGQmL-YBIffH1136cspYG6-0iY7X1fCE9-E9LI":                                            true,
	"nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A":                                            true,
	"GawgguFyGrWKav7AX4VKUg":                                                                 true,
	"AyM1SysPpbyDfgZld3umj1qzKObwVMkoqQ-EstJQLr_T-1qS0gZH75aKtMN3Yj0iPS4hcgUuTwjAzZr1Z9CAow": true,
}

var reJWKOct = regexp.MustCompile(`\\?"kty\\?"\s*:\s*\\?"oct\\?"`)

// jwkPrivate reports whether a JWK holds a private member with a value that
// is not one of the RFCs' examples.
func jwkPrivate(m string) bool {
	oct := reJWKOct.MatchString(m)
	for _, g := range reJWKMember.FindAllStringSubmatch(m, -1) {
		if (jwkPrivateMembers[g[1]] || oct && g[1] == "k") && !docJWKValues[g[2]] {
			return true
		}
	}
	return false
}

// reOpenVPNKey is an OpenVPN static key (tls-auth, tls-crypt, secret) or a
// tls-crypt-v2 key, in its file or inline in a profile's <tls-auth>,
// <tls-crypt> or <tls-crypt-v2> block; the body is the group. A body
// elided to "..." is no key.
var reOpenVPNKey = regexp.MustCompile(`-----BEGIN OpenVPN (?:Static key V1|tls-crypt-v2 (?:client|server) key)-----\s*([0-9A-Za-z+/=\s]{64,}?)\s*-----END OpenVPN`)

// reAuthUserPass is the file OpenVPN's auth-user-pass reads (a username on
// its first line, the password on its second and last), shown after the
// command that prints it or alone in a code block: the two lines end the
// output (the text, the block, a blank line or the next prompt follows),
// where a profile's lines go on. The username is the first group, the
// password the second; authUserPassNamed requires the directive in the
// text, authUserPassLogin judges the lines.
var reAuthUserPass = regexp.MustCompile("(?:\\bcat[ \\t][^\\n]*\\n|```[a-z]*\\n)[ \\t]*([^\\s#$>-][^\\s]{1,63})[ \\t]*\\n[ \\t]*([^\\s`]{4,128})[ \\t]*(?:\\n?$|\\n[ \\t]*(?:```|\\$[ \\t]|\\n))")

// openVPNFlags are profile directives that take no argument, which a
// profile or a snippet of one writes a line each (auth-user-pass, then
// auth-nocache): two of them are no login.
var openVPNFlags = map[string]bool{"client": true, "auth-user-pass": true, "auth-nocache": true, "persist-key": true,
	"persist-tun": true, "nobind": true, "float": true, "pull": true, "tls-client": true, "comp-lzo": true,
	"mute-replay-warnings": true, "redirect-gateway": true}

// authUserPassLogin reports whether the two lines are a login, not a
// profile's directives.
func authUserPassLogin(m string) bool {
	g := reAuthUserPass.FindStringSubmatch(m)
	return g != nil && !openVPNFlags[g[1]] && !openVPNFlags[g[2]]
}

func authUserPassNamed(text string, lo, hi int) bool {
	return strings.Contains(strings.ToLower(text), "auth-user-pass")
}

// reAuthUserPassNote is the same file's two lines written on one, after
// its name: "# creds.txt: jiwoo.han / Dalbit#Vpn2024". The file is the
// first group, the password the last; authUserPassFile requires the file
// to be the one an auth-user-pass line names.
var reAuthUserPassNote = regexp.MustCompile(`(?m)([\w.-]+)[ \t]*:[ \t]*[^\s/:]+[ \t]+/[ \t]+(\S{4,128})[ \t]*$`)

func authUserPassFile(text string, lo, hi int) bool {
	g := reAuthUserPassNote.FindStringSubmatch(text[lo:hi])
	if g == nil {
		return false
	}
	for _, l := range strings.Split(text, "\n") {
		if f, ok := strings.CutPrefix(strings.TrimSpace(l), "auth-user-pass"); ok && strings.HasSuffix(strings.TrimSpace(f), g[1]) && g[1] != "" {
			return true
		}
	}
	return false
}

// reSentrySecretDSN is a Sentry DSN in its legacy form, public and secret
// key both (https://<public>:<secret>@host/<project>), on sentry.io or a
// self-hosted server: the secret key let anyone call the project's store
// API.
var reSentrySecretDSN = regexp.MustCompile(`\bhttps?://[0-9a-f]{32}:[0-9a-f]{32}@[A-Za-z0-9.-]+(?::\d+)?/(?:[\w.-]+/)*\d+\b`)

// reSentryPublicDSN is a Sentry DSN with its public key alone
// (https://<key>@o0.ingest.sentry.io/0). Sentry documents that key as
// meant to ship in clients (browser bundles, mobile apps): it can only
// send events, so it is no secret, and no mail address either.
// sentryDSNNamed requires Sentry's host or the word DSN beside it, so that
// another service's token as a URL's userinfo stays a secret.
var reSentryPublicDSN = regexp.MustCompile(`\bhttps?://[A-Za-z0-9]{8,64}@[A-Za-z0-9.-]+(?::\d+)?/(?:[\w.-]+/)*\d+(?:["'\x60\s,)}]|$)`)

func sentryDSNNamed(text string, lo, hi int) bool {
	m := strings.ToLower(text[lo:hi])
	host := m[strings.IndexByte(m, '@')+1:]
	return strings.Contains(host, "sentry") || wordsNear(text, lo, hi, []string{"dsn", "sentry"})
}
