package prompt

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"pumasi"
)

// SharedPathPrefix is where a room's files live inside an agent's folder;
// every path pumasi shows an agent starts with it.
const SharedPathPrefix = "memory/shared/"

// trailingPunct is what may follow a $reference in prose without being part
// of the name (DESIGN.md §8).
const trailingPunct = `.,;:!?)]}'"`

// refOpeners are the characters after which a $ starts a reference, besides
// whitespace and the start of the text.
const refOpeners = `([{"'`

// Reference is one file a message points at, in its canonical form.
type Reference struct {
	Name   string `json:"name"`
	ID     string `json:"id"`
	SHA256 string `json:"sha256"`
	Size   int64  `json:"size"`
	// Path is where the file sits relative to the agent's directory:
	// memory/shared/<name>.
	Path string `json:"path"`
}

// Resolution is the answer of resolve: the references that matched the
// room's files, the ones that did not, and the hint an agent sees.
type Resolution struct {
	References []Reference `json:"references"`
	Unknown    []string    `json:"unknown"`
	// Hint is the <referenced-files> block, or "" when nothing resolved.
	Hint string `json:"hint"`
}

// refToken is one $reference found in text. A quoted token came from
// $"..." and is taken whole; a raw one may carry trailing punctuation.
type refToken struct {
	raw    string
	quoted bool
}

// ParseReferences returns the $references in text, in order of appearance
// and without duplicates, as raw candidates: an unquoted token keeps its
// trailing punctuation ("spec.md." for "see $spec.md."), so that resolution
// can try the name with and without it; a quoted token ($"my notes.md") is
// returned without its quotes.
//
// A $ starts a reference at the start of the text or after whitespace or one
// of ([{"'; the name runs to the next whitespace. A $ right after a backslash
// (\$) is never a reference. $"..." quotes a name with spaces; an unclosed
// quote (no " before the end of the line) is not a reference. Tokens such as
// $5 or $HOME are returned too: only resolution can tell that they name no
// file.
func ParseReferences(text string) []string {
	toks := scanReferences(text)
	out := make([]string, 0, len(toks))
	seen := make(map[string]bool, len(toks))
	for _, t := range toks {
		if !seen[t.raw] {
			seen[t.raw] = true
			out = append(out, t.raw)
		}
	}
	return out
}

// scanReferences finds every $reference in text, deduplicated by raw text
// and quoting.
func scanReferences(text string) []refToken {
	var toks []refToken
	seen := map[refToken]bool{}
	add := func(t refToken) {
		if t.raw != "" && !seen[t] {
			seen[t] = true
			toks = append(toks, t)
		}
	}
	i := 0
	for i < len(text) {
		if text[i] != '$' || !refStart(text, i) {
			i++
			continue
		}
		rest := text[i+1:]
		if strings.HasPrefix(rest, `"`) {
			body := rest[1:]
			end := strings.IndexAny(body, "\"\n")
			if end < 0 || body[end] != '"' {
				i++
				continue
			}
			add(refToken{raw: body[:end], quoted: true})
			i += 1 + 1 + end + 1
			continue
		}
		end := strings.IndexFunc(rest, unicode.IsSpace)
		if end < 0 {
			end = len(rest)
		}
		add(refToken{raw: rest[:end]})
		i += 1 + end
	}
	return toks
}

// refStart reports whether the $ at text[i] may start a reference.
func refStart(text string, i int) bool {
	if i == 0 {
		return true
	}
	r, _ := utf8.DecodeLastRuneInString(text[:i])
	return unicode.IsSpace(r) || strings.ContainsRune(refOpeners, r)
}

