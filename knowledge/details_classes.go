package knowledge

// Closed classes of words that session 20's own look-alikes
// (pairs-lookalike-own7) found deciding a finding while the parses read
// them as stop words or as no detail at all: a quantifier (some, any, 모든,
// 일부), a modality (must, may; 해야 한다, 할 수 있다), a frequency (monthly,
// 매일, 가끔), a condition or connective (if, unless; and, or), a date, a
// key combination (Ctrl+Shift+P), a pair of keywords (FOR UPDATE), a
// Windows account (SYSTEM).

import (
	"regexp"
	"strings"
)

// swapClasses are the words of closed classes by their class and value:
// one put in place of another of the same class and another value (some
// of them, any of them; must be granted, may be granted; if, unless) says
// another thing, as an antonym would; a rewording that close swaps within
// a value (every, each; must, needs) or leaves the word alone.
var swapClasses = map[string]string{
	// quantifiers
	"all": "q:all", "every": "q:all", "each": "q:all", "모든": "q:all", "모두": "q:all", "전부": "q:all", "전체": "q:all",
	"some": "q:some", "several": "q:some", "일부": "q:some", "몇몇": "q:some", "any": "q:any", "none": "q:none",
	"one": "q:one", "single": "q:one", "most": "q:most", "대부분": "q:most", "both": "q:both", "few": "q:few",
	"many": "q:many", "either": "q:either", "neither": "q:neither",
	// modality: obligation, permission or possibility
	"must": "m:must", "need": "m:must", "needs": "m:must", "should": "m:must", "shall": "m:must", "required": "m:must",
	"may": "m:may", "might": "m:may", "can": "m:may", "could": "m:may", "optional": "m:may",
	// connectives and conditions
	"and": "c:and", "or": "c:or", "if": "c:if", "when": "c:if", "whenever": "c:if", "unless": "c:unless",
	"only": "c:only", "just": "c:only", "solely": "c:only", "even": "c:even", "also": "c:even",
	// frequencies (frequencyWords, which a rewording keeps as well)
	"always": "f:always", "usually": "f:often", "often": "f:often", "frequently": "f:often",
	"sometimes": "f:sometimes", "occasionally": "f:sometimes", "rarely": "f:rarely", "seldom": "f:rarely",
	"hourly": "f:hourly", "daily": "f:daily", "nightly": "f:daily", "weekly": "f:weekly", "monthly": "f:monthly",
	"yearly": "f:yearly", "annually": "f:yearly",
	"항상": "f:always", "늘": "f:always", "언제나": "f:always", "자주": "f:often", "종종": "f:often",
	"가끔": "f:sometimes", "가끔씩": "f:sometimes", "때때로": "f:sometimes", "이따금": "f:sometimes", "드물게": "f:rarely",
	"매시간": "f:hourly", "매일": "f:daily", "매일밤": "f:daily", "매주": "f:weekly", "매달": "f:monthly", "매월": "f:monthly",
	"매년": "f:yearly",
}

// classSwapped reports whether a swap of one word for one word puts a
// word of a closed class (swapClasses) in place of one of the same class
// and another value; the word may be swapped in each of a few places the
// swap bridges (block A and B, block A or B).
func classSwapped(dropped, added []string) bool {
	x, y := distinct(dropped), distinct(added)
	if len(x) != 1 || len(y) != 1 {
		return false
	}
	cx, cy := swapClasses[x[0]], swapClasses[y[0]]
	return cx != "" && cy != "" && cx != cy && cx[:2] == cy[:2]
}

// swapOpposites are pairs of words whose swap in place says the opposite
// and that neither WordNet's antonyms nor swapClasses give: particles of
// direction (log in, log out; scale up, down; turn on, off), with and
// without, and Korean words of action and place with the ending they share
// (설치하면, 제거하면; 로컬에서, 원격에서), by their first word.
var swapOpposites = map[string]string{"in": "out", "up": "down", "on": "off", "with": "without", "static": "dynamic",
	"inbound": "outbound", "ingress": "egress", "upstream": "downstream",
	// technical opposites WordNet lists no antonym for
	"eager": "lazy", "shallow": "deep", "ephemeral": "persistent", "compressed": "uncompressed", "visible": "hidden",
	"increase": "reduce", "raise": "lower", "raising": "lowering", "mutable": "immutable", "stateful": "stateless",
	"optimistic": "pessimistic", "inclusive": "exclusive", "ascending": "descending", "allowlist": "denylist",
	"whitelist": "blacklist", "explicit": "implicit", "leading": "trailing",
	"설치": "제거", "시작": "중지", "추가": "삭제", "로컬": "원격", "내부": "외부", "활성화": "비활성화", "허용": "차단",
	"증가": "감소", "이상": "이하", "초과": "미만", "공개": "비공개", "높": "낮", "큰": "작은", "크게": "작게", "켜": "꺼",
	"늘리": "줄이", "늘려": "줄여", "성공": "실패", "읽기": "쓰기", "입력": "출력"}

