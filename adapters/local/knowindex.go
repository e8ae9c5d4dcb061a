package local

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"pumasi/internal/nearest"
	"pumasi/knowledge"
)

// indexKey names one set of vectors: a search compares only vectors of
// one model and dimension (a stray vector of another length stays apart
// instead of failing its model's set), within a hive or across all.
type indexKey struct {
	hive, model string
	dim         int
}

// knowIndex is a process's in-memory copy of the home's knowledge vectors as
// 8-bit codes, one nearest.Index per (hive, model, dimension), searched
// exhaustively.
// Entries only ever appear with a growing seq or disappear through a
// tombstone (re-embedding moves an entry to a new seq and tombstones the
// old), so (max entry seq, max tombstone seq) says how far it is current,
// and catching up reads only what changed. It holds nothing but the live
// entries: a deleted entry's code is overwritten, a set left empty is
// dropped, and nothing is written to disk.
type knowIndex struct {
	s  *Store
	mu sync.RWMutex
	// sets reflect the database up to maxSeq (entries) and tombSeq
	// (tombstones).
	sets            map[indexKey]*nearest.Index
	maxSeq, tombSeq int64
	// apply is held by the one catch-up that runs, inline or in the
	// background; catching (under mu) says a background one runs.
	apply    sync.Mutex
	catching bool
	// inline is the most pending entries a query applies itself: it would
	// read them anyway to scan them exactly. More are applied in the
	// background while queries scan the rest exactly.
	inline int64
	// hook, when set (tests), runs at the start of a background catch-up.
	hook func(ctx context.Context)
	// ctx ends at close, stopping a background catch-up; wg waits for it.
	// closed (under mu) keeps a query after close from starting one.
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	closed bool
}

// defaultInline bounds the catch-up a query does itself (a few
// milliseconds of reading rows).
const defaultInline = 2000

// catchUpBatch is how many entries a catch-up reads per statement, so no
// read transaction stays open for long and queries see it progress.
const catchUpBatch = 5000

func newKnowIndex(s *Store) *knowIndex {
	ctx, cancel := context.WithCancel(context.Background())
	x := &knowIndex{s: s, sets: map[indexKey]*nearest.Index{}, inline: defaultInline, ctx: ctx, cancel: cancel}
	x.removeSaved()
	return x
}

// removeSaved deletes <home>/knowledge-index, where earlier versions saved
// HNSW graphs (their .tmp-* files too): they hold codes of entries the
// database may have redacted since, and nothing reads them any more.
func (x *knowIndex) removeSaved() {
	dir := filepath.Join(x.s.home, "knowledge-index")
	if _, err := os.Lstat(dir); err != nil {
		return
	}
	if err := os.RemoveAll(dir); err != nil {
		x.s.log.Warn("remove the saved knowledge index of an earlier version", "dir", dir, "err", err)
	}
}

// close stops a background catch-up and waits for it.
func (x *knowIndex) close() {
	x.mu.Lock()
	x.closed = true
	x.mu.Unlock()
	x.cancel()
	x.wg.Wait()
}

// dbState reads how far the database is: its highest entry and tombstone
// seqs.
func (x *knowIndex) dbState(ctx context.Context) (maxSeq, tombSeq int64, err error) {
	err = x.s.db.QueryRowContext(ctx, `SELECT COALESCE((SELECT MAX(seq) FROM knowledge_entries), 0),
		COALESCE((SELECT MAX(seq) FROM knowledge_tombstones), 0)`).Scan(&maxSeq, &tombSeq)
	if err != nil {
		return 0, 0, fmt.Errorf("read knowledge state: %w", err)
	}
	return maxSeq, tombSeq, nil
}

// refresh brings the index up to the database when that is a short
// catch-up nobody else is doing, and otherwise starts (or leaves running) a
// catch-up in the background. It reports whether the index is current; when
// it is not, the caller scans what the index lacks exactly.
func (x *knowIndex) refresh(ctx context.Context) (bool, error) {
	maxSeq, tombSeq, err := x.dbState(ctx)
	if err != nil {
		return false, err
	}
	x.mu.RLock()
	current := x.maxSeq >= maxSeq && x.tombSeq >= tombSeq
	pending, busy := maxSeq-x.maxSeq, x.catching || x.closed
	x.mu.RUnlock()
	if current {
		return true, nil
	}
	if !busy && pending <= x.inline && x.apply.TryLock() {
		_, err := x.catchUp(ctx)
		x.apply.Unlock()
		if err != nil {
			return false, err
		}
		x.mu.RLock()
		defer x.mu.RUnlock()
		return x.maxSeq >= maxSeq && x.tombSeq >= tombSeq, nil
	}
	x.catchUpInBackground()
	return false, nil
}

