package knowledge

import (
	"regexp"
	"slices"
	"strings"
	"unicode"
)

// LexicalModelPrefix starts the model name of an embedder whose vectors
// are bags of words (the offline hashed one). Alike words are all such a
// vector sees, so its cosine says less about two texts being one finding
// than a semantic embedder's: mergeable weighs their details more.
const LexicalModelPrefix = "hashed-"

// Merge evidence under a bag-of-words embedder (see mergeable).
const (
	// evidenceFloor is the least cosine at which agreeing details can
	// merge two texts below the merge threshold: under it they are not
	// about the same thing, whatever they share.
	evidenceFloor = 0.40
	// evidenceCeiling is the highest merge threshold at which details
	// merge below it: the offline embedder's own, 0.80. A stricter
	// threshold (PUMASI_MERGE_THRESHOLD) asks for the cosine alone.
	evidenceCeiling = 0.80
	// minSharedDetails and minDetailOverlap are the agreement it takes:
	// this much weight of decisive details in common (see
	// detailAgreement), covering this share of the text that has less.
	minSharedDetails = 1.5
	minDetailOverlap = 0.4
)

// mergeable reports whether a text at cosine sim to an entry's text merges
// into it under threshold, for vectors of model. A semantic embedder's
// cosine alone decides. Under a bag-of-words embedder, whose vector sees
// alike words only, a decisive detail that differs (DetailsConflict), or a
// name or word swapped for another in texts or titles that read almost
// alike (proseConflict), keeps them apart whatever the cosine: two
// findings that differ in one flag, version, value or product, or give the
// opposite advice, say different things however alike their words are.
// Otherwise the cosine above threshold merges; at a threshold up to
// evidenceCeiling, so does a cosine above evidenceFloor when the two texts
// share enough decisive details, since a rewording keeps the identifiers,
// versions and error strings of a finding and changes its words.
func mergeable(model string, sim, threshold float64, text, entryText string) bool {
	return newMergeProbe(model, threshold, text).mergeable(sim, entryText)
}

// mergeProbe is mergeable for one text against many entries: the text's
// details are parsed once, on the first entry that needs them (a
// contribution's dedup probe weighs 16 candidates; parsing its text again
// for each was a third of a contribution's CPU in bench knowledge-postgres).
type mergeProbe struct {
	model     string
	threshold float64
	text      string
	stored    []byte // the text's encoded details, when known
	parsed    bool
	a, line   DetailSet
}

func newMergeProbe(model string, threshold float64, text string) *mergeProbe {
	return &mergeProbe{model: model, threshold: threshold, text: text}
}

// entryProbe is a mergeProbe of entry e's text as the contribution, its
// stored details read rather than parsed (entryDetails).
func entryProbe(model string, threshold float64, e StoredEntry) *mergeProbe {
	p := newMergeProbe(model, threshold, EmbeddingText(e.Title, e.Content))
	p.stored = e.Details
	return p
}

// mergeable is the package's mergeable for p's text.
func (p *mergeProbe) mergeable(sim float64, entryText string) bool {
	return p.mergeableWith(sim, func() (DetailSet, DetailSet) { return parseBoth(entryText) })
}

// mergeableEntry is mergeable into entry e, its stored details read rather
// than parsed when they are current (entryDetails): the same answer.
func (p *mergeProbe) mergeableEntry(sim float64, e StoredEntry) bool {
	return p.mergeableWith(sim, func() (DetailSet, DetailSet) { return entryDetails(e) })
}

// mergeableWith is mergeable with the entry's details from details, asked
// only when the decision needs them.
func (p *mergeProbe) mergeableWith(sim float64, details func() (DetailSet, DetailSet)) bool {
	if sim <= p.threshold && (sim <= evidenceFloor || p.threshold > evidenceCeiling+1e-9) {
		return false
	}
	if !strings.HasPrefix(p.model, LexicalModelPrefix) {
		return sim > p.threshold
	}
	a, line := p.details()
	b, bLine := details()
	return detailsMerge(sim > p.threshold, a, line, b, bLine)
}

// details are p's text's details, parsed (or decoded from p.stored) once.
func (p *mergeProbe) details() (all, line DetailSet) {
	if !p.parsed {
		var ok bool
		if p.a, p.line, ok = decodeDetails(p.stored); !ok {
			p.a, p.line = parseBoth(p.text)
		}
		p.parsed = true
	}
	return p.a, p.line
}

// encoded are p's text's details as NewEntry.Details holds them, from the
// ones the probe parsed when it did.
func (p *mergeProbe) encoded() []byte {
	all, line := p.details()
	return encodeDetails(all, line)
}

