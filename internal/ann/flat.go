package ann

import (
	"fmt"
	"math"
	"slices"
	"sync"
)

// Flat is an exact index for cosine similarity: every search compares the
// query with every entry's 8-bit code. It has no build, no tombstones and no
// structure to save; a delete moves the last entry into the freed slot, so
// memory follows the live entries. Safe for concurrent Search calls
// alongside one writer.
type Flat struct {
	mu    sync.RWMutex
	dim   int
	keys  []uint64  // slot → caller's key
	inv   []float32 // slot → 1/‖code‖
	codes []int8    // slot i's code is codes[i*dim:(i+1)*dim]
	slot  map[uint64]uint32
}

// NewFlat returns an empty exact index for vectors of dim components. It
// panics if dim is < 1 or so large that a code dot product could overflow.
func NewFlat(dim int) *Flat {
	if dim < 1 || dim > maxDim {
		panic(fmt.Sprintf("ann: dimension %d out of range [1, %d]", dim, maxDim))
	}
	return &Flat{dim: dim, slot: make(map[uint64]uint32)}
}

// Dim returns the vector dimension.
func (x *Flat) Dim() int { return x.dim }

// Len returns the number of entries.
func (x *Flat) Len() int {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return len(x.keys)
}

// Has reports whether key is in the index.
func (x *Flat) Has(key uint64) bool {
	x.mu.RLock()
	defer x.mu.RUnlock()
	_, ok := x.slot[key]
	return ok
}

// Add stores v under key, replacing an earlier vector of the same key in
// place. It refuses a vector of the wrong dimension, a zero vector
// (ErrZeroVector) and one holding NaN or Inf (ErrBadVector).
func (x *Flat) Add(key uint64, v []float32) error {
	if err := checkDim(v, x.dim); err != nil {
		return err
	}
	code := make([]int8, x.dim)
	inv, err := quantize(v, code)
	if err != nil {
		return err
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	if s, ok := x.slot[key]; ok {
		copy(x.code(s), code)
		x.inv[s] = inv
		return nil
	}
	if len(x.keys) >= math.MaxUint32 {
		return fmt.Errorf("ann: index full (%d entries)", len(x.keys))
	}
	x.slot[key] = uint32(len(x.keys))
	x.keys = append(x.keys, key)
	x.inv = append(x.inv, inv)
	x.codes = append(x.codes, code...)
	return nil
}

// Reserve makes room for n more entries, so a bulk load neither
// reallocates nor keeps the spare capacity growth by append leaves.
func (x *Flat) Reserve(n int) {
	x.mu.Lock()
	defer x.mu.Unlock()
	c := len(x.keys) + n
	x.keys = growTo(x.keys, c)
	x.inv = growTo(x.inv, c)
	x.codes = growTo(x.codes, c*x.dim)
}

// Delete removes key and reports whether it was there. The last entry moves
// into its slot, and the slabs shrink once they are less than half used, so
// nothing of a deleted entry stays behind but free capacity.
func (x *Flat) Delete(key uint64) bool {
	x.mu.Lock()
	defer x.mu.Unlock()
	s, ok := x.slot[key]
	if !ok {
		return false
	}
	delete(x.slot, key)
	last := uint32(len(x.keys) - 1)
	if s != last {
		k := x.keys[last]
		x.keys[s], x.inv[s] = k, x.inv[last]
		copy(x.code(s), x.code(last))
		x.slot[k] = s
	}
	clear(x.code(last)) // no copy of a deleted vector's code lingers
	x.keys, x.inv = x.keys[:last], x.inv[:last]
	x.codes = x.codes[:int(last)*x.dim]
	if n := len(x.keys); cap(x.keys) > 64 && n < cap(x.keys)/2 {
		x.keys, x.inv, x.codes = slices.Clip(slices.Clone(x.keys)), slices.Clip(slices.Clone(x.inv)), slices.Clip(slices.Clone(x.codes))
		if n == 0 {
			x.keys, x.inv, x.codes = nil, nil, nil
		}
		// A map keeps its buckets after deletes; a fresh one is sized to
		// what is left.
		m := make(map[uint64]uint32, n)
		for k, v := range x.slot {
			m[k] = v
		}
		x.slot = m
	}
	return true
}

func (x *Flat) code(s uint32) []int8 {
	o := int(s) * x.dim
	return x.codes[o : o+x.dim : o+x.dim]
}

// Search returns up to k entries most similar to v, best first (ties by
// key). Similarity is the cosine the codes give (within about ±0.01 of the
// float32 cosine). A vector of the wrong dimension, zero or holding NaN or
// Inf finds nothing.
func (x *Flat) Search(v []float32, k int) []Result {
	if k <= 0 || checkDim(v, x.dim) != nil {
		return nil
	}
	q := make([]int8, x.dim)
	qinv, err := quantize(v, q)
	if err != nil {
		return nil
	}
	x.mu.RLock()
	defer x.mu.RUnlock()
	top := topK{k: k}
	for s := range x.keys {
		sim := float32(dot(q, x.codes[s*x.dim:(s+1)*x.dim])) * qinv * x.inv[s]
		top.offer(sim, x.keys[s])
	}
	return top.sorted()
}

// Bytes estimates the resident memory: the slabs at their capacity and the
// key map at ~24 bytes per key (see Index.Bytes).
func (x *Flat) Bytes() int64 {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return int64(cap(x.keys))*8 + int64(cap(x.inv))*4 + int64(cap(x.codes)) + int64(len(x.slot))*24
}

// topK keeps the k best results seen, worst at [0] (a min-heap on
// similarity, then max on key, so the kept set is the best k by (similarity
// desc, key asc) whatever the order offered).
type topK struct {
	k int
	h []Result
}

// worse reports whether a ranks below b.
func worse(a, b Result) bool {
	if a.Similarity != b.Similarity {
		return a.Similarity < b.Similarity
	}
	return a.Key > b.Key
}

func (t *topK) offer(sim float32, key uint64) {
	r := Result{Key: key, Similarity: sim}
	if len(t.h) < t.k {
		t.h = append(t.h, r)
		up(t.h, len(t.h)-1, worse)
		return
	}
	if !worse(t.h[0], r) {
		return
	}
	t.h[0] = r
	down(t.h, 0, worse)
}

// sorted returns the kept results best first.
func (t *topK) sorted() []Result {
	out := slices.Clone(t.h)
	slices.SortFunc(out, func(a, b Result) int {
		switch {
		case worse(b, a):
			return -1
		case worse(a, b):
			return 1
		}
		return 0
	})
	return out
}

// up and down restore the heap order of s (less(s[parent], s[child]))
// after s[i] changed: one binary heap for every ordering in the package.
func up[T any](s []T, i int, less func(a, b T) bool) {
	for i > 0 {
		p := (i - 1) / 2
		if !less(s[i], s[p]) {
			break
		}
		s[p], s[i] = s[i], s[p]
		i = p
	}
}

func down[T any](s []T, i int, less func(a, b T) bool) {
	n := len(s)
	for {
		l, r, m := 2*i+1, 2*i+2, i
		if l < n && less(s[l], s[m]) {
			m = l
		}
		if r < n && less(s[r], s[m]) {
			m = r
		}
		if m == i {
			return
		}
		s[i], s[m] = s[m], s[i]
		i = m
	}
}
