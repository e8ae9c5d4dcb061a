package local

import (
	"context"
	"fmt"
	"sort"
	"sync"

	"pumasi"
	"pumasi/internal/ann"
)

// vecGraph is one (hive, model) vector index: keys are entry seqs.
type vecGraph interface {
	Add(key uint64, v []float32) error
	Delete(key uint64) bool
	Search(v []float32, k, ef int) []vecResult
	Len() int
}

type vecResult struct {
	Key        uint64
	Similarity float32
}

type graphKey struct{ hive, model string }

// knowIndex is a process's in-memory vector index of the home's knowledge
// entries, one graph per (hive, model). Entries only ever appear with a
// growing seq or disappear through a tombstone, so (max entry seq, max
// tombstone seq) tells whether it is current, and catching up reads only
// what changed.
type knowIndex struct {
	s      *Store
	newer  func(dim int) vecGraph
	mu     sync.RWMutex
	saveMu sync.Mutex // one save at a time
	loaded bool
	// savedSeq and savedTomb are the state last saved or loaded.
	savedSeq, savedTomb int64
	maxSeq              int64
	tombSeq             int64
	graphs              map[graphKey]vecGraph
}

func newKnowIndex(s *Store) *knowIndex {
	return &knowIndex{s: s, newer: newANNGraph, graphs: map[graphKey]vecGraph{}}
}

// annGraph is the approximate index: HNSW over 8-bit codes (internal/ann).
type annGraph struct{ *ann.Index }

// annOptions are wider than the package defaults: the offline embedder's
// vectors are sparse (a few dozen hashed buckets), the hard case for a graph
// index; at M 32, efConstruction 200, ef 256 recall@10 on such vectors is
// 0.97 at 20k (0.59 at the defaults), for 0.87 KB per entry at 512 dims.
var annOptions = ann.Options{M: 32, EfConstruction: 200, EfSearch: 256}

func newANNGraph(dim int) vecGraph { return annGraph{ann.New(dim, annOptions)} }

func (g annGraph) Search(v []float32, k, ef int) []vecResult {
	rs := g.Index.Search(v, k, ef)
	out := make([]vecResult, len(rs))
	for i, r := range rs {
		out[i] = vecResult{r.Key, r.Similarity}
	}
	return out
}

// refresh brings the index up to the database's current state.
func (x *knowIndex) refresh(ctx context.Context) error {
	var maxSeq, tombSeq int64
	err := x.s.db.QueryRowContext(ctx, `SELECT COALESCE((SELECT MAX(seq) FROM knowledge_entries), 0),
		COALESCE((SELECT MAX(seq) FROM knowledge_tombstones), 0)`).Scan(&maxSeq, &tombSeq)
	if err != nil {
		return fmt.Errorf("read knowledge state: %w", err)
	}
	x.mu.RLock()
	current := x.loaded && maxSeq <= x.maxSeq && tombSeq <= x.tombSeq
	x.mu.RUnlock()
	if current {
		return nil
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.loaded && maxSeq <= x.maxSeq && tombSeq <= x.tombSeq {
		return nil
	}
	adopted := false
	if !x.loaded {
		adopted = x.loadSaved(ctx, maxSeq, tombSeq)
	}
	from := x.maxSeq
	err = x.addSince(ctx, x.maxSeq)
	if err == nil {
		err = x.dropSince(ctx, x.tombSeq, tombSeq)
	}
	if err != nil && adopted {
		// A saved index that cannot take the catch-up (a graph of another
		// dimension, say) is dropped for a rebuild, not retried forever.
		x.s.log.Warn("saved knowledge index does not fit the database; rebuilding", "err", err)
		x.graphs, x.maxSeq, x.tombSeq, x.savedSeq, x.savedTomb = map[graphKey]vecGraph{}, 0, 0, 0, 0
		from = 0
		err = x.addSince(ctx, 0)
		if err == nil {
			err = x.dropSince(ctx, 0, tombSeq)
		}
	}
	if err != nil {
		return err
	}
	x.loaded = true
	if x.maxSeq-from >= saveAfter {
		// A long catch-up (a first start, or a bulk load) is worth keeping,
		// so that the next start reads it instead of rebuilding.
		go x.save(context.WithoutCancel(ctx))
	}
	return nil
}

// addSince indexes the entries above seq; x.mu is held.
func (x *knowIndex) addSince(ctx context.Context, seq int64) error {
	rows, err := x.s.db.QueryContext(ctx, `SELECT seq, hive, model, vector FROM knowledge_entries WHERE seq > ? ORDER BY seq`, seq)
	if err != nil {
		return fmt.Errorf("load vectors: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var s int64
		var k graphKey
		var blob []byte
		if err := rows.Scan(&s, &k.hive, &k.model, &blob); err != nil {
			return fmt.Errorf("load vectors: %w", err)
		}
		v, err := knowDecodeVector(blob)
		if err != nil {
			return fmt.Errorf("load vector %d: %w", s, err)
		}
		x.maxSeq = max(x.maxSeq, s)
		if pumasi.Norm(v) == 0 {
			continue // similar to nothing
		}
		g := x.graphs[k]
		if g == nil {
			g = x.newer(len(v))
			x.graphs[k] = g
		}
		if err := g.Add(uint64(s), v); err != nil {
			return fmt.Errorf("index vector %d: %w", s, err)
		}
	}
	return rows.Err()
}

// dropSince removes the entries of tombstones in (from, to]; x.mu is held.
func (x *knowIndex) dropSince(ctx context.Context, from, to int64) error {
	rows, err := x.s.db.QueryContext(ctx, `SELECT seq, entry_seq, hive, model FROM knowledge_tombstones
		WHERE seq > ? AND seq <= ? ORDER BY seq`, from, to)
	if err != nil {
		return fmt.Errorf("load tombstones: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var ts, es int64
		var k graphKey
		if err := rows.Scan(&ts, &es, &k.hive, &k.model); err != nil {
			return fmt.Errorf("load tombstones: %w", err)
		}
		if g := x.graphs[k]; g != nil {
			g.Delete(uint64(es))
		}
		x.tombSeq = max(x.tombSeq, ts)
	}
	return rows.Err()
}

// search returns the seqs of up to n entries of hive (every hive when
// empty) and model nearest v, best first.
func (x *knowIndex) search(hive, model string, v []float32, n int) []int64 {
	if pumasi.Norm(v) == 0 || n <= 0 {
		return nil
	}
	x.mu.RLock()
	defer x.mu.RUnlock()
	var all []vecResult
	for k, g := range x.graphs {
		if k.model != model || (hive != "" && k.hive != hive) {
			continue
		}
		all = append(all, g.Search(v, n, 0)...)
	}
	sort.Slice(all, func(i, j int) bool {
		if all[i].Similarity != all[j].Similarity {
			return all[i].Similarity > all[j].Similarity
		}
		return all[i].Key < all[j].Key
	})
	if len(all) > n {
		all = all[:n]
	}
	out := make([]int64, len(all))
	for i, r := range all {
		out[i] = int64(r.Key)
	}
	return out
}