// detailsMerge is the bag-of-words half of mergeable on two texts' parsed
// details (a, b) and titles' (aLine, bLine), above the threshold or not.
// It does not depend on which text is the entry: every comparison in it is
// symmetric (TestMergeableSymmetric).
func detailsMerge(above bool, a, aLine, b, bLine DetailSet) bool {
	if DetailsConflict(a, b) || proseConflict(a, b) || proseConflict(aLine, bLine) {
		return false
	}
	if above {
		return true
	}
	shared, fewer := detailAgreement(a, b)
	return shared >= minSharedDetails && shared >= minDetailOverlap*fewer
}

// firstLine is a title, the first line of an EmbeddingText.
func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// DetailSet is what ParseDetails finds in a text: its code spans as
// written (normalised), and the decisive atoms in and out of them:
// identifiers, flags, versions and numbers, paths, error strings.
type DetailSet struct {
	Spans []string        // code spans, case-folded, spaces collapsed
	Atoms map[string]bool // every decisive atom
	// Numbers are the numbers and versions of the prose by the word before
	// them ("postgresql" → 12), so that two texts giving one thing
	// different numbers can be told from two texts counting different
	// things.
	Numbers map[string][]string
	// Names are the prose's capitalised words past a sentence's start and
	// its words in capitals (Alpine, MariaDB, MOVED), case-folded; Words
	// all its words (Korean ones with the English words they stand for);
	// Negations counts its negations (not, never, 않, 못).
	Names, Words map[string]bool
	Negations    int
	// Negated are the stems of the English words a negation bears on
	// (does not require → requir; without TLS → tls), and EnNegations how
	// many of Negations are English: an English rewording may negate more
	// or less than its original, so English negations are weighed by what
	// they deny (negationsRival); Korean ones, inside their verbs, by count.
	Negated     map[string]bool
	EnNegations int
	// Settings are the values the text gives settings: a name holding . _
	// or - followed by = or : and a value (auto.offset.reset=earliest), or
	// by a space and a value that reads as one (core.autocrlf input,
	// maxmemory-policy allkeys-lru: a word with - or _, or one of
	// settingValues).
	Settings map[string][]string
	// Parts are the parts, as written, of the identifiers of three parts
	// or more (useLayoutEffect → use, layout, effect), by the atom they
	// give: atoms are case-folded, and a camelCase hump is a part's edge.
	Parts map[string][]string
	// Pascal are the atoms written in PascalCase (WebSocket, ConfigMap):
	// names of types and products, which prose pluralises.
	Pascal map[string]bool
	// Seq are the text's words in order and SeqValues which of them are a
	// key's value (seqTokens), for phraseSwapped.
	Seq       []string
	SeqValues []bool
	// Errors are the errors the text reports, by errno name or HTTP
	// status (details_errors.go): Permission denied and EACCES are eacces.
	Errors map[string]bool
	// Figures are the numbers the text writes in digits as numbers of
	// their own (not in a name: UTF-8, v2c), by atom, each with the
	// quantities it states (details_figures.go); Stated every value the
	// text states in any form: its digit runs and their parts, those
	// quantities, its number words.
	Figures map[string][]string
	Stated  map[string]bool
}

// identToken is an identifier as written, for DetailSet.Parts.
var identToken = regexp.MustCompile(`[A-Za-z][A-Za-z0-9]*(?:[_.-]?[A-Za-z0-9]+)*`)

// settingPattern is a setting and the value after it, quoted or not
// (scene.cycles.device = 'GPU'); settingValues the plain words that read as
// a setting's value after a space.
var (
	settingPattern = regexp.MustCompile(`(?i)\b([a-z][a-z0-9]*(?:[._-][a-z0-9]+)+)(\s*[=:]\s*|\s+)['"]?(-\d[\w.-]*|[a-z0-9][\w.-]*)`)
	// colonSetting is a setting whose name is joined by colons, given a
	// value with = (Samba's fruit:metadata = stream, vfs_fruit's options).
	colonSetting = regexp.MustCompile(`(?i)\b([a-z][a-z0-9]*(?::[a-z][a-z0-9_]*)+)\s*=\s*['"]?(-\d[\w.-]*|[a-z0-9][\w.-]*)`)
	// plainSetting is a plain word given a value with = and no space
	// (p=quarantine in a DMARC record, mode=ro): a setting too, though its
	// name holds none of . _ -, and its value may be quoted (order='F').
	// A plain setting may also close a compound name (a board's option in
	// arduino:avr:nano:cpu=atmega328old) or a query string (?mode=ro&x=1).
	plainSetting = regexp.MustCompile(`(?i)(?:^|[\s(;,:?&{])([a-z][a-z0-9]*)=['"]?(-\d[\w.-]*|[a-z0-9][\w.-]*)`)
	// jsonSetting is a JSON member, "lineEnding": "CRLF" or "retries": 3:
	// a setting whatever its name, and its value however short.
	jsonSetting   = regexp.MustCompile(`"([A-Za-z_][\w.-]{0,60})"\s*:\s*(?:"([^"\n]{1,120})"|([\w.+-]+))`)
	settingValues = map[string]bool{"true": true, "false": true, "on": true, "off": true, "yes": true, "no": true,
		"input": true, "always": true, "never": true, "none": true, "auto": true, "earliest": true, "latest": true,
		"strict": true, "lax": true, "enabled": true, "disabled": true, "required": true, "optional": true}
)

