package postgres

import (
	"context"
	"embed"
	"fmt"
	"strconv"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"pumasi/internal/migrate"
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

// loadMigrations returns the embedded migrations in version order.
func loadMigrations() ([]migrate.Migration, error) { return migrate.Load(migrations, "migrations") }

// Migrate applies every embedded migration the database lacks, in version
// order, each in its own transaction with its schema_migrations row, through
// the one runner (internal/migrate). When everything is applied already
// (every start after the first) it costs one query and takes no lock;
// otherwise it holds pg_advisory_lock(schemaLockKey) while it migrates, so
// many processes or Lambda cold starts migrating at once apply each
// migration exactly once. A migration whose text changed after it was
// applied is an error: schema history is append-only.
func Migrate(ctx context.Context, pool *pgxpool.Pool) error {
	ms, err := loadMigrations()
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	t := &pgTarget{pool: pool}
	if err := migrate.Run(ctx, t, ms); err != nil {
		return err
	}
	if t.applied {
		// Connections opened before CREATE EXTENSION vector know no vector
		// type; new ones register it (registerVector).
		pool.Reset()
	}
	return nil
}

// pgTarget is a database for the migration runner.
type pgTarget struct {
	pool *pgxpool.Pool
	conn *pgxpool.Conn // held under the lock
	// applied says a migration was applied (the pool needs a reset).
	applied bool
}

func (t *pgTarget) Applied(ctx context.Context) (map[int]migrate.Applied, error) {
	return appliedMigrations(ctx, t.pool)
}

// Locked holds the session advisory lock on one connection while fn runs.
func (t *pgTarget) Locked(ctx context.Context, fn func(migrate.Session) error) error {
	conn, err := t.pool.Acquire(ctx)
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
	t.conn = conn
	defer func() { t.conn = nil }()
	return fn(pgSession{t})
}

// pgSession applies migrations on the locked connection.
type pgSession struct{ t *pgTarget }

func (s pgSession) Applied(ctx context.Context) (map[int]migrate.Applied, error) {
	return appliedMigrations(ctx, s.t.conn)
}

func (s pgSession) Apply(ctx context.Context, m migrate.Migration) error {
	err := pgx.BeginFunc(ctx, s.t.conn, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, m.SQL); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `INSERT INTO schema_migrations (version, name, sha256) VALUES ($1, $2, $3)`,
			m.Version, m.Name, m.Sum)
		return err
	})
	if err == nil {
		s.t.applied = true
	}
	return err
}

// Record never runs: every row this schema_migrations holds has a sum.
func (s pgSession) Record(ctx context.Context, m migrate.Migration) error {
	_, err := s.t.conn.Exec(ctx, `UPDATE schema_migrations SET sha256 = $2 WHERE version = $1`, m.Version, m.Sum)
	return err
}

// querier is a pool, a connection or a transaction.
type querier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
}

// appliedMigrations maps each applied version to its name and sha256.
func appliedMigrations(ctx context.Context, q querier) (map[int]migrate.Applied, error) {
	rows, err := q.Query(ctx, `SELECT version, name, sha256 FROM schema_migrations`)
	if err != nil {
		return nil, err
	}
	applied := map[int]migrate.Applied{}
	var v int
	var name, sum string
	_, err = pgx.ForEachRow(rows, []any{&v, &name, &sum}, func() error {
		applied[v] = migrate.Applied{Name: name, Sum: sum}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return applied, nil
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
