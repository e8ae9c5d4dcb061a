package postgres

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"pumasi/internal/migrate"
	"pumasi/internal/testpeer"
)

func TestMain(m *testing.M) { os.Exit(testpeer.Main(m)) }

// openTest opens a pool on a fresh test database, closed when t ends.
func openTest(t *testing.T, url string) *pgxpool.Pool {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	pool, err := Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	return pool
}

// migrated opens a pool on a fresh database holding every migration, then
// runs Migrate on it (a start after the first: one query, nothing applied).
func migrated(t *testing.T) *pgxpool.Pool {
	t.Helper()
	pool := openTest(t, migratedURL(t))
	if err := Migrate(context.Background(), pool); err != nil {
		t.Fatal(err)
	}
	return pool
}

// migratedURL returns a fresh database holding every migration: a copy of
// the one this test binary migrated once (testpeer.PostgresTemplate), so
// that the hundred-odd tests on a migrated schema do not each apply the
// migrations. Tests of the migrations themselves start from testpeer.Postgres.
func migratedURL(t *testing.T) string {
	t.Helper()
	tpl := testpeer.PostgresTemplate(t, "migrated", func(ctx context.Context, url string) error {
		pool, err := Open(ctx, url)
		if err != nil {
			return err
		}
		defer pool.Close()
		return Migrate(ctx, pool)
	})
	return testpeer.PostgresFrom(t, tpl)
}

// migratedBelow opens a fresh test database holding the schema of the
// migrations before version, as a database from before it would: the
// starting point of a test of that migration on existing rows.
func migratedBelow(t *testing.T, version int) *pgxpool.Pool {
	t.Helper()
	pool := openTest(t, testpeer.Postgres(t))
	ms, err := loadMigrations()
	if err != nil {
		t.Fatal(err)
	}
	var before []migrate.Migration
	for _, m := range ms {
		if m.Version < version {
			before = append(before, m)
		}
	}
	if err := migrate.Run(context.Background(), &pgTarget{pool: pool}, before); err != nil {
		t.Fatal(err)
	}
	return pool
}

// schemaMigrations returns the applied versions, in order.
func schemaMigrations(t *testing.T, pool *pgxpool.Pool) []string {
	t.Helper()
	rows, err := pool.Query(context.Background(), `SELECT version || ' ' || name FROM schema_migrations ORDER BY version`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var got []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		got = append(got, s)
	}
	return got
}

// tableFiles names the files (relfilenodes) of knowledge_entries and of
// its vector index for dims, so a test can tell whether a migration
// rewrote either; both must exist.
func tableFiles(t *testing.T, pool *pgxpool.Pool, dims int) string {
	t.Helper()
	var s string
	var n int
	if err := pool.QueryRow(context.Background(), `SELECT string_agg(relname || ' ' || relfilenode, ', ' ORDER BY relname), count(*)
		FROM pg_class WHERE relname IN ('knowledge_entries', $1)`, VectorIndexName(dims)).Scan(&s, &n); err != nil || n != 2 {
		t.Fatalf("relfilenodes = %q (%d), %v; want the table and its vector index", s, n, err)
	}
	return s
}

func wantAllApplied(t *testing.T, pool *pgxpool.Pool) {
	t.Helper()
	ms, err := loadMigrations()
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, m := range ms {
		want = append(want, fmt.Sprintf("%d %s", m.Version, m.Name))
	}
	if got := schemaMigrations(t, pool); strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("schema_migrations = %q, want %q", got, want)
	}
}

// TestMigrateTwice migrates a fresh database, then again: the second run
// changes nothing and every table is there.
func TestMigrateTwice(t *testing.T) {
	pool := openTest(t, testpeer.Postgres(t))
	ctx := context.Background()
	for i := range 2 {
		if err := Migrate(ctx, pool); err != nil {
			t.Fatalf("migrate #%d: %v", i+1, err)
		}
		wantAllApplied(t, pool)
	}
	for _, table := range []string{"knowledge_entries", "knowledge_contributions", "knowledge_contributors",
		"knowledge_endorsements", "knowledge_sweeps", "knowledge_meta"} {
		var ok bool
		if err := pool.QueryRow(ctx, `SELECT to_regclass($1) IS NOT NULL`, table).Scan(&ok); err != nil || !ok {
			t.Errorf("table %s after migrate: exists = %v, err %v", table, ok, err)
		}
	}
	var mark int64
	if err := pool.QueryRow(ctx, `SELECT value FROM knowledge_meta WHERE key = 'sweep_seq'`).Scan(&mark); err != nil || mark != 0 {
		t.Fatalf("sweep_seq = %d (%v), want 0", mark, err)
	}
}

