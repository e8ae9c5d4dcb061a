package knowledge

import (
	"math/big"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Literals a look-alike changes that the figures and atoms read as one
// number or none (session 23, probe23): a number in scientific notation
// (1e6 and 1e5 were both the figure 1), a negative number in prose (-5
// and 5 were both 5), a hexadecimal literal (0x200000000 stated the 0 it
// starts with, so a plain 0 agreed with it), a dimension product (4096x32
// and 4096x64 were both the figure 4096), an ordinal (the third column,
// the second; 두 번째, 세 번째), a boolean told in prose (true, false),
// the source of an rsync command with or without its trailing slash
// (dist/ copies the directory's contents, dist the directory), and a git
// config value after its dotted key (init.defaultBranch main, trunk). A
// rewording keeps each of them, or writes the number otherwise (1e5 as
// 100000, 4096x32 as 4096 by 32).

// sciMaxExponent bounds the exponent sciToDecimal writes out: past it a
// literal stays as written.
const sciMaxExponent = 24

// sciToDecimal is text with its numbers in scientific notation (1e6,
// 2.5E-3, 1e+05) written as decimals (1000000, 0.0025, 100000), so that
// the figures, atoms and settings of the rest of the parse read their
// value: a rewording that writes 100000 for 1e5 agrees, and 1e5 against
// 1e6 is two figures. A literal inside a word (0x1e5, a hash's 3e4a) is no
// number.
func sciToDecimal(text string) string {
	var b strings.Builder
	last := 0
	for i := 1; i+1 < len(text); i++ {
		if c := text[i]; (c != 'e' && c != 'E') || !isDigitByte(text[i-1]) {
			continue
		}
		start := i - 1
		for start > 0 && (isDigitByte(text[start-1]) || text[start-1] == '.') {
			start--
		}
		if start > 0 && (isWordByte(text[start-1]) && text[start-1] != '-' || text[start-1] == '-' && start > 1 && isWordByte(text[start-2])) {
			continue
		}
		j := i + 1
		if j < len(text) && (text[j] == '-' || text[j] == '+') {
			j++
		}
		k := j
		for k < len(text) && isDigitByte(text[k]) {
			k++
		}
		if k == j || k < len(text) && (asciiWordByte(text[k]) || text[k] == '.' && k+1 < len(text) && isDigitByte(text[k+1])) {
			continue
		}
		mant := text[start:i]
		if strings.Count(mant, ".") > 1 || strings.HasPrefix(mant, ".") || strings.HasSuffix(mant, ".") {
			continue
		}
		exp, err := strconv.Atoi(text[i+1 : k])
		if err != nil || exp > sciMaxExponent || exp < -sciMaxExponent {
			continue
		}
		v, ok := new(big.Rat).SetString(mant)
		if !ok {
			continue
		}
		p := new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(abs(exp))), nil))
		if exp < 0 {
			v.Quo(v, p)
		} else {
			v.Mul(v, p)
		}
		dec := exactDecimal(v)
		if dec == "" {
			if v.Sign() != 0 {
				continue
			}
			dec = "0"
		}
		b.WriteString(text[last:start])
		b.WriteString(dec)
		last = k
		i = k
	}
	if last == 0 {
		return text
	}
	b.WriteString(text[last:])
	return b.String()
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

func isDigitByte(c byte) bool { return '0' <= c && c <= '9' }

// negativeAt reports whether the digit run starting at i in s is a
// negative number: a minus sign right before it, itself after a space, a
// bracket, = : , or the text's start (index -1, offset -5, nice 값
// -10으로), not a hyphen inside a word or a range (UTC-5, 5-10) nor a
// flag's dashes (--5).
func negativeAt(s string, i int) bool {
	if i == 0 {
		return false
	}
	sign := 1
	if s[i-1] != '-' {
		if !strings.HasSuffix(s[:i], "−") {
			return false
		}
		sign = len("−")
	}
	j := i - sign
	if j == 0 {
		return true
	}
	return strings.ContainsRune(" \t\n([=:,\"'`", rune(s[j-1]))
}