// oppositeSwapped reports whether a swap of one word for one word (in each
// place it occurs) puts a word's opposite in its place (swapOpposites); a
// Korean word may go on with the same ending on both sides.
func oppositeSwapped(dropped, added []string) bool {
	x, y := distinct(dropped), distinct(added)
	if len(x) != 1 || len(y) != 1 {
		return false
	}
	return opposite(x[0], y[0]) || opposite(y[0], x[0])
}

func opposite(x, y string) bool {
	if swapOpposites[x] == y {
		return true
	}
	if !isHangulWord(x) {
		return false
	}
	for p, q := range swapOpposites {
		if !isHangulWord(p) {
			continue
		}
		// 추가 alone is 추 in the words diffed: 가 reads as a particle.
		if strings.HasPrefix(x, p) && strings.HasPrefix(y, q) && x[len(p):] == y[len(q):] ||
			x == trimKorean(p) && (y == q || y == trimKorean(q)) {
			return true
		}
	}
	return false
}

// comparisons are the phrases of a bound, by the bound they set: at least
// and at most, more and less than.
var comparisons = map[string]string{"at least": ">=", "or more": ">=", "minimum": ">=", "no less than": ">=",
	"at most": "<=", "up to": "<=", "no more than": "<=", "or less": "<=", "maximum": "<=",
	"more than": ">", "over": ">", "above": ">", "exceeds": ">", "greater than": ">", "longer than": ">", "larger than": ">",
	"less than": "<", "under": "<", "below": "<", "fewer than": "<", "shorter than": "<", "smaller than": "<", "is below": "<"}

// comparisonSwapped reports whether a swap puts one bound in place of
// another (up to 10, at least 10): the words of each side, joined, are
// phrases of comparisons with other bounds.
func comparisonSwapped(dropped, added []string) bool {
	x, y := comparisons[strings.Join(dropped, " ")], comparisons[strings.Join(added, " ")]
	return x != "" && y != "" && x != y
}

// distinct is ws without its repeats, in order.
func distinct(ws []string) []string {
	var out []string
	for _, w := range ws {
		if !slicesContains(out, w) {
			out = append(out, w)
		}
	}
	return out
}

// koreanModal is the modality a run of Korean words says: "must" for an
// obligation (붙여야 한다, 이내여야 합니다: a word ending in 야 before 하다's
// forms), "may" for a possibility (할 수 있다), "" for neither or both.
func koreanModal(words []string) string {
	must, may := false, false
	for i := 0; i+1 < len(words); i++ {
		w, next := words[i], words[i+1]
		if isHangulWord(w) && strings.HasSuffix(w, "야") && strings.ContainsAny(string([]rune(next)[0]), "하한합했해") {
			must = true
		}
		if w == "수" && strings.HasPrefix(next, "있") {
			may = true
		}
	}
	switch {
	case must && !may:
		return "must"
	case may && !must:
		return "may"
	}
	return ""
}

// koreanModalSwapped reports whether a swap puts a Korean possibility in
// place of an obligation or the other way round (이내여야 한다, 이내일 수
// 있다): the same rule told as a permission.
func koreanModalSwapped(dropped, added []string) bool {
	x, y := koreanModal(dropped), koreanModal(added)
	return x != "" && y != "" && x != y
}

// Kind atoms: details of a closed class the text says in words, added to
// DetailSet.Atoms under a prefix no parsed atom has (kindAtom), so that a
// rewording's kind atoms are weighed against its original's (kindsRival).
const kindPrefix = "~"

func kindAtom(kind, value string) string { return kindPrefix + kind + ":" + value }

// isKindAtom reports whether an atom is a kind atom, and its kind.
func isKindAtom(t string) (kind string, ok bool) {
	if !strings.HasPrefix(t, kindPrefix) {
		return "", false
	}
	kind, _, ok = strings.Cut(t[len(kindPrefix):], ":")
	return kind, ok
}

// nearOnly are the kinds weighed only in texts that read almost alike
// (oneSided in proseConflict): a rewording says "none" and a modality its
// own way.
var nearOnly = map[string]bool{"none": true, "modal": true}

