// Package local is the offline storage backend: metadata, placements and
// status in SQLite at <home>/pumasi.db, room file bodies as content-addressed
// blobs under <home>/room_files/<room>/<sha256>. Several processes may share
// one home; every invariant between rows and blobs is kept by SQLite write
// transactions, not by in-process locks.
package local

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	_ "modernc.org/sqlite" // Registers the "sqlite" driver.

	"pumasi"
)

// DefaultGrace is how old a temp file or unreferenced blob must be before a
// process that is not alone on its home removes it at boot.
const DefaultGrace = 10 * time.Minute

// maxConns bounds the pooled SQLite connections; connMaxIdle is how long
// one may sit unused before it is closed.
const (
	maxConns    = 16
	connMaxIdle = 15 * time.Second
)

// Options configures a Store. Zero values mean the defaults.
type Options struct {
	// Now is the clock for created_at, updated_at, placed_at and reported_at.
	Now func() time.Time
	// Logger receives cleanup and recovery notes.
	Logger *slog.Logger
	// MaxRoomFiles caps the files of one room (pumasi.DefaultMaxRoomFiles).
	MaxRoomFiles int
	// MaxRoomBytes caps the total size of one room (pumasi.DefaultMaxRoomBytes).
	MaxRoomBytes int64
	// Grace is the age past which boot cleanup removes leftovers when other
	// processes share the home (DefaultGrace).
	Grace time.Duration
	// History is how much of the rooms' past the store keeps; the zero
	// value keeps the defaults (pumasi.Retention).
	History pumasi.Retention
	// MinFree is the free space the home keeps (DefaultMinFree when zero,
	// none when negative): below it uploads and contributions answer
	// insufficient_storage and the disk health check fails (space.go).
	MinFree int64

	// walTarget and walLimit replace the checkpointer's thresholds in
	// tests (checkpoint.go); statfs the free-space reading (space.go).
	walTarget, walLimit int64
	statfs              func(path string) (int64, error)
}

// Store is the local backend. It is safe for concurrent use, also by other
// processes holding their own Store on the same home.
type Store struct {
	home     string
	filesDir string
	db       *sql.DB
	// reads runs the hot fixed-text reads (a room's rev, one file, a
	// machine's placements) as statements prepared once per connection.
	reads    *stmtCache
	now      func() time.Time
	log      *slog.Logger
	maxFiles int
	maxBytes int64
	grace    time.Duration
	history  pumasi.Retention

	// wmu serialises this process's write transactions. It only spares
	// SQLite's busy handler; correctness comes from BEGIN IMMEDIATE.
	wmu sync.Mutex
	// group queues uploads for a shared commit (group.go).
	group grouper
	// wal shares the WAL syncs that make acknowledged writes durable
	// (durable.go); ckpt checkpoints the WAL off the write path
	// (checkpoint.go).
	wal  walSync
	ckpt checkpointer
	// space watches the home's free space (space.go); blobs caches the
	// blobs' total size for DiskUsage (health.go).
	space space
	blobs blobWalk

	// rmu guards the blobs retired by this process's commits, oldest
	// first, and when they were last reaped (blob.go).
	rmu         sync.Mutex
	retired     []retired
	lastReap    time.Time
	retireGrace time.Duration

	lock *os.File
}

var _ pumasi.Store = (*Store)(nil)

