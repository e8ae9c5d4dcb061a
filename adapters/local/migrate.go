package local

import (
	"context"
	"database/sql"
	"embed"
	"io/fs"
	"time"

	"pumasi/internal/migrate"
)

//go:embed migrations/*.sql
var migrations embed.FS

// migrate applies every embedded migrations/*.sql not applied yet through
// the one runner (internal/migrate): in version order, each recorded with
// its sha256, all in one write (BEGIN IMMEDIATE) transaction, so that
// processes opening the same home at once apply each file exactly once and
// a failed file leaves the schema as it was. A home from before checksums
// has them recorded on its first open; a file edited after it was applied
// stops the open.
func (s *Store) migrate(ctx context.Context) error {
	return s.migrateFrom(ctx, migrations, "migrations")
}

// migrateFrom is migrate over the files of fsys/dir (tests give others).
func (s *Store) migrateFrom(ctx context.Context, fsys fs.FS, dir string) error {
	ms, err := migrate.Load(fsys, dir)
	if err != nil {
		return err
	}
	return migrate.Run(ctx, sqliteTarget{s}, ms)
}

// sqliteTarget is the home's database for the migration runner. Rows are
// keyed by file name (0001_files.sql), as the runner before checksums kept
// them.
type sqliteTarget struct{ s *Store }

func (t sqliteTarget) Applied(ctx context.Context) (map[int]migrate.Applied, error) {
	return sqliteApplied(ctx, t.s.db)
}

// Locked runs fn in one write transaction: SQLite's write lock is the
// migration lock, held from BEGIN IMMEDIATE to the commit.
func (t sqliteTarget) Locked(ctx context.Context, fn func(migrate.Session) error) error {
	return t.s.writeTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
			name TEXT PRIMARY KEY, applied_at TEXT NOT NULL, sha256 TEXT)`); err != nil {
			return err
		}
		// A home from before checksums has the table without the column.
		var has int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM pragma_table_info('schema_migrations') WHERE name = 'sha256'`).Scan(&has); err != nil {
			return err
		}
		if has == 0 {
			if _, err := tx.ExecContext(ctx, `ALTER TABLE schema_migrations ADD COLUMN sha256 TEXT`); err != nil {
				return err
			}
		}
		return fn(sqliteSession{tx})
	})
}

// sqliteSession applies migrations inside the locked transaction.
type sqliteSession struct{ tx *sql.Tx }

func (s sqliteSession) Applied(ctx context.Context) (map[int]migrate.Applied, error) {
	return sqliteApplied(ctx, s.tx)
}

func (s sqliteSession) Apply(ctx context.Context, m migrate.Migration) error {
	if _, err := s.tx.ExecContext(ctx, m.SQL); err != nil {
		return err
	}
	_, err := s.tx.ExecContext(ctx, `INSERT INTO schema_migrations (name, applied_at, sha256) VALUES (?, ?, ?)`,
		m.File(), formatTime(time.Now()), m.Sum)
	return err
}

func (s sqliteSession) Record(ctx context.Context, m migrate.Migration) error {
	_, err := s.tx.ExecContext(ctx, `UPDATE schema_migrations SET sha256 = ? WHERE name = ?`, m.Sum, m.File())
	return err
}

// sqliteQuerier is the database or a transaction.
type sqliteQuerier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// sqliteApplied maps each applied version to its file name and sha256
// (empty when applied before checksums). Names without a version are not
// migrations this runner wrote; they are left out.
func sqliteApplied(ctx context.Context, q sqliteQuerier) (map[int]migrate.Applied, error) {
	rows, err := q.QueryContext(ctx, `SELECT name, COALESCE(sha256, '') FROM schema_migrations`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	applied := map[int]migrate.Applied{}
	for rows.Next() {
		var a migrate.Applied
		if err := rows.Scan(&a.Name, &a.Sum); err != nil {
			return nil, err
		}
		if v, ok := migrate.Version(a.Name); ok {
			applied[v] = a
		}
	}
	return applied, rows.Err()
}
