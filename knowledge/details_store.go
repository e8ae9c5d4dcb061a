package knowledge

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"maps"
	"slices"
	"sync"
)

// An entry's details (ParseDetails of its text and of its title, what the
// merge decision weighs: mergeable) depend only on its text, the lexicon
// and the extractor, and an entry's text never changes. The engine parses
// them once, when the entry is written, and a driver stores them as an
// opaque value beside the row (NewEntry.Details, StoredEntry.Details), so a
// contribution's dedup probe weighs its 16 candidates without parsing their
// texts again (that parse was about 10 ms of CPU a contribution in bench
// knowledge-postgres). The value names the extractor (detailsVersion) and
// the lexicon (LexiconDigest) it was made by: one made by another is
// ignored and the text parsed, as before, until Engine.Redetail stores the
// current one.

// detailsVersion is the extractor's version, byte 1 of an encoded value.
// Bump it with every change to what ParseDetails finds: stored details of
// another version are then parsed again on read. TestDetailsVersion pins
// what this version finds on the tuning corpora.
const detailsVersion = 19

// detailsFormat is an encoded value's byte 0: its layout.
const detailsFormat = 'D'

// detailsHeader is an encoded value's first bytes: the format, the
// extractor's version and the first 8 bytes of LexiconDigest.
var detailsHeader = sync.OnceValue(func() []byte {
	d, err := hex.DecodeString(LexiconDigest())
	if err != nil || len(d) < 8 {
		d = make([]byte, 8) // never: the digest is sha256 hex
	}
	return append([]byte{detailsFormat, detailsVersion}, d[:8]...)
})

// DetailsHeader is how every value of the current extractor and lexicon
// begins (Redetailer.StaleDetails).
func DetailsHeader() []byte { return slices.Clone(detailsHeader()) }

// Details returns the encoded details of an entry with this title and
// content, as the engine stores them with the entry (NewEntry.Details).
func Details(title, content string) []byte {
	all, line := parseBoth(EmbeddingText(title, content))
	return encodeDetails(all, line)
}

// parseBoth is ParseDetails of text and of its title.
func parseBoth(text string) (all, line DetailSet) {
	return ParseDetails(text), ParseDetails(firstLine(text))
}

// entryDetails are e's details: the stored ones when they are this
// extractor's and lexicon's, else its text's, parsed now.
func entryDetails(e StoredEntry) (all, line DetailSet) {
	if all, line, ok := decodeDetails(e.Details); ok {
		return all, line
	}
	return parseBoth(EmbeddingText(e.Title, e.Content))
}

// encodeDetails spells the two sets after detailsHeader: a table of
// their distinct strings (its count, then each as its length and bytes, in
// the order they first come), then each set's fields in DetailSet's order,
// a string as its place in the table: a set as its count and its members
// sorted; a list as its count plus one (0 for nil) and its members in
// order; a map of lists as its count, then each key, sorted, and its list;
// a number as itself; SeqValues as a list of bytes. Counts, places and
// numbers are uvarints. The table spells a word once, though a text's
// words, its sequence and its title's share most of theirs.
func encodeDetails(all, line DetailSet) []byte {
	e := detailsEncoder{at: map[string]int{}}
	for _, d := range []*DetailSet{&all, &line} {
		e.list(d.Spans)
		e.set(d.Atoms)
		e.lists(d.Numbers)
		e.set(d.Names)
		e.set(d.Words)
		e.num(d.Negations)
		e.set(d.Negated)
		e.num(d.EnNegations)
		e.lists(d.Settings)
		e.lists(d.Parts)
		e.set(d.Pascal)
		e.list(d.Seq)
		if d.SeqValues == nil {
			e.num(0)
		} else {
			e.num(len(d.SeqValues) + 1)
			for _, v := range d.SeqValues {
				e.body = append(e.body, boolByte(v))
			}
		}
		e.set(d.Errors)
		e.lists(d.Figures)
		e.set(d.Stated)
	}
	size := len(detailsHeader()) + len(e.body) + 2*len(e.table) + 4
	for _, s := range e.table {
		size += len(s)
	}
	b := make([]byte, 0, size)
	b = append(b, detailsHeader()...)
	b = binary.AppendUvarint(b, uint64(len(e.table)))
	for _, s := range e.table {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	return append(b, e.body...)
}

// detailsEncoder is encodeDetails' state: the string table and the body.
type detailsEncoder struct {
	at    map[string]int
	table []string
	body  []byte
}

func (e *detailsEncoder) num(n int) { e.body = binary.AppendUvarint(e.body, uint64(n)) }

func (e *detailsEncoder) str(s string) {
	i, ok := e.at[s]
	if !ok {
		i = len(e.table)
		e.at[s] = i
		e.table = append(e.table, s)
	}
	e.num(i)
}

func (e *detailsEncoder) list(xs []string) {
	if xs == nil {
		e.num(0)
		return
	}
	e.num(len(xs) + 1)
	for _, x := range xs {
		e.str(x)
	}
}

// set spells a set's members; a member mapped to false (ParseDetails makes
// none) is spelled as absent.
func (e *detailsEncoder) set(m map[string]bool) {
	keys := slices.Sorted(maps.Keys(m))
	keys = slices.DeleteFunc(keys, func(k string) bool { return !m[k] })
	e.num(len(keys))
	for _, k := range keys {
		e.str(k)
	}
}

func (e *detailsEncoder) lists(m map[string][]string) {
	e.num(len(m))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		e.str(k)
		e.list(m[k])
	}
}

