package knowledge

import (
	"slices"
	"strings"
	"unicode"
)

// Phrase swaps: two texts that are one text but for a phrase put in place
// of another, in one place or in each place it occurs (an error message, a
// value, a path told otherwise). The word sets of such texts hide a swap
// that a set cannot see: a value already said elsewhere in the text
// (eol=lf and eol=crlf, then eol=crlf twice), a phrase of three words for
// one of two, Korean words. The words in order can: phraseSwapped diffs
// them.

// seqMaxEdits bounds the diff: texts more than one in seqEditShare of
// their words apart (or seqMaxEdits words) are no one text with a phrase
// swapped, and are not judged here.
const (
	seqMaxEdits   = 48
	seqEditShare  = 8
	seqBridgeJoin = 2 // equal words between two edits that still make them one swap
)

// seqTokens are a text's words in order, case-folded: Latin words and
// numbers with their inner - _ . kept (read-only, utf8mb4, 1.25), Hangul
// words without their particle or ending; values[i] says that word i is
// a value given to a key written before it in lower case with a colon or an
// equals sign (mode: restart, eol=lf, "policy": "Always"), not a sentence's
// label (Fix: run), or a word given to a long flag after a space
// (--status applied): a command's value either way.
func seqTokens(text string) (words []string, values []bool) {
	var b strings.Builder
	rs := []rune(text)
	hangul, lower := false, true
	var keyedBy rune // the ':' or '=' of a key, or the ' ' of a flag, before the next word, or 0
	start := 0       // where the word in b begins in rs
	skip := 0        // the end of the last operator read
	flush := func(i int) {
		w := strings.TrimRight(b.String(), "-_.")
		b.Reset()
		wasLower := lower
		lower = true
		if w == "" {
			return
		}
		if hangul {
			w = trimKorean(w)
		}
		// A value after a colon stands alone (mode: restart, or the end of a
		// line); words after it make it a title's or a sentence's part
		// (file watchers: raise the limit).
		value := keyedBy == '=' || keyedBy == ' ' || keyedBy == ':' && !wordFollows(rs, i) || sectionHeader(rs, start, i)
		words = append(words, w)
		values = append(values, value)
		keyedBy = 0
		switch {
		case !wasLower || hangul || w[0] < 'a' || w[0] > 'z':
		case i < len(rs) && (rs[i] == ':' || rs[i] == '='):
			keyedBy = rs[i] // not "413: raise", nor "Fix: run"
		case longFlagAt(rs, start) && i+1 < len(rs) && rs[i] == ' ' && rs[i+1] >= 'a' && rs[i+1] <= 'z':
			keyedBy = ' '
		}
	}
	for i, r := range rs {
		h := unicode.Is(unicode.Hangul, r)
		if n := operatorAt(rs, i); n > 0 {
			flush(i)
			keyedBy = 0
			words = append(words, string(rs[i:i+n]))
			values = append(values, false)
			skip = i + n
			continue
		}
		if i < skip {
			continue
		}
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if b.Len() > 0 && h != hangul {
				flush(i)
			}
			if b.Len() == 0 {
				start = i
			}
			hangul = h
			lower = lower && !unicode.IsUpper(r)
			b.WriteRune(unicode.ToLower(r))
		case strings.ContainsRune("-_.", r) && b.Len() > 0 && !hangul && i+1 < len(rs) && (unicode.IsLetter(rs[i+1]) || unicode.IsDigit(rs[i+1])):
			b.WriteRune(r)
		case b.Len() == 0 && keyedBy != 0 && strings.ContainsRune(" \t\"'", r):
			// between a key's colon and its value
		default:
			if b.Len() == 0 {
				keyedBy = 0
			}
			flush(i)
		}
	}
	flush(len(rs))
	return words, values
}

// operatorChars are the characters of a shell's, a query's or a
// schedule's operators (>, >>, 2>&1, &&, ||, |, !, *): no word, but a
// command's meaning (append or truncate, and or or, every minute or the
// fifth).
const operatorChars = "<>|&!*"