// Resolve canonicalises the $references in text and the explicitly listed
// names against files, the listing of one room: only names in it resolve, so
// a name from another room never does.
//
// Names are compared in NFC; when no name matches exactly, a name equal
// under case folding matches (a room cannot hold two names that fold alike).
// Trailing punctuation .,;:!?)]}'" is dropped from an unquoted token only
// when the name without it exists, and kept when the name with it exists.
// An unresolved token from text is Unknown only when it looks like a file
// name (see looksLikeFileName) or was quoted, so $5 and $HOME pass silently;
// an explicit name that does not resolve is always Unknown. References come
// in first-appearance order, text before explicit names, without duplicates.
func Resolve(text string, explicit []string, files []pumasi.File) Resolution {
	idx := newFileIndex(files)
	res := Resolution{References: []Reference{}, Unknown: []string{}}
	seenRef := map[string]bool{}
	seenUnknown := map[string]bool{}
	found := func(f pumasi.File) {
		if !seenRef[f.Name] {
			seenRef[f.Name] = true
			res.References = append(res.References, Reference{
				Name: f.Name, ID: f.ID, SHA256: f.SHA256, Size: f.Size, Path: SharedPathPrefix + f.Name,
			})
		}
	}
	unknown := func(name string) {
		if !seenUnknown[name] {
			seenUnknown[name] = true
			res.Unknown = append(res.Unknown, name)
		}
	}
	for _, t := range scanReferences(text) {
		name := norm.NFC.String(t.raw)
		if t.quoted {
			if f, ok := idx.lookup(name); ok {
				found(f)
			} else if strings.TrimSpace(name) != "" {
				unknown(name)
			}
			continue
		}
		if f, ok := idx.lookupTrimmed(name); ok {
			found(f)
			continue
		}
		if bare := strings.TrimRight(name, trailingPunct); looksLikeFileName(bare) {
			unknown(bare)
		}
	}
	for _, n := range explicit {
		name := norm.NFC.String(n)
		if f, ok := idx.lookup(name); ok {
			found(f)
		} else {
			unknown(name)
		}
	}
	res.Hint = ReferencedFilesHint(res.References)
	return res
}

// ReferencedFilesHint renders the <referenced-files> block an agent sees for
// refs, one "- <name>: memory/shared/<name>" line each, or "" for none. A
// name that spells the block's own tags is neutralised as in
// ComposeSharedContext, so a hostile name cannot end the block early.
func ReferencedFilesHint(refs []Reference) string {
	if len(refs) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("<referenced-files>\n")
	for _, r := range refs {
		line := "- " + r.Name + ": " + r.Path + "\n"
		b.WriteString(neutralize(line, hintTags))
	}
	b.WriteString("</referenced-files>")
	return b.String()
}

// looksLikeFileName reports whether an unresolved token is worth reporting
// as unknown: a valid name with a dot and at least one letter, so that
// "$missing.md" is reported and "$5", "$HOME" or "$1.50" are not.
func looksLikeFileName(s string) bool {
	if !strings.Contains(s, ".") || !strings.ContainsFunc(s, unicode.IsLetter) {
		return false
	}
	_, err := pumasi.NormalizeName(s)
	return err == nil
}

// fileIndex finds a room file by exact NFC name or by folded name.
type fileIndex struct {
	exact  map[string]pumasi.File
	folded map[string]pumasi.File
}

func newFileIndex(files []pumasi.File) fileIndex {
	idx := fileIndex{exact: make(map[string]pumasi.File, len(files)), folded: make(map[string]pumasi.File, len(files))}
	for _, f := range files {
		n := norm.NFC.String(f.Name)
		f.Name = n
		if _, dup := idx.exact[n]; !dup {
			idx.exact[n] = f
		}
		if _, dup := idx.folded[pumasi.FoldName(n)]; !dup {
			idx.folded[pumasi.FoldName(n)] = f
		}
	}
	return idx
}

// lookup finds name exactly, else by case folding.
func (x fileIndex) lookup(name string) (pumasi.File, bool) {
	if name == "" {
		return pumasi.File{}, false
	}
	if f, ok := x.exact[name]; ok {
		return f, true
	}
	f, ok := x.folded[pumasi.FoldName(name)]
	return f, ok
}

// lookupTrimmed tries name, then name with one more trailing punctuation
// character dropped each time, and returns the longest that exists.
func (x fileIndex) lookupTrimmed(name string) (pumasi.File, bool) {
	for {
		if f, ok := x.lookup(name); ok {
			return f, true
		}
		if name == "" || !strings.ContainsRune(trailingPunct, rune(name[len(name)-1])) {
			return pumasi.File{}, false
		}
		name = name[:len(name)-1]
	}
}