// koreanModalPair is the modality two Korean words in a row say, as
// written: "must" for an obligation (붙여야 한다, 맞춰야 합니다), "may" for a
// permission (붙여도 된다, 꺼도 괜찮다), "" for neither. A particle's 도 is
// gone from the words phraseSwapped diffs, so this reads the prose.
func koreanModalPair(w, next string) string {
	rw, rn := []rune(w), []rune(next)
	if len(rw) < 2 || len(rn) == 0 {
		return ""
	}
	switch last, first := rw[len(rw)-1], rn[0]; {
	case last == '야' && strings.ContainsRune("하한합해했함", first):
		return "must"
	case last == '도' && (strings.ContainsRune("된됩돼됐됨", first) || strings.HasPrefix(next, "괜찮") || strings.HasPrefix(next, "무방")):
		return "may"
	}
	return ""
}

// kindsRival reports whether two kind atoms, each in one text only, give
// one kind two values (a frequency, a date, a key combination): a
// rewording keeps when a thing happens and which keys to press, however it
// words the rest. A date without its year agrees with one that has it.
func kindsRival(x, y string) bool {
	kx, okx := isKindAtom(x)
	ky, oky := isKindAtom(y)
	if !okx || !oky || kx != ky || nearOnly[kx] {
		return false
	}
	if kx == "freq" {
		// An adverb against an adverb (always, sometimes) is a rewording's
		// way of telling; a calendar's frequency is a schedule.
		return calendarFreq[x[len(kindPrefix)+len("freq:"):]] || calendarFreq[y[len(kindPrefix)+len("freq:"):]]
	}
	if kx == "kw" {
		// FOR UPDATE, FOR SHARE; LEFT JOIN, RIGHT JOIN: one keyword the
		// same, the other not. Two pairs of other words are other clauses.
		px, py := strings.Fields(x[len(kindPrefix)+len("kw:"):]), strings.Fields(y[len(kindPrefix)+len("kw:"):])
		return len(px) == 2 && len(py) == 2 && (px[0] == py[0]) != (px[1] == py[1])
	}
	if kx == "switch" {
		return switchesRival(x, y) // details_choices.go
	}
	if kx == "date" {
		return !strings.HasSuffix(x, y[len(kindPrefix)+len("date:"):]) && !strings.HasSuffix(y, x[len(kindPrefix)+len("date:"):])
	}
	return true
}

// calendarFreq are the frequencies of a calendar (frequencyWords'
// values that are no adverb).
var calendarFreq = map[string]bool{"hourly": true, "daily": true, "weekly": true, "monthly": true, "yearly": true}

var (
	// isoDate is a calendar date, 2026-03-14; koreanDate one in Korean,
	// 2026년 4월 2일 or 4월 2일.
	isoDate    = regexp.MustCompile(`\b(\d{4})-(\d{2})-(\d{2})\b`)
	koreanDate = regexp.MustCompile(`(?:(\d{4})년\s*)?(\d{1,2})월\s*(\d{1,2})일`)
	// keyCombo is a key combination: modifiers joined by + to a key.
	keyCombo = regexp.MustCompile(`(?i)\b(?:ctrl|control|cmd|command|alt|option|shift|super|meta|win|mod)(?:\s?\+\s?[a-z0-9]+)+\b`)
	// koreanNone are the Korean words that say "not one" (하나도, 아무도),
	// beside the negation they go with; 하나만 says "only one".
	koreanNone = map[string]string{"하나도": "none", "아무도": "none", "아무것도": "none", "하나만": "one"}
)

// addWordKind adds the kind atom a word of prose gives, as written (w)
// and case-folded (lw): a frequency said in words (daily, 매일, 가끔), a
// Windows account (SYSTEM), or a Korean quantifier a particle makes
// (하나도, 하나만) under "none", a kind that is weighed only in texts that
// read almost alike (oneSided).
func (d *DetailSet) addWordKind(w, lw string) {
	if c := swapClasses[lw]; len(c) > 2 && c[:2] == "f:" {
		d.Atoms[kindAtom("freq", c[2:])] = true
	} else if v := koreanNone[w]; v != "" {
		d.Atoms[kindAtom("none", v)] = true
	} else if windowsAccounts[w] {
		d.Atoms[kindAtom("account", lw)] = true
	}
}

// windowsAccounts are Windows' built-in accounts, which a service or a
// task runs as, as written.
var windowsAccounts = map[string]bool{"SYSTEM": true, "LocalSystem": true, "Administrator": true, "NetworkService": true,
	"LocalService": true, "TrustedInstaller": true}