// negators are the English words of negation; koreanNegators the parts of
// a Hangul word that negate it (안 된다, 되지 않는다, 할 수 없다, 못 한다).
var (
	negators       = map[string]bool{"not": true, "no": true, "never": true, "without": true, "cannot": true, "don": true, "doesn": true, "isn": true, "aren": true, "won": true, "didn": true, "wasn": true, "shouldn": true, "mustn": true, "nor": true}
	koreanNegators = []string{"않", "못", "없"}
	// negationFiller are the words between a negation and what it denies
	// (does not always require, is no longer supported, don't need).
	negationFiller = map[string]bool{"a": true, "an": true, "the": true, "be": true, "been": true, "is": true, "are": true,
		"was": true, "were": true, "to": true, "do": true, "does": true, "did": true, "have": true, "has": true, "had": true,
		"t": true, "s": true, "always": true, "yet": true, "so": true, "too": true, "very": true, "really": true, "even": true,
		"any": true, "longer": true, "at": true, "all": true, "ever": true}
)

var (
	codeSpan = regexp.MustCompile("`[^`\n]{1,200}`")
	// atomPattern finds decisive atoms in prose: flags, paths, versions
	// (absolute, and relative to the working or home directory: ./ansible.cfg,
	// ~/.zprofile; Windows' C:\tools\npm and %APPDATA%\npm) and numbers (hexadecimal ones whole: status 0xA700), identifiers joined by _ . : / @ or with inner capitals
	// (max_connections, go.mod, actions/checkout@v4, readinessProbe), braced
	// groups with what they are attached to (Redis hash tags {user:1}:a,
	// placeholders ${HOME}/bin), names with digits after letters (psycopg2,
	// gp3, libx264, utf8mb4), and words in capitals (SIGTERM, KEEPTTL); a
	// sentence's full stop is no separator.
	atomPattern = regexp.MustCompile(`(?:^|[\s(])--?[A-Za-z][\w.-]*(?:=[^\s,;)]+)?` +
		`|\$?\{[^{}\s]{1,60}\}(?:[\w.:/@-]*[\w])?` +
		`|(?:^|[\s(])(?:~|\.\.?)(?:/[\w.-]+)+` +
		`|(?:/[\w.-]+){2,}` +
		`|\b[A-Za-z]:\\[\w.\\-]*\w|%\w+%(?:\\[\w.-]+)+` +
		`|\b0[xX][0-9A-Fa-f]+\b` +
		`|\b[vV]?\d{1,3}(?:,\d{3})+\b|\b[vV]?\d+(?:[.:]\d+)*` +
		`|\b[A-Za-z][A-Za-z0-9]*(?:(?:::|[_.:/@-])*[A-Za-z0-9]+)*(?:::|[_.:/@])[A-Za-z0-9][\w.:/@-]*[A-Za-z0-9]` +
		`|\b[A-Za-z][a-z0-9]*[a-z][A-Z][A-Za-z0-9]*` +
		`|\b[A-Za-z]+\d+[A-Za-z0-9]*\b` +
		`|\b[A-Z][A-Z0-9_]{2,}\b`)
)