// operatorAt is the length of the operator at rs[i], 0 for none: a run of
// operatorChars that starts there, but not an arrow (->, =>), a Markdown
// quote, bullet or emphasis (> at a line's start, * beside a letter), an
// exclamation after a word, or a run that only ! and letters follow
// nothing of (a sentence's end).
func operatorAt(rs []rune, i int) int {
	if !strings.ContainsRune(operatorChars, rs[i]) || i > 0 && strings.ContainsRune(operatorChars, rs[i-1]) {
		return 0
	}
	j := i
	for j < len(rs) && strings.ContainsRune(operatorChars, rs[j]) {
		j++
	}
	op := string(rs[i:j])
	prev, next := ' ', ' '
	if i > 0 {
		prev = rs[i-1]
	}
	if j < len(rs) {
		next = rs[j]
	}
	k := i - 1
	for k >= 0 && (rs[k] == ' ' || rs[k] == '\t') {
		k--
	}
	lineStart := k < 0 || rs[k] == '\n'
	switch {
	case prev == '-' || prev == '=':
		return 0 // an arrow
	case strings.Trim(op, "*") == "" && (op != "*" || unicode.IsLetter(prev) || unicode.IsLetter(next) || lineStart && next == ' '):
		return 0 // emphasis or a bullet; a lone * in a schedule or a glob is read
	case op == ">" && lineStart && next == ' ':
		return 0 // a quote
	case op == "!" && (unicode.IsLetter(prev) || unicode.IsDigit(prev) || !(unicode.IsLetter(next) || next == '$' || next == '(' || next == '=')):
		return 0 // an exclamation
	}
	return j - i
}

// sectionHeader reports whether the word at rs[start:end] is a config
// file's section name, alone in brackets ([auth], [DEFAULT], [storage]) and
// no Markdown link's text ([docs](…)): a value, which a rewording keeps.
func sectionHeader(rs []rune, start, end int) bool {
	return start >= 1 && rs[start-1] == '[' && end < len(rs) && rs[end] == ']' && (end+1 == len(rs) || rs[end+1] != '(')
}

// longFlagAt reports whether the word at rs[i] is a long flag's name: two
// dashes before it, at the text's start or after a space, quote or
// backtick (--status, not a-b--c).
func longFlagAt(rs []rune, i int) bool {
	return i >= 2 && rs[i-1] == '-' && rs[i-2] == '-' && (i == 2 || strings.ContainsRune(" \t\n`'\"(", rs[i-3]))
}

// wordFollows reports whether rs[i:] goes on with a word on the same line.
func wordFollows(rs []rune, i int) bool {
	for ; i < len(rs) && (rs[i] == ' ' || rs[i] == '\t' || rs[i] == '"' || rs[i] == '\''); i++ {
	}
	return i < len(rs) && (unicode.IsLetter(rs[i]) || unicode.IsDigit(rs[i]))
}

