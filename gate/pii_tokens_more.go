package gate

import (
	"regexp"
	"strings"
)

// More services' tokens by their documented prefixes, and more commands
// that take a password on their command line.

// reVendorTokenMore finds tokens of RubyGems, Terraform Cloud, Dynatrace,
// Figma, Fly.io, Contentful, Adafruit IO, Alibaba Cloud and Tencent Cloud
// access key ids, LangSmith, Pinecone, Neon, Prefect, Buildkite,
// SonarQube, Bitbucket app passwords, Heroku, Dropbox, Shippo, EasyPost,
// Airtable, Perplexity, Toss Payments' secret keys, Braintree and PayPal
// access tokens, Twilio API keys, Discord bot tokens, Firebase Cloud
// Messaging server keys, Mapbox secret tokens, 1Password service
// accounts, JFrog Artifactory, Brevo, Cloudflare Origin CA keys and
// Yandex Cloud.
var reVendorTokenMore = regexp.MustCompile(`\brubygems_[a-f0-9]{48}\b|\b[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_-]{60,70}|` +
	`\bdt0c01\.[A-Z0-9]{24}\.[A-Z0-9]{64}\b|\bfigd_[A-Za-z0-9_-]{40,}|\bfo1_[A-Za-z0-9_-]{43}|\bCFPAT-[A-Za-z0-9_-]{43}|` +
	`\baio_[A-Za-z0-9]{28}\b|\bLTAI[A-Za-z0-9]{12,20}\b|\bAKID[A-Za-z0-9]{32}\b|\blsv2_(?:pt|sk)_[a-f0-9]{32}_[a-f0-9]{10}\b|` +
	`\bpcsk_[A-Za-z0-9_]{40,}|\bnapi_[a-z0-9]{64}\b|\bpnu_[A-Za-z0-9]{36}\b|\bbkua_[a-f0-9]{40}\b|\bsq[upa]_[a-f0-9]{40}\b|` +
	`\bATBB[A-Za-z0-9_=.-]{32,}|\bHRKU-[A-Za-z0-9_-]{30,}|\bsl\.[A-Za-z0-9_-]{130,}|\bshippo_(?:live|test)_[a-f0-9]{40}\b|` +
	`\bEZ[AT]K[a-z0-9]{54}\b|\bpat[A-Za-z0-9]{14}\.[a-f0-9]{64}\b|\bpplx-[A-Za-z0-9]{48}\b|\b(?:live|test)_g?sk_[A-Za-z0-9_]{20,}|` +
	`\baccess_token\$(?:production|sandbox)\$[0-9a-z]{16}\$[0-9a-f]{32}\b|\bSK[0-9a-f]{32}\b|` +
	`\b[MNO][A-Za-z0-9_-]{23,25}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,38}\b|\bAAAA[A-Za-z0-9_-]{7}:APA91b[A-Za-z0-9_-]{100,}|` +
	`\bsk\.eyJ[A-Za-z0-9_-]{40,}\.[A-Za-z0-9_-]{20,}|\bops_eyJ[A-Za-z0-9+/=_-]{100,}|\bAKCp[A-Za-z0-9]{69}\b|` +
	`\bxkeysib-[a-f0-9]{64}-[A-Za-z0-9]{16}\b|\bv1\.0-[a-f0-9]{24}-[a-f0-9]{146}\b|\by0_[A-Za-z0-9_-]{55}\b|\bAQVN[A-Za-z0-9_-]{35,38}\b|` +
	// Google's OAuth refresh tokens (1//0…), which an app's log or a
	// gcloud credentials file hands over with the account they open.
	`\b1//0[A-Za-z0-9_-]{40,}`)

var vendorTokenMoreHints = []string{"rubygems_", ".atlasv1.", "dt0c01.", "figd_", "fo1_", "cfpat-", "aio_", "ltai", "akid",
	"lsv2_", "pcsk_", "napi_", "pnu_", "bkua_", "squ_", "sqp_", "sqa_", "atbb", "hrku-", "sl.", "shippo_", "ezak", "eztk", "pat",
	"pplx-", "_sk_", "_gsk_", "access_token$", "sk", ".", "aaaa", "sk.eyj", "ops_eyj", "akcp", "xkeysib-", "v1.0-", "y0_", "aqvn", "1//0"}

