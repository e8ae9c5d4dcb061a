package knowledge

import (
	"slices"
	"strings"
	"unicode"
)

// detailAgreement weighs the atoms two detail sets share, and the atoms of
// the one with less: a plain word that a command holds (git, origin)
// weighs half an identifier, flag, number or path.
func detailAgreement(a, b DetailSet) (shared, fewer float64) {
	var wa, wb float64
	for t := range a.Atoms {
		w := atomWeight(t)
		wa += w
		if b.Atoms[t] {
			shared += w
		}
	}
	for t := range b.Atoms {
		wb += atomWeight(t)
	}
	// A setting given the same value in both (auto.offset.reset to
	// earliest) is a detail of its own, beside the setting's name.
	for key, xs := range a.Settings {
		wa += float64(len(xs))
		for _, x := range xs {
			if slices.ContainsFunc(b.Settings[key], func(y string) bool { return sameValue(x, y) }) {
				shared++
			}
		}
	}
	for _, ys := range b.Settings {
		wb += float64(len(ys))
	}
	return shared, min(wa, wb)
}

func atomWeight(t string) float64 {
	if kind, ok := isKindAtom(t); ok {
		if kind == "switch" {
			// Enabling said in both texts is how, not what: it adds no
			// agreement (own5's tootctl search deploy, reset both enable
			// Elasticsearch).
			return 0
		}
		if kind == "freq" || kind == "none" || kind == "sort" {
			return 0.5
		}
		return 1
	}
	if isFlag(t) || isNumber(t) || identifierLike(t) || strings.ContainsAny(t, "/_.") || signalName(t) {
		return 1
	}
	return 0.5
}

// signalName reports whether an atom is a POSIX signal's name (sigterm,
// sighup): as decisive as an identifier, though a word in capitals.
func signalName(t string) bool {
	return len(t) > 5 && strings.HasPrefix(t, "sig") && signals[t[3:]]
}

// signals are the POSIX signals' names without SIG.
var signals = map[string]bool{"hup": true, "int": true, "quit": true, "ill": true, "trap": true, "abrt": true, "bus": true,
	"fpe": true, "kill": true, "usr1": true, "segv": true, "usr2": true, "pipe": true, "alrm": true, "term": true,
	"chld": true, "cont": true, "stop": true, "tstp": true, "ttin": true, "ttou": true, "winch": true, "xcpu": true}

// DetailsConflict reports whether two texts' details disagree: each holds
// a decisive detail of one kind that the other lacks: a different flag
// (--force, --force-with-lease), a different number or version (PostgreSQL
// 12, 13), identifiers alike but not the same (readinessProbe,
// livenessProbe), or a command or setting written differently
// (`pool_mode = transaction`, `pool_mode = session`; not one extending the
// other), or an error reported otherwise (Connection refused, Connection
// reset by peer; Bad Gateway, Gateway Timeout). A rewording may add or drop
// details; it does not change one.
func DetailsConflict(a, b DetailSet) bool {
	var onlyA, onlyB []string
	for t := range a.Atoms {
		if !b.Atoms[t] {
			onlyA = append(onlyA, t)
		}
	}
	for t := range b.Atoms {
		if !a.Atoms[t] {
			onlyB = append(onlyB, t)
		}
	}
	for _, x := range onlyA {
		for _, y := range onlyB {
			_, kx := isKindAtom(x)
			if _, ky := isKindAtom(y); kx || ky {
				if kindsRival(x, y) {
					return true
				}
				continue
			}
			if p := a.Pascal[x] || b.Pascal[y]; pluralOf(x, y, p) || pluralOf(y, x, p) {
				continue
			}
			if atomsRival(x, y) || tagsRival(x, y) || sameFrame(a.Parts[x], b.Parts[y]) || sameFamily(a.Parts[x], b.Parts[y]) || versionsRival(x, y) {
				return true
			}
		}
	}
	return numbersRival(a.Numbers, b.Numbers) || numbersRival(a.Settings, b.Settings) ||
		flagSwapped(onlyA, onlyB, a.Atoms) || spansRival(a, b) || spansSubstituted(a, b) || errorsRival(a, b) ||
		namesRival(a, b) || namesRival(b, a) || koreanDenied(a, b) || koreanDenied(b, a) || figuresRival(a, b) || spanSwapped(a, b) || protocolsRival(a, b) ||
		compoundsSwapped(a, b) || mimeRival(a, b)
}

