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
const detailsVersion = 1

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

// encodeDetails spells the two sets after detailsHeader, each field in
// DetailSet's order: a set as its count and its members sorted; a list as
// its count plus one (0 for nil) and its members in order; a map of lists
// as its count, then each key, sorted, and its list; a number as itself;
// SeqValues as a list of bytes. Counts, lengths and numbers are uvarints,
// a string its length and bytes.
func encodeDetails(all, line DetailSet) []byte {
	b := make([]byte, 0, 1024)
	b = append(b, detailsHeader()...)
	for _, d := range []*DetailSet{&all, &line} {
		b = appendList(b, d.Spans)
		b = appendSet(b, d.Atoms)
		b = appendLists(b, d.Numbers)
		b = appendSet(b, d.Names)
		b = appendSet(b, d.Words)
		b = binary.AppendUvarint(b, uint64(d.Negations))
		b = appendSet(b, d.Negated)
		b = binary.AppendUvarint(b, uint64(d.EnNegations))
		b = appendLists(b, d.Settings)
		b = appendLists(b, d.Parts)
		b = appendSet(b, d.Pascal)
		b = appendList(b, d.Seq)
		if d.SeqValues == nil {
			b = append(b, 0)
		} else {
			b = binary.AppendUvarint(b, uint64(len(d.SeqValues))+1)
			for _, v := range d.SeqValues {
				b = append(b, boolByte(v))
			}
		}
		b = appendSet(b, d.Errors)
	}
	return b
}

func boolByte(v bool) byte {
	if v {
		return 1
	}
	return 0
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

func appendList(b []byte, xs []string) []byte {
	if xs == nil {
		return append(b, 0)
	}
	b = binary.AppendUvarint(b, uint64(len(xs))+1)
	for _, x := range xs {
		b = appendString(b, x)
	}
	return b
}

// appendSet spells a set's members; a member mapped to false (ParseDetails
// makes none) is spelled as absent.
func appendSet(b []byte, m map[string]bool) []byte {
	keys := slices.Sorted(maps.Keys(m))
	keys = slices.DeleteFunc(keys, func(k string) bool { return !m[k] })
	b = binary.AppendUvarint(b, uint64(len(keys)))
	for _, k := range keys {
		b = appendString(b, k)
	}
	return b
}

func appendLists(b []byte, m map[string][]string) []byte {
	b = binary.AppendUvarint(b, uint64(len(m)))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		b = appendString(b, k)
		b = appendList(b, m[k])
	}
	return b
}

// detailsReader reads what encodeDetails wrote. One string holds every
// member's bytes, so the strings it gives share one allocation.
type detailsReader struct {
	s   string
	i   int
	bad bool
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

func (r *detailsReader) str() string {
	n := r.count()
	if r.bad || n > len(r.s)-r.i {
		r.bad = true
		return ""
	}
	s := r.s[r.i : r.i+n]
	r.i += n
	return s
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
	all = r.detailSet()
	line = r.detailSet()
	if r.bad || r.i != len(r.s) {
		return DetailSet{}, DetailSet{}, false
	}
	return all, line, true
}