// literalFigure is a number a digit run does not show whole: a hexadecimal
// literal or a dimension product, at [start, end) of the text, by its key.
type literalFigure struct {
	start, end int
	key        string
	parts      []string // the values it states besides its key
}

// dimProduct is a product of dimensions, 4096x32, 1920 x 1080, 2×16.
var dimProduct = regexp.MustCompile(`\d+(?:\s?[xX×]\s?\d+)+`)

// literalFigures are text's hexadecimal literals and dimension products,
// in order: addFigures reads each as one figure, and not the digit runs
// in it (a hexadecimal 0x200000000 states no 0; 4096x32 is not 4096).
func literalFigures(text string) []literalFigure {
	var out []literalFigure
	hexEnd := -1
	if strings.ContainsAny(text, "xX") {
		for _, ix := range hexLiteral.FindAllStringIndex(text, -1) {
			h := strings.ToLower(text[ix[0]:ix[1]])
			var parts []string
			if v, ok := new(big.Int).SetString(h[2:], 16); ok {
				parts = append(parts, v.String())
			}
			out = append(out, literalFigure{ix[0], ix[1], h, parts})
			hexEnd = max(hexEnd, ix[1])
		}
	}
	if strings.ContainsAny(text, "xX×") {
		for _, ix := range dimProduct.FindAllStringIndex(text, -1) {
			m := text[ix[0]:ix[1]]
			if ix[0] > 0 && (isWordByte(text[ix[0]-1]) || text[ix[0]-1] == '.') || ix[1] < len(text) && (isDigitByte(text[ix[1]]) || text[ix[1]] == '.') {
				continue
			}
			if insideAny(out, ix[0]) || strings.HasPrefix(m, "0x") || strings.HasPrefix(m, "0X") {
				continue // a hexadecimal literal's
			}
			parts := strings.FieldsFunc(m, func(r rune) bool { return r == 'x' || r == 'X' || r == '×' || r == ' ' })
			if len(parts) < 2 {
				continue
			}
			for i, p := range parts {
				parts[i] = atomKey(p)
			}
			out = append(out, literalFigure{ix[0], ix[1], strings.Join(parts, "x"), parts})
		}
	}
	return out
}

// hexLiteral is a hexadecimal literal standing alone (0x200000000, 0xA7).
var hexLiteral = regexp.MustCompile(`\b0[xX][0-9A-Fa-f]+\b`)

// insideAny reports whether byte i falls inside one of lits.
func insideAny(lits []literalFigure, i int) bool {
	for _, l := range lits {
		if l.start <= i && i < l.end {
			return true
		}
	}
	return false
}

// ordinalWords are the English ordinals by their numbers; koreanOrdinal
// an ordinal in Korean (두 번째, 세번째, 3번째, 첫째).
var (
	ordinalWords = map[string]int{"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6,
		"seventh": 7, "eighth": 8, "ninth": 9, "tenth": 10}
	koreanOrdinal = regexp.MustCompile(`(열|스물)?(첫|한|두|세|네|다섯|여섯|일곱|여덟|아홉|열|스무|\d{1,2})\s?번째|(첫|둘|셋|넷)째`)
	digitOrdinal  = regexp.MustCompile(`\b(\d{1,2})(?:st|nd|rd|th)\b`)
	// timeSecond are the words before "second" that make it a unit of
	// time (a second, per second, one second later), not an ordinal.
	timeSecond = map[string]bool{"a": true, "per": true, "one": true, "each": true, "every": true, "split": true, "fraction": true}
)

// koreanOrdinals are koreanOrdinal's words by their numbers (한 only
// after a ten: 열한 번째); koreanTens its tens (열두 번째 is twelfth).
var (
	koreanOrdinals = map[string]int{"첫": 1, "한": 1, "두": 2, "세": 3, "네": 4, "다섯": 5, "여섯": 6, "일곱": 7, "여덟": 8, "아홉": 9, "열": 10,
		"스무": 20, "둘": 2, "셋": 3, "넷": 4}
	koreanTens = map[string]int{"열": 10, "스물": 20}
)