// flagSwapped reports whether two texts that share a flag each give a flag
// the other does not (helm upgrade --install --atomic, --install --wait),
// or whose details are the same but for one flag each (build_runner build
// --delete-conflicting-outputs, --low-resources-mode): one command told
// with another option. A rewording keeps a command's flags; it may drop one
// or add one, not both.
func flagSwapped(onlyA, onlyB []string, atoms map[string]bool) bool {
	if !slices.ContainsFunc(onlyA, isFlag) || !slices.ContainsFunc(onlyB, isFlag) {
		return false
	}
	if len(onlyA) == 1 && len(onlyB) == 1 && len(atoms) > 1 {
		return true
	}
	for t := range atoms {
		if isFlag(t) && !slices.Contains(onlyA, t) {
			return true
		}
	}
	return false
}

// proseAlike is the share of their Latin words (Jaccard) from which two
// texts read almost alike.
const proseAlike = 0.6

// wordOverlap is the Jaccard overlap of two word sets.
func wordOverlap(a, b map[string]bool) float64 {
	n := 0
	for w := range a {
		if b[w] {
			n++
		}
	}
	if u := len(a) + len(b) - n; u > 0 {
		return float64(n) / float64(u)
	}
	return 0
}

// proseConflict reports whether two texts that read almost alike tell of
// different things: each has a code span or a decisive atom the other
// lacks (an error string, a path), or names a product or tool the other
// does not (Alpine, Ubuntu), one negates what the other does not, or one
// says a word whose antonym the other says (before, after; enable,
// disable; 켜면, 끄면). Only near-identical texts are judged so: a rewording
// names and words things its own way.
func proseConflict(a, b DetailSet) bool {
	if wordOverlap(a.Words, b.Words) < proseAlike {
		return false
	}
	if negationsRival(a, b) || oneSided(a.Atoms, b.Atoms) || flagDropped(a, b) || flagDropped(b, a) || numberOwnerSwapped(a, b) || oneSided(setOf(a.Spans), setOf(b.Spans)) || wordSwapped(a.Words, b.Words) ||
		phraseSwapped(a, b) {
		return true
	}
	for x := range a.Names {
		if b.Words[x] {
			continue
		}
		for y := range b.Names {
			if !a.Words[y] && !strings.HasPrefix(x, y) && !strings.HasPrefix(y, x) {
				return true
			}
		}
	}
	return saysAntonym(a.Words, b.Words)
}

// saysAntonym reports whether a word only a says has an antonym that only
// b says, in any inflection (raising, lowering; enabled, disabled): a
// rewording keeps a direction however it inflects the verb, and says an
// antonym only beside the word it opposes.
func saysAntonym(a, b map[string]bool) bool {
	g := lex().g
	var stemsA, stemsB map[string]bool
	for x := range a {
		if b[x] {
			continue
		}
		for _, y := range g.antonymsOf(x) {
			if b[y] && !a[y] {
				return true
			}
			if stemsA == nil {
				stemsA, stemsB = stemSet(a), stemSet(b)
			}
			if st := lexStem(y); stemsB[st] && !stemsA[st] {
				return true
			}
		}
	}
	return false
}

// stemSet is the set of the stems of words.
func stemSet(words map[string]bool) map[string]bool {
	m := make(map[string]bool, len(words))
	for w := range words {
		m[lexStem(w)] = true
	}
	return m
}

// negationsRival reports whether one text denies what the other says: a
// word one negates that the other says without negating (does not require
// X, requires X; without TLS, with TLS), or, in Korean, where negation is
// part of the verb (않는다, 못 한다, 안 된다), another number of negations.
// A rewording that adds "not an error" to "only a warning" denies nothing
// the other says.
func negationsRival(a, b DetailSet) bool {
	if a.Negations-a.EnNegations != b.Negations-b.EnNegations {
		return true
	}
	return deniesSaid(a, b) || deniesSaid(b, a)
}

