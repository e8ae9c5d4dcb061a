package local

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"
)

// Writers never checkpoint the WAL. SQLite's automatic checkpoint runs in
// the commit that takes the WAL past 1,000 pages: it copies pages into the
// database and syncs it, and every writer queued behind the process's write
// lock waited it out (merges at 20k entries: p99 20.8 ms with it, 2.2–3.3 ms
// without). Connections open with wal_autocheckpoint(0), and a goroutine
// checkpoints instead: after checkpointEvery commits, or each
// checkpointIdle while any commit came since the last.
//
// A PASSIVE checkpoint never blocks a writer or a reader, but it cannot
// start the WAL over while readers keep using it: under sustained writes
// with concurrent readers the WAL grew without bound (398 MiB beside a
// 23 MiB database). So once the WAL file passes walTarget the checkpointer
// runs RESTART, which copies every frame and waits for the readers that
// still use the WAL to finish (new readers read the database), so that
// the next writer starts the WAL over; journal_size_limit then truncates
// the file to walTarget. RESTART holds the write lock while it waits, so
// it waits restartWait at most, and restartWaitLong once the WAL passes
// walLimit: writers pause that long rather than let the WAL grow.
// Readers are short (one statement or one listing), so a RESTART rarely
// waits at all. A writer that finds the WAL past walLimit (it looks every
// kickEvery commits) waits for the checkpointer's next pass, restartWaitLong
// at most: on a machine so busy that the goroutine is not scheduled, the
// WAL grew with every commit until it was (9 MiB beside a 2 MiB limit in a
// test under -race with every package's tests beside it), and a waiting
// writer gives it the CPU.
const (
	checkpointEvery = 256
	kickEvery       = 32
	checkpointIdle  = time.Second
	walTarget       = 16 << 20
	walLimit        = 40 << 20
	restartWait     = 100 * time.Millisecond
	restartWaitLong = time.Second
)

// busyTimeout is every connection's busy timeout, as the DSN sets it.
const busyTimeout = 10 * time.Second

// checkpointer is the Store's background checkpoint goroutine.
type checkpointer struct {
	kick chan struct{}
	stop chan struct{}
	done chan struct{}
	// target and limit are walTarget and walLimit (tests lower them).
	target, limit int64
	// restarts counts the RESTART checkpoints that finished; busy those
	// that readers kept from finishing.
	restarts, busy atomic.Int64
	// passed is closed when the goroutine finishes its next checkpoint,
	// and then made anew (under passMu): what an awaitCheckpoint waits on.
	passMu sync.Mutex
	passed chan struct{}
}

// walPath is the WAL file's path.
func (s *Store) walPath() string { return filepath.Join(s.home, "pumasi.db-wal") }

// startCheckpointer starts the goroutine; Close stops it before the
// database closes.
func (s *Store) startCheckpointer() {
	c := &s.ckpt
	if c.target == 0 {
		c.target, c.limit = walTarget, walLimit
	}
	c.kick, c.stop, c.done = make(chan struct{}, 1), make(chan struct{}), make(chan struct{})
	c.passed = make(chan struct{})
	go func() {
		defer close(c.done)
		t := time.NewTicker(checkpointIdle)
		defer t.Stop()
		var last uint64
		for {
			tick := false
			select {
			case <-c.stop:
				c.passMu.Lock()
				close(c.passed) // no pass will come: nobody waits for one
				c.passed = nil
				c.passMu.Unlock()
				return
			case <-c.kick:
			case <-t.C:
				tick = true
				s.keepReserve()
			}
			s.wal.mu.Lock()
			n := s.wal.commits
			s.wal.mu.Unlock()
			size := fileSize(s.walPath())
			switch {
			case size > c.target:
			case n == last, !tick && n-last < checkpointEvery:
				continue
			}
			last = n
			if err := s.checkpoint(size); err != nil {
				s.log.Warn("WAL checkpoint (retried after the next commits)", "err", err)
			}
			c.passMu.Lock()
			close(c.passed)
			c.passed = make(chan struct{})
			c.passMu.Unlock()
		}
	}()
}

// checkpoint runs one checkpoint for a WAL file of size bytes: PASSIVE
// while it is small, RESTART past the target.
func (s *Store) checkpoint(size int64) error {
	ctx := context.Background()
	c := &s.ckpt
	if size <= c.target {
		_, err := s.db.ExecContext(ctx, `PRAGMA wal_checkpoint(PASSIVE)`)
		return err
	}
	wait := restartWait
	if size > c.limit {
		wait = restartWaitLong
	}
	busy, err := s.restartWAL(ctx, wait)
	if err != nil {
		return err
	}
	if busy {
		c.busy.Add(1)
		s.log.Debug("WAL restart waited out by readers; retried", "wal_bytes", size)
	} else {
		c.restarts.Add(1)
	}
	return nil
}

// restartWAL runs a RESTART checkpoint on a connection of its own whose
// busy handler gives up after wait, and reports whether readers or a
// writer kept it from finishing.
func (s *Store) restartWAL(ctx context.Context, wait time.Duration) (busy bool, err error) {
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return false, fmt.Errorf("checkpoint: %w", err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, fmt.Sprintf(`PRAGMA busy_timeout = %d`, wait.Milliseconds())); err != nil {
		return false, fmt.Errorf("checkpoint: %w", err)
	}
	defer conn.ExecContext(ctx, fmt.Sprintf(`PRAGMA busy_timeout = %d`, busyTimeout.Milliseconds()))
	var b, logFrames, done int
	err = conn.QueryRowContext(ctx, `PRAGMA wal_checkpoint(RESTART)`).Scan(&b, &logFrames, &done)
	if err != nil {
		return false, fmt.Errorf("checkpoint: %w", err)
	}
	return b != 0, nil
}

// WALStats reports the checkpointer's RESTARTs: finished, and kept from
// finishing by readers. Tests and the bench read them.
func (s *Store) WALStats() (restarts, busy int64) {
	return s.ckpt.restarts.Load(), s.ckpt.busy.Load()
}

// kickCheckpoint asks for a checkpoint soon, without waiting.
func (s *Store) kickCheckpoint() {
	select {
	case s.ckpt.kick <- struct{}{}:
	default:
	}
}

// awaitCheckpoint asks for a checkpoint and waits until the checkpointer
// has run one, wait at most (or until it stops); at once when it is not
// running.
func (s *Store) awaitCheckpoint(wait time.Duration) {
	c := &s.ckpt
	c.passMu.Lock()
	passed := c.passed
	c.passMu.Unlock()
	if passed == nil {
		return
	}
	s.kickCheckpoint()
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-passed:
	case <-t.C:
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

// truncateWAL copies every WAL frame into the database and empties the WAL
// file (a TRUNCATE checkpoint), waiting up to busyTimeout for readers that
// still use it: a redaction's older page versions live there until then.
// Returns an error when readers kept it from finishing.
func (s *Store) truncateWAL(ctx context.Context) error {
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return fmt.Errorf("truncate wal: %w", err)
	}
	defer conn.Close()
	// The background checkpointer may hold the checkpoint lock (busy, -1
	// frames): try again a few times, a few milliseconds apart.
	var busy, logFrames, done int
	for attempt := 0; ; attempt++ {
		if err := conn.QueryRowContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`).Scan(&busy, &logFrames, &done); err != nil {
			return fmt.Errorf("truncate wal: %w", err)
		}
		if busy == 0 {
			return nil
		}
		if attempt == 20 {
			return fmt.Errorf("truncate wal: busy (%d of %d frames copied)", done, logFrames)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(10 * time.Millisecond):
		}
	}
}
