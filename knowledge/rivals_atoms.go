package knowledge

// Rivalry of single atoms: two details, one in each text, that name one
// kind of thing differently (identifiers, names with digits, paths).

import (
	"slices"
	"strings"
	"unicode"
)

// atomsRival reports whether two atoms, each in one text only, are
// details of one kind that differ.
func atomsRival(x, y string) bool {
	switch {
	case isFlag(x) || isFlag(y):
		// --force and --force-with-lease, --max-old-space-size and
		// --max-semi-space-size; not -m and --break-system-packages.
		fx, fy := strings.TrimLeft(x, "-"), strings.TrimLeft(y, "-")
		return isFlag(x) && isFlag(y) && (commonPrefix(fx, fy) >= 3 || similarWords(fx, fy))
	case isNumber(x) || isNumber(y):
		return false // by what they count: see numbersRival
	case strings.Contains(x, "{") && strings.Contains(y, "{"):
		// {user:1}:profile and {user}:1:profile: the same characters
		// grouped otherwise are another key (another hash slot, another
		// placeholder).
		return alnumOf(x) == alnumOf(y) || similarWords(x, y)
	}
	if qualifies(x, y) || qualifies(y, x) || givenValue(x, y) || givenValue(y, x) {
		return false
	}
	if strings.ContainsAny(x, `/\`) && strings.ContainsAny(y, `/\`) {
		return pathsRival(x, y)
	}
	if digitVariant(x, y) {
		return true
	}
	return identifierLike(x) && identifierLike(y) && (similarWords(x, y) || sameEnding(x, y) || insertedVariant(x, y) || insertedVariant(y, x))
}

// digitVariant reports whether two names of letters and digits are the
// same letters with other digits (gp2, gp3; int32, int64; http2, http3):
// another generation or width of one thing, however short its name.
func digitVariant(x, y string) bool {
	if x == y || !strings.ContainsFunc(x, unicode.IsDigit) || !strings.ContainsFunc(y, unicode.IsDigit) {
		return false
	}
	letters := func(s string) (string, bool) {
		var b strings.Builder
		for _, r := range s {
			switch {
			case r >= 'a' && r <= 'z':
				b.WriteRune(r)
			case r < '0' || r > '9':
				return "", false
			}
		}
		return b.String(), b.Len() > 0
	}
	lx, okx := letters(x)
	ly, oky := letters(y)
	return okx && oky && lx == ly
}

// sameFrame reports whether two identifiers of three parts or more (split
// at camelCase humps and at _ - ., as written: DetailSet.Parts) begin and
// end with the same part and differ between (useLayoutEffect,
// useInsertionEffect; get_user_by_id, get_group_by_id): one member of an
// API's family named for another.
func sameFrame(px, py []string) bool {
	if len(px) < 3 || len(py) < 3 {
		return false
	}
	return px[0] == py[0] && px[len(px)-1] == py[len(py)-1] && !slices.Equal(px, py)
}

// sameFamily reports whether two identifiers of three parts or more begin
// with the same two parts and go on otherwise, neither going on as the
// other does (CAP_NET_BIND_SERVICE, CAP_NET_RAW; pg_stat_activity,
// pg_stat_statements): two members of one family, which sameFrame misses
// when their last parts differ too.
func sameFamily(px, py []string) bool {
	if len(px) < 3 || len(py) < 3 || px[0] != py[0] || px[1] != py[1] {
		return false
	}
	rx, ry := px[2:], py[2:]
	n := min(len(rx), len(ry))
	return !slices.Equal(rx[:n], ry[:n])
}

// identParts splits an identifier at camelCase humps and at _ - ., lower
// cased: useLayoutEffect → use, layout, effect; HTTPServer → http, server.
func identParts(s string) []string {
	var parts []string
	var cur []rune
	rs := []rune(s)
	flush := func() {
		if len(cur) > 0 {
			parts = append(parts, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	for i, r := range rs {
		switch {
		case r == '_' || r == '-' || r == '.':
			flush()
			continue
		case unicode.IsUpper(r) && i > 0 && (unicode.IsLower(rs[i-1]) || i+1 < len(rs) && unicode.IsLower(rs[i+1]) && unicode.IsUpper(rs[i-1])):
			flush()
		}
		cur = append(cur, r)
	}
	flush()
	return parts
}

// insertedVariant reports whether identifier long is short with a part
// added inside or at its end (useEffect and useLayoutEffect, utf-8 and
// utf-8-sig, pg_dump and pg_dumpall): a variant, not a mention of the same
// thing, which a method or path continued would be (resp.Body and
// resp.Body.Close).
func insertedVariant(long, short string) bool {
	if len(long) < len(short)+3 {
		return false
	}
	p := commonPrefix(long, short)
	q := commonSuffix(long[p:], short[p:])
	if p+q < len(short) || p < 2 && q < 2 {
		return false
	}
	ins := long[p : len(long)-q]
	return !strings.ContainsAny(ins[:1], "./:")
}

// qualifies reports whether long is short with a package, namespace or
// directory before it, or a setting's name or a factor: the same name
// qualified (org.apache.kafka.common.errors.TimeoutException,
// TimeoutException; /etc/fail2ban/jail.local, jail.local;
// C:\Temp\setup.log, setup.log), given to a setting
// (REQUESTS_CA_BUNDLE=/etc/ssl/ca.pem, /etc/ssl/ca.pem) or multiplied
// (5*time.Second, time.Second).
func qualifies(long, short string) bool {
	return len(long) > len(short) && strings.HasSuffix(long, short) && strings.ContainsAny(long[len(long)-len(short)-1:][:1], `.:/\=*`)
}

// givenValue reports whether long is short given a value or a port
// (fs.trash.interval=1440, fs.trash.interval; smtp.gmail.com:587,
// smtp.gmail.com): the same setting or host, whose values the texts'
// settings and numbers compare.
func givenValue(long, short string) bool {
	if len(long) <= len(short)+1 || !strings.HasPrefix(long, short) {
		return false
	}
	switch rest := long[len(short)+1:]; long[len(short)] {
	case '=':
		return true
	case ':':
		return isNumber(rest)
	}
	return false
}

// pluralOf reports whether x is y with a plural's s, y a type's or a
// product's name in PascalCase (WebSockets, WebSocket; ConfigMaps,
// ConfigMap), which prose pluralises, when pascal says one was written so;
// a function's or a field's name in lowerCamel (getUser, getUsers) is
// another member of an API.
func pluralOf(x, y string, pascal bool) bool {
	return pascal && len(y) >= 5 && (x == y+"s" || x == y+"es") && isLetters(y)
}

func isLetters(s string) bool {
	for _, r := range s {
		if r < 'a' || r > 'z' {
			return false
		}
	}
	return s != ""
}

// sameEnding reports whether two identifiers end alike for half the
// shorter and five letters or more (readinessProbe, livenessProbe).
func sameEnding(x, y string) bool {
	n := commonSuffix(x, y)
	return n >= 5 && 2*n >= min(len(x), len(y))
}

func commonSuffix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[len(a)-1-n] == b[len(b)-1-n] {
		n++
	}
	return n
}

// pathsRival reports whether two paths share their first two segments and
// part after (/etc/nginx/conf.d and /etc/nginx/sites-enabled), or name one
// file in two places (/etc/ansible/ansible.cfg and ./ansible.cfg,
// /etc/mdadm.conf and /etc/mdadm/mdadm.conf).
func pathsRival(x, y string) bool {
	x, y = strings.ReplaceAll(x, `\`, "/"), strings.ReplaceAll(y, `\`, "/")
	sx, sy := strings.Split(strings.Trim(x, "/"), "/"), strings.Split(strings.Trim(y, "/"), "/")
	n := 0
	for n < len(sx) && n < len(sy) && sx[n] == sy[n] {
		n++
	}
	if n >= 2 && n < len(sx) && n < len(sy) {
		return true
	}
	base := sx[len(sx)-1]
	return strings.Contains(base, ".") && base == sy[len(sy)-1] && strings.Trim(x, "/") != strings.Trim(y, "/")
}

func commonPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// identifierLike reports whether an atom reads as an identifier rather
// than a word of prose that a code span happened to hold.
func identifierLike(t string) bool {
	return len(t) >= 4 && (strings.ContainsAny(t, "_.:/-") || strings.ContainsFunc(t, unicode.IsDigit) || len(t) >= 8)
}

// similarWords reports whether two identifiers are spelled alike (an edit
// distance of at most a third of the longer), so that one reads as a
// variant of the other (readinessprobe, livenessprobe).
func similarWords(x, y string) bool {
	n := max(len(x), len(y))
	return editDistance(x, y)*3 <= n
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			c := prev[j-1]
			if a[i-1] != b[j-1] {
				c = 1 + min(prev[j-1], prev[j], cur[j-1])
			}
			cur[j] = c
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