// afterCount reports whether prose before byte i ends in a digit run or a
// number word (then a "second" at i is a unit of time).
func afterCount(prose string, i int, prev string) bool {
	before := strings.TrimRight(prose[:i], " ")
	_, counted := numberWords[prev]
	return counted && strings.HasSuffix(before, prev) || before != "" && isDigitByte(before[len(before)-1])
}

// addLiteralKinds adds the kind atoms of prose's ordinals, and text's
// booleans, rsync sources and git config values (see the top of this
// file): words are prose's (words), in order, as proseWords finds them.
func (d *DetailSet) addLiteralKinds(prose string, words [][]int, text string) {
	prev := ""
	for _, ix := range words {
		lw := strings.ToLower(prose[ix[0]:ix[1]])
		if n, ok := ordinalWords[lw]; ok && !(lw == "second" && (timeSecond[prev] || afterCount(prose, ix[0], prev) || strings.HasPrefix(strings.TrimLeft(prose[ix[1]:], " "), "later"))) {
			d.Atoms[kindAtom("ord", strconv.Itoa(n))] = true
		}
		prev = lw
	}
	// A boolean is read in code and quotes too: `=== 'true'` beside a
	// prose "is true for 'false'" is both values, as its rewording's are.
	for _, ix := range proseWords(text) {
		if lw := strings.ToLower(text[ix[0]:ix[1]]); lw == "true" || lw == "false" {
			d.Atoms[kindAtom("bool", lw)] = true
		}
	}
	if strings.Contains(prose, "번째") || strings.Contains(prose, "째") {
		for _, m := range koreanOrdinal.FindAllStringSubmatch(prose, -1) {
			w := m[2] + m[3]
			n, ok := koreanOrdinals[w]
			if !ok {
				n, _ = strconv.Atoi(w)
			}
			if m[1] != "" && n < 10 {
				n += koreanTens[m[1]]
			}
			if n > 0 {
				d.Atoms[kindAtom("ord", strconv.Itoa(n))] = true
			}
		}
	}
	for _, m := range digitOrdinal.FindAllStringSubmatch(prose, -1) {
		if n, _ := strconv.Atoi(m[1]); n > 0 {
			d.Atoms[kindAtom("ord", strconv.Itoa(n))] = true
		}
	}
	if strings.Contains(text, "rsync") {
		for _, src := range rsyncSources(text) {
			d.Atoms[kindAtom("rsync", src)] = true
		}
	}
	if strings.Contains(prose, ".") {
		for _, m := range dottedWord.FindAllStringSubmatch(prose, -1) {
			if key, val := m[1], m[2]; !dottedNotSetting[key[strings.LastIndexByte(key, '.')+1:]] && dottedValue(val) {
				d.addSetting(key, val)
			}
		}
	}
	if strings.Contains(strings.ToLower(text), "config") {
		for _, m := range configSet.FindAllStringSubmatch(text, -1) {
			if val := strings.TrimRight(strings.ToLower(m[2]), ".,;"); val != "" && !englishStop[val] {
				d.addSetting(strings.ToLower(m[1]), val)
			}
		}
	}
}

// dottedWord is a dotted setting and the plain word after it, a space
// between (Fluent Bit's storage.type filesystem, a config file's
// key value line): settingPattern reads such a value only when it holds
// - or _ or is one of settingValues.
var dottedWord = regexp.MustCompile(`(?:^|[\s(\[])([a-z][a-z0-9_]*(?:\.[a-z][a-z0-9_]*)+)[ \t]+([a-z][a-z0-9_]*)(?:$|[\s.,;)\]])`)

