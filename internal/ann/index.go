// Package ann is an approximate nearest-neighbour index for cosine similarity:
// HNSW (Malkov & Yashunin, 2016) over 8-bit scalar-quantised codes, stored in
// flat slabs so an entry at 512 dimensions costs about 0.7 KB resident.
//
// Entries are keyed by the caller's uint64. Deletion leaves a tombstone that
// still routes searches but is never returned; Compact rebuilds without them.
// An Index is safe for concurrent Search calls alongside one writer.
package ann

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sync"
)

// maxDim bounds the dimension so an int32 dot product of two codes
// (each term ≤ 127²) cannot overflow.
const maxDim = math.MaxInt32 / (127 * 127)

// maxLevels caps the layer count; with M ≥ 2 a 16th layer needs ~2^16+ nodes
// per extra layer, so the cap only guards against a pathological draw.
const maxLevels = 16

// Options tunes the graph. Zero fields take the defaults shown.
type Options struct {
	// M is the number of links per node on the upper layers (16); layer 0
	// keeps 2M.
	M int
	// EfConstruction is the candidate list size while inserting (100).
	EfConstruction int
	// EfSearch is the candidate list size Search uses when its ef ≤ 0 (64).
	EfSearch int
	// Seed makes the level draws, and so the graph, reproducible.
	Seed int64
}

func (o Options) withDefaults() Options {
	if o.M <= 0 {
		o.M = 16
	}
	o.M = max(o.M, 2)
	if o.EfConstruction <= 0 {
		o.EfConstruction = 100
	}
	o.EfConstruction = max(o.EfConstruction, o.M)
	if o.EfSearch <= 0 {
		o.EfSearch = 64
	}
	return o
}

// Result is one search hit.
type Result struct {
	Key uint64
	// Similarity is the cosine between the query and the entry as the 8-bit
	// codes give it (within about ±0.01 of the float32 cosine); rescore
	// exactly where a decision depends on it.
	Similarity float32
}

// Index is an HNSW graph over quantised vectors. Internal node ids are dense
// indices into the slabs; the caller's keys map to them through one map.
type Index struct {
	mu  sync.RWMutex
	dim int
	opt Options
	m0  int // link capacity at layer 0: 2M
	ml  float64
	rng *rand.Rand

	keys     []uint64  // node → caller's key
	inv      []float32 // node → 1/‖code‖
	levels   []uint8   // node → top layer
	deleted  []uint64  // tombstone bitset
	codes    []int8    // node i's code is codes[i*dim:(i+1)*dim]
	links0   []uint32  // node i's layer-0 block is links0[i*(m0+1):], [0] = count
	upperOff []uint32  // node → start of its blocks in upper (levels > 0 only)
	upper    []uint32  // layer l ≥ 1 block at upperOff+(l-1)*(M+1), [0] = count

	byKey    map[uint64]uint32 // live key → node
	entry    uint32
	maxLevel int
	empty    bool // no node yet, entry is meaningless

	visits sync.Pool // *visited, one per concurrent search
}

// New returns an empty index for vectors of dim components. It panics if dim
// is < 1 or so large that a code dot product could overflow (> 133k).
func New(dim int, opt Options) *Index {
	if dim < 1 || dim > maxDim {
		panic(fmt.Sprintf("ann: dimension %d out of range [1, %d]", dim, maxDim))
	}
	opt = opt.withDefaults()
	return &Index{
		dim:   dim,
		opt:   opt,
		m0:    2 * opt.M,
		ml:    1 / math.Log(float64(opt.M)),
		rng:   rand.New(rand.NewPCG(uint64(opt.Seed), 0x9e3779b97f4a7c15)),
		byKey: make(map[uint64]uint32),
		empty: true,
	}
}

// Dim returns the vector dimension the index was built for.
func (x *Index) Dim() int { return x.dim }

// Len returns the number of live (not deleted) entries.
func (x *Index) Len() int {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return len(x.byKey)
}

// Tombstones returns how many deleted or replaced nodes still occupy memory
// and route searches; Compact reclaims them.
func (x *Index) Tombstones() int {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return len(x.keys) - len(x.byKey)
}

