package s3

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"pumasi"
)

// maxCoalesce bounds the changes one manifest compare-and-swap carries.
const maxCoalesce = 64

// defaultStallPatience is how long a batch of changes to one manifest may
// run before the changes queued behind it start a batch of their own: a
// manifest write takes tens of milliseconds, so a batch past this is
// waiting on a stalled reply, and the room must not wait with it.
const defaultStallPatience = 2 * time.Second

// maxBatchRunners bounds the batches of one manifest in flight at once, so
// that a store that stopped answering costs a few goroutines per room, each
// ended by its deadline.
const maxBatchRunners = 4

// manifestOp is one logical change to a room's manifest waiting to join a
// compare-and-swap: fn as update takes it, and its own answer.
type manifestOp struct {
	ctx   context.Context
	fn    func(m *manifest, exists bool) (bool, error)
	wrote bool
	err   error
	done  chan struct{} // closed when wrote and err are final
	taken bool          // in a batch (under coalescer.mu)
}

// coalescer queues manifest changes by key (one room's manifest) so that
// the concurrent uploads, deletes and placements of one process share one
// compare-and-swap instead of racing each other into 412s.
type coalescer struct {
	mu   sync.Mutex
	keys map[string]*opQueue
}

type opQueue struct {
	pending []*manifestOp
	runners int // goroutines writing batches of this key
	stalled int // of them, those whose batch has run past stallPatience
}

// updateManifest is update on a room's manifest, joined with the changes
// other goroutines of this process make to the same manifest meanwhile: a
// runner goroutine takes the queued changes, applies each in turn to one
// copy (each on a clone, so a refused change leaves no trace) and writes
// them with one compare-and-swap, retried as a whole under the store's own
// deadline, so no caller's cancellation ends a write that carries others'
// changes. The write carries one id in the manifest's _cas mark, so a lost
// answer read back as landed is landed for every change in it. It reports
// whether fn's change was written.
//
// The caller waits at most as long as its ctx: if ctx ends while its change
// is still queued, it is dropped and the answer is unavailable (nothing was
// sent); if its batch is in flight, the answer is an unknown outcome, as the
// write may still land. A batch that runs past stallPatience lets the
// changes behind it go ahead in a batch of their own.
func (s *Store) updateManifest(ctx context.Context, key string, fn func(m *manifest, exists bool) (bool, error)) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, gaveUp(ctx, key, "before its change was queued")
	}
	op := &manifestOp{ctx: ctx, fn: fn, done: make(chan struct{})}
	c := &s.coalesce
	c.mu.Lock()
	if c.keys == nil {
		c.keys = map[string]*opQueue{}
	}
	q := c.keys[key]
	if q == nil {
		q = &opQueue{}
		c.keys[key] = q
	}
	q.pending = append(q.pending, op)
	s.startRunner(key, q)
	c.mu.Unlock()

	select {
	case <-op.done:
		return op.wrote, op.err
	case <-ctx.Done():
	}
	c.mu.Lock()
	taken := op.taken
	if !taken {
		q.pending = slices.DeleteFunc(q.pending, func(o *manifestOp) bool { return o == op })
	}
	c.mu.Unlock()
	if !taken {
		return false, gaveUp(ctx, key, "while earlier changes were written")
	}
	select {
	case <-op.done:
		return op.wrote, op.err
	default:
	}
	return false, pumasi.OutcomeUnknown(fmt.Errorf("update %s: stopped waiting for a write in flight: %w", key, context.Cause(ctx)))
}

// gaveUp is the answer to a caller whose ctx ended before its change was
// sent: nothing was applied. A deadline is unavailable (503, retry later).
func gaveUp(ctx context.Context, key, when string) error {
	err := fmt.Errorf("update %s: gave up %s: %w", key, when, context.Cause(ctx))
	if errors.Is(ctx.Err(), context.Canceled) {
		return err
	}
	return pumasi.Unavailable(objectStore, err)
}

// startRunner starts a runner for q unless one is already running a batch
// that has not stalled. The caller holds the coalescer's lock.
func (s *Store) startRunner(key string, q *opQueue) {
	if len(q.pending) == 0 || q.runners > q.stalled || q.runners >= maxBatchRunners {
		return
	}
	q.runners++
	go s.runBatches(key, q)
}

// runBatches writes batches of q's changes until none is queued.
func (s *Store) runBatches(key string, q *opQueue) {
	c := &s.coalesce
	for {
		c.mu.Lock()
		if len(q.pending) == 0 {
			q.runners--
			if q.runners == 0 {
				delete(c.keys, key)
			}
			c.mu.Unlock()
			return
		}
		n := min(len(q.pending), maxCoalesce)
		batch := slices.Clone(q.pending[:n])
		q.pending = slices.Delete(q.pending, 0, n)
		for _, op := range batch {
			op.taken = true
		}
		c.mu.Unlock()

		// Past stallPatience this runner counts as stalled, and changes
		// queued behind it get a runner of their own.
		var stalled, ended bool
		t := time.AfterFunc(s.stallPatience, func() {
			c.mu.Lock()
			defer c.mu.Unlock()
			if ended {
				return
			}
			stalled = true
			q.stalled++
			s.startRunner(key, q)
		})
		s.writeBatch(key, batch)
		t.Stop()
		c.mu.Lock()
		ended = true
		if stalled {
			q.stalled--
		}
		c.mu.Unlock()
	}
}

// writeBatch writes one batch of changes and answers each of them. A change
// whose caller has stopped waiting is left out of the attempts made after.
func (s *Store) writeBatch(key string, batch []*manifestOp) {
	ctx, cancel := context.WithTimeout(context.Background(), s.timeouts.batch())
	defer cancel()
	changed, err := update(ctx, s, key, func(m *manifest, exists bool) (bool, error) {
		wrote := false
		for _, op := range batch {
			if err := op.ctx.Err(); err != nil {
				op.wrote, op.err = false, err
				continue
			}
			cp := m.clone()
			w, err := op.fn(&cp, exists)
			op.wrote, op.err = w && err == nil, err
			if op.wrote {
				*m = cp
				wrote = true
			}
		}
		return wrote, nil
	})
	for _, op := range batch {
		switch {
		case err != nil:
			op.wrote, op.err = false, err
		case !changed:
			op.wrote = false
		}
		if op.wrote {
			pumasi.NoteApplied(op.ctx)
		}
		close(op.done)
	}
}

// clone copies m deeply enough that changing the copy's lists leaves m alone.
func (m *manifest) clone() manifest {
	cp := *m
	cp.Files = slices.Clone(m.Files)
	cp.Placements = slices.Clone(m.Placements)
	cp.Log = slices.Clone(m.Log)
	cp.Changes = slices.Clone(m.Changes)
	cp.Segs = slices.Clone(m.Segs)
	return cp // Deleted is copied on write (forget, remember).
}