// TestMigrateConcurrently starts migrations of one fresh database from many
// pools at once (as many processes or Lambda cold starts would), over a few
// rounds: every one succeeds and each migration is applied once.
func TestMigrateConcurrently(t *testing.T) {
	const rounds, procs = 3, 8
	for r := range rounds {
		url := testpeer.Postgres(t)
		pools := make([]*pgxpool.Pool, procs)
		for i := range pools {
			pools[i] = openTest(t, url)
		}
		start := make(chan struct{})
		errs := make([]error, procs)
		var wg sync.WaitGroup
		for i, pool := range pools {
			wg.Go(func() {
				<-start
				ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
				defer cancel()
				errs[i] = Migrate(ctx, pool)
			})
		}
		close(start)
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Fatalf("round %d, process %d: %v", r, i, err)
			}
		}
		wantAllApplied(t, pools[0])
		// The schema lock is free again: no pooled connection kept it.
		var free bool
		if err := pools[0].QueryRow(context.Background(), `SELECT pg_try_advisory_lock($1)`, schemaLockKey).Scan(&free); err != nil || !free {
			t.Fatalf("round %d: schema lock free after migrating = %v (%v), want true", r, free, err)
		}
	}
}

// TestMigrateRefusesEditedMigration: a migration whose text no longer
// matches what was applied stops Migrate instead of drifting silently.
func TestMigrateRefusesEditedMigration(t *testing.T) {
	pool := migrated(t)
	ctx := context.Background()
	if _, err := pool.Exec(ctx, `UPDATE schema_migrations SET sha256 = 'edited' WHERE version = 1`); err != nil {
		t.Fatal(err)
	}
	err := Migrate(ctx, pool)
	if err == nil || !strings.Contains(err.Error(), "add a new migration") {
		t.Fatalf("migrate after an edit = %v, want the edited-migration error", err)
	}
}

// TestRedact: no form of connection string prints its password.
func TestRedact(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"postgres://pumasi:s3cret@db.example.com:5432/k?sslmode=require", "postgres://pumasi:xxxxx@db.example.com:5432/k?sslmode=require"},
		{"postgres://pumasi@127.0.0.1/k", "postgres://pumasi@127.0.0.1/k"},
		{"postgres://127.0.0.1/k?user=u&password=s3cret", "postgres://127.0.0.1/k?password=xxxxx&user=u"},
		{"host=db user=u password=s3cret dbname=k", "host=db user=u password=xxxxx dbname=k"},
		{"host=db password='s3 cr\\'et' dbname=k", "host=db password=xxxxx dbname=k"},
		{"postgres://u:s3cret@db:bad-port/k", "postgres://u:xxxxx@db:bad-port/k"},
		{"postgres://u:s3%zzcret@db/k", "postgres://u:xxxxx@db/k"},
	} {
		got := redact(tt.in)
		if got != tt.want {
			t.Errorf("redact(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if strings.Contains(got, "s3") {
			t.Errorf("redact(%q) = %q still holds the password", tt.in, got)
		}
	}
}

// TestOpenErrorsHidePassword: a refused connection and an unparsable URL
// fail without the password in the error.
func TestOpenErrorsHidePassword(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for _, url := range []string{
		"postgres://pumasi:s3cretpw@127.0.0.1:1/k?sslmode=disable&connect_timeout=2",
		"postgres://pumasi:s3cretpw@127.0.0.1:notaport/k",
		"host=127.0.0.1 port=1 user=pumasi password=s3cretpw connect_timeout=2 sslmode=disable",
	} {
		pool, err := Open(ctx, url)
		if err == nil {
			pool.Close()
			t.Fatalf("Open(%s) succeeded, want an error", redact(url))
		}
		if strings.Contains(err.Error(), "s3cretpw") {
			t.Errorf("Open error shows the password: %v", err)
		}
		if !strings.Contains(err.Error(), "xxxxx") {
			t.Errorf("Open error does not name the (redacted) URL: %v", err)
		}
	}
}