// vendorTokenMoreMay reports whether reVendorTokenMore can match text:
// every token it finds holds a run of at least 24 letters, digits, _ and
// - (the shortest: LTAI and 12, the Discord token's first part, aio_ and
// 28), except LTAI's, ATBB's and ops_eyJ's, which start with those
// letters. Most findings have no such run, and the pattern's 38
// alternatives are tried at every offset of the text otherwise (about a
// tenth of the gate's time on the bench's findings).
func vendorTokenMoreMay(text string) bool {
	return hasTokenRun(text, 24) || strings.Contains(text, "LTAI") || strings.Contains(text, "ATBB") || strings.Contains(text, "ops_eyJ")
}

// hasTokenRun reports whether text has n or more ASCII letters, digits, _
// and - in a row.
func hasTokenRun(text string, n int) bool {
	run := 0
	for i := 0; i < len(text); i++ {
		c := text[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-' {
			if run++; run >= n {
				return true
			}
		} else {
			run = 0
		}
	}
	return false
}

// vendorTokenMorePlaceholder passes masked and templated tokens, a run
// that is one character repeated, and the samples that vendors' docs
// mark as theirs (Toss Payments' test_gsk_docs_…).
func vendorTokenMorePlaceholder(m string) bool {
	l := strings.ToLower(m)
	if maskedValue(l) || strings.Contains(l, "_docs_") {
		return true
	}
	// Generated tokens hold digits; a run without any is a word or an
	// identifier (test_sk_learn_compatible_estimators, a dotted
	// Module.Submodule.Function_name in a Discord token's form).
	if !strings.ContainsAny(m, "0123456789") {
		return true
	}
	body := m[strings.LastIndexAny(m, "_.-$")+1:]
	return len(body) > 0 && strings.Count(body, body[:1]) == len(body)
}

// reCLIPasswordMore finds passwords given to more commands on their
// command line: PuTTY's plink, pscp and psftp -pw, Windows' net user
// <name> <password>, Oracle's rman, expdp, impdp, exp, imp and sqlldr
// user/password@db, cqlsh and isql -p/-P, rdesktop -p, a password echoed
// into sudo -S, passwd --stdin or chpasswd, openssl enc -k and vault
// login with a token. The value is the last group.
var reCLIPasswordMore = regexp.MustCompile(`\b(?:plink|pscp|psftp)(?:\.exe)?\b[^\n|;&]*?[ \t]-pw[ \t]+['"]?([^\s'"-][^\s'"]*)|` +
	`(?i)\bnet[ \t]+user[ \t]+[^\s/]+[ \t]+['"]?([^\s'"/*][^\s'"]*)['"]?[ \t]+/(?:add|domain)\b|` +
	`\b(?:rman[ \t]+target|expdp|impdp|exp|imp|sqlldr)[ \t]+(?:userid=)?['"]?[\w$#]+/([^\s@/'"]+)@|` +
	`\b(?:cqlsh|isql)\b[^\n|;&]*?[ \t]-[pP][ \t]+['"]?([^\s'"-][^\s'"]*)|` +
	`\brdesktop\b[^\n|;&]*?[ \t]-p[ \t]+['"]?([^\s'"-][^\s'"]*)|` +
	`\becho[ \t]+(?:-[en][ \t]+)?['"]?(?:[\w.-]+:)?([^\s'"|$]{4,})['"]?[ \t]*\|[ \t]*(?:sudo[ \t]+-S|sudo[ \t]+chpasswd|chpasswd|passwd[ \t]+--stdin)|` +
	`\bopenssl[ \t]+enc\b[^\n|;&]*?[ \t]-k[ \t]+['"]?([^\s'"-][^\s'"]*)|` +
	`\bvault[ \t]+login[ \t]+(?:-[a-z-]+=\S+[ \t]+)*((?:hv[sb]\.|s\.)[A-Za-z0-9_-]{20,})|` +
	// PowerShell's and NuGet's parameters (-Password, -ClearTextPassword,
	// -PlainTextPassword), which take the value after a space.
	`[ \t]-(?:Password|ClearTextPassword|PlainTextPassword|ApiKey)[ \t]+['"]?([^\s'"$(-][^\s'"]*)|` +
	// Python's HTTP clients: requests' auth=("user", "…") and
	// HTTPBasicAuth("user", "…").
	`\b(?:auth|HTTPBasicAuth|HTTPDigestAuth|BasicAuth)\s*[=(]\s*\(?\s*["'][^"'\n]{1,64}["']\s*,\s*["']([^"'\n]{6,})["']`)

var cliPasswordMoreHints = []string{"plink", "pscp", "psftp", "net user", "rman", "expdp", "impdp", "exp", "imp", "sqlldr",
	"cqlsh", "isql", "rdesktop", "echo", "openssl", "vault login", "password", "apikey", "auth"}