// dottedNotSetting are the last parts of a dotted name that make it a
// file or a host (config.json, github.com), not a setting.
var dottedNotSetting = map[string]bool{"com": true, "org": true, "net": true, "io": true, "dev": true, "app": true, "json": true,
	"yaml": true, "yml": true, "toml": true, "conf": true, "cfg": true, "ini": true, "txt": true, "md": true, "py": true,
	"js": true, "ts": true, "go": true, "rs": true, "sh": true, "xml": true, "html": true, "log": true, "env": true,
	"lock": true, "properties": true, "service": true, "gradle": true, "sql": true, "csv": true, "tf": true, "local": true,
	"internal": true, "rb": true, "java": true, "kt": true, "php": true, "mod": true, "sum": true, "cluster": true, "svc": true,
	"pem": true, "crt": true, "key": true, "cer": true, "p12": true, "pfx": true, "jar": true, "zip": true, "gz": true,
	"tar": true, "exe": true, "dll": true, "so": true, "bin": true, "deb": true, "rpm": true, "whl": true, "css": true,
	"jsx": true, "tsx": true, "vue": true, "c": true, "h": true, "cpp": true, "cs": true, "swift": true, "lua": true,
	"pdf": true, "png": true, "jpg": true, "svg": true, "db": true, "sqlite": true, "bak": true, "pid": true, "sock": true,
	"socket": true, "timer": true, "target": true, "mount": true, "plist": true, "rst": true, "dockerfile": true}

// dottedValue reports whether a word after a dotted name is a value it is
// given, not a verb, plural or modifier the sentence goes on with
// (spark.executor.memory controls, defaults, is; fullchain.pem instead,
// rather), nor the word default (the max.poll.records default):
// proseValue, and no word in s or ed.
func dottedValue(w string) bool {
	if settingValues[w] {
		return true
	}
	return w != "default" && proseValue(w) && !strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ed") && !modifierLike(w)
}

// configSet is a value a command gives a dotted key after a space: git
// config [--global] init.defaultBranch main, npm config set
// init-author-name x, redis-cli CONFIG SET maxmemory-policy allkeys-lru.
var configSet = regexp.MustCompile(`(?i)\b(?:git\s+config(?:\s+--[a-z-]+)*|config\s+set(?:\s+--[a-z-]+)*)\s+([a-z][\w-]*(?:[.-][\w-]+)+)\s+['"]?([\w./:@+-]+)`)

// rsyncSources are the sources of text's rsync commands as written, a
// trailing slash and all: every argument but the last that is no option,
// up to the end of the command (a line's or a code span's end, a
// sentence's full stop, a word of prose).
func rsyncSources(text string) []string {
	var out []string
	for i := 0; ; {
		j := strings.Index(text[i:], "rsync")
		if j < 0 {
			return out
		}
		at := i + j
		i = at + len("rsync")
		if at > 0 && isWordByte(text[at-1]) || i < len(text) && isWordByte(text[i]) {
			continue
		}
		end := i
		for end < len(text) && !strings.ContainsRune("\n`;|&", rune(text[end])) {
			end++
		}
		var args []string
		skip := false
		for _, f := range strings.Fields(text[i:end]) {
			stop := false
			if r, _ := utf8.DecodeLastRuneInString(f); r == '.' || r == ',' {
				f, stop = strings.TrimRight(f, ".,"), true
			}
			if f == "" {
				break
			}
			if r, _ := utf8.DecodeRuneInString(f); unicode.Is(unicode.Hangul, r) || englishStop[strings.ToLower(f)] && !strings.ContainsAny(f, "/~") {
				break
			}
			if strings.ContainsFunc(f, func(r rune) bool { return unicode.Is(unicode.Hangul, r) }) {
				f = strings.TrimRightFunc(f, func(r rune) bool { return unicode.Is(unicode.Hangul, r) })
				stop = true
			}
			switch {
			case skip:
				skip = false
			case f == "-e" || f == "--rsh":
				skip = true // its command
			case strings.HasPrefix(f, "-"):
			default:
				args = append(args, strings.Trim(f, `"'`))
			}
			if stop {
				break
			}
		}
		if len(args) >= 2 {
			out = append(out, args[:len(args)-1]...)
		}
	}
}
