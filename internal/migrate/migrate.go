// Package migrate is the one schema migration runner of pumasi's SQL
// backends (adapters/local on SQLite, adapters/postgres): numbered files
// applied in version order, each recorded with its sha256, under the
// database's own lock, so that many processes starting at once apply each
// file exactly once and a file edited after it was applied is refused.
//
// A backend provides a Target: how to read what was applied, how to take
// its lock (SQLite: one BEGIN IMMEDIATE transaction; Postgres:
// pg_advisory_lock) and how to apply and record a file. The policy (order,
// checksums, what a database from before checksums needs) lives here once.
package migrate

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"
)

// Migration is one file NNNN_name.sql.
type Migration struct {
	// Version is the file's number (0007 in 0007_knowledge.sql).
	Version int
	// Name is the file name without .sql ("0007_knowledge").
	Name string
	// SQL is the file's text.
	SQL string
	// Sum is the hex sha256 of SQL.
	Sum string
}

// File is the migration's file name ("0007_knowledge.sql").
func (m Migration) File() string { return m.Name + ".sql" }

// Load reads dir/*.sql of fsys in version order. Every name must start with
// a positive version and an underscore, and no two may share a version.
func Load(fsys fs.FS, dir string) ([]Migration, error) {
	names, err := fs.Glob(fsys, path.Join(dir, "*.sql"))
	if err != nil {
		return nil, fmt.Errorf("load migrations: %w", err)
	}
	var ms []Migration
	for _, name := range names {
		base := path.Base(name)
		v, ok := Version(base)
		if !ok {
			return nil, fmt.Errorf("migration %s: name must start with a version, as in 0001_files.sql", base)
		}
		b, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, fmt.Errorf("load migration %s: %w", base, err)
		}
		ms = append(ms, Migration{Version: v, Name: strings.TrimSuffix(base, ".sql"), SQL: string(b), Sum: Sum(b)})
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].Version < ms[j].Version })
	for i := 1; i < len(ms); i++ {
		if ms[i].Version == ms[i-1].Version {
			return nil, fmt.Errorf("migrations %s and %s share version %d", ms[i-1].File(), ms[i].File(), ms[i].Version)
		}
	}
	return ms, nil
}

// Version reads the version of a file name such as 0007_knowledge.sql.
func Version(name string) (int, bool) {
	prefix, _, ok := strings.Cut(name, "_")
	v, err := strconv.Atoi(prefix)
	return v, ok && err == nil && v > 0
}

// Sum is the hex sha256 a migration is recorded with.
func Sum(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// Applied is one recorded migration.
type Applied struct {
	Name string
	// Sum is the recorded sha256; empty for a file a runner from before
	// checksums applied.
	Sum string
}

// Target is a database to migrate.
type Target interface {
	// Applied returns the recorded migrations by version, without a lock.
	// An error (no bookkeeping table yet, or one from before checksums)
	// sends the runner to Locked, which reports errors that persist.
	Applied(ctx context.Context) (map[int]Applied, error)
	// Locked runs fn holding the database's migration lock, after it has
	// created (or brought up to date) the bookkeeping table. Every change
	// fn makes through the Session is kept only when fn returns nil, or,
	// where a backend commits per file, each file with its record.
	Locked(ctx context.Context, fn func(Session) error) error
}

// Session is a Target under its lock.
type Session interface {
	Applied(ctx context.Context) (map[int]Applied, error)
	// Apply runs m.SQL and records m with its sum, atomically.
	Apply(ctx context.Context, m Migration) error
	// Record stores m's sum for a file applied before checksums.
	Record(ctx context.Context, m Migration) error
}

// Run applies to t every migration of ms it lacks, in version order. When
// everything is applied and checksummed (every start after the first) it
// reads once and takes no lock. A file applied without a checksum (a
// database from before them) has its sum recorded as it is now; a file
// whose text differs from the recorded sum, or whose version was applied
// under another name, is refused: schema history is append-only, a change
// is a new file. Versions the database has and ms does not (a newer binary
// migrated it) are left alone.
func Run(ctx context.Context, t Target, ms []Migration) error {
	if applied, err := t.Applied(ctx); err == nil {
		apply, record, err := plan(ms, applied)
		if err != nil || len(apply)+len(record) == 0 {
			return err
		}
	}
	return t.Locked(ctx, func(s Session) error {
		// Read again under the lock: another process may have just migrated.
		applied, err := s.Applied(ctx)
		if err != nil {
			return fmt.Errorf("migrate: %w", err)
		}
		apply, record, err := plan(ms, applied)
		if err != nil {
			return err
		}
		for _, m := range record {
			if err := s.Record(ctx, m); err != nil {
				return fmt.Errorf("migrate: record sha256 of %s: %w", m.File(), err)
			}
		}
		for _, m := range apply {
			if err := s.Apply(ctx, m); err != nil {
				return fmt.Errorf("migrate: apply %s: %w", m.File(), err)
			}
		}
		return nil
	})
}

// plan returns the migrations to apply and those to record a sum for, or
// the error of an applied file that changed.
func plan(ms []Migration, applied map[int]Applied) (apply, record []Migration, err error) {
	for _, m := range ms {
		a, ok := applied[m.Version]
		switch {
		case !ok:
			apply = append(apply, m)
		case strings.TrimSuffix(a.Name, ".sql") != m.Name:
			return nil, nil, fmt.Errorf("migrate: version %d was applied as %s but the file is now %s: add a new migration instead of renaming one", m.Version, a.Name, m.File())
		case a.Sum == "":
			record = append(record, m)
		case a.Sum != m.Sum:
			return nil, nil, fmt.Errorf("migrate: %s was applied with sha256 %s but is now %s: add a new migration instead of editing one", m.File(), a.Sum, m.Sum)
		}
	}
	return apply, record, nil
}
