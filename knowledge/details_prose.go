package knowledge

import (
	"regexp"
	"strings"
	"unicode"
)

// Numbers and settings given in prose: a number's unit (30s, 30 seconds,
// 30초 are one value), "set X to Y" in English and "X를 Y로 설정" in Korean.
// ParseDetails reads them (details.go).

var (
	// proseSetting and setBefore are a setting given in prose, from a
	// word "set": "set the subscription reliability to best_effort", "with
	// reliability set to reliable" (the setting is the word before "to").
	proseSetting = regexp.MustCompile(`^(?i)set(?:s|ting)?\s+(?:[a-z][\w.-]*\s+){0,3}?([a-z][\w.-]*)\s+to\s+([a-z][\w.-]*)`)
	setBefore    = regexp.MustCompile(`(?i)\b([a-z][\w.-]*)\s+(?:(?:is|was|are|be|been|gets?|got)\s+)?$`)
	setTo        = regexp.MustCompile(`^(?i)set\s+to\s+([a-z][\w.-]*)`)
)

// unitAttached, unitSpaced and unitKorean are a unit after a number,
// written on it (30s, 2KB, 1Gi, 75%), after a space (30 seconds, 2 MB) or
// in Korean (30초, 5분, particle and all: 30초로); units names
// each unit one way, so that 10 seconds and 10s are one value and 10 ms
// another.
var (
	unitAttached = regexp.MustCompile(`^(?i)(ns|us|µs|ms|s|sec|m|min|h|hr|d|w|[kmgtp]i?b?|b|%|x|px)(?:$|[^\pL\pN_])`)
	unitKorean   = regexp.MustCompile(`^ ?(밀리초|초|분|시간|일|주|바이트|퍼센트)`)
	unitSpaced   = regexp.MustCompile(`^(?i) (ns|ms|s|secs?|seconds?|mins?|minutes?|h|hrs?|hours?|days?|weeks?|[kmgtp]i?b|bytes?|percent|px|milliseconds?|microseconds?|nanoseconds?)(?:$|[^\pL\pN_])`)
	units        = map[string]string{"sec": "s", "secs": "s", "second": "s", "seconds": "s", "min": "m", "mins": "m", "minute": "m", "minutes": "m",
		"hr": "h", "hrs": "h", "hour": "h", "hours": "h", "day": "d", "days": "d", "week": "w", "weeks": "w", "percent": "%",
		"byte": "b", "bytes": "b", "µs": "us", "millisecond": "ms", "milliseconds": "ms", "microsecond": "us", "microseconds": "us",
		"nanosecond": "ns", "nanoseconds": "ns", "밀리초": "ms", "초": "s", "분": "m", "시간": "h", "일": "d", "주": "w", "바이트": "b", "퍼센트": "%"}
)

// unitAfter is the unit that s, the prose after a number, begins with,
// normalised (units; kb, mb, gb are k, m, g), or "".
func unitAfter(s string) string {
	m := unitAttached.FindStringSubmatch(s)
	if m == nil {
		m = unitSpaced.FindStringSubmatch(s)
	}
	if m == nil {
		m = unitKorean.FindStringSubmatch(s)
	}
	if m == nil {
		return ""
	}
	u := strings.ToLower(m[1])
	if n, ok := units[u]; ok {
		return n
	}
	if len(u) > 1 && u[len(u)-1] == 'b' && strings.ContainsRune("kmgtp", rune(u[len(u)-2])) {
		u = u[:len(u)-1]
	}
	return u
}

// sameValue reports whether two values of one thing agree: equal, or the
// same number with a unit given on one side only (30s, 30).
func sameValue(x, y string) bool {
	if x == y {
		return true
	}
	nx, ny := strings.TrimRightFunc(x, notDigit), strings.TrimRightFunc(y, notDigit)
	return nx != "" && nx == ny && (nx == x || ny == y) && isNumber(nx)
}

func notDigit(r rune) bool { return r < '0' || r > '9' }

// addProseSettings adds the settings text gives in prose (see
// proseSetting): each word "set" is found by hand and the patterns read
// only around it, as they would cost a scan of every text otherwise.
func (d DetailSet) addProseSettings(text string) {
	add := func(key, val string) {
		key, val = strings.ToLower(key), strings.Trim(strings.ToLower(val), ".-")
		if !englishStop[key] && proseValue(val) {
			d.addSetting(key, val)
		}
	}
	for i := 0; i < len(text); {
		j := strings.Index(text[i:], "et")
		if j < 0 {
			return
		}
		at := i + j - 1 // where "set" starts
		i += j + 2
		if at < 0 || text[at]|0x20 != 's' || at > 0 && isWordByte(text[at-1]) {
			continue
		}
		window := text[at:min(len(text), at+160)]
		if m := proseSetting.FindStringSubmatch(window); m != nil {
			add(m[1], m[2])
		}
		if m := setTo.FindStringSubmatch(window); m != nil {
			if k := setBefore.FindStringSubmatch(text[max(0, at-80):at]); k != nil {
				add(k[1], m[1])
			}
		}
	}
}

// koreanSetVerbs end a setting given in Korean prose, after its value and
// 로: "keepalive를 30초로 설정", "core.ignorecase를 false로 바꾸면";
// koreanSetting is the setting and value before them.
var (
	koreanSetVerbs = []string{"로 설정", "로 바꾸", "로 바꿔", "로 변경", "로 지정"}
	koreanSetting  = regexp.MustCompile(`([\pL\pN_.-]+)[을를]\s+([\pL\pN_.-]+?)으?$`)
)

// addKoreanSettings adds the settings text gives in Korean prose (see
// koreanSetVerbs).
func (d DetailSet) addKoreanSettings(text string) {
	for _, verb := range koreanSetVerbs {
		for i := 0; ; {
			j := strings.Index(text[i:], verb)
			if j < 0 {
				break
			}
			at := i + j
			i = at + len(verb)
			m := koreanSetting.FindStringSubmatch(text[max(0, at-120):at])
			if m == nil {
				continue
			}
			key, val := strings.ToLower(m[1]), strings.Trim(strings.ToLower(m[2]), ".-")
			if val != "" && !unicode.IsDigit(rune(val[0])) && !englishStop[key] && proseValue(val) {
				d.addSetting(key, val)
			}
		}
	}
}

func isWordByte(c byte) bool {
	return c == '_' || c == '-' || c == '.' || c >= '0' && c <= '9' || c|0x20 >= 'a' && c|0x20 <= 'z' || c >= 0x80
}

// proseValue reports whether a word after "set … to" is the value given,
// not a stop word ("to the"), nor a verb the sentence goes on with ("set up
// the cluster to use", "set lock_timeout to avoid"); a number is counted by
// its word instead (DetailSet.Numbers).
func proseValue(w string) bool {
	if settingValues[w] {
		return true // set X to none, to off: a value, though a stop word
	}
	if w == "" || englishStop[w] {
		return false
	}
	if strings.ContainsAny(w, "_.-") {
		return true
	}
	g := lex().g
	if l, irregular := g.lemma[w]; irregular && g.isVerb(l) || g.pastForm(w) {
		return false // an irregular verb form (set it to run); not earliest
	}
	return !g.isVerb(w)
}

// isVerb reports whether WordNet lists w as a verb.
func (g *groups) isVerb(w string) bool {
	for _, id := range g.lookup(w) {
		if strings.HasPrefix(g.names[id], "w:v") {
			return true
		}
	}
	return false
}
