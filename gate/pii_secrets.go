package gate

import (
	"encoding/base64"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Checks for secrets: keys, tokens and passwords (the placeholders
// documentation prints for them are in pii_secret_placeholders.go).

var (
	reDottedName = regexp.MustCompile(`^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+$`)
	// The command line's -p is lower case: mysql's -P gives a port.
	rePasswordKey = regexp.MustCompile(`(?i:(?:password|passwd|pwd|_pass)` + assignSep + `)|\s-p'?`)
)

// assignSep is what stands between a setting's name and its value in the
// carriers settings travel in: the name's closing quote, escaped in JSON
// (a notebook's "source", a HAR file, a Slack export: api_key = \"…\"),
// or its subscript's bracket (env[DB_PASS] =, os.environ["API_KEY"] =);
// a declared type before a quoted value (Rust's const API_KEY: &str = "…",
// Kotlin's and Swift's : String = "…", TypeScript's : string = "…", Go's
// var k string =; base64's padding after "password: " is no type's "=");
// then ":",
// "=" or "=>" (Ruby, PHP, Perl), and the value's opening quote.
const assignSep = `(?:\\?["'])?\]?(?:\s*:\s*&?(?:'\w+\s+)?[A-Za-z_][\w:]*(?:<[^<>\n=]{0,30}>)?\s*=\s*\\?["']|\s+(?:string|\[\]byte)\s*=|\s*(?:=>|[:=]))\s*(?:\\?["'])?`

// urlPasswordPlaceholder passes a URL or DSN whose password is a
// placeholder (postgres://user:password@localhost, app:${DB_PASSWORD}@db).
func urlPasswordPlaceholder(m string) bool {
	userinfo := m
	if i := strings.Index(m, "://"); i >= 0 {
		userinfo = m[i+3:]
	}
	at := strings.LastIndexByte(userinfo, '@')
	if at < 0 {
		return true
	}
	userinfo = userinfo[:at]
	colon := strings.IndexByte(userinfo, ':')
	if colon < 0 {
		return true
	}
	return secretPlaceholder(userinfo[colon+1:])
}

// settingPasswordPlaceholder passes password settings whose value is a
// placeholder (password: ${DB_PASSWORD}, POSTGRES_PASSWORD=postgres).
func settingPasswordPlaceholder(m string) bool {
	all := rePasswordKey.FindAllStringIndex(m, -1)
	if all == nil {
		return true
	}
	// The value follows the last key: "mysql -h db -P 3306 -uroot -p…".
	loc := all[len(all)-1]
	v := m[loc[1]:]
	// A YAML value may open with & (an anchor's sign, quoted or not); in
	// a URL's query, "&name=" after an empty password is the next field.
	// A word after & names an anchor (password: &db_pass "…", its value
	// follows); an & before a generated value is the value's first sign.
	if a, ok := strings.CutPrefix(v, "&"); ok && (strings.Contains(v, "=") || strings.TrimFunc(a, func(r rune) bool { return unicode.IsLetter(r) || r == '_' || r == '-' }) == "") {
		return true
	}
	return secretPlaceholder(v)
}

// reVendorToken finds services' tokens by their documented prefixes:
// GitLab, npm, PyPI, Hugging Face, SendGrid, HashiCorp Vault, Telegram
// bots, DigitalOcean, Shopify, Databricks, Docker Hub, Mailgun, Twilio API
// keys, Postman, Atlassian, Linear, Notion, Groq, xAI, Replicate, Supabase,
// Doppler, New Relic, Sentry, Square, Azure AD client secrets, Google OAuth
// client secrets and access tokens, Grafana, age, PlanetScale, Pulumi,
// Discord webhooks and Mailchimp.
// vendorTokenHints are the prefixes, lowercased, for the rule's filter.
var reVendorToken = regexp.MustCompile(`\bgl(?:pat|ptt|dt|rt|soat|cbt)-[A-Za-z0-9_-]{20,}|\bnpm_[A-Za-z0-9]{36}\b|` +
	`\bpypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{40,}|\bhf_[A-Za-z0-9]{30,}\b|\bSG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{30,}|` +
	`\bhv[sb]\.[A-Za-z0-9_-]{24,}|(?:\b|bot)\d{8,10}:AA[A-Za-z0-9_-]{33}\b|\bdo[opr]_v1_[a-f0-9]{64}\b|` +
	`\bshp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}\b|\bdapi[a-f0-9]{32}\b|\bdckr_pat_[A-Za-z0-9_-]{20,}|\bkey-[0-9a-z]{32}\b|` +
	`\bPMAK-[a-f0-9]{24}-[a-f0-9]{34}\b|\bATATT3[A-Za-z0-9_=-]{50,}|\blin_api_[A-Za-z0-9]{40}\b|` +
	`\b(?:secret|ntn)_[A-Za-z0-9]{43,}\b|\bgsk_[A-Za-z0-9]{48,}\b|\bxai-[A-Za-z0-9]{60,}\b|\br8_[A-Za-z0-9]{37}\b|` +
	`\bsbp_[a-f0-9]{40}\b|\bdp\.(?:pt|st|sa|ct)\.[A-Za-z0-9]{40,}\b|\bNRAK-[A-Z0-9]{27}\b|\bsntr[ysu]s_[A-Za-z0-9_=-]{30,}|` +
	`\bEAAA[A-Za-z0-9_-]{60}\b|\bsq0(?:atp|csp)-[A-Za-z0-9_-]{22,}|\b[A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.-]{31,34}|` +
	`\bGOCSPX-[A-Za-z0-9_-]{24,32}|\bya29\.[A-Za-z0-9_-]{20,}|\bgl(?:sa|c)_[A-Za-z0-9+/_]{24,}={0,2}|` +
	`\bAGE-SECRET-KEY-1[0-9A-Z]{50,60}\b|\bpscale_(?:tkn|oauth)_[A-Za-z0-9_.-]{32,}|\bpul-[a-f0-9]{40}\b|` +
	`\bdiscord(?:app)?\.com/api/webhooks/\d{17,20}/[A-Za-z0-9_-]{40,80}|\b[0-9a-f]{32}-us\d{1,2}\b`)

var vendorTokenHints = []string{"glpat-", "glptt-", "gldt-", "glrt-", "glsoat-", "glcbt-", "npm_", "pypi-", "hf_",
	"sg.", "hvs.", "hvb.", ":aa", "_v1_", "shp", "dapi", "dckr_pat_", "key-", "pmak-", "atatt3", "lin_api_",
	"secret_", "ntn_", "gsk_", "xai-", "r8_", "sbp_", "dp.", "nrak-", "sntr", "eaaa", "sq0", "q~",
	"gocspx-", "ya29.", "glsa_", "glc_", "age-secret-key-", "pscale_", "pul-", "/api/webhooks/", "-us"}

// mailgunDocKey is the sample key of Mailgun's API reference.
const mailgunDocKey = "key-3ax6xnjp29jd6fds4gc373sgvjxteol0"

// vendorTokenPlaceholder passes masked and templated tokens and the
// documentation's own samples. Unlike tokenPlaceholder it does not take a
// run without digits for a word: Hugging Face tokens are letters only.
func vendorTokenPlaceholder(m string) bool {
	if m == mailgunDocKey {
		return true
	}
	return maskedValue(strings.ToLower(m))
}

// maskedValue reports a lowercase value that is redacted or a template.
func maskedValue(l string) bool {
	for _, p := range []string{"xxxx", "****", "...", "your_", "your-", "redacted", "example", "placeholder", "changeme", "dummy", "<", "${", "{{"} {
		if strings.Contains(l, p) {
			return true
		}
	}
	return false
}

// slackDocToken is the bot token of Slack's API documentation examples.
const slackDocToken = "xoxb-17653672481-19874698323-pdFZKVeTuE8sk7oOcBrzbqgy"

func slackPlaceholder(m string) bool { return m == slackDocToken || tokenPlaceholder(m) }

// reSecretAssignment finds a value assigned to a name that says it is
// secret (merchant_secret_key=…, "client_secret": "…", JWT_SECRET=…,
// hmacKey = '…', X-Api-Key: …) and tokens in an Authorization header,
// whatever its scheme (Bearer, KakaoAK, SharedKey). The value is the last
// group.
var reSecretAssignment = regexp.MustCompile(`(?i)(?:secret|token|key)(?:[_.-]?(?:base|b64|base64|hex|value|str|bytes|raw))?` + assignSep + `([A-Za-z0-9+/_.~!@#$%^&*-]{16,}={0,2})|` +
	`\bauthorization["']?\s*:\s*["']?(?:bearer|token|basic|apikey|api-key|key|sso-key|ssws|splunk|otoken|[a-z][a-z0-9-]{1,23})\s+([A-Za-z0-9+/_.~-]{16,}={0,2})|` +
	// A request header named for a key or a token (Fastly-Key,
	// X-Auth-Token, PRIVATE-TOKEN) given to curl or written as a header.
	`(?:-H|--header)\s*["']?[A-Za-z][A-Za-z0-9-]*-(?:key|token)\s*:\s*([A-Za-z0-9+/_.~-]{16,}={0,2})`)

// notSecretNames are parts of names that end in token or key but hold no
// secret: pagination cursors, public keys, idempotency keys.
var notSecretNames = []string{"next", "page", "continuation", "pagination", "cursor", "sync", "resume", "cancel",
	"idempotency", "public", "publishable", "pub_", "pub.", "pub-", "max_token"}

// secretKeyNames are what must come before "key" for a name to be a
// secret's (api_key, merchant_secret_key, hmacKey, X-Api-Key, a vendor's
// AZURE_OPENAI_KEY), unlike cache_key, sort_key or a bare key.
var secretKeyNames = []string{"api", "secret", "private", "signing", "encryption", "enc", "hmac", "master",
	"access", "auth", "client", "app", "merchant", "webhook", "license", "service", "account", "admin",
	"crypto", "aes", "jwt", "session", "cookie", "shared", "storage", "subscription", "consumer",
	"integration", "partner",
	// A vendor's name before key names its API key (AZURE_OPENAI_KEY,
	// SENDGRID_KEY).
	"openai", "azure", "anthropic", "gemini", "stripe", "twilio", "sendgrid", "mailgun", "github", "gitlab",
	"slack", "google", "gcp", "aws", "cohere", "mistral", "huggingface", "pinecone", "datadog", "sentry",
	"algolia", "mapbox", "firebase", "supabase", "vercel", "cloudflare", "openrouter", "groq", "replicate",
	"elevenlabs", "paypal", "shopify", "okta", "auth0", "netlify", "heroku", "digitalocean",
	// Korean services' keys (a Kakao REST API key, kakaoRestKey; Naver's,
	// Toss Payments', PortOne's).
	"rest", "kakao", "naver", "toss", "iamport", "portone", "ncloud",
	// An events API's routing or ingest key (PagerDuty's Events v2
	// routing_key, a log service's ingest key) lets anyone send as the
	// service; a message broker's routing key is a dotted word, no
	// secret-looking value.
	"routing", "ingest", "ingestion", "write"}

// secretName reports whether the name a value is assigned to says it is
// secret: it ends in secret or token, or in key after one of
// secretKeyNames, and is not one of notSecretNames. An Authorization
// header always is.
func secretName(match string) bool {
	l := strings.ToLower(match)
	if h, ok := strings.CutPrefix(l, "--header"); ok || strings.HasPrefix(l, "-h") {
		if !ok {
			h = l[2:]
		}
		// A header named for a key or a token: a credential, but for the
		// nonces and public values that share the ending.
		name, _, _ := strings.Cut(strings.TrimLeft(h, " \t\"'"), ":")
		return !strings.Contains(name, "idempotency") && !strings.HasPrefix(name, "sec-websocket") && !strings.Contains(name, "public")
	}
	i := strings.IndexAny(l, ":=\"' ]\\")
	// An Authorization header, or a proxy's (Proxy-Authorization: Basic …).
	if i < 0 || strings.HasPrefix(l, "authorization") || strings.HasPrefix(l, "proxy-authorization") {
		return i >= 0
	}
	name := l[:i]
	// Judge the name's words (next_page_token, nextPageToken), so that a
	// word merely containing one (NEXTAUTH_SECRET) still counts.
	words := fieldWords(l[:i])
	if i <= len(match) {
		words = fieldWords(match[:i])
	}
	for _, n := range notSecretNames {
		if containsWord(words, fieldWords(n)) {
			return false
		}
	}
	for _, suf := range []string{"base", "b64", "base64", "hex", "value", "str", "bytes", "raw"} {
		t := strings.TrimSuffix(name, suf)
		if t == name {
			continue
		}
		if t = strings.TrimRight(t, "_.-"); strings.HasSuffix(t, "key") || strings.HasSuffix(t, "secret") || strings.HasSuffix(t, "token") {
			name = t
			break
		}
	}
	switch {
	case strings.HasSuffix(name, "secret"), strings.HasSuffix(name, "token"):
		return true
	case strings.HasSuffix(name, "key"):
		before := strings.TrimRight(strings.TrimSuffix(name, "key"), "_.-")
		for _, p := range secretKeyNames {
			if strings.HasSuffix(before, p) {
				return true
			}
		}
	}
	return false
}

// docSecrets are the example credentials of the RFCs that define HTTP and
// OAuth authentication, copied into documentation everywhere: RFC 7617's
// and RFC 2617's Basic credentials (test:123£, Aladdin:open sesame) and
// RFC 6749's client secret, Basic credentials, access and refresh tokens.
var docSecrets = map[string]bool{
	"dGVzdDoxMjPCow==": true, "QWxhZGRpbjpvcGVuIHNlc2FtZQ==": true, "7Fjfp0ZBr1KtDRbnfVdmIw": true,
	"czZCaGRSa3F0MzpnWDFmQmF0M2JW": true, "2YotnFZFEjr1zCsicMWpAA": true, "tGzv3JOkF0XG5Qx2TlKWIA": true,
	// The Kubernetes documentation's Secret (admin / 1f2d1e2e67df, in
	// base64 and plain), copied into manifests' examples everywhere.
	"MWYyZDFlMmU2N2Rm": true, "1f2d1e2e67df": true,
	// The keys of wg(8)'s and wg-quick(8)'s example configs.
	"yAnz5TF+lXXJte14tji3zlMNq+hd2rYUIgJBgB3fBmk=": true, "xTIBA5rboUvnH4htodjb6e697QjLERt1NAB4mZqp8Dg=": true,
	"TrMvSoP4jYQlY6RIzBgbssQqY3vxI2Pi+y71lOWWXX0=": true, "gN65BkIKy1eCE9pP1wdc8ROUtkHLF2PfAqYdyYBz6EA=": true,
}

// quotedSecretPlaceholder judges a quoted value of a secret name, which may
// hold any character but a quote (a Django SECRET_KEY has * ( and =): it
// passes the same masks, templates and words as secretValuePlaceholder,
// but a bracket inside quotes is part of the value, not code.
func quotedSecretPlaceholder(v string) bool {
	if len(v) < 12 || strings.ContainsAny(v[:1], "$%<{") || docSecrets[v] {
		return true
	}
	l := strings.ToLower(v)
	if maskedValue(l) || strings.Contains(v, "$(") {
		return true
	}
	return notGenerated(v, l)
}

// notGenerated reports whether v (l lowercased) reads as a word or a
// sample rather than a generated secret: it names a sample ("test",
// "fake", "secret", …), lacks letters or digits, or has fewer than 8
// distinct characters.
func notGenerated(v, l string) bool {
	// Django writes its generated keys as django-insecure-<50 random
	// characters>: the word names the key's use, not a sample.
	if r, ok := strings.CutPrefix(l, "django-insecure-"); ok && len(r) >= 32 {
		v, l = v[len(v)-len(r):], r
	}
	for _, p := range []string{"test", "sample", "fake", "insecure", "secret", "token", "password"} {
		if strings.Contains(l, p) {
			return true
		}
	}
	letter, digit := false, false
	distinct := map[rune]bool{}
	for _, r := range v {
		distinct[r] = true
		letter = letter || unicode.IsLetter(r)
		digit = digit || unicode.IsDigit(r)
	}
	return !letter || !digit || len(distinct) < 8
}

// secretValuePlaceholder passes values of secret names that are masks,
// templates, words or references rather than generated secrets.
func secretValuePlaceholder(v string) bool {
	v = strings.TrimRight(v, ".")
	if docSecrets[v] {
		return true
	}
	if user, pw, ok := basicCredentials(v); ok {
		// Authorization: Basic carries user:password in base64; judge
		// the password (dXNlcjpwYXNzd29yZA== is "user:password").
		return user == "" && pw == "" || secretPlaceholder(pw)
	}
	l := strings.ToLower(v)
	if len(v) < 16 || maskedValue(l) || reDottedName.MatchString(v) && !strings.HasPrefix(v, "ya29.") || docSecrets[v] {
		return true
	}
	if strings.ContainsAny(v[:1], "$%<{[(*") || strings.Contains(v, "$(") {
		return true
	}
	return notGenerated(v, l)
}

// reQuotedSecret finds a quoted value assigned to a secret name, whatever
// characters it holds (SECRET_KEY = '0C4*L2oX(=…', "ClientSecret":
// "Z3q~Wx8!…"). The value is the last group.
var reQuotedSecret = regexp.MustCompile(`(?i)(?:secret|token|key)(?:[_.-]?(?:base|b64|base64|hex|value|str|bytes|raw))?` + strings.TrimSuffix(assignSep, `(?:\\?["'])?`) + `\\?["']([^"'\s\\]{12,})\\?["']`)

// reCLIPassword finds passwords given on a command line: redis-cli -a,
// mysql-family -p…, sshpass/mongo -p, sqlcmd -P, ldap* -w, openssl
// pass:…, keytool -storepass, curl -u user:…, smbclient -U user%…, docker
// login -p, ipmitool and mosquitto -P, influx -password, net use /user:
// user password, rabbitmqctl add_user, 7z -p…, ssh-keygen -N, HTTPie -a
// user:…, snmp -A/-X, lftp -u user,…, PowerShell's ConvertTo-SecureString
// '…' and any --password/--pass/
// --passphrase followed by a value. The value is the last group.
// cliPasswordHints are the commands (and the flag) the rule knows.
var cliPasswordHints = []string{"redis-cli", "sshpass", "mongo", "sqlcmd", "bcp", "osql", "zip", "ldap", "openssl",
	"keytool", "jarsigner", "curl", "smbclient", "docker", "--", "htpasswd", "sqlplus", "xfreerdp", "az login",
	"ipmitool", "mosquitto", "influx", "net use", "rabbitmqctl", "7z", "rar", "ssh-keygen", "http", "snmp", "lftp",
	"identified", "password", "convertto-securestring"}

// cliPasswordMay reports whether reCLIPassword can match text: "--" is a
// hint only for the --password branch, which also needs "pass" (in any
// case), and nearly every finding has a flag; each other branch needs one
// of the other hints. TestCLIPasswordMay proves it from the pattern.
func cliPasswordMay(text string) bool {
	l := foldLower(text)
	return strings.Contains(l, "pass") || containsAny(l, cliPasswordMayHints)
}

// cliPasswordMayHints are cliPasswordHints without "--", and with what
// net use's and az login's branches need whatever space they take
// ("/user:", "login"), since "--" let those through beside any flag.
var cliPasswordMayHints = func() []string {
	out := []string{"/user:", "login"}
	for _, h := range cliPasswordHints {
		if h != "--" {
			out = append(out, h)
		}
	}
	return out
}()

var reCLIPassword = regexp.MustCompile(`\bredis-cli\b[^\n|;&]*?[ \t](?:-a|--pass)(?:[ \t]+['"]?|['"])([^\s'"-][^\s'"]*)|` +
	`\b(?:sshpass|mongo|mongosh|mongodump|mongorestore|mongoexport|mongoimport)\b[^\n|;&]*?[ \t]-p(?:[ \t]+['"]?|['"])([^\s'"-][^\s'"]*)|` +
	`\b(?:sqlcmd|bcp|osql|zip|unzip|ipmitool|mosquitto_pub|mosquitto_sub|mosquitto_rr)\b[^\n|;&]*?[ \t]-P(?:[ \t]+['"]?|['"])([^\s'"-][^\s'"]*)|` +
	`\binflux\b[^\n|;&]*?[ \t]-password[ \t]+['"]?([^\s'"-][^\s'"]*)|` +
	`\bnet[ \t]+use\b[^\n|;&]*?[ \t]/user:\S+[ \t]+['"]?([^\s'"/*-][^\s'"]*)|` +
	`\brabbitmqctl\b[^\n|;&]*?[ \t](?:add_user|change_password)[ \t]+\S+[ \t]+['"]?([^\s'"-][^\s'"]*)|` +
	`\b(?:7z|7za|7zz|rar|unrar)[ \t][^\n|;&]*?[ \t]-p['"]?([^\s'"-][^\s'"]*)|` +
	`\bssh-keygen\b[^\n|;&]*?[ \t]-N[ \t]+['"]?([^\s'"-][^\s'"]*)|` +
	`\bhttps?[ \t]+(?:-[-\w]+[ \t]+)*-a[ \t]+['"]?[^\s:'"]+:([^\s'"@]+)|` +
	`\bsnmp(?:walk|get|set|bulkwalk|bulkget|getnext|table|trap)\b[^\n|;&]*?[ \t]-[AX][ \t]+['"]?([^\s'"-][^\s'"]*)|` +
	`\blftp\b[^\n|;&]*?[ \t]-u[ \t]+['"]?[^\s,'"]+,([^\s'"]+)|` +
	`\bldap(?:search|add|modify|delete|passwd|compare|whoami|modrdn)\b[^\n|;&]*?[ \t]-w(?:[ \t]+['"]?|['"])([^\s'"-][^\s'"]*)|` +
	`\bopenssl\b[^\n|;&]*?[ \t]-pass(?:in|out)?[ \t]+['"]?pass:([^\s'"]+)|` +
	`\b(?:keytool|jarsigner)\b[^\n|;&]*?[ \t]-(?:src|dest)?(?:store|key)pass[ \t]+['"]?([^\s'"-][^\s'"]*)|` +
	`\bhtpasswd[ \t]+-[a-zA-Z]*b[a-zA-Z]*[ \t]+(?:-[a-zA-Z]+[ \t]+)*\S+[ \t]+[^\s-]\S*[ \t]+['"]?([^\s'"-][^\s'"]*)|` +
	`\bsqlplus\b[ \t]+(?:-[a-zA-Z]+[ \t]+)*['"]?[\w$#]+/([^\s@/'"]+)@|` +
	`\bxfreerdp\b[^\n|;&]*?[ \t]/p:['"]?([^\s'"]+)|` +
	`\baz[ \t]+login\b[^\n|;&]*?[ \t](?:-p|--password)[ \t]+['"]?([^\s'"-][^\s'"]*)|` +
	`\bcurl\b[^\n|;&]*?[ \t](?:-u|--user)[ \t]*['"]?[^\s:'"]+:['"]?([^\s'"@]+)|` +
	`\bsmbclient\b[^\n|;&]*?[ \t]-U[ \t]*['"]?[^\s%'"]+%([^\s'"]+)|` +
	`\bdocker[ \t]+login\b[^\n|;&]*?[ \t]-p[ \t]+['"]?([^\s'"-][^\s'"]*)|` +
	// PowerShell's ConvertTo-SecureString given the password as a literal.
	`(?i)\bConvertTo-SecureString(?:[ \t]+-(?:String|AsPlainText|Force))*[ \t]+(?:'([^'\n$]+)'|"([^"\n$]+)")|` +
	`(?:^|[ \t])--(?:[a-z]+-){0,3}(?:require|master|auth|admin|root|store|key|db)?(?:password|passwd|pass|passphrase)[ \t]+['"]?([^\s'"-][^\s'"]*)|` +
	// The same in an exec array (a compose healthcheck's ["CMD",
	// "redis-cli", "-a", "…"]).
	`"redis-cli"\s*,(?:\s*"[^"]*"\s*,)*?\s*"(?:-a|--pass)"\s*,\s*"([^"]+)"|` +
	// SQL that sets a password: MySQL's IDENTIFIED [WITH plugin] BY '…',
	// Oracle's IDENTIFIED BY … bare or in double quotes, PostgreSQL's
	// [WITH] PASSWORD '…'.
	`(?i)\bidentified(?:[ \t]+with[ \t]+\w+)?[ \t]+by[ \t]+(?:'([^'\n]+)'|\\?"([^"\n\\]+)\\?"|([^\s'"\x60;\\][^\s'"\x60;\\]*))|\b(?:user|role)\b[^\n;]*?\bpassword[ \t]+'([^'\n]+)'`)

// basicCredentials decodes a base64 value that holds printable
// "user:password" text, as an Authorization: Basic header does; ok is
// false for anything else (a random secret decodes to binary).
func basicCredentials(v string) (user, pw string, ok bool) {
	b, err := base64.StdEncoding.DecodeString(v)
	if err != nil || len(b) < 3 {
		return "", "", false
	}
	if !utf8.Valid(b) {
		return "", "", false
	}
	for _, c := range string(b) {
		if c < 0x20 || c == 0x7f || !unicode.IsPrint(c) {
			return "", "", false
		}
	}
	u, p, found := strings.Cut(string(b), ":")
	return u, p, found
}

// reQuerySecret finds a generated value given to a URL query parameter
// that names an API credential: an app id of the services that take their
// key as one (OpenWeather's appid), an API key, an access or auth token, a
// client secret, or a signed URL's signature (S3's X-Amz-Signature, GCS's
// X-Goog-Signature, CloudFront's Signature), which grants the object to
// whoever holds the link until it expires. The value is the last group.
var reQuerySecret = regexp.MustCompile(`(?i)[?&](?:app_?id|app_?key|api_?key|access_?key|auth(?:_?key|_?token)?|access_?token|client_?secret|secret|token|key|(?:x-amz-|x-goog-)?signature)=([A-Za-z0-9_-]{16,})(?:[&#\s"'\x60)<>]|$)`)
