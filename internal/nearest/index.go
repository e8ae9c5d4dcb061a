// Package nearest finds the entries most similar to a vector by cosine, exactly:
// every search compares the query with every entry's 8-bit scalar-quantised
// code through a SIMD dot product (about 0.5 KB and a few nanoseconds per entry
// at 512 dimensions). It has no build, no tombstones and nothing to save;
// see README.md for why it replaced an HNSW graph.
package nearest

import (
	"fmt"
	"math"
	"slices"
	"sync"
)

// maxDim bounds the dimension so an int32 dot product of two codes (each
// term ≤ 127²) cannot overflow.
const maxDim = math.MaxInt32 / (127 * 127)

// Result is one search hit.
type Result struct {
	Key uint64
	// Similarity is the cosine between the query and the entry as the 8-bit
	// codes give it (within about ±0.01 of the float32 cosine); rescore
	// exactly where a decision depends on it.
	Similarity float32
}

// Index holds one 8-bit code per key. A delete moves the last entry into
// the freed slot and zeroes the slot it vacates, so memory follows the live
// entries and no code of a deleted entry stays behind. Safe for concurrent
// Search calls alongside one writer.
type Index struct {
	mu    sync.RWMutex
	dim   int
	keys  []uint64  // slot → caller's key
	inv   []float32 // slot → 1/‖code‖
	codes []int8    // slot i's code is codes[i*dim:(i+1)*dim]
	slot  map[uint64]uint32
}

// New returns an empty index for vectors of dim components. It panics if
// dim is < 1 or so large that a code dot product could overflow (> 133k).
func New(dim int) *Index {
	if dim < 1 || dim > maxDim {
		panic(fmt.Sprintf("nearest: dimension %d out of range [1, %d]", dim, maxDim))
	}
	return &Index{dim: dim, slot: make(map[uint64]uint32)}
}

// Dim returns the vector dimension.
func (x *Index) Dim() int { return x.dim }

// Len returns the number of entries.
func (x *Index) Len() int {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return len(x.keys)
}

// Has reports whether key is in the index.
func (x *Index) Has(key uint64) bool {
	x.mu.RLock()
	defer x.mu.RUnlock()
	_, ok := x.slot[key]
	return ok
}

// Add stores v under key, replacing an earlier vector of the same key in
// place. It refuses a vector of the wrong dimension, a zero vector
// (ErrZeroVector) and one holding NaN or Inf (ErrBadVector).
func (x *Index) Add(key uint64, v []float32) error {
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
		return fmt.Errorf("nearest: index full (%d entries)", len(x.keys))
	}
	x.slot[key] = uint32(len(x.keys))
	x.keys = append(x.keys, key)
	x.inv = append(x.inv, inv)
	x.codes = append(x.codes, code...)
	return nil
}

// Reserve makes room for n more entries, so a bulk load neither
// reallocates nor keeps the spare capacity growth by append leaves.
func (x *Index) Reserve(n int) {
	x.mu.Lock()
	defer x.mu.Unlock()
	c := len(x.keys) + n
	x.keys = growTo(x.keys, c)
	x.inv = growTo(x.inv, c)
	x.codes = growTo(x.codes, c*x.dim)
}

// Trim gives back the spare capacity growth by append left (up to a
// quarter of the slabs after a bulk load of unknown size).
func (x *Index) Trim() {
	x.mu.Lock()
	defer x.mu.Unlock()
	if cap(x.keys) > len(x.keys)+len(x.keys)/16 {
		x.shrink()
	}
}

// Delete removes key and reports whether it was there. The last entry moves
// into its slot, and the slabs shrink once they are less than half used, so
// nothing of a deleted entry stays behind but free capacity.
func (x *Index) Delete(key uint64) bool {
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
		x.shrink()
	}
	return true
}

// shrink reallocates the slabs and the key map at the live size: a Go map
// keeps its buckets after deletes, and a slab its capacity.
func (x *Index) shrink() {
	x.keys, x.inv, x.codes = exact(x.keys), exact(x.inv), exact(x.codes)
	m := make(map[uint64]uint32, len(x.keys))
	for k, v := range x.slot {
		m[k] = v
	}
	x.slot = m
}

func (x *Index) code(s uint32) []int8 {
	o := int(s) * x.dim
	return x.codes[o : o+x.dim : o+x.dim]
}

// Search returns up to k entries most similar to v, best first (ties by
// key). Similarity is the cosine the codes give (within about ±0.01 of the
// float32 cosine). A vector of the wrong dimension, zero or holding NaN or
// Inf finds nothing.
func (x *Index) Search(v []float32, k int) []Result {
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
// key map at ~24 bytes per key (Go's swiss table keeps 16-byte uint64→uint32
// slots in groups of 8 with a control word, at ≤ 7/8 load).
func (x *Index) Bytes() int64 {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return int64(cap(x.keys))*8 + int64(cap(x.inv))*4 + int64(cap(x.codes)) + int64(len(x.slot))*24
}

// topK keeps the k best results offered, the worst at h[0] (a heap on
// worse), so the kept set is the best k by (similarity desc, key asc)
// whatever the order offered.
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
		for i := len(t.h) - 1; i > 0; {
			p := (i - 1) / 2
			if !worse(t.h[i], t.h[p]) {
				break
			}
			t.h[p], t.h[i] = t.h[i], t.h[p]
			i = p
		}
		return
	}
	if !worse(t.h[0], r) {
		return
	}
	t.h[0] = r
	for i, n := 0, len(t.h); ; {
		l, rt, m := 2*i+1, 2*i+2, i
		if l < n && worse(t.h[l], t.h[m]) {
			m = l
		}
		if rt < n && worse(t.h[rt], t.h[m]) {
			m = rt
		}
		if m == i {
			return
		}
		t.h[i], t.h[m] = t.h[m], t.h[i]
		i = m
	}
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

// exact copies s into a slice of capacity len(s).
func exact[T any](s []T) []T {
	if len(s) == 0 {
		return nil
	}
	t := make([]T, len(s))
	copy(t, s)
	return t
}

func growTo[T any](s []T, c int) []T {
	if cap(s) >= c {
		return s
	}
	t := make([]T, len(s), c)
	copy(t, s)
	return t
}
