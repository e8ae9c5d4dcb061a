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

// reHtpasswd is a line of an htpasswd file or an nginx auth_basic_user_file:
// a user and the password's hash (Apache's $apr1$ MD5, bcrypt, {SHA}), which
// a dictionary run recovers. The hash is the last group.
var reHtpasswd = regexp.MustCompile(`\b[\w.@-]+:(\$apr1\$[./0-9A-Za-z]{1,8}\$[./0-9A-Za-z]{22}|\$2[aby]\$\d\d\$[./0-9A-Za-z]{53}|\{SHA\}[A-Za-z0-9+/]{27}=)`)

var htpasswdHints = []string{"$apr1$", "$2y$", "$2a$", "$2b$", "{sha}"}