// phraseSwapped reports whether two texts (their DetailSet.Seq) are one
// text with a phrase swapped for another that is no rewording of it: a
// swap (words dropped and words added in one place, seqBridgeJoin equal
// words apart at most) whose two sides, stop words and synonyms left out,
// are both left with words, and which swaps a key's value (mode: restart,
// mode: single), a technical word (digits, or - _ . inside: read-only,
// read-write) or a name WordNet does not know (IfNotPresent, crlf), a noun
// for a noun, or two words or more for two or more (an error message told
// as another). A rewording this close swaps a word for its synonym, a verb
// or a quality for another (caught, handled; private, internal), or adds
// or drops words; it does not replace a phrase.
func phraseSwapped(a, b DetailSet) bool {
	if slices.Compare(a.Seq, b.Seq) > 0 {
		// One direction of diff for either order: an edit script and its
		// mirror may align ties otherwise, and a move (operatorMoved) or an
		// exchange (hunkReordered) is read off its runs.
		a, b = b, a
	}
	maxD := min(seqMaxEdits, (len(a.Seq)+len(b.Seq))/seqEditShare)
	ops, ok := diffWords(a.Seq, b.Seq, maxD)
	if !ok {
		return false
	}
	if operatorMoved(ops) {
		return true
	}
	for i := 0; i < len(ops); {
		if ops[i].kind == 0 {
			i++
			continue
		}
		// One swap: edits, and the short runs of equal words between them.
		var dropped, added []string
		value := false
		j := i
		for j < len(ops) {
			if op := ops[j]; op.kind != 0 {
				if op.kind < 0 {
					dropped = append(dropped, op.word)
					value = value || a.SeqValues[op.at]
				} else {
					added = append(added, op.word)
					value = value || b.SeqValues[op.at]
				}
				j++
				continue
			}
			e := j
			for e < len(ops) && ops[e].kind == 0 {
				e++
			}
			if e == len(ops) || e-j > seqBridgeJoin {
				break
			}
			j = e
		}
		if swapDecisive(dropped, added, value) || subcommandSwapped(ops, i, dropped, added) || stopAntonymSwapped(dropped, added) ||
			koreanModalSwapped(dropped, added) || negationOperator(dropped, added) || hunkReordered(ops[i:j]) ||
			siblingNamesSwapped(a, b, dropped, added) {
			return true
		}
		i = j
	}
	return false
}

// commandPrograms are the programs whose first words after them are a
// subcommand: what the command does (systemctl reload and restart, kubectl
// rollout undo and restart, git stash pop and apply, docker compose down
// and stop). Words a sentence uses otherwise (go, service) are not here.
var commandPrograms = map[string]bool{"systemctl": true, "kubectl": true, "helm": true, "git": true, "docker": true,
	"podman": true, "npm": true, "yarn": true, "pnpm": true, "pip": true, "cargo": true, "terraform": true, "apt": true,
	"apt-get": true, "dnf": true, "yum": true, "brew": true, "gcloud": true, "aws": true, "az": true, "journalctl": true,
	"launchctl": true, "supervisorctl": true, "pm2": true, "kubeadm": true, "minikube": true, "gh": true, "snap": true,
	"oc": true, "rc-service": true, "redis-cli": true, "flatpak": true, "poetry": true, "uv": true,
	// JavaScript runtimes and platform CLIs, package managers of other
	// languages, cluster and infrastructure CLIs.
	"deno": true, "bun": true, "npx": true, "supabase": true, "firebase": true, "vercel": true, "netlify": true,
	"heroku": true, "flyctl": true, "wrangler": true, "dotnet": true, "conda": true, "composer": true,
	"gem": true, "bundle": true, "rustup": true, "nix": true, "flutter": true, "dart": true, "gradle": true,
	"mvn": true, "pulumi": true, "vagrant": true, "multipass": true, "lxc": true, "eksctl": true,
	"argocd": true, "istioctl": true, "skaffold": true, "k3s": true, "microk8s": true, "ollama": true}

// subcommandSwapped reports whether the swap that starts at ops[i], one
// word for one word, puts a subcommand in place of another: the swap comes
// right after a program of commandPrograms, or after one word of it (the
// rollout of kubectl rollout undo). Subcommands are not synonyms of each
// other however alike their words (reload, restart): a rewording keeps
// the command. Words the thesaurus makes one (repo, repository) are a
// rewording still, and a program's name after an article or a possessive
// (the git repo, your npm registry) is a modifier of the noun after it.
func subcommandSwapped(ops []seqOp, i int, dropped, added []string) bool {
	if len(dropped) != 1 || len(added) != 1 || isHangulWord(dropped[0]) || isHangulWord(added[0]) ||
		lexStem(dropped[0]) == lexStem(added[0]) || sameMeaning(dropped[0], added[0]) {
		return false
	}
	for k := i - 1; k >= 0 && k >= i-2; k-- {
		if ops[k].kind != 0 {
			return false
		}
		if commandPrograms[ops[k].word] {
			return k == 0 || !programDeterminers[ops[k-1].word]
		}
	}
	return false
}

