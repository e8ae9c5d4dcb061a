package prompt

import (
	"bytes"
	"cmp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// DefaultContextBudget is the default byte budget of a <shared-context> block.
const DefaultContextBudget = 65536

// Markers of the <shared-context> block. The block always starts with
// contextOpen and ends with contextClose, also when it holds no files.
const (
	contextOpen  = "<shared-context>\n"
	contextClose = "</shared-context>\n"
)

// contextTags are the element names file text must not open or close inside
// a <shared-context> block; hintTags the same for <referenced-files>.
var (
	contextTags = []string{"file", "shared-context"}
	hintTags    = []string{"referenced-files"}
)

// SharedFile is one file of an agent's memory/shared/ directory, as it goes
// into the prompt.
type SharedFile struct {
	Name    string
	SHA256  string
	Content []byte
}

// ComposeSharedContext renders files as the <shared-context> block of
// DESIGN.md §8, deterministically: the same files give the same bytes, in
// any input order, which keeps prompt caches warm.
//
// Files come in name order (byte order of the name), each as the bytes
//
//	"  <file name=\"N\" sha256=\"S\">\n" + CONTENT + "\n  </file>\n"
//
// so the content sits between the newline that ends the opening tag and the
// "\n  </file>" that closes it (a file ending in a newline therefore shows
// one blank line before its closing tag). Attribute values are XML-escaped.
//
// Content is neutralised so that it cannot open, close or forge an element:
// wherever a "<" is followed by optional whitespace, an optional "/",
// optional whitespace and "file" or "shared-context" in any letter case, the
// "<" becomes "&lt;". To keep this reversible, a "&lt;" (or "&amp;lt;",
// "&amp;amp;lt;", ...) already standing before such a tag name gains one
// more "amp;". Nothing else changes, so RestoreSharedContent gives back the
// original bytes exactly, and N files always yield exactly N "<file"
// elements.
//
// budget counts the bytes of the whole output; budget <= 0 means no limit.
// Every file is always listed: one that does not fit becomes
//
//	"  <file name=\"N\" sha256=\"S\" path=\"memory/shared/N\" omitted=\"budget\"/>\n"
//
// so the agent can still open it. Each file first gets the smaller of its
// two forms (short files are always inlined), then files are inlined in
// name order while they fit, so the output stays within budget unless the
// omitted entries alone exceed it. With no files the block is still
// printed, empty: "<shared-context>\n</shared-context>\n", which tells the
// agent that it has no shared files rather than nothing at all.
func ComposeSharedContext(files []SharedFile, budget int) string {
	sorted := slices.Clone(files)
	slices.SortStableFunc(sorted, func(a, b SharedFile) int {
		return cmp.Or(
			strings.Compare(a.Name, b.Name),
			strings.Compare(a.SHA256, b.SHA256),
			bytes.Compare(a.Content, b.Content),
		)
	})
	full := make([]string, len(sorted))
	short := make([]string, len(sorted))
	remaining := budget - len(contextOpen) - len(contextClose)
	for i, f := range sorted {
		name, sum := escapeAttr(f.Name), escapeAttr(f.SHA256)
		full[i] = `  <file name="` + name + `" sha256="` + sum + "\">\n" +
			neutralize(string(f.Content), contextTags) + "\n  </file>\n"
		short[i] = `  <file name="` + name + `" sha256="` + sum +
			`" path="` + escapeAttr(SharedPathPrefix+f.Name) + `" omitted="budget"/>` + "\n"
		remaining -= min(len(full[i]), len(short[i]))
	}
	var b strings.Builder
	b.WriteString(contextOpen)
	for i := range sorted {
		// A file no longer than its omitted entry costs nothing extra.
		extra := max(0, len(full[i])-len(short[i]))
		if budget <= 0 || extra <= remaining {
			remaining -= extra
			b.WriteString(full[i])
		} else {
			b.WriteString(short[i])
		}
	}
	b.WriteString(contextClose)
	return b.String()
}

// RestoreSharedContent undoes the neutralisation ComposeSharedContext applies
// to file content: it returns the original bytes of a file's text as found
// between its opening tag line and its closing "\n  </file>".
func RestoreSharedContent(s string) string { return restore(s, contextTags) }

// escapeAttr escapes s for a double-quoted XML attribute value. It works on
// bytes, so any other byte, even of invalid UTF-8, is kept as it is.
func escapeAttr(s string) string {
	if !strings.ContainsAny(s, `&<>"'`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '&':
			b.WriteString("&amp;")
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '"':
			b.WriteString("&quot;")
		case '\'':
			b.WriteString("&apos;")
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// neutralize raises every tag-like spot for tags in s by one level: "<"
// becomes "&lt;", "&lt;" becomes "&amp;lt;" and so on (see
// ComposeSharedContext). Everything else is copied as is.
func neutralize(s string, tags []string) string {
	return rewriteTagSpots(s, tags, func(level int) (int, bool) { return level + 1, true })
}

// restore lowers every tag-like spot that neutralize raised, giving back its
// input exactly.
func restore(s string, tags []string) string {
	return rewriteTagSpots(s, tags, func(level int) (int, bool) { return level - 1, level > 0 })
}

// rewriteTagSpots copies s, replacing the opener of each tag-like spot (an
// opener of some level followed by a tag name, see tagTail) by the opener of
// the level that change returns, when it returns true.
func rewriteTagSpots(s string, tags []string, change func(level int) (int, bool)) string {
	var b strings.Builder
	last := 0
	for i := 0; i < len(s); i++ {
		if s[i] != '<' && s[i] != '&' {
			continue
		}
		level, n, ok := openerAt(s, i)
		if !ok || !tagTail(s[i+n:], tags) {
			continue
		}
		to, ok := change(level)
		if !ok {
			continue
		}
		if b.Len() == 0 {
			b.Grow(len(s) + 16)
		}
		b.WriteString(s[last:i])
		b.WriteString(opener(to))
		i += n - 1
		last = i + 1
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// openerAt reads the opener at s[i]: "<" is level 0, "&lt;" level 1,
// "&amp;lt;" level 2, each further "amp;" one more. It returns the level and
// the opener's length in bytes.
func openerAt(s string, i int) (level, n int, ok bool) {
	if s[i] == '<' {
		return 0, 1, true
	}
	if s[i] != '&' {
		return 0, 0, false
	}
	j, level := i+1, 1
	for strings.HasPrefix(s[j:], "amp;") {
		j += 4
		level++
	}
	if !strings.HasPrefix(s[j:], "lt;") {
		return 0, 0, false
	}
	return level, j + 3 - i, true
}

// opener is the text of an opener of the given level.
func opener(level int) string {
	if level == 0 {
		return "<"
	}
	return "&" + strings.Repeat("amp;", level-1) + "lt;"
}

// tagTail reports whether s starts with what may follow a "<" to make one of
// tags: optional whitespace, an optional "/", optional whitespace, then a
// tag name in any letter case (Unicode simple folding, as a case-insensitive
// reader would match). Whatever follows the name does not matter, so
// "<filesystem" counts too: over-neutralising is harmless because it is
// reversed exactly.
func tagTail(s string, tags []string) bool {
	s = strings.TrimLeftFunc(s, unicode.IsSpace)
	if strings.HasPrefix(s, "/") {
		s = strings.TrimLeftFunc(s[1:], unicode.IsSpace)
	}
	for _, tag := range tags {
		if hasFoldPrefix(s, tag) {
			return true
		}
	}
	return false
}

// hasFoldPrefix reports whether s starts with prefix under simple case
// folding, comparing rune by rune since folded runes may differ in length.
func hasFoldPrefix(s, prefix string) bool {
	for _, want := range prefix {
		if s == "" {
			return false
		}
		got, size := utf8.DecodeRuneInString(s)
		if !equalFoldRune(got, want) {
			return false
		}
		s = s[size:]
	}
	return true
}

func equalFoldRune(a, b rune) bool {
	if a == b {
		return true
	}
	for r := unicode.SimpleFold(a); r != a; r = unicode.SimpleFold(r) {
		if r == b {
			return true
		}
	}
	return false
}
