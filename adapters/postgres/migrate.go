package postgres

import (
	"context"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

//go:embed migrations/*.sql
var migrations embed.FS

// schemaLockKey is the pg_advisory_lock key every pumasi process takes
// before changing the schema ("pumasi" in ASCII). Advisory locks are per
// database, so databases on one server do not wait for each other.
const schemaLockKey int64 = 0x70756d617369

// MaxIndexedDims is the most dimensions pgvector 0.8.0 indexes with HNSW
// on the vector type.
const MaxIndexedDims = 2000

// migration is one embedded migrations/NNNN_name.sql.
type migration struct {
	version int
	name    string
	sql     string
	sum     string // hex sha256 of sql, to notice an edited migration
}

// loadMigrations returns the embedded migrations in version order.
func loadMigrations() ([]migration, error) {
	names, err := fs.Glob(migrations, "migrations/*.sql")
	if err != nil {
		return nil, err
	}
	var ms []migration
	for _, name := range names {
		base := path.Base(name)
		prefix, _, ok := strings.Cut(base, "_")
		v, err := strconv.Atoi(prefix)
		if !ok || err != nil || v <= 0 {
			return nil, fmt.Errorf("migration %s: name must start with a version, as in 0001_knowledge.sql", base)
		}
		b, err := migrations.ReadFile(name)
		if err != nil {
			return nil, err
		}
		sum := sha256.Sum256(b)
		ms = append(ms, migration{version: v, name: strings.TrimSuffix(base, ".sql"), sql: string(b), sum: hex.EncodeToString(sum[:])})
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].version < ms[j].version })
	for i := 1; i < len(ms); i++ {
		if ms[i].version == ms[i-1].version {
			return nil, fmt.Errorf("migrations %s and %s share version %d", ms[i-1].name, ms[i].name, ms[i].version)
		}
	}
	return ms, nil
}

// Migrate applies every embedded migration the database lacks, in version
// order, each in its own transaction with its schema_migrations row. When
// everything is applied already (every start after the first) it costs one
// query and takes no lock; otherwise it holds pg_advisory_lock(schemaLockKey)
// while it migrates, so many processes or Lambda cold starts migrating at
// once apply each migration exactly once. A migration whose text changed
// after it was applied is an error: schema history is append-only.
func Migrate(ctx context.Context, pool *pgxpool.Pool) error {
	ms, err := loadMigrations()
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	applied, err := appliedMigrations(ctx, pool)
	if err == nil {
		if pending, err := pendingMigrations(ms, applied); err != nil || len(pending) == 0 {
			return err
		}
	} else if !isUndefinedTable(err) {
		return fmt.Errorf("migrate: %w", err)
	}

	conn, err := pool.Acquire(ctx)
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, `SELECT pg_advisory_lock($1)`, schemaLockKey); err != nil {
		return fmt.Errorf("migrate: take schema lock: %w", err)
	}
	defer func() {
		if _, err := conn.Exec(context.Background(), `SELECT pg_advisory_unlock($1)`, schemaLockKey); err != nil {
			// A session lock outlives a released connection: close this one
			// so the pool cannot hand out a connection that holds it.
			conn.Conn().Close(context.Background())
		}
	}()
	if _, err := conn.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version    integer PRIMARY KEY,
		name       text NOT NULL,
		sha256     text NOT NULL,
		applied_at timestamptz NOT NULL DEFAULT now())`); err != nil {
		return fmt.Errorf("migrate: create schema_migrations: %w", err)
	}
	// Read again under the lock: another process may have just migrated.
	if applied, err = appliedMigrations(ctx, conn); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	pending, err := pendingMigrations(ms, applied)
	if err != nil {
		return err
	}
	for _, m := range pending {
		err := pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
			if _, err := tx.Exec(ctx, m.sql); err != nil {
				return err
			}
			_, err := tx.Exec(ctx, `INSERT INTO schema_migrations (version, name, sha256) VALUES ($1, $2, $3)`,
				m.version, m.name, m.sum)
			return err
		})
		if err != nil {
			return fmt.Errorf("migrate: apply %s: %w", m.name, err)
		}
	}
	if len(pending) > 0 {
		// Connections opened before CREATE EXTENSION vector know no vector
		// type; new ones register it (registerVector). conn is held, so
		// Reset closes it on release.
		pool.Reset()
	}
	return nil
}

// querier is a pool, a connection or a transaction.
type querier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
}

// appliedMigrations maps each applied version to its recorded sha256.
func appliedMigrations(ctx context.Context, q querier) (map[int]string, error) {
	rows, err := q.Query(ctx, `SELECT version, sha256 FROM schema_migrations`)
	if err != nil {
		return nil, err
	}
	applied := map[int]string{}
	var v int
	var sum string
	_, err = pgx.ForEachRow(rows, []any{&v, &sum}, func() error {
		applied[v] = sum
		return nil
	})
	if err != nil {
		return nil, err
	}
	return applied, nil
}

// pendingMigrations returns the migrations not applied yet, and an error
// when an applied one differs from its embedded text. Versions the database
// has but we do not (a newer binary migrated it) are left alone.
func pendingMigrations(ms []migration, applied map[int]string) ([]migration, error) {
	var pending []migration
	for _, m := range ms {
		sum, ok := applied[m.version]
		switch {
		case !ok:
			pending = append(pending, m)
		case sum != m.sum:
			return nil, fmt.Errorf("migrate: %s was applied with sha256 %s but is now %s: add a new migration instead of editing one", m.name, sum, m.sum)
		}
	}
	return pending, nil
}

func isUndefinedTable(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && pe.Code == "42P01"
}

// VectorIndexName is the name of the HNSW index over dims-dimensional
// embeddings.
func VectorIndexName(dims int) string {
	return "knowledge_entries_hnsw_" + strconv.Itoa(dims)
}

// EnsureVectorIndex creates, unless it exists, the HNSW cosine index over
// the entries whose embedding has dims dimensions (see
// migrations/0001_knowledge.sql for why it is one partial index per
// dimension and how a query must be written to use it). Call it before the
// first entry of a new dimension is written; it is cheap once the index
// exists. It builds in a transaction under the schema lock, which blocks
// writes to knowledge_entries while it scans the table: quick for a new
// dimension, whose rows it indexes are few.
func EnsureVectorIndex(ctx context.Context, pool *pgxpool.Pool, dims int) error {
	if dims < 1 || dims > MaxIndexedDims {
		return fmt.Errorf("ensure vector index: %d dimensions, want 1 to %d (pgvector's HNSW limit)", dims, MaxIndexedDims)
	}
	name := VectorIndexName(dims)
	var exists bool
	if err := pool.QueryRow(ctx, `SELECT to_regclass($1) IS NOT NULL`, name).Scan(&exists); err != nil {
		return fmt.Errorf("ensure vector index %s: %w", name, err)
	}
	if exists {
		return nil
	}
	// dims is an int we checked, so it is safe to spell into the statement
	// (DDL takes no parameters).
	ddl := fmt.Sprintf(`CREATE INDEX IF NOT EXISTS %s ON knowledge_entries
		USING hnsw ((embedding::vector(%d)) vector_cosine_ops) WHERE dims = %d`, name, dims, dims)
	err := pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, schemaLockKey); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, ddl)
		return err
	})
	if err != nil {
		return fmt.Errorf("ensure vector index %s: %w", name, err)
	}
	return nil
}