// catchUpInBackground starts a background catch-up unless one runs or the
// index is closed.
func (x *knowIndex) catchUpInBackground() {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.catching || x.closed {
		return
	}
	x.catching = true
	x.wg.Add(1)
	go func() {
		defer x.wg.Done()
		start := time.Now()
		if x.hook != nil {
			x.hook(x.ctx)
		}
		x.apply.Lock()
		err := x.catchUpAll(x.ctx)
		if err == nil {
			x.trim()
		}
		x.apply.Unlock()
		x.mu.Lock()
		x.catching = false
		entries := x.lenLocked()
		x.mu.Unlock()
		if err != nil {
			if x.ctx.Err() == nil {
				x.s.log.Warn("catch up the knowledge index (queries scan exactly what it lacks)", "err", err)
			}
			return
		}
		x.s.log.Info("knowledge index caught up", "entries", entries, "took", time.Since(start).Round(time.Millisecond))
	}()
}

// wait brings the index up to the database, waiting for a background
// catch-up if one runs.
func (x *knowIndex) wait(ctx context.Context) error {
	x.apply.Lock()
	defer x.apply.Unlock()
	x.mu.RLock()
	closed := x.closed
	x.mu.RUnlock()
	if closed {
		return errors.New("knowledge index closed")
	}
	return x.catchUpAll(ctx)
}

// catchUp applies the entries and tombstones written since the index's
// state, up to the database's state as it reads it first, and reports
// whether there was anything to apply; x.apply is held. Entries are read in
// batches outside x.mu and added under it, then the tombstones up to that
// state, read after them, so an entry tombstoned meanwhile goes again.
func (x *knowIndex) catchUp(ctx context.Context) (bool, error) {
	maxSeq, tombSeq, err := x.dbState(ctx)
	if err != nil {
		return false, err
	}
	x.mu.RLock()
	from, fromTomb := x.maxSeq, x.tombSeq
	x.mu.RUnlock()
	if from >= maxSeq && fromTomb >= tombSeq {
		return false, nil
	}
	for from < maxSeq {
		if from, err = x.addBatch(ctx, from, maxSeq); err != nil {
			return true, err
		}
	}
	return true, x.dropSince(ctx, fromTomb, tombSeq)
}

// catchUpAll runs catch-ups until one finds nothing to apply; x.apply is
// held.
func (x *knowIndex) catchUpAll(ctx context.Context) error {
	for {
		if more, err := x.catchUp(ctx); err != nil || !more {
			return err
		}
	}
}

// indexVector is one entry read for the index.
type indexVector struct {
	seq int64
	key indexKey
	v   []float32
}