// Open opens (creating if needed) the store at home, runs the migrations and
// cleans leftovers of crashed uploads: everything when no other process holds
// the home, else only items older than the grace period.
func Open(ctx context.Context, home string, opts Options) (*Store, error) {
	if strings.ContainsRune(home, '?') {
		return nil, fmt.Errorf("open store: home %q may not contain '?'", home)
	}
	s := &Store{
		home:     home,
		filesDir: filepath.Join(home, "room_files"),
		now:      opts.Now,
		log:      opts.Logger,
		maxFiles: opts.MaxRoomFiles,
		maxBytes: opts.MaxRoomBytes,
		grace:    opts.Grace,
		history:  opts.History.WithDefaults(),

		retireGrace: retireGrace,
	}
	if s.now == nil {
		s.now = time.Now
	}
	if s.log == nil {
		s.log = slog.Default()
	}
	if s.maxFiles <= 0 {
		s.maxFiles = pumasi.DefaultMaxRoomFiles
	}
	if s.maxBytes <= 0 {
		s.maxBytes = pumasi.DefaultMaxRoomBytes
	}
	if s.grace <= 0 {
		s.grace = DefaultGrace
	}
	s.space.statfs = opts.statfs
	switch {
	case opts.MinFree == 0:
		s.space.minFree = DefaultMinFree
	case opts.MinFree > 0:
		s.space.minFree = opts.MinFree
	}
	if err := os.MkdirAll(s.filesDir, 0o755); err != nil {
		return nil, fmt.Errorf("open store: %w", err)
	}

	dsn := filepath.Join(home, "pumasi.db") +
		"?_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)&_pragma=foreign_keys(1)&_pragma=wal_autocheckpoint(0)" +
		// secure_delete: SQLite zeroes what a delete or an update frees, so a
		// redacted knowledge entry's text stays in no free cell or page.
		"&_pragma=secure_delete(1)" +
		fmt.Sprintf("&_pragma=journal_size_limit(%d)&_txlock=immediate", walTarget)
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("open db: %w", err)
	}
	db.SetMaxOpenConns(maxConns)
	db.SetMaxIdleConns(maxConns)
	// A connection holds its page cache (up to 2 MiB) and its statements
	// outside the Go heap: after a busy spell, idle ones are closed, so
	// that memory goes back to the system.
	db.SetConnMaxIdleTime(connMaxIdle)
	s.db = db
	s.reads = &stmtCache{db: db}
	if err := s.migrate(ctx); err != nil {
		db.Close()
		return nil, err
	}
	if err := s.fillLookalikeKeys(ctx); err != nil {
		db.Close()
		return nil, err
	}

	alone, err := s.takeLock()
	if err != nil {
		db.Close()
		return nil, err
	}
	var cleanErr error
	var rep pumasi.SweepReport
	if alone {
		rep, cleanErr = s.sweep(ctx, time.Time{}, true)
	} else {
		rep, cleanErr = s.sweep(ctx, time.Now().Add(-s.grace), false)
	}
	if alone {
		// Downgrade so later processes see the home is in use.
		if err := syscall.Flock(int(s.lock.Fd()), syscall.LOCK_SH); err != nil && cleanErr == nil {
			cleanErr = fmt.Errorf("lock home: %w", err)
		}
	}
	if cleanErr != nil {
		s.Close()
		return nil, fmt.Errorf("boot cleanup: %w", cleanErr)
	}
	if rep.TempFiles > 0 || rep.Blobs > 0 {
		s.log.Info("boot cleanup", "home", home, "alone", alone, "temp_files", rep.TempFiles, "blobs", rep.Blobs)
	}
	s.keepReserve()
	s.ckpt.target, s.ckpt.limit = opts.walTarget, opts.walLimit
	s.startCheckpointer()
	return s, nil
}

// takeLock reports whether this is the only process on the home: it tries an
// exclusive flock on <home>/.lock and, failing that, holds a shared one.
func (s *Store) takeLock() (alone bool, err error) {
	f, err := os.OpenFile(filepath.Join(s.home, ".lock"), os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return false, fmt.Errorf("lock home: %w", err)
	}
	s.lock = f
	err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if err == nil {
		return true, nil
	}
	if !errors.Is(err, syscall.EWOULDBLOCK) {
		return false, fmt.Errorf("lock home: %w", err)
	}
	// Blocks only while another process runs its own exclusive boot cleanup.
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_SH); err != nil {
		return false, fmt.Errorf("lock home: %w", err)
	}
	return false, nil
}

// Close releases the database and the home lock.
func (s *Store) Close() error {
	s.stopCheckpointer()
	s.reads.close()
	err := s.db.Close()
	if s.lock != nil {
		syscall.Flock(int(s.lock.Fd()), syscall.LOCK_UN)
		s.lock.Close()
		s.lock = nil
	}
	return err
}

// writeTx runs fn in a write (BEGIN IMMEDIATE) transaction and commits when
// fn returns nil. File system steps that must be atomic with the rows (blob
// renames and removals) belong inside fn: the write lock orders them against
// every other process's transaction. It returns once the commit is durable
// (see durable): an acknowledged write survives a power loss too.
func (s *Store) writeTx(ctx context.Context, fn func(tx *sql.Tx) error) error {
	if err := s.writeTxNoSync(ctx, fn); err != nil {
		return err
	}
	return s.durable()
}

// writeTxNoSync is writeTx for writes nobody is answered about, or whose
// caller syncs itself: bookkeeping a crash may lose (connection ids, status
// reports rebuilt by the next report) and the upload group, which syncs
// after passing its lead. The commit survives a process crash; only a power
// loss may roll it back.
func (s *Store) writeTxNoSync(ctx context.Context, fn func(tx *sql.Tx) error) error {
	return s.writeTxMarked(ctx, fn, false)
}

