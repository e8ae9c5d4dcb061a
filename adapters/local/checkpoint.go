package local

import (
	"context"
	"time"
)

// Writers never checkpoint the WAL. SQLite's automatic checkpoint runs in
// the commit that takes the WAL past 1,000 pages: it copies pages into the
// database and syncs it, and every writer queued behind the process's write
// lock waited it out (merges at 20k entries: p99 20.8 ms with it, 2.2–3.3 ms
// without). Connections open with wal_autocheckpoint(0), and a goroutine
// runs a PASSIVE checkpoint instead, which never blocks a writer or a
// reader: after checkpointEvery commits, or each checkpointIdle while any
// commit came since the last.
const (
	checkpointEvery = 256
	checkpointIdle  = time.Second
)

// checkpointer is the Store's background checkpoint goroutine.
type checkpointer struct {
	kick chan struct{}
	stop chan struct{}
	done chan struct{}
}

// startCheckpointer starts the goroutine; Close stops it before the
// database closes.
func (s *Store) startCheckpointer() {
	c := &s.ckpt
	c.kick, c.stop, c.done = make(chan struct{}, 1), make(chan struct{}), make(chan struct{})
	go func() {
		defer close(c.done)
		t := time.NewTicker(checkpointIdle)
		defer t.Stop()
		var last uint64
		for {
			select {
			case <-c.stop:
				return
			case <-c.kick:
			case <-t.C:
			}
			s.wal.mu.Lock()
			n := s.wal.commits
			s.wal.mu.Unlock()
			if n == last {
				continue
			}
			last = n
			if _, err := s.db.ExecContext(context.Background(), `PRAGMA wal_checkpoint(PASSIVE)`); err != nil {
				s.log.Warn("WAL checkpoint (retried after the next commits)", "err", err)
			}
		}
	}()
}

// kickCheckpoint asks for a checkpoint soon, without waiting.
func (s *Store) kickCheckpoint() {
	select {
	case s.ckpt.kick <- struct{}{}:
	default:
	}
}

// stopCheckpointer ends the goroutine; safe when it never started.
func (s *Store) stopCheckpointer() {
	if s.ckpt.stop != nil {
		close(s.ckpt.stop)
		<-s.ckpt.done
		s.ckpt.stop = nil
	}
}