// addBatch adds up to catchUpBatch entries above seq and returns the seq
// the index then reaches: upTo (the database's highest seq when the
// catch-up began) when there is no entry above seq.
func (x *knowIndex) addBatch(ctx context.Context, seq, upTo int64) (int64, error) {
	rows, err := x.s.db.QueryContext(ctx, `SELECT seq, hive, model, vector FROM knowledge_entries
		WHERE seq > ? ORDER BY seq LIMIT ?`, seq, catchUpBatch)
	if err != nil {
		return seq, fmt.Errorf("load vectors: %w", err)
	}
	defer rows.Close()
	var batch []indexVector
	last := seq
	for rows.Next() {
		var e indexVector
		var blob []byte
		if err := rows.Scan(&e.seq, &e.key.hive, &e.key.model, &blob); err != nil {
			return seq, fmt.Errorf("load vectors: %w", err)
		}
		last = e.seq
		if e.v, err = knowDecodeVector(blob); err != nil {
			x.s.log.Warn("knowledge vector unreadable; left out of the index", "seq", e.seq, "err", err)
			continue
		}
		if knowledge.Norm(e.v) == 0 {
			continue // similar to nothing
		}
		e.key.dim = len(e.v)
		batch = append(batch, e)
	}
	if err := rows.Err(); err != nil {
		return seq, fmt.Errorf("load vectors: %w", err)
	}
	if last == seq {
		// Nothing above seq any more (the top entries were deleted or
		// moved up since the state was read): the index is as far as
		// the database, as a later entry gets a higher seq.
		last = upTo
	}
	// Each set has its own lock: x.mu is taken only to find or drop a set
	// and to move the state, so searches go on while a batch is added (an
	// entry found before the state moves is found twice at most, and
	// counted once).
	for _, e := range batch {
		set := x.set(e.key)
		if err := set.Add(uint64(e.seq), e.v); err != nil {
			// NaN or Inf: the entry is left out (an exact scan finds it
			// similar to nothing too).
			x.s.log.Warn("knowledge vector left out of the index", "seq", e.seq, "model", e.key.model, "err", err)
			x.dropIfEmpty(e.key, set)
		}
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	x.maxSeq = max(x.maxSeq, last)
	return x.maxSeq, nil
}

// set returns the set of key, made if missing.
func (x *knowIndex) set(key indexKey) *nearest.Index {
	x.mu.Lock()
	defer x.mu.Unlock()
	set := x.sets[key]
	if set == nil {
		set = nearest.New(key.dim)
		x.sets[key] = set
	}
	return set
}

// dropIfEmpty forgets key's set when it holds nothing; only the one
// catch-up that runs adds to sets, so it stays empty.
func (x *knowIndex) dropIfEmpty(key indexKey, set *nearest.Index) {
	if set.Len() > 0 {
		return
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.sets[key] == set {
		delete(x.sets, key)
	}
}

// dropSince removes the entries of tombstones in (from, to] and drops sets
// left empty.
func (x *knowIndex) dropSince(ctx context.Context, from, to int64) error {
	rows, err := x.s.db.QueryContext(ctx, `SELECT entry_seq, hive, model FROM knowledge_tombstones
		WHERE seq > ? AND seq <= ?`, from, to)
	if err != nil {
		return fmt.Errorf("load tombstones: %w", err)
	}
	defer rows.Close()
	type gone struct {
		seq         int64
		hive, model string
	}
	var drop []gone
	for rows.Next() {
		var g gone
		if err := rows.Scan(&g.seq, &g.hive, &g.model); err != nil {
			return fmt.Errorf("load tombstones: %w", err)
		}
		drop = append(drop, g)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("load tombstones: %w", err)
	}
	for _, g := range drop {
		x.mu.RLock()
		var sets []indexKey // one per dimension the model has
		for key := range x.sets {
			if key.hive == g.hive && key.model == g.model {
				sets = append(sets, key)
			}
		}
		x.mu.RUnlock()
		for _, key := range sets {
			x.mu.RLock()
			set := x.sets[key]
			x.mu.RUnlock()
			if set != nil && set.Delete(uint64(g.seq)) {
				x.dropIfEmpty(key, set)
			}
		}
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	x.tombSeq = max(x.tombSeq, to)
	return nil
}

// trim gives back what growth left spare in each set, after a catch-up
// long enough to run in the background.
func (x *knowIndex) trim() {
	x.mu.RLock()
	defer x.mu.RUnlock()
	for _, set := range x.sets {
		set.Trim()
	}
}

// lenLocked counts the vectors held; x.mu is held.
func (x *knowIndex) lenLocked() int {
	n := 0
	for _, set := range x.sets {
		n += set.Len()
	}
	return n
}

// WaitIndex brings the vector index up to date, waiting for a background
// catch-up if one runs (bench and tests; queries never wait for one).
func (k *Knowledge) WaitIndex(ctx context.Context) error { return k.idx.wait(ctx) }

// IndexStats reports how many vectors the in-memory index holds, its
// resident bytes and how many (hive, model) sets it keeps.
func (k *Knowledge) IndexStats() (entries int, bytes int64, sets int) {
	k.idx.mu.RLock()
	defer k.idx.mu.RUnlock()
	for _, set := range k.idx.sets {
		entries += set.Len()
		bytes += set.Bytes()
	}
	return entries, bytes, len(k.idx.sets)
}