func boolByte(v bool) byte {
	if v {
		return 1
	}
	return 0
}

// detailsReader reads what encodeDetails wrote. One string holds every
// byte, so the table's strings share one allocation.
type detailsReader struct {
	s     string
	i     int
	table []string
	bad   bool
}

func (r *detailsReader) num() int {
	var v uint64
	for shift := 0; shift < 64; shift += 7 {
		if r.i >= len(r.s) {
			break
		}
		c := r.s[r.i]
		r.i++
		v |= uint64(c&0x7f) << shift
		if c < 0x80 {
			if v > 1<<31 {
				break
			}
			return int(v)
		}
	}
	r.bad = true
	return 0
}

// count is a count or length: never past the bytes left, since n members
// take n bytes at least.
func (r *detailsReader) count() int {
	n := r.num()
	if n > len(r.s)-r.i+1 {
		r.bad = true
		return 0
	}
	return n
}

// readTable reads the string table.
func (r *detailsReader) readTable() {
	n := r.count()
	r.table = make([]string, 0, n)
	for range n {
		l := r.count()
		if r.bad || l > len(r.s)-r.i {
			r.bad = true
			return
		}
		r.table = append(r.table, r.s[r.i:r.i+l])
		r.i += l
	}
}

func (r *detailsReader) str() string {
	i := r.num()
	if r.bad || i >= len(r.table) {
		r.bad = true
		return ""
	}
	return r.table[i]
}

func (r *detailsReader) list() []string {
	n := r.count()
	if n == 0 || r.bad {
		return nil
	}
	out := make([]string, n-1)
	for i := range out {
		out[i] = r.str()
	}
	return out
}

func (r *detailsReader) set() map[string]bool {
	n := r.count()
	m := make(map[string]bool, n)
	for range n {
		if r.bad {
			break
		}
		m[r.str()] = true
	}
	return m
}

func (r *detailsReader) lists() map[string][]string {
	n := r.count()
	m := make(map[string][]string, n)
	for range n {
		if r.bad {
			break
		}
		k := r.str()
		m[k] = r.list()
	}
	return m
}

func (r *detailsReader) detailSet() DetailSet {
	var d DetailSet
	d.Spans = r.list()
	d.Atoms = r.set()
	d.Numbers = r.lists()
	d.Names = r.set()
	d.Words = r.set()
	d.Negations = r.num()
	d.Negated = r.set()
	d.EnNegations = r.num()
	d.Settings = r.lists()
	d.Parts = r.lists()
	d.Pascal = r.set()
	d.Seq = r.list()
	if n := r.count(); n > 0 && !r.bad {
		if n-1 > len(r.s)-r.i {
			r.bad = true
		} else {
			d.SeqValues = make([]bool, n-1)
			for i := range d.SeqValues {
				d.SeqValues[i] = r.s[r.i+i] != 0
			}
			r.i += n - 1
		}
	}
	d.Errors = r.set()
	d.Figures = r.lists()
	d.Stated = r.set()
	return d
}

// decodeDetails reads what encodeDetails wrote; ok is false when b is
// empty, malformed or made by another extractor, lexicon or format.
func decodeDetails(b []byte) (all, line DetailSet, ok bool) {
	h := detailsHeader()
	if !bytes.HasPrefix(b, h) {
		return DetailSet{}, DetailSet{}, false
	}
	r := detailsReader{s: string(b[len(h):])}
	r.readTable()
	all = r.detailSet()
	line = r.detailSet()
	if r.bad || r.i != len(r.s) {
		return DetailSet{}, DetailSet{}, false
	}
	return all, line, true
}
