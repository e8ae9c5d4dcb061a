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
	// the last successful sync covered (those made before it began);
	// fileCommit is the count at the last commit of an upload group, the
	// one kind of commit answered before its own sync ends.
	commits, synced, fileCommit uint64
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
	kick := w.commits%kickEvery == 0
	w.mu.Unlock()
	if kick {
		s.kickCheckpoint()
		if fileSize(s.walPath()) > s.ckpt.limit {
			s.awaitCheckpoint(restartWaitLong)
		}
	}
}

// markFileCommit marks the commit about to be made (the write lock is
// held, so it is the next one) as an upload group's, for durableFiles.
func (s *Store) markFileCommit() {
	s.wal.mu.Lock()
	s.wal.fileCommit = s.wal.commits + 1
	s.wal.mu.Unlock()
}

// durable returns once every commit this process made before the call is
// synced to disk; when none is pending it returns at once. After a sync
// has failed it returns that failure, always. It takes no lock of the
// store, so it may be called with the write lock held.
func (s *Store) durable() error {
	s.wal.mu.Lock()
	target := s.wal.commits
	s.wal.mu.Unlock()
	return s.durableUpTo(target)
}

// durableFiles is durable for an answer read from file rows (an upload
// found unchanged): it waits only for this process's upload groups, the
// commits of file rows that may not be synced yet (deletes are synced
// before they are answered), so status reports and sweeps pending do not
// make a re-delivery pay an fsync.
func (s *Store) durableFiles() error {
	w := &s.wal
	w.mu.Lock()
	failed, pending := w.failed, w.fileCommit > w.synced
	w.mu.Unlock()
	switch {
	case failed != nil:
		return failed
	case !pending:
		return nil
	}
	// The marked commit may not be counted yet (it is marked before it is
	// made), but the row was read, so it is in the WAL: any sync that
	// starts from here covers it.
	return s.syncAll()
}

// syncAll syncs the WAL even when this process has nothing pending: before
// a blob is unlinked, the commit that stopped referencing it may be another
// process's, not synced yet, and only a sync vouches for that.
func (s *Store) syncAll() error {
	s.wal.mu.Lock()
	s.wal.commits++ // stands for the other processes' commits
	target := s.wal.commits
	s.wal.mu.Unlock()
	return s.durableUpTo(target)
}

// durableUpTo returns once a sync covering this process's first target
// commits has finished (or with the sticky failure).
func (s *Store) durableUpTo(target uint64) error {
	w := &s.wal
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.cond == nil {
		w.cond = sync.NewCond(&w.mu)
	}
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