// ParseDetails finds the details of text (see DetailSet).
func ParseDetails(text string) DetailSet {
	d := DetailSet{Atoms: map[string]bool{}, Numbers: map[string][]string{}, Names: map[string]bool{}, Words: map[string]bool{}, Settings: map[string][]string{},
		Parts: map[string][]string{}, Pascal: map[string]bool{}, Errors: map[string]bool{}, Negated: map[string]bool{},
		Figures: map[string][]string{}, Stated: map[string]bool{}}
	text = sciToDecimal(text) // details_literals.go
	d.addErrors(text)
	d.addFigures(text)
	d.Seq, d.SeqValues = seqTokens(text)
	for _, w := range identToken.FindAllString(text, -1) {
		parts := identParts(w)
		if len(parts) >= 3 {
			d.Parts[strings.ToLower(w)] = parts
		}
		if len(parts) >= 2 && unicode.IsUpper(rune(w[0])) && isLetters(strings.ToLower(w)) {
			d.Pascal[strings.ToLower(w)] = true
			d.Pascal[strings.ToLower(w)+"s"] = true // WebSockets: identToken reads the s as a hump's part
		}
	}
	unticked := strings.ReplaceAll(text, "`", " ")
	for _, m := range settingPattern.FindAllStringSubmatch(unticked, -1) {
		key, sep, val := strings.ToLower(m[1]), m[2], strings.TrimRight(strings.ToLower(m[3]), ".-")
		spaced := strings.TrimSpace(sep) == ""
		if val == "" || englishStop[val] || spaced && !settingValues[val] && !strings.ContainsAny(val, "-_") {
			continue
		}
		d.addSetting(key, val)
	}
	for _, m := range colonSettings(unticked) {
		if val := strings.TrimRight(strings.ToLower(m[2]), ".-"); val != "" && !englishStop[val] {
			d.addSetting(strings.ToLower(m[1]), val)
		}
	}
	for _, m := range plainSettings(unticked) {
		if val := strings.TrimRight(strings.ToLower(m[2]), ".-"); val != "" {
			d.addSetting(strings.ToLower(m[1]), val)
		}
	}
	d.addProseSettings(unticked)
	d.addKoreanSettings(unticked)
	for _, m := range jsonSettings(text) {
		if val := strings.Join(strings.Fields(strings.ToLower(m[2]+m[3])), " "); val != "" {
			d.addSetting(strings.ToLower(m[1]), val)
		}
	}
	prose := codeSpan.ReplaceAllStringFunc(text, func(span string) string {
		s := foldCase(strings.Trim(span, "`"))
		if s != "" {
			d.Spans = append(d.Spans, s)
			for _, t := range spanTokens(s) {
				d.addAtom(t)
			}
		}
		return " "
	})
	prose = replaceQuoted(prose, func(q string) string {
		if s := foldCase(q[1 : len(q)-1]); strings.ContainsFunc(s, unicode.IsLetter) {
			d.Spans = append(d.Spans, s)
			for _, t := range spanTokens(s) {
				d.addAtom(t)
			}
		}
		return " "
	})
	denying := false // a negation waits for the word it bears on
	var caps [][]int // the words in capitals, for addKeywordPairs
	words := proseWords(prose)
	for _, ix := range words {
		w := prose[ix[0]:ix[1]]
		lw := strings.ToLower(w)
		d.Words[lw] = true
		d.addWordKind(w, lw) // details_classes.go
		switch {
		case negators[lw]:
			d.Negations++
			d.EnNegations++
			denying = true
		case denying && !negationFiller[lw]:
			d.Negated[lexStem(lw)] = true
			denying = false
		}
		// A name: capitalised past a sentence's start (Alpine, MariaDB), or
		// in capitals (MOVED, TLS).
		upper := !strings.ContainsFunc(w, unicode.IsLower)
		if upper && len(w) >= 2 {
			caps = append(caps, ix)
		}
		if len(w) >= 2 && !englishStop[lw] && (upper || unicode.IsUpper(rune(w[0])) && !sentenceStart(prose[:ix[0]])) {
			d.Names[lw] = true
		}
	}
	for _, w := range lexWords(prose) {
		if !isHangulWord(w) {
			continue
		}
		d.Words[w] = true
		for _, neg := range koreanNegators {
			d.Negations += strings.Count(w, neg)
		}
		for _, b := range lex().analyze(w).bridges {
			d.Words[b] = true // for antonyms across the glossary: 켜면, 끄면
		}
	}
	if strings.Contains(prose, "안") {
		d.Negations += koreanAnNegations(prose) // korean.go
	}
	d.addKoreanKinds(prose) // details_kinds.go
	d.addKinds(prose, caps) // details_classes.go
	d.addKoreanDenied()     // details_kinds.go
	d.addLiteralKinds(prose, words, text)
	d.addBounds(prose, words, text)  // details_bounds.go
	d.addChoices(prose, words, text) // details_choices.go
	for _, ix := range atomMatches(prose) {
		w := foldCase(strings.TrimLeft(prose[ix[0]:ix[1]], " \t\n("))
		if negativeAt(prose, ix[0]) && isNumber(w) && !isHex(w) {
			d.addAtom("-" + w) // -5 is not 5 (details_literals.go)
			continue
		}
		t := d.addAtom(w)
		if t != "" && isNumber(t) {
			if w := wordBefore(prose[:ix[0]]); w != "" {
				d.Numbers[w] = append(d.Numbers[w], t+unitAfter(prose[ix[1]:]))
			}
		}
	}
	d.pruneStated() // details_figures.go
	return d
}

