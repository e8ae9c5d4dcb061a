package local

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"
	"time"

	"pumasi/internal/ann"
	"pumasi/knowledge"
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
	// building is set while a first build runs in the background (see
	// refresh); inlineBuild is the most entries a first build may index
	// while a query waits.
	building    bool
	inlineBuild int64
	// buildHook, when set (tests), runs at the start of a background build.
	buildHook func(ctx context.Context)
	// ctx ends at close, stopping a background build or save; wg waits for
	// them. closed (under mu) keeps a query after close from starting one.
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	closed bool
	saving bool
	// savedSeq and savedTomb are the state last saved or loaded.
	savedSeq, savedTomb int64
	maxSeq              int64
	tombSeq             int64
	graphs              map[graphKey]vecGraph
}

// defaultInlineBuild bounds a first build a query waits for: about a second
// here at the driver's graph options. Past it, the index is built in the
// background and queries are answered by an exact scan meanwhile (a 100k
// build took ~3 minutes on a busy 2-core machine; an exact scan of 100k
// vectors ~0.2 s a query).
const defaultInlineBuild = 5000

// errIndexBuilding means the index is not built yet: search exactly.
var errIndexBuilding = errors.New("vector index is being built")

func newKnowIndex(s *Store) *knowIndex {
	ctx, cancel := context.WithCancel(context.Background())
	return &knowIndex{s: s, newer: newANNGraph, graphs: map[graphKey]vecGraph{},
		inlineBuild: defaultInlineBuild, ctx: ctx, cancel: cancel}
}

// isClosed reports whether close was called.
func (x *knowIndex) isClosed() bool {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return x.closed
}

// isBuilding reports whether a background build runs.
func (x *knowIndex) isBuilding() bool {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return x.building
}

// close stops a background build or save and waits for it.
func (x *knowIndex) close() {
	x.mu.Lock()
	x.closed = true
	x.mu.Unlock()
	x.cancel()
	x.wg.Wait()
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

// refresh brings the index up to the database's current state. It returns
// errIndexBuilding while a first build too big to wait for runs.
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
	if x.building || x.closed {
		return errIndexBuilding // exact scans meanwhile
	}
	adopted := false
	if !x.loaded {
		adopted = x.loadSaved(ctx, maxSeq, tombSeq)
	}
	// A catch-up too long for a query to wait for, and longer than the
	// index already holds (no saved index, or one saved long before a bulk
	// load), is a rebuild in the background. A shorter one runs here: the
	// index is saved every saveAfter entries, so after a crash it is at
	// most that far behind.
	if pending := maxSeq - x.maxSeq; pending > x.inlineBuild && pending > x.maxSeq {
		x.reset()
		x.buildInBackground(tombSeq)
		return errIndexBuilding
	}
	err = x.addSince(ctx, x.maxSeq)
	if err == nil {
		err = x.dropSince(ctx, x.tombSeq, tombSeq)
	}
	if err != nil && adopted {
		// A saved index that cannot take the catch-up (a graph of another
		// dimension, say) is dropped for a rebuild, not retried forever.
		x.s.log.Warn("saved knowledge index does not fit the database; rebuilding", "err", err)
		x.reset()
		if maxSeq > x.inlineBuild {
			x.buildInBackground(tombSeq)
			return errIndexBuilding
		}
		err = x.addSince(ctx, 0)
		if err == nil {
			err = x.dropSince(ctx, 0, tombSeq)
		}
	}
	if err != nil {
		return err
	}
	x.loaded = true
	if x.maxSeq-x.savedSeq >= saveAfter && !x.saving {
		// Worth keeping (a first start, a bulk load, or a long run since the
		// last save): the next start, after a crash too, reads it instead of
		// catching up from further back.
		x.saving = true
		x.wg.Add(1)
		go func() {
			defer x.wg.Done()
			x.save(x.ctx)
			x.mu.Lock()
			x.saving = false
			x.mu.Unlock()
		}()
	}
	return nil
}

// reset empties the index for a rebuild; x.mu is held.
func (x *knowIndex) reset() {
	x.graphs, x.maxSeq, x.tombSeq, x.savedSeq, x.savedTomb, x.loaded = map[graphKey]vecGraph{}, 0, 0, 0, 0, false
}

// buildInBackground starts a first build of the whole index without
// holding x.mu, so queries go on (exactly) while it runs; x.mu is held. The
// built graphs replace the empty index in one step, and the next refresh
// catches up with what was written meanwhile.
func (x *knowIndex) buildInBackground(tombSeq int64) {
	x.building = true
	x.wg.Add(1)
	go func() {
		defer x.wg.Done()
		start := time.Now()
		if x.buildHook != nil {
			x.buildHook(x.ctx)
		}
		b := &knowIndex{s: x.s, newer: x.newer, graphs: map[graphKey]vecGraph{}}
		err := b.addSince(x.ctx, 0)
		if err == nil {
			err = b.dropSince(x.ctx, 0, tombSeq)
		}
		x.mu.Lock()
		x.building = false
		save := err == nil && b.maxSeq >= saveAfter && !x.saving
		if err == nil {
			x.graphs, x.maxSeq, x.tombSeq, x.loaded = b.graphs, b.maxSeq, b.tombSeq, true
			x.saving = x.saving || save
		}
		x.mu.Unlock()
		if err != nil {
			if x.ctx.Err() == nil {
				x.s.log.Warn("build knowledge index (queries scan exactly until a build succeeds)", "err", err)
			}
			return
		}
		x.s.log.Info("knowledge index built", "entries", b.maxSeq, "took", time.Since(start).Round(time.Millisecond))
		if save {
			x.save(x.ctx)
			x.mu.Lock()
			x.saving = false
			x.mu.Unlock()
		}
	}()
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
		if knowledge.Norm(v) == 0 {
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
	if knowledge.Norm(v) == 0 || n <= 0 {
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

// exactNearest is Nearest by an exact scan of the stored vectors, for the
// time a first index build runs: slower per query than the index, but exact
// and available at once.
func (k *Knowledge) exactNearest(ctx context.Context, hive, model string, v []float32, n int) ([]string, error) {
	if knowledge.Norm(v) == 0 || n <= 0 {
		return nil, nil
	}
	rows, err := k.s.db.QueryContext(ctx, `SELECT seq, id, vector FROM knowledge_entries
		WHERE model = ? AND (? = '' OR hive = ?)`, model, hive, hive)
	if err != nil {
		return nil, wrapInternal("scan vectors", err)
	}
	defer rows.Close()
	type hit struct {
		seq int64
		id  string
		sim float64
	}
	var hits []hit
	for rows.Next() {
		var h hit
		var blob []byte
		if err := rows.Scan(&h.seq, &h.id, &blob); err != nil {
			return nil, wrapInternal("scan vectors", err)
		}
		u, err := knowDecodeVector(blob)
		if err != nil || len(u) != len(v) || knowledge.Norm(u) == 0 {
			continue // another dimension, or similar to nothing
		}
		h.sim = knowledge.Cosine(v, u)
		hits = append(hits, h)
	}
	if err := rows.Err(); err != nil {
		return nil, wrapInternal("scan vectors", err)
	}
	sort.Slice(hits, func(i, j int) bool {
		if hits[i].sim != hits[j].sim {
			return hits[i].sim > hits[j].sim
		}
		return hits[i].seq < hits[j].seq
	})
	out := make([]string, 0, min(n, len(hits)))
	for _, h := range hits[:min(n, len(hits))] {
		out = append(out, h.id)
	}
	return out, nil
}
