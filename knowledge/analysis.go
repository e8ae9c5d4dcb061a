package knowledge

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"slices"
	"sync"
)

// An entry's lexical analysis (lexDoc: the stems it holds and its
// thesaurus groups) depends only on its text and the lexicon, and an
// entry's text never changes. The engine computes it once, when the entry
// is written, and a driver stores it as an opaque value beside the row
// (NewEntry.Analysis, StoredEntry.Analysis), so a query ranks its
// candidates from what it reads instead of analysing some 200 texts again
// (at 100,000 entries that was half of a query's CPU: the candidates of
// distinct queries seldom repeat, so no cache of this process helps). The
// value names the lexicon it was made by (LexiconDigest): one made by
// another lexicon is ignored and the text analysed again, as before.

// analysisFormat is the layout version of an encoded analysis: byte 0.
const analysisFormat = 1

// analysisHeader is an encoded analysis's first bytes: the format and the
// first 8 bytes of LexiconDigest.
var analysisHeader = sync.OnceValue(func() []byte {
	d, err := hex.DecodeString(LexiconDigest())
	if err != nil || len(d) < 8 {
		d = make([]byte, 8) // never: the digest is sha256 hex
	}
	return append([]byte{analysisFormat}, d[:8]...)
})

// Analysis returns the encoded lexical analysis of an entry with this text,
// as the engine stores it with the entry (NewEntry.Analysis).
func Analysis(title, content string, tags []string) []byte {
	return encodeLexDoc(newLexDoc(Entry{Title: title, Content: content, Tags: tags}))
}

// encodeLexDoc spells d as: analysisHeader; the number of stems, then each
// stem, sorted, as its kind byte, length and bytes; the number of
// concepts, then each as its difference from the one before (they are
// sorted), all numbers uvarints.
func encodeLexDoc(d lexDoc) []byte {
	stems := make([]string, 0, len(d.stems))
	size := 0
	for s := range d.stems {
		stems = append(stems, s)
		size += len(s) + 2
	}
	slices.Sort(stems)
	b := make([]byte, 0, len(analysisHeader())+size+2*len(d.concepts)+8)
	b = append(b, analysisHeader()...)
	b = binary.AppendUvarint(b, uint64(len(stems)))
	for _, s := range stems {
		b = append(b, d.stems[s])
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	b = binary.AppendUvarint(b, uint64(len(d.concepts)))
	prev := int32(0)
	for _, c := range d.concepts {
		b = binary.AppendUvarint(b, uint64(c-prev))
		prev = c
	}
	return b
}

// decodeLexDoc reads what encodeLexDoc wrote; ok is false when b is
// empty, malformed or made by another lexicon or format.
func decodeLexDoc(b []byte) (d lexDoc, ok bool) {
	h := analysisHeader()
	if !bytes.HasPrefix(b, h) {
		return lexDoc{}, false
	}
	// One string holds every stem's bytes, so a doc costs one allocation
	// for its words, not one a word; i walks it.
	all := string(b[len(h):])
	i := 0
	next := func() (uint64, bool) {
		var v uint64
		for shift := 0; i < len(all) && shift < 64; shift += 7 {
			c := all[i]
			i++
			v |= uint64(c&0x7f) << shift
			if c < 0x80 {
				return v, true
			}
		}
		return 0, false
	}
	n, ok := next()
	if !ok || n > uint64(len(all)-i) {
		return lexDoc{}, false
	}
	d.stems = make(map[string]uint8, n)
	for range n {
		if i >= len(all) {
			return lexDoc{}, false
		}
		kind := all[i]
		i++
		l, ok := next()
		if !ok || l > uint64(len(all)-i) || (kind != stemLiteral && kind != stemBridge) {
			return lexDoc{}, false
		}
		d.stems[all[i:i+int(l)]] = kind
		i += int(l)
	}
	m, ok := next()
	if !ok || m > uint64(len(all)-i) {
		return lexDoc{}, false
	}
	if m > 0 {
		d.concepts = make([]int32, 0, m)
	}
	prev := int64(0)
	for range m {
		v, ok := next()
		if !ok || v > 1<<31 {
			return lexDoc{}, false
		}
		prev += int64(v)
		if prev > 1<<31-1 {
			return lexDoc{}, false
		}
		d.concepts = append(d.concepts, int32(prev))
	}
	if i != len(all) {
		return lexDoc{}, false
	}
	return d, true
}

// lexDocOf is e's analysis: the stored one when it is this lexicon's, else
// its text's, analysed now (through the cache).
func (k *Engine) lexDocOf(e StoredEntry) lexDoc {
	if d, ok := decodeLexDoc(e.Analysis); ok {
		return d
	}
	return k.docs.get(e.Entry)
}

// analysisOf is the analysis the engine stores with a new entry.
func analysisOf(title, content string, tags []string) []byte {
	return Analysis(title, content, nonNil(tags))
}
