package local

import (
	"fmt"
	"sync"
)

// walSync shares WAL syncs between writers. With synchronous(NORMAL) a
// commit reaches <db>-wal unsynced: a process crash keeps it, a power loss
// may not. Every answer about a write (an upload's group, a delete, a
// placement, a contribution, and an upload found unchanged) waits until the
// commits this process made before it are synced, and writers that commit
// while one sync runs share the next one, so a burst of writes costs a few
// fsyncs, not one each.
type walSync struct {
	mu   sync.Mutex
	cond *sync.Cond
	// commits counts this process's commits; synced is how many of them
	// the last successful sync covered (those made before it began).
	commits, synced uint64
	// running is set while one caller syncs for everyone.
	running bool
	// failed is the first sync error. It sticks: after a failed fsync the
	// kernel may have dropped the unwritten pages, so no later sync can
	// vouch for them, and every later answer is an error until the store
	// is opened again (PostgreSQL treats a failed fsync the same way).
	failed error
	// syncs counts the syncs run, and beforeSync (when set) runs before
	// each, for tests.
	syncs      uint64
	beforeSync func()
}

// Healthy returns the WAL sync failure that stops this store from
// acknowledging writes, nil while it can (GET /healthz answers 503 then).
func (s *Store) Healthy() error {
	s.wal.mu.Lock()
	defer s.wal.mu.Unlock()
	return s.wal.failed
}

// committed records one commit of this process; durable waits for it.
func (s *Store) committed() {
	w := &s.wal
	w.mu.Lock()
	w.commits++
	w.mu.Unlock()
}

// durable returns once every commit this process made before the call is
// synced to disk; when none is pending it returns at once. After a sync
// has failed it returns that failure, always. It takes no lock of the
// store, so it may be called with the write lock held.
func (s *Store) durable() error {
	w := &s.wal
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.cond == nil {
		w.cond = sync.NewCond(&w.mu)
	}
	target := w.commits
	for {
		switch {
		case w.failed != nil:
			return w.failed
		case w.synced >= target:
			return nil
		case !w.running:
			w.running = true
			start := w.commits
			hook := w.beforeSync
			w.mu.Unlock()
			if hook != nil {
				hook()
			}
			err := s.syncWAL()
			w.mu.Lock()
			w.running = false
			w.syncs++
			if err != nil {
				w.failed = fmt.Errorf("%w (the store must be reopened: writes since the last good sync may not be on disk)", err)
				s.log.Error("WAL sync failed; every write answers an error until the store is reopened", "err", err)
			} else {
				w.synced = max(w.synced, start)
			}
			w.cond.Broadcast()
		default:
			w.cond.Wait()
		}
	}
}
