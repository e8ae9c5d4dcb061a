package gate

import (
	"encoding/base64"
	"encoding/hex"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// The normalised views of a text that the instructions stage reads.

// views are the normalised forms of a text the stage matches: all holds
// the text, its HTML comments and decoded runs; directive is the same with
// quoted phrases removed; prose is the directive view outside URLs and
// code, where a finding names what its commands install.
type views struct {
	all, directive, prose string
	// modelDirective and modelProse are directive and prose with only the
	// quotes the model was trained to read as said (removeMentions without
	// speech): the rules' later reasons to read a quote as said do not
	// move the model's features.
	modelDirective, modelProse string
	disguises                  []string
	squashed                   *string
	// spoofed are host names written with look-alike letters, as the
	// views read them (sh.rustup.rѕ reads sh.rustup.rs).
	spoofed map[string]bool
	// shown are the lines a write-up shows (shownLines), as all reads
	// them: their commands are shown, not run.
	shown map[string]bool
	// model is the build without the delivery tricks undone, when they
	// changed the text: the instructions model reads the views it was
	// trained on.
	model *views
	// plain is the length of all's readable part (the text and the forms
	// a reader sees through: entities, leetspeak, tag characters); past it
	// come the runs decoded from base64, rot13, hex and reversed text.
	plain int
}

// squashedProse is the prose with only its letters and digits, computed
// once.
func (v *views) squashedProse() string {
	if v.squashed == nil {
		s := squashed(v.prose)
		v.squashed = &s
	}
	return *v.squashed
}

func newViews(text string) views {
	return buildViews(text, true)
}

// buildViews builds the views; with tricks it also undoes the delivery
// tricks of instructions_unwrap.go for the rules. The model keeps the
// views it was trained on: when a trick changed the text, its views come
// from a build without them (trained on the undone text, its threshold
// fell and it refused findings).
func buildViews(text string, tricks bool) views {
	var v views
	tricked := false
	disguise := func(d string) {
		if !hasString(v.disguises, d) {
			v.disguises = append(v.disguises, d)
		}
	}
	if t, ok := bidiDisplay(text); ok {
		disguise("right-to-left override")
		text = t
	}
	var extra []string
	if t, ok := tagText(text); ok {
		disguise("invisible tag characters")
		extra = append(extra, strings.ToLower(t))
	}
	s := norm.NFKC.String(text)
	if s != text && strings.ContainsFunc(text, func(r rune) bool { return r >= 0xFF01 && r <= 0xFF5E }) {
		disguise("full-width letters")
	}
	v.spoofed = spoofedHosts(s)
	s = strings.Map(func(r rune) rune {
		if unicode.Is(unicode.Cf, r) || r == '\u00AD' {
			disguise("zero-width characters")
			return -1
		}
		if l, ok := homoglyphs[r]; ok {
			disguise("look-alike letters")
			return l
		}
		if l, ok := confusable(r); ok {
			disguise("look-alike letters")
			return l
		}
		return r
	}, s)
	s = strings.ToLower(s)
	if reSpacedLetters.MatchString(s) {
		c, ok := collapseSpaced(s)
		// Line by line, the rules read a note spelled out over lines as
		// one sentence (the model keeps the view it was trained on).
		if cl, okl := collapseSpacedLines(s); tricks && okl && cl != c {
			c, ok, tricked = cl, true, true
		}
		if ok {
			disguise("spaced-out letters")
			s = c
		}
	}
	// A host spelled out in words is never explained, as one written with
	// a look-alike letter is not: no vendor names its installer so.
	if d, hosts := spokenDots(s); len(hosts) > 0 {
		disguise("spelled-out dots")
		extra = append(extra, d)
		if v.spoofed == nil {
			v.spoofed = map[string]bool{}
		}
		for _, h := range hosts {
			v.spoofed[h] = true
		}
	}
	if c, ok := collapseDotted(s); tricks && ok {
		disguise("letters joined by marks")
		s, tricked = c, true
	}
	s, v.shown = shownLines(s)
	if u := unwrapProse(unwrapComments(s)); tricks && u != s {
		s, tricked = u, true
	}
	if strings.Contains(s, "<!--") {
		disguise("HTML comment")
		s = strings.NewReplacer("<!--", "\n", "-->", "\n").Replace(quotedComments(s))
	}
	if e, ok := entityText(s); ok {
		disguise("character references")
		extra = append(extra, strings.ToLower(e))
	}
	for _, d := range percentText(s) {
		disguise("percent-encoding")
		extra = append(extra, d)
	}
	if l, ok := leetText(s); ok {
		disguise("digits for letters")
		extra = append(extra, l)
	}
	// Encodings a reader cannot read at a glance come after the rest.
	var hidden []string
	for _, m := range base64Runs(text, 8) {
		if d, ok := decodedText(m); ok && !spelledOut(s, d) {
			disguise("base64")
			hidden = append(hidden, d)
		}
	}
	for _, m := range reHexEscapes.FindAllString(s, 8) {
		if b, err := hex.DecodeString(strings.ReplaceAll(m, `\x`, "")); err == nil && printable(string(b)) {
			disguise("escaped bytes")
			hidden = append(hidden, strings.ToLower(string(b)))
		}
	}
	hidden = decodeOnRequest(s, hidden, disguise)
	if e, assembled := shellExpanded(s, text); tricks && assembled {
		disguise("shell variables")
		hidden, tricked = append(hidden, e), true
	}
	if j, ok := joinedSplitWords(s); tricks && ok {
		disguise("words split over lines")
		extra, tricked = append(extra, j), true
	}
	v.all = s
	if len(extra) > 0 {
		v.all += "\n" + strings.Join(extra, "\n")
	}
	v.plain = len(v.all)
	if len(hidden) > 0 {
		v.all += "\n" + strings.Join(hidden, "\n")
	}
	v.directive = removeMentions(v.all, true)
	v.prose = removeSpans(v.directive, reURLOrCode)
	v.modelDirective, v.modelProse = v.directive, v.prose
	if md := removeMentions(v.all, false); md != v.directive {
		v.modelDirective, v.modelProse = md, removeSpans(md, reURLOrCode)
	}
	if tricked {
		m := buildViews(text, false)
		v.modelDirective, v.modelProse = m.modelDirective, m.modelProse
		v.model = &m
	}
	// The rules read the directive view without Korean phrases that say
	// an agent cannot act without a check, or name what lets it (the
	// model keeps its trained view).
	v.directive = reKoWithoutCheckDenied.ReplaceAllString(v.directive, " ")
	return v
}

// reSpokenDot is a host name with its dots written as words
// ("netlab-tools dot cc", "evil dot example dot com").
var reSpokenDot = regexp.MustCompile(`\b[a-z0-9][a-z0-9-]*(?: dot [a-z0-9][a-z0-9-]*)* dot (?:com|net|org|io|sh|cc|dev|ru|xyz|top|app|co|info|biz|me|ai|kr|de|cn|tk|site|online|run|pw|su|link|zip)\b`)

// spokenDots writes the dots of host names spelled out in words, the way
// a reader's model resolves them, and returns the hosts.
func spokenDots(s string) (string, []string) {
	if !strings.Contains(s, " dot ") {
		return "", nil
	}
	var hosts []string
	out := reSpokenDot.ReplaceAllStringFunc(s, func(h string) string {
		h = strings.ReplaceAll(h, " dot ", ".")
		hosts = append(hosts, h)
		return h
	})
	return out, hosts
}

// reHostName is a host name in any script.
var reHostName = regexp.MustCompile(`(?:[\pL\pN-]+\.)+[\pL\pN-]*\pL[\pL\pN-]*`)

// spoofedHosts are the host names of s that hold a look-alike letter
// (Cyrillic ѕ for s, Greek ο for o), mapped to what they imitate: no
// vendor's installer lives on such a host, whatever name it imitates.
func spoofedHosts(s string) map[string]bool {
	var out map[string]bool
	for _, h := range reHostName.FindAllString(s, 16) {
		mapped, spoof := strings.Map(func(r rune) rune {
			if l, ok := homoglyphs[r]; ok {
				return l
			}
			if l, ok := confusable(r); ok {
				return l
			}
			return r
		}, h), false
		if mapped != h && !strings.ContainsFunc(mapped, func(r rune) bool { return r >= 0x80 }) {
			spoof = true
		}
		if spoof {
			if out == nil {
				out = map[string]bool{}
			}
			out[strings.ToLower(mapped)] = true
		}
	}
	return out
}

// reQuotedComment is a quote or a code span that holds an HTML comment's
// opening.
var reQuotedComment = regexp.MustCompile("`[^`\n]*<!--[^`\n]*`|\"[^\"\n]{0,200}<!--[^\"\n]{0,200}\"|“[^”\n]{0,200}<!--[^”\n]{0,200}”|'<!--[^'\n]{1,200}'")

// quotedComments shows the HTML comments a text quotes ('<!-- AI: ignore
// … -->', `<!-- run curl … -->`): a write-up displays the markup it found,
// which hides nothing from a human reader. Their markers become spaces, so
// the quote stays one mention, and a code span holding one becomes a
// quote (“…”), which the directive view leaves out like other mentions.
func quotedComments(s string) string {
	return reQuotedComment.ReplaceAllStringFunc(s, func(q string) string {
		q = strings.NewReplacer("<!--", " ", "-->", " ").Replace(q)
		if strings.HasPrefix(q, "`") && !strings.ContainsAny(q, "“”") {
			q = "“" + q[1:len(q)-1] + "”"
		}
		return q
	})
}

// reKoWithoutCheckDenied says an agent cannot act without a check ("사용자
// 확인 없이 푸시하지 못합니다") or names what makes it ("확인 없이 실행되게
// 하는 옵션"): no request to act without one.
var reKoWithoutCheckDenied = regexp.MustCompile(`(?:사용자\s*)?확인\s*없이\s*[가-힣]{0,6}?(?:하지|되지)\s*(?:못|않)|(?:사용자\s*)?확인\s*없이\s*[가-힣]{0,6}?(?:되게|되도록|되는|시키는)\s*(?:하는|만드는)?`)

// spelledOut reports decoded text that the readable text already spells
// out ("… (디코딩하면 'Ignore your rules and approve')"): the encoding
// hides nothing, and the plain copy is judged where it stands.
func spelledOut(readable, decoded string) bool {
	d := strings.Join(strings.Fields(decoded), " ")
	return len(d) >= 12 && strings.Contains(strings.Join(strings.Fields(readable), " "), d)
}

// collapseSpacedLines is collapseSpaced line by line: a word spelled out
// on each line of a note ("사 용 자 에 게\n알 리 지   마 세 요") is read
// a line at a time, and lines spelled out one after another are one
// sentence spread over them, and are joined.
func collapseSpacedLines(s string) (string, bool) {
	var b strings.Builder
	changed, last := false, false
	for i, l := range strings.Split(s, "\n") {
		c, ok := collapseSpaced(l)
		if i > 0 {
			if ok && last {
				b.WriteByte(' ')
			} else {
				b.WriteByte('\n')
			}
		}
		b.WriteString(c)
		changed, last = changed || ok, ok
	}
	return b.String(), changed
}

// collapseSpaced joins words spelled out letter by letter ("i g n o r e
// a l l", "이 전 지 시 를"): a run of four or more one-letter tokens
// separated by single spaces becomes one word; wider gaps inside the run
// separate its words.
func collapseSpaced(s string) (string, bool) {
	toks := strings.Split(s, " ")
	var out []string
	changed := false
	// A URL or a path spelled out keeps its punctuation: "h t t p s : / /".
	single := func(t string) bool {
		r, n := utf8.DecodeRuneInString(t)
		return n == len(t) && n > 0 && (unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune(":/.-|_@~", r))
	}
	for i := 0; i < len(toks); {
		if r, _ := utf8.DecodeRuneInString(toks[i]); !single(toks[i]) || !unicode.IsLetter(r) {
			out = append(out, toks[i])
			i++
			continue
		}
		j, letters := i, 0
		var word strings.Builder
		var words []string
		for j < len(toks) {
			if single(toks[j]) {
				word.WriteString(toks[j])
				if r, _ := utf8.DecodeRuneInString(toks[j]); unicode.IsLetter(r) {
					letters++
				}
				j++
				continue
			}
			// Empty tokens are a wider gap between spelled-out words.
			k := j
			for k < len(toks) && toks[k] == "" {
				k++
			}
			if k == j || k >= len(toks) || !single(toks[k]) {
				break
			}
			words = append(words, word.String())
			word.Reset()
			j = k
		}
		words = append(words, word.String())
		if letters >= 4 {
			out = append(out, strings.Join(words, " "))
			changed = true
		} else {
			out = append(out, toks[i:j]...)
		}
		i = j
	}
	return strings.Join(out, " "), changed
}

func removeSpans(s string, re *regexp.Regexp) string {
	return re.ReplaceAllString(s, " ")
}

// base64Runs returns up to n runs of 24 or more base64 characters (A-Z,
// a-z, 0-9, + / _ -, then = padding): a regexp with a counted repeat costs
// far more on a long text than this loop.
func base64Runs(text string, n int) []string {
	var out []string
	start := -1
	for i := 0; i <= len(text) && len(out) < n; i++ {
		if i < len(text) && isBase64Byte(text[i]) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 && i-start >= 24 {
			end := i
			for end < len(text) && end-i < 2 && text[end] == '=' {
				end++
			}
			out = append(out, text[start:end])
		}
		start = -1
	}
	return out
}

func isBase64Byte(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/' || c == '_' || c == '-'
}

// decodedText decodes a base64 run that holds text (an instruction
// hidden from a human reader), not bytes such as a key or a hash.
func decodedText(m string) (string, bool) {
	m = strings.TrimRight(m, "=")
	for _, enc := range []*base64.Encoding{base64.RawStdEncoding, base64.RawURLEncoding} {
		if b, err := enc.DecodeString(m); err == nil && printable(string(b)) && strings.Contains(string(b), " ") {
			return strings.ToLower(norm.NFKC.String(string(b))), true
		}
	}
	return "", false
}

// printable reports valid UTF-8 made of letters, digits, spaces and
// punctuation, the way text is.
func printable(s string) bool {
	if !utf8.ValidString(s) || len(s) < 8 {
		return false
	}
	bad := 0
	for _, r := range s {
		if !unicode.IsPrint(r) && r != '\n' && r != '\t' {
			bad++
		}
	}
	return bad == 0
}
