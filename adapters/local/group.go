package local

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"
)

// maxGroup bounds the uploads one group commit applies; the rest wait for
// the next group.
const maxGroup = 64

// putOp is one upload waiting for a group commit: its body is already in a
// synced temp file. apply runs inside the group's transaction, under its
// own savepoint; res and err are its answer once done is closed.
type putOp struct {
	ctx   context.Context
	apply func(ctx context.Context, tx txStmts, g *groupTx) error
	// undo runs when the op's savepoint is rolled back or the group fails:
	// it forgets what apply recorded (a placed blob, a replaced one).
	undo func()
	err  error
	done chan struct{}
	lead chan struct{}
}

// groupTx is what the members of one group share besides the transaction:
// the room directories whose new entries must be synced before the commit,
// and each room's usage, read once per group and kept current by the
// members applied so far (a member updates it only once nothing of its own
// can fail any more).
type groupTx struct {
	dirs  map[string]bool
	usage map[string]*usage
}

type usage struct {
	files int
	bytes int64
}

// roomUsage returns room's file count and bytes as the group's transaction
// sees them so far.
func (g *groupTx) roomUsage(ctx context.Context, tx txStmts, room string) (*usage, error) {
	if u, ok := g.usage[room]; ok {
		return u, nil
	}
	u := &usage{}
	// Kept by triggers on files (migration 0011); no row means no files.
	err := tx.QueryRowContext(ctx, `SELECT files, bytes FROM rooms WHERE room_id = ?`, room).Scan(&u.files, &u.bytes)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("room usage: %w", err)
	}
	g.usage[room] = u
	return u, nil
}

// grouper queues uploads for group commit. The first upload to arrive while
// no group is being committed leads: it takes every queued upload (its own
// included) into one write transaction, one sync of each room directory
// touched and one sync of the WAL, then hands the lead to the oldest upload
// that queued meanwhile. So concurrent uploads share their fsyncs, and no
// leader waits for more than the group it started.
type grouper struct {
	mu      sync.Mutex
	pending []*putOp
	leading bool
	// commits counts the groups committed, for tests and the bench.
	commits int64
}

// commitPut applies op in a group commit and returns its error once the
// group is durable: the blobs' directory entries are synced before the
// rows commit, and the WAL after, so nothing is acknowledged before it
// would survive a power loss.
func (s *Store) commitPut(op *putOp) error {
	op.done = make(chan struct{})
	op.lead = make(chan struct{})
	g := &s.group
	g.mu.Lock()
	g.pending = append(g.pending, op)
	leader := !g.leading
	g.leading = true
	g.mu.Unlock()
	if !leader {
		select {
		case <-op.done:
			return op.err
		case <-op.lead:
		}
	}
	// Leading commits the group this op is in.
	s.leadGroup()
	<-op.done
	return op.err
}

// leadGroup commits one group of queued uploads and passes the lead on.
// The lead passes as soon as the group's transaction has committed: the
// next group applies its rows and syncs its directories while this one
// waits for the WAL sync that makes it durable, so the two overlap.
func (s *Store) leadGroup() {
	g := &s.group
	g.mu.Lock()
	n := min(len(g.pending), maxGroup)
	batch := append([]*putOp(nil), g.pending[:n]...)
	rest := copy(g.pending, g.pending[n:])
	// The slots past the queue still point at taken ops, and through their
	// closures at upload bodies: clear them, or an idle store keeps up to
	// a group's worth of bodies alive.
	clear(g.pending[rest:])
	g.pending = g.pending[:rest]
	g.commits++
	g.mu.Unlock()

	applied, err := s.commitGroup(batch)

	g.mu.Lock()
	if len(g.pending) > 0 {
		close(g.pending[0].lead)
	} else {
		g.leading = false
	}
	g.mu.Unlock()

	if err == nil {
		// With synchronous(NORMAL) a commit reaches the WAL unsynced; one
		// sync here (shared with other writers) makes the whole group
		// durable before any answer, an "unchanged" one included: the row
		// it found may be an earlier commit not synced yet.
		err = s.durable()
	}
	for i, op := range batch {
		if err != nil && (applied[i] || op.err == nil) {
			op.err = err
			op.undo()
		}
		close(op.done)
	}
}

// commitGroup runs batch in one write transaction and reports which members
// were applied. Each member gets a
// savepoint: a member refused (precondition, quota, name conflict) or
// failing on its own is rolled back alone, and the others commit. Only a
// failure of the transaction itself (begin, a savepoint, the directory
// sync, the commit) fails every member.
func (s *Store) commitGroup(batch []*putOp) (applied []bool, err error) {
	// The transaction carries every member, so no one member's
	// cancellation may end it; a member cancelled before its turn is
	// skipped instead.
	ctx := context.WithoutCancel(batch[0].ctx)
	applied = make([]bool, len(batch))
	g := &groupTx{dirs: map[string]bool{}, usage: map[string]*usage{}}
	err = s.writeTxMarked(ctx, func(sqltx *sql.Tx) error {
		tx := s.reads.inTx(sqltx)
		for i, op := range batch {
			if err := op.ctx.Err(); err != nil {
				op.err = err
				continue
			}
			if _, err := tx.ExecContext(ctx, `SAVEPOINT put`); err != nil {
				return fmt.Errorf("savepoint: %w", err)
			}
			if err := op.apply(ctx, tx, g); err != nil {
				op.err = err
				op.undo()
				if _, err := tx.ExecContext(ctx, `ROLLBACK TO put`); err != nil {
					return fmt.Errorf("rollback to savepoint: %w", err)
				}
			} else {
				applied[i] = true
			}
			if _, err := tx.ExecContext(ctx, `RELEASE put`); err != nil {
				return fmt.Errorf("release savepoint: %w", err)
			}
		}
		// The blobs' names must be durable before any row naming them.
		for dir := range g.dirs {
			if err := syncDir(dir); err != nil {
				return fmt.Errorf("sync %s: %w", dir, err)
			}
		}
		return nil
	}, true)
	return applied, err
}