// shortFlag is a cluster of one-letter options after one dash (-fdX, -R),
// whose case is its meaning: git clean -x and -X, cp -r and -R.
var shortFlag = regexp.MustCompile(`^-[A-Za-z]{1,4}$`)

// foldCase is s with its spaces collapsed and case-folded, but for its
// short flags (shortFlag).
func foldCase(s string) string {
	f := strings.Fields(s)
	for i, w := range f {
		if !shortFlag.MatchString(w) {
			f[i] = strings.ToLower(w)
		}
	}
	return strings.Join(f, " ")
}

// proseWord is a Latin word of prose.
var proseWord = regexp.MustCompile(`\b[A-Za-z][A-Za-z]*\b`)

// sentenceStart reports whether a word after s starts a sentence (or the
// text, or a title's part after a colon).
func sentenceStart(s string) bool {
	s = strings.TrimRight(s, " \t")
	return s == "" || strings.ContainsRune(".!?:;\n(", rune(s[len(s)-1]))
}

// wordBefore is the word a number in prose counts: the last word before
// it (s ends where the number starts), past a colon, equals sign or
// bracket ("TTL: 300"), skipping up to two stop words ("defaults to 512":
// defaults) but no conjunction, a Korean word without its particle; "" when
// other punctuation or a conjunction comes first.
func wordBefore(s string) string {
	for i := 0; i < 3; i++ {
		s = strings.TrimRight(s, " \t:=(")
		j := strings.LastIndexFunc(s, func(r rune) bool { return !unicode.IsLetter(r) })
		w := strings.ToLower(s[j+1:])
		if isHangulWord(w) {
			w = trimKorean(w) // 타임아웃을, 타임아웃은: 타임아웃
		}
		if w == "" || !englishStop[w] {
			return w
		}
		if conjunctions[w] {
			// "0700 for ~/.ssh and 0600 for authorized_keys": a number after
			// a conjunction starts another item; the word before it ends the
			// last one.
			return ""
		}
		s = s[:j+1]
	}
	return ""
}

// conjunctions are the stop words that join two items (wordBefore).
var conjunctions = map[string]bool{"and": true, "or": true, "but": true, "nor": true}

// spanTokens splits a code span into its words: on spaces and brackets,
// quotes and separators, keeping what holds . _ - : / = inside a token.
func spanTokens(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool {
		return unicode.IsSpace(r) || strings.ContainsRune(`,;()[]{}"'<>|&`, r)
	})
}

func (d DetailSet) addSetting(key, val string) {
	if !slices.Contains(d.Settings[key], val) {
		d.Settings[key] = append(d.Settings[key], val)
	}
}

func (d DetailSet) addAtom(t string) string {
	if t = atomKey(t); t != "" {
		d.Atoms[t] = true
	}
	return t
}

// atomKey is t as an atom of DetailSet.Atoms: trimmed of . : , =, a number
// without its v, thousands' commas and leading zeros; "" when it holds no
// letter or digit.
func atomKey(t string) string {
	t = strings.Trim(t, ".:,=")
	if !strings.ContainsFunc(t, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) {
		return ""
	}
	if isNumber(strings.ReplaceAll(t, ",", "")) && !isHex(t) {
		t = strings.TrimLeft(strings.ReplaceAll(t, ",", ""), "vV")
		if t = strings.TrimLeft(t, "0"); t == "" || t[0] == '.' || t[0] == ':' {
			t = "0" + t
		}
	}
	return t
}

// isNumber reports whether an atom is a number or version (v1.2.3, 09:00,
// 0xa700).
func isNumber(t string) bool {
	if isHex(t) {
		return true
	}
	t = strings.TrimLeft(t, "vV")
	return t != "" && strings.IndexFunc(t, func(r rune) bool { return !unicode.IsDigit(r) && r != '.' && r != ':' }) < 0 &&
		unicode.IsDigit(rune(t[0]))
}

// isHex reports whether an atom is a hexadecimal literal (0xa700).
func isHex(t string) bool {
	return len(t) > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X') &&
		strings.IndexFunc(t[2:], func(r rune) bool { return !unicode.Is(unicode.ASCII_Hex_Digit, r) }) < 0
}

func isFlag(t string) bool {
	rest := strings.TrimLeft(t, "-")
	return rest != "" && rest != t && unicode.IsLetter(rune(rest[0]))
}