// deniesSaid reports whether a negates a word b says un-negated.
func deniesSaid(a, b DetailSet) bool {
	if len(a.Negated) == 0 {
		return false
	}
	for x := range b.Words {
		if st := lexStem(x); a.Negated[st] && !b.Negated[st] {
			return true
		}
	}
	return false
}

// oneSided reports whether each set holds something the other lacks.
func oneSided(a, b map[string]bool) bool {
	onlyA, onlyB := false, false
	for x := range a {
		onlyA = onlyA || !b[x]
	}
	for x := range b {
		onlyB = onlyB || !a[x]
	}
	return onlyA && onlyB
}

func setOf(s []string) map[string]bool {
	m := make(map[string]bool, len(s))
	for _, x := range s {
		m[x] = true
	}
	return m
}

// numbersRival reports whether the two texts give one thing (the word
// before a number) numbers that differ, each a number the other does not
// give it: PostgreSQL 12 and PostgreSQL 13, a timeout of 10s and of 10ms.
func numbersRival(a, b map[string][]string) bool {
	for w, xs := range a {
		ys, ok := b[w]
		if !ok {
			continue
		}
		if len(exclusive(xs, ys)) > 0 && len(exclusive(ys, xs)) > 0 {
			return true
		}
	}
	return false
}

// exclusive are the values of xs that no value of ys is the same as
// (sameValue).
func exclusive(xs, ys []string) []string {
	if len(xs)*len(ys) <= 64 {
		return exclusiveScan(xs, ys)
	}
	// sameValue(x, y) holds when x == y, or when one of them is the
	// other's number with a unit (30s, 30): ys indexed as written and by
	// their numbers keep this linear in long texts' many values.
	written, numbers := make(map[string]bool, len(ys)), make(map[string]bool, len(ys))
	for _, y := range ys {
		written[y] = true
		numbers[strings.TrimRightFunc(y, notDigit)] = true
	}
	var out []string
	for _, x := range xs {
		nx := strings.TrimRightFunc(x, notDigit)
		found := written[x] || nx != "" && isNumber(nx) && (nx == x && numbers[nx] || nx != x && written[nx])
		if !found {
			out = append(out, x)
		}
	}
	return out
}

// exclusiveScan is exclusive by comparing every pair, for short lists.
func exclusiveScan(xs, ys []string) []string {
	var out []string
	for _, x := range xs {
		if !slices.ContainsFunc(ys, func(y string) bool { return sameValue(x, y) }) {
			out = append(out, x)
		}
	}
	return out
}

// alnumOf is an atom's letters and digits, without its punctuation.
func alnumOf(t string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return r
		}
		return -1
	}, t)
}

// flagDropped reports whether a gives a flag b does not, in texts that
// read as one (swapAlike), and b holds no atom a lacks: one command told
// without an option of it (tee -a, tee), which a rewording this close
// keeps.
func flagDropped(a, b DetailSet) bool {
	if wordOverlap(a.Words, b.Words) < swapAlike {
		return false
	}
	flag := false
	for t := range a.Atoms {
		flag = flag || !b.Atoms[t] && isFlag(t)
	}
	if !flag {
		return false
	}
	for t := range b.Atoms {
		if !a.Atoms[t] {
			return false
		}
	}
	return true
}

// numberOwnerSwapped reports whether two texts that read as one text with
// a word swapped (swapAlike) give the same number to two things, each
// named in one text only (Python 3.15, Ruby 3.15; PostgreSQL 13, MySQL
// 13): the thing that has the version or the value told otherwise.
func numberOwnerSwapped(a, b DetailSet) bool {
	if wordOverlap(a.Words, b.Words) < swapAlike {
		return false
	}
	for x, xs := range a.Numbers {
		if b.Words[x] || isHangulWord(x) {
			continue
		}
		for y, ys := range b.Numbers {
			if y != x && !a.Words[y] && !isHangulWord(y) && len(exclusive(xs, ys)) == 0 && len(exclusive(ys, xs)) == 0 {
				return true
			}
		}
	}
	return false
}