// programDeterminers are the words that make a program's name a noun's
// modifier (the docker daemon), not the start of a command.
var programDeterminers = map[string]bool{"the": true, "a": true, "an": true, "your": true, "our": true, "my": true,
	"their": true, "its": true, "this": true, "that": true, "these": true, "those": true}

// swapDecisive reports whether a swap of dropped for added words, value
// when one is a key's value, is no rewording (see phraseSwapped).
func swapDecisive(dropped, added []string, value bool) bool {
	x, y := swapContent(dropped, added), swapContent(added, dropped)
	for i := 0; i < len(x); i++ {
		for j := 0; j < len(y); j++ {
			if sameMeaning(x[i], y[j]) {
				x = append(x[:i:i], x[i+1:]...)
				y = append(y[:j:j], y[j+1:]...)
				i--
				break
			}
		}
	}
	if len(x) == 0 || len(y) == 0 {
		return false
	}
	if value || len(x) >= 2 && len(y) >= 2 || slicesAny(x, technicalWord) || slicesAny(y, technicalWord) || antonymSwapped(x, y) {
		return true
	}
	return slicesAny(x, nounWord) && slicesAny(y, nounWord)
}

// antonymSwapped reports whether a word of xs has an antonym in ys
// (public, internal): the opposite said in the same place, which a word
// set misses when the text says the antonym elsewhere too (created as
// public … recreate it as internal).
func antonymSwapped(xs, ys []string) bool {
	g := lex().g
	for _, x := range xs {
		for _, a := range g.antonymsOf(x) {
			if slicesContains(ys, a) {
				return true
			}
		}
	}
	return false
}

// swapContent is xs without stop words, repeats and the words ys holds
// too.
func swapContent(xs, ys []string) []string {
	var out []string
	for _, w := range xs {
		if englishStop[w] || koreanStop[w] || slicesContains(ys, w) || slicesContains(out, w) || isHangulWord(w) && len([]rune(w)) < 2 {
			continue
		}
		out = append(out, w)
	}
	return out
}

// sameMeaning reports whether two words of a swap say one thing: a shared
// stem or thesaurus group (synonyms), or a Hangul word and the English
// word it stands for.
func sameMeaning(x, y string) bool {
	if synonyms(x, y) || sameNumber(x, y) || sameNumber(y, x) {
		return true
	}
	l := lex()
	for _, p := range [][2]string{{x, y}, {y, x}} {
		if isHangulWord(p[0]) && !isHangulWord(p[1]) && slicesContains(l.analyze(p[0]).bridgeStems, lexStem(p[1])) {
			return true
		}
	}
	return false
}

// technicalWord reports whether w is a technical token: a number, a word
// with digits or with - _ . inside, or a Latin word WordNet does not know
// (a product's or a value's name: IfNotPresent, crlf, npm).
func technicalWord(w string) bool {
	if isHangulWord(w) {
		return false
	}
	if strings.ContainsAny(w, "-_.") || strings.ContainsFunc(w, unicode.IsDigit) {
		return true
	}
	return len(w) >= 2 && !modals[w] && len(lex().g.lookup(w)) == 0
}

// nounWord reports whether w names a thing (a noun, see modifierLike), or
// is a Hangul word that stands for one.
func nounWord(w string) bool {
	if !isHangulWord(w) {
		return !modifierLike(w)
	}
	for _, b := range lex().analyze(w).bridges {
		if !modifierLike(b) {
			return true
		}
	}
	return false
}

func slicesAny(xs []string, f func(string) bool) bool {
	for _, x := range xs {
		if f(x) {
			return true
		}
	}
	return false
}

func slicesContains(xs []string, w string) bool {
	for _, x := range xs {
		if x == w {
			return true
		}
	}
	return false
}

// negationOperator reports whether a swap adds or drops a negation
// operator (!DKIM_ALLOW, DKIM_ALLOW) that the other side does not have.
func negationOperator(dropped, added []string) bool {
	return slicesContains(dropped, "!") != slicesContains(added, "!")
}
