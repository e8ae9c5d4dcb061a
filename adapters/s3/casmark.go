package s3

import (
	"bytes"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"slices"
	"strconv"
)

// casHistory is how many of its last writers an object remembers.
const casHistory = 64

// casUnsureMax bounds the writes of one update whose answer was lost and
// that turned out not to have landed, so a store that keeps failing ends
// the call with its error.
const casUnsureMax = 8

// casMark is the identity an object written by update carries, as its first
// field "_cas": its version number and the write ids of its last versions.
// A conditional write on version n can only make version n+1, and exactly
// one write does, so "is IDs' entry for n+1 mine?" tells whether a write
// whose answer was lost landed, even after others wrote on top of it.
type casMark struct {
	Seq int64    `json:"seq"`
	IDs []string `json:"ids"` // writers of versions Seq-len(IDs)+1 .. Seq
}

// writer returns who wrote version seq, known false when it is not
// remembered (not yet written, or too old).
func (m casMark) writer(seq int64) (id string, known bool) {
	i := len(m.IDs) - 1 - int(m.Seq-seq)
	if seq < 1 || seq > m.Seq || i < 0 {
		return "", false
	}
	return m.IDs[i], true
}

// next is the mark of the version that write id makes on top of m.
func (m casMark) next(id string) casMark {
	ids := m.IDs[max(0, len(m.IDs)-casHistory+1):]
	return casMark{Seq: m.Seq + 1, IDs: append(slices.Clone(ids), id)}
}

// readMark decodes the mark at the start of an object; an object that has
// none (written before marks, or by hand) reads as version 0.
func readMark(raw []byte) casMark {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return casMark{}
	}
	if tok, err := dec.Token(); err != nil || tok != "_cas" {
		return casMark{}
	}
	var m casMark
	if err := dec.Decode(&m); err != nil {
		return casMark{}
	}
	return m
}

// withMark returns the JSON object body with mark as its first field.
func withMark(body []byte, mark casMark) ([]byte, error) {
	if len(body) < 2 || body[0] != '{' {
		return nil, errors.New("not a JSON object")
	}
	mb, err := json.Marshal(mark)
	if err != nil {
		return nil, err
	}
	out := make([]byte, 0, len(body)+len(mb)+10)
	out = append(out, `{"_cas":`...)
	out = append(out, mb...)
	if rest := bytes.TrimSpace(body[1:]); len(rest) > 0 && rest[0] != '}' {
		out = append(out, ',')
	}
	return append(out, body[1:]...), nil
}

// newWriteID names one logical write: all attempts of one update share it.
func newWriteID() string {
	return strconv.FormatUint(rand.Uint64(), 36)
}