// Has reports whether key is live in the index.
func (x *Index) Has(key uint64) bool {
	x.mu.RLock()
	defer x.mu.RUnlock()
	_, ok := x.byKey[key]
	return ok
}

// Add inserts v under key, replacing (tombstoning) any earlier vector for the
// same key. It refuses a vector of the wrong dimension, a zero vector
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
	if old, ok := x.byKey[key]; ok {
		x.setDeleted(old)
	}
	if len(x.keys) >= math.MaxUint32 {
		return fmt.Errorf("ann: index full (%d nodes)", len(x.keys))
	}
	x.insert(key, code, inv)
	return nil
}

// Delete removes key from results and reports whether it was live. Its node
// stays in the graph as a tombstone so searches keep routing through it.
func (x *Index) Delete(key uint64) bool {
	x.mu.Lock()
	defer x.mu.Unlock()
	id, ok := x.byKey[key]
	if !ok {
		return false
	}
	x.setDeleted(id)
	delete(x.byKey, key)
	return true
}

func (x *Index) setDeleted(id uint32) { x.deleted[id>>6] |= 1 << (id & 63) }

func (x *Index) isDeleted(id uint32) bool { return x.deleted[id>>6]&(1<<(id&63)) != 0 }

// Compact rebuilds the graph from the live entries' codes, dropping every
// tombstone. It holds the write lock for the whole rebuild (about as long as
// adding Len() vectors), so call it when Tombstones() is a large share of the
// index, not on every delete.
func (x *Index) Compact() {
	x.mu.Lock()
	defer x.mu.Unlock()
	fresh := New(x.dim, x.opt)
	fresh.grow(len(x.byKey))
	for id := range x.keys {
		if x.isDeleted(uint32(id)) {
			continue
		}
		fresh.insert(x.keys[id], x.code(uint32(id)), x.inv[id])
	}
	x.keys, x.inv, x.levels, x.deleted = fresh.keys, fresh.inv, fresh.levels, fresh.deleted
	x.codes, x.links0, x.upperOff, x.upper = fresh.codes, fresh.links0, fresh.upperOff, fresh.upper
	x.byKey, x.entry, x.maxLevel, x.empty = fresh.byKey, fresh.entry, fresh.maxLevel, fresh.empty
	x.visits = sync.Pool{}
}

// Reserve makes room for n more entries, so a bulk build (say, from the
// store at start-up) neither reallocates nor keeps the up-to-25 % spare
// capacity that growth by append leaves in the slabs.
func (x *Index) Reserve(n int) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.grow(n)
}

// grow reserves room for n more nodes so bulk building does not reallocate.
func (x *Index) grow(n int) {
	c := len(x.keys) + n
	x.keys = growTo(x.keys, c)
	x.inv = growTo(x.inv, c)
	x.levels = growTo(x.levels, c)
	x.upperOff = growTo(x.upperOff, c)
	x.deleted = growTo(x.deleted, (c+63)/64)
	x.codes = growTo(x.codes, c*x.dim)
	x.links0 = growTo(x.links0, c*(x.m0+1))
}

func growTo[T any](s []T, c int) []T {
	if cap(s) >= c {
		return s
	}
	t := make([]T, len(s), c)
	copy(t, s)
	return t
}

// Bytes estimates the index's resident memory: every slab at its capacity,
// plus the key map at ~24 bytes per live key (Go's swiss table keeps 16-byte
// uint64→uint32 slots in groups of 8 with a control word, at ≤ 7/8 load).
// Per-search scratch (2 bytes per node per concurrent search) is not counted.
func (x *Index) Bytes() int64 {
	x.mu.RLock()
	defer x.mu.RUnlock()
	b := int64(cap(x.keys))*8 + int64(cap(x.inv))*4 + int64(cap(x.levels)) +
		int64(cap(x.deleted))*8 + int64(cap(x.codes)) + int64(cap(x.links0))*4 +
		int64(cap(x.upperOff))*4 + int64(cap(x.upper))*4
	return b + int64(len(x.byKey))*24
}
