package gate

import (
	"regexp"
	"strings"
)

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

// reCookiesTxt is a line of a Netscape cookies.txt file (curl's -b and -c,
// wget's --load-cookies, yt-dlp's --cookies): domain, include-subdomains
// flag, path, secure flag, expiry, name and value, separated by tabs. The
// name is the first group, the value the second; cookiesTxtSession judges
// them.
var reCookiesTxt = regexp.MustCompile(`(?m)^(?:#HttpOnly_)?\.?[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+\t(?:TRUE|FALSE)\t[^\t\n]*\t(?:TRUE|FALSE)\t\d+\t([^\t\n]+)\t([^\t\n]{16,})[ \t]*$`)

// cookiesTxtSession reports whether a cookies.txt line carries a login: a
// cookie named for a session, a login or a token, as reCookieSecret reads
// a header's, or any cookie whose value is 32 characters or more of a
// generated string. A preference (theme, locale, consent) is neither.
func cookiesTxtSession(m string) bool {
	g := reCookiesTxt.FindStringSubmatch(m)
	if g == nil {
		return false
	}
	// A mail address as a cookie's value is left to the mail rules.
	if strings.Contains(g[2], "@") || strings.Contains(g[2], "%40") {
		return false
	}
	name := strings.ToLower(g[1])
	session := false
	for _, w := range []string{"sess", "sid", "auth", "token", "remember", "login", "jwt"} {
		session = session || strings.Contains(name, w)
	}
	return session || len(g[2]) >= 32
}