// writeTxMarked is writeTxNoSync; files marks the commit as one of file
// rows answered only after a later sync (an upload group), before it can
// be seen, so that an "unchanged" answer read from its rows waits for that
// sync (durableFiles).
//
// A write that fails for lack of space is insufficient_storage (nothing was
// applied: SQLite rolls the transaction back). On a disk nearly full the
// reserve is released first, so that deletes still find room.
func (s *Store) writeTxMarked(ctx context.Context, fn func(tx *sql.Tx) error, files bool) error {
	s.spareReserve()
	s.wmu.Lock()
	defer s.wmu.Unlock()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return storageErr(fmt.Errorf("begin: %w", err))
	}
	if err := fn(tx); err != nil {
		tx.Rollback()
		return storageErr(err)
	}
	if files {
		s.markFileCommit()
	}
	if err := tx.Commit(); err != nil {
		return storageErr(fmt.Errorf("commit: %w", err))
	}
	s.committed()
	if !files { // An upload group's members answer for themselves.
		pumasi.NoteApplied(ctx)
	}
	return nil
}

// readTx runs fn in a deferred read transaction: one consistent snapshot
// without taking the write lock.
func (s *Store) readTx(ctx context.Context, fn func(tx *sql.Tx) error) error {
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return fmt.Errorf("begin read: %w", err)
	}
	defer tx.Rollback()
	return fn(tx)
}

// bumpRev increments a room's revision, creating the room at rev 1.
func bumpRev(ctx context.Context, tx querier, room string) (int64, error) {
	var rev int64
	err := tx.QueryRowContext(ctx, `INSERT INTO rooms (room_id, rev) VALUES (?, 1)
		ON CONFLICT (room_id) DO UPDATE SET rev = rev + 1 RETURNING rev`, room).Scan(&rev)
	if err != nil {
		return 0, fmt.Errorf("bump rev %s: %w", room, err)
	}
	return rev, nil
}

// roomRev returns a room's revision, 0 for a room never changed.
func roomRev(ctx context.Context, q querier, room string) (int64, error) {
	var rev int64
	err := q.QueryRowContext(ctx, `SELECT rev FROM rooms WHERE room_id = ?`, room).Scan(&rev)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("room rev %s: %w", room, err)
	}
	return rev, nil
}

// querier is what *sql.DB and *sql.Tx share for reads.
type querier interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// stmtCache is a querier over the pool that prepares each query text once:
// SQLite's parser costs more than a one-row read. Only fixed query texts may
// go through it, so it stays small.
type stmtCache struct {
	db *sql.DB
	mu sync.Mutex
	m  map[string]*sql.Stmt
}

func (c *stmtCache) stmt(ctx context.Context, query string) (*sql.Stmt, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if st, ok := c.m[query]; ok {
		return st, nil
	}
	st, err := c.db.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	if c.m == nil {
		c.m = map[string]*sql.Stmt{}
	}
	c.m[query] = st
	return st, nil
}

// QueryRowContext runs query prepared, or unprepared if preparing failed.
func (c *stmtCache) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	st, err := c.stmt(ctx, query)
	if err != nil {
		return c.db.QueryRowContext(ctx, query, args...)
	}
	return st.QueryRowContext(ctx, args...)
}

// QueryContext runs query prepared, or unprepared if preparing failed.
func (c *stmtCache) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	st, err := c.stmt(ctx, query)
	if err != nil {
		return c.db.QueryContext(ctx, query, args...)
	}
	return st.QueryContext(ctx, args...)
}

// inTx returns a querier over tx that runs fixed-text statements prepared
// once per connection (database/sql reuses a statement prepared on the
// transaction's connection).
func (c *stmtCache) inTx(tx *sql.Tx) txStmts { return txStmts{tx: tx, c: c} }

// txStmts is stmtCache inside one transaction.
type txStmts struct {
	tx *sql.Tx
	c  *stmtCache
}

// QueryRowContext runs query in the transaction, prepared when it can be.
func (q txStmts) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	st, err := q.c.stmt(ctx, query)
	if err != nil {
		return q.tx.QueryRowContext(ctx, query, args...)
	}
	return q.tx.StmtContext(ctx, st).QueryRowContext(ctx, args...)
}

// QueryContext runs query in the transaction, prepared when it can be.
func (q txStmts) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	st, err := q.c.stmt(ctx, query)
	if err != nil {
		return q.tx.QueryContext(ctx, query, args...)
	}
	return q.tx.StmtContext(ctx, st).QueryContext(ctx, args...)
}

// ExecContext runs query in the transaction, prepared when it can be.
func (q txStmts) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	st, err := q.c.stmt(ctx, query)
	if err != nil {
		return q.tx.ExecContext(ctx, query, args...)
	}
	return q.tx.StmtContext(ctx, st).ExecContext(ctx, args...)
}

func (c *stmtCache) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, st := range c.m {
		st.Close()
	}
	c.m = nil
}

// timeLayout is fixed-width so stored times also sort as text.
const timeLayout = "2006-01-02T15:04:05.000000000Z07:00"

func formatTime(t time.Time) string { return t.UTC().Format(timeLayout) }

func parseTime(s string) (time.Time, error) {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("parse time %q: %w", s, err)
	}
	return t.UTC(), nil
}
