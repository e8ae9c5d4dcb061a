package gate

import "regexp"

// reCookieSecret finds a session cookie's value: in a Cookie or Set-Cookie
// header, a HAR file's {"name": "Cookie", "value": "…"}, curl's -b and
// --cookie, document.cookie. A cookie named for a session, a login or a
// token (sessionid, JSESSIONID, connect.sid, remember_token, auth) is the
// login itself to whoever replays it. The value is the last group.
var reCookieSecret = regexp.MustCompile(`(?i)(?:\bcookie["']?(?:\s*,\s*["']?value["']?)?\s*[:=]\s*["']?|(?:^|[ \t])(?:-b|--cookie)[ \t]+["']?)` +
	`(?:[^;\s"'=]+=[^;\s"']*;\s*)*?[\w.-]*(?:sess|sid|auth|token|remember|login|jwt)[\w.-]*=([^;\s"'\\]{16,})`)

var cookieHints = []string{"cookie", "-b "}
