package s3

import (
	"context"
	"slices"
	"sync"
)

// maxCoalesce bounds the changes one manifest compare-and-swap carries.
const maxCoalesce = 64

// manifestOp is one logical change to a room's manifest waiting to join a
// compare-and-swap: fn as update takes it, and its own answer.
type manifestOp struct {
	ctx   context.Context
	fn    func(m *manifest, exists bool) (bool, error)
	wrote bool
	err   error
	done  chan struct{}
	lead  chan struct{}
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
}

// updateManifest is update on a room's manifest, joined with the changes
// other goroutines of this process make to the same manifest meanwhile: the
// first to arrive leads, applies every queued change in turn to one copy
// (each on a clone, so a refused change leaves no trace) and writes them
// with one compare-and-swap, retried as a whole. The write carries one id
// in the manifest's _cas mark, so a lost answer read back as landed is
// landed for every change in it. It reports whether fn's change was
// written.
func (s *Store) updateManifest(ctx context.Context, key string, fn func(m *manifest, exists bool) (bool, error)) (bool, error) {
	op := &manifestOp{ctx: ctx, fn: fn, done: make(chan struct{}), lead: make(chan struct{})}
	c := &s.coalesce
	c.mu.Lock()
	if c.keys == nil {
		c.keys = map[string]*opQueue{}
	}
	q, busy := c.keys[key]
	if !busy {
		q = &opQueue{}
		c.keys[key] = q
	}
	q.pending = append(q.pending, op)
	c.mu.Unlock()
	if busy {
		select {
		case <-op.done:
			return op.wrote, op.err
		case <-op.lead:
		}
	}
	s.leadManifest(key, q)
	<-op.done
	return op.wrote, op.err
}

// leadManifest writes one batch of queued changes and passes the lead on.
func (s *Store) leadManifest(key string, q *opQueue) {
	c := &s.coalesce
	c.mu.Lock()
	n := min(len(q.pending), maxCoalesce)
	batch := append([]*manifestOp(nil), q.pending[:n]...)
	q.pending = append(q.pending[:0], q.pending[n:]...)
	c.mu.Unlock()

	// The write carries every change, so no one caller's cancellation may
	// end it; a caller cancelled before it starts is left out.
	live := batch[:0:0]
	for _, op := range batch {
		if err := op.ctx.Err(); err != nil {
			op.err = err
			continue
		}
		live = append(live, op)
	}
	if len(live) > 0 {
		ctx := context.WithoutCancel(live[0].ctx)
		changed, err := update(ctx, s, key, func(m *manifest, exists bool) (bool, error) {
			wrote := false
			for _, op := range live {
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
		for _, op := range live {
			switch {
			case err != nil:
				op.wrote, op.err = false, err
			case !changed:
				op.wrote = false
			}
		}
	}
	for _, op := range batch {
		close(op.done)
	}

	c.mu.Lock()
	if len(q.pending) > 0 {
		close(q.pending[0].lead)
	} else {
		delete(c.keys, key)
	}
	c.mu.Unlock()
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