// addKinds adds the kind atoms of prose that span words: its dates, its
// key combinations and its pairs of keywords in capitals (FOR UPDATE, from
// caps, the places of its words in capitals).
func (d *DetailSet) addKinds(prose string, caps [][]int) {
	for k := 0; k+1 < len(caps); k++ {
		x, y := prose[caps[k][0]:caps[k][1]], prose[caps[k+1][0]:caps[k+1][1]]
		if gap := prose[caps[k][1]:caps[k+1][0]]; x != y && gap != "" && strings.Trim(gap, " ") == "" {
			d.Atoms[kindAtom("kw", strings.ToLower(x+" "+y))] = true // FOR UPDATE; ON DELETE CASCADE twice
		}
	}
	if strings.Contains(prose, "-") {
		for _, m := range isoDate.FindAllStringSubmatch(prose, -1) {
			d.Atoms[kindAtom("date", m[1]+"-"+m[2]+"-"+m[3])] = true
		}
	}
	if strings.Contains(prose, "월") {
		for _, m := range koreanDate.FindAllStringSubmatch(prose, -1) {
			v := twoDigits(m[2]) + "-" + twoDigits(m[3])
			if m[1] != "" {
				v = m[1] + "-" + v
			}
			d.Atoms[kindAtom("date", v)] = true
		}
	}
	if strings.Contains(prose, "+") {
		for _, m := range keyCombo.FindAllString(prose, -1) {
			d.Atoms[kindAtom("key", strings.ToLower(strings.Join(strings.Fields(m), "")))] = true
		}
	}
}

func twoDigits(s string) string {
	if len(s) == 1 {
		return "0" + s
	}
	return s
}

// siblingNamesSwapped reports whether a swap puts a name in place of
// another that the thesaurus lists beside it under a third word (Chrome,
// Firefox under browser; Ubuntu, Debian under linux), both written as
// names (DetailSet.Names): two products of one kind, which swapDecisive
// reads as one meaning. A name and the word its group is named for
// (Chrome, browser), or two words WordNet gives one sense, are a
// rewording's.
func siblingNamesSwapped(a, b DetailSet, dropped, added []string) bool {
	x, y := distinct(swapContent(dropped, added)), distinct(swapContent(added, dropped))
	if len(x) != 1 || len(y) != 1 || !a.Names[x[0]] || !b.Names[y[0]] || isHangulWord(x[0]) || isHangulWord(y[0]) ||
		lexStem(x[0]) == lexStem(y[0]) {
		return false
	}
	l := lex()
	ax, ay := l.analyze(x[0]), l.analyze(y[0])
	sibling := false
	for _, id := range ax.concepts {
		if !containsID(ay.concepts, id) {
			continue
		}
		name := l.g.names[id]
		if !strings.HasPrefix(name, "t:") || name == "t:"+x[0] || name == "t:"+y[0] {
			return false
		}
		sibling = true
	}
	return sibling
}

// protocolFamilies are the protocols a finding names by the family one may
// stand in for another of (TCP, UDP; HTTPS, HTTP, gRPC; IPv4, IPv6), each
// by its own value: outside writers' look-alikes tell a finding over again
// with another protocol. "rest" counts only as an atom (REST, `rest`): in
// prose it is the rest of something.
var protocolFamilies = map[string]string{"tcp": "l4:tcp", "udp": "l4:udp", "quic": "l4:quic", "sctp": "l4:sctp",
	"http": "app:http", "https": "app:https", "grpc": "app:grpc", "rest": "app:rest", "websocket": "app:ws",
	"websockets": "app:ws", "graphql": "app:graphql", "ipv4": "ip:4", "ipv6": "ip:6", "tls": "sec:tls",
	"ssl": "sec:tls", "mtls": "sec:mtls", "sftp": "file:sftp", "ftp": "file:ftp", "ftps": "file:ftps",
	"smtp": "mail:smtp", "imap": "mail:imap", "pop3": "mail:pop3", "amqp": "mq:amqp", "mqtt": "mq:mqtt",
	"stomp": "mq:stomp", "nfs": "fs:nfs", "smb": "fs:smb", "cifs": "fs:smb", "iscsi": "fs:iscsi"}

// protocolsRival reports whether each text names a protocol of one family
// that the other does not name at all (TCP in one, UDP in the other): a
// rewording keeps the protocol it speaks of, however it words the rest.
func protocolsRival(a, b DetailSet) bool {
	pa, pb := protocolsNamed(a), protocolsNamed(b)
	for x := range pa {
		if pb[x] {
			continue
		}
		for y := range pb {
			if !pa[y] && x[:strings.IndexByte(x, ':')] == y[:strings.IndexByte(y, ':')] {
				return true
			}
		}
	}
	return false
}

// protocolsNamed are the protocol values (protocolFamilies) d names.
func protocolsNamed(d DetailSet) map[string]bool {
	var m map[string]bool
	add := func(w string, prose bool) {
		if v, ok := protocolFamilies[w]; ok && !(prose && w == "rest") {
			if m == nil {
				m = map[string]bool{}
			}
			m[v] = true
		}
	}
	for w := range d.Words {
		add(w, true)
	}
	for t := range d.Atoms {
		add(t, false)
	}
	return m
}
