package local

import "sync"

// walSync shares WAL syncs between writers. With synchronous(NORMAL) a
// commit reaches <db>-wal unsynced: a process crash keeps it, a power loss
// may not. Every write that is acknowledged (an upload's group, a delete, a
// placement, a contribution) waits for a sync that began after its commit,
// and writers that commit while one sync runs share the next one, so a
// burst of writes costs a few fsyncs, not one each.
type walSync struct {
	mu   sync.Mutex
	cond *sync.Cond
	// asked counts the tickets handed out: one per commit that must be made
	// durable, taken after that commit.
	asked uint64
	// running is set while one caller syncs for everyone.
	running bool
	// upTo and err are the last finished sync: it covered every ticket up
	// to upTo, and failed with err (nil when it succeeded).
	upTo uint64
	err  error
	// syncs counts the syncs run, for tests.
	syncs uint64
}

// durable returns once every transaction this process committed before the
// call is synced to disk, or the error of the sync that should have done it.
// It must not be called with the write lock held by a caller that another
// durable caller waits on (it takes no lock of the store itself).
func (s *Store) durable() error {
	w := &s.wal
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.cond == nil {
		w.cond = sync.NewCond(&w.mu)
	}
	w.asked++
	ticket := w.asked
	for {
		if w.upTo >= ticket {
			// The newest finished sync covering this ticket decides: an
			// older failed one is healed by a later success.
			return w.err
		}
		if !w.running {
			w.running = true
			start := w.asked
			w.mu.Unlock()
			err := s.syncWAL()
			w.mu.Lock()
			w.running = false
			w.upTo, w.err = start, err
			w.syncs++
			w.cond.Broadcast()
			continue
		}
		w.cond.Wait()
	}
}
