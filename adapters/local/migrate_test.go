package local

import (
	"context"
	"io/fs"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"pumasi/internal/migrate"
)

// appliedT returns the home's schema_migrations as name → sha256.
func appliedT(t *testing.T, s *Store) map[string]string {
	t.Helper()
	rows, err := s.db.Query(`SELECT name, COALESCE(sha256, '') FROM schema_migrations`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	got := map[string]string{}
	for rows.Next() {
		var name, sum string
		if err := rows.Scan(&name, &sum); err != nil {
			t.Fatal(err)
		}
		got[name] = sum
	}
	return got
}

// embeddedT returns the embedded migrations.
func embeddedT(t *testing.T) []migrate.Migration {
	t.Helper()
	ms, err := migrate.Load(migrations, "migrations")
	if err != nil {
		t.Fatal(err)
	}
	return ms
}

// TestMigrateRecordsChecksums: a fresh home records every file with its
// sha256; a home from before checksums (a schema_migrations without the
// column) opens, and its first open records the sums of the files as they
// are; a file edited after it was applied then stops the open with an error
// that names it.
func TestMigrateRecordsChecksums(t *testing.T) {
	home := t.TempDir()
	s := openT(t, home, Options{})
	ms := embeddedT(t)
	want := map[string]string{}
	for _, m := range ms {
		want[m.File()] = m.Sum
	}
	if got := appliedT(t, s); len(got) != len(want) {
		t.Fatalf("fresh home records %d migrations, want %d", len(got), len(want))
	}
	for name, sum := range appliedT(t, s) {
		if want[name] != sum {
			t.Fatalf("fresh home: %s recorded with sha256 %q, want %q", name, sum, want[name])
		}
	}

	// Turn the table back into the checksum-less one of earlier versions.
	for _, q := range []string{
		`CREATE TABLE old_migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)`,
		`INSERT INTO old_migrations SELECT name, applied_at FROM schema_migrations`,
		`DROP TABLE schema_migrations`,
		`ALTER TABLE old_migrations RENAME TO schema_migrations`,
	} {
		if _, err := s.db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	s.Close()
	s = openT(t, home, Options{})
	got := appliedT(t, s)
	for name, sum := range want {
		if got[name] != sum {
			t.Fatalf("upgraded home: %s recorded with sha256 %q, want %q", name, got[name], sum)
		}
	}
	putT(t, s, "r", "after-upgrade.md", "still works\n")

	// An applied file whose text changed (seen as a recorded sum that no
	// longer matches) is refused.
	if _, err := s.db.Exec(`UPDATE schema_migrations SET sha256 = 'edited' WHERE name = ?`, ms[0].File()); err != nil {
		t.Fatal(err)
	}
	s.Close()
	_, err := Open(context.Background(), home, Options{Logger: quiet})
	if err == nil || !strings.Contains(err.Error(), ms[0].File()) || !strings.Contains(err.Error(), "add a new migration instead of editing one") {
		t.Fatalf("open after an edited migration = %v, want an error naming %s", err, ms[0].File())
	}
}

// TestMigratePlainFiles: the runner takes any NNNN_name.sql as one more
// ordered file: a file added later (as another change adds its number) is
// applied once, after the ones before it, by every process opening at once,
// and a failing file leaves the schema as it was.
func TestMigratePlainFiles(t *testing.T) {
	home := t.TempDir()
	s := openT(t, home, Options{})
	files := fstest.MapFS{}
	ents, err := fs.ReadDir(migrations, "migrations")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		b, err := fs.ReadFile(migrations, "migrations/"+e.Name())
		if err != nil {
			t.Fatal(err)
		}
		files["m/"+e.Name()] = &fstest.MapFile{Data: b}
	}
	files["m/0990_later.sql"] = &fstest.MapFile{Data: []byte(`CREATE TABLE later (n INTEGER); INSERT INTO later VALUES (1);`)}

	const procs = 6
	var wg sync.WaitGroup
	errs := make([]error, procs)
	for i := range procs {
		wg.Go(func() { errs[i] = s.migrateFrom(context.Background(), files, "m") })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("migration %d: %v", i, err)
		}
	}
	var n int
	if err := s.db.QueryRow(`SELECT COUNT(*) FROM later`).Scan(&n); err != nil || n != 1 {
		t.Fatalf("later holds %d rows (%v), want 1: the file ran once", n, err)
	}
	if got := appliedT(t, s)["0990_later.sql"]; got != migrate.Sum(files["m/0990_later.sql"].Data) {
		t.Fatalf("0990_later.sql recorded with %q", got)
	}

	files["m/0991_broken.sql"] = &fstest.MapFile{Data: []byte(`CREATE TABLE half (n INTEGER); SELECT * FROM no_such_table;`)}
	err = s.migrateFrom(context.Background(), files, "m")
	if err == nil || !strings.Contains(err.Error(), "0991_broken.sql") {
		t.Fatalf("broken migration = %v, want an error naming it", err)
	}
	if _, err := s.db.Exec(`SELECT * FROM half`); err == nil {
		t.Fatal("a failed migration left its table behind")
	}
	if _, ok := appliedT(t, s)["0991_broken.sql"]; ok {
		t.Fatal("a failed migration was recorded")
	}

	files["m/0990_other.sql"] = &fstest.MapFile{Data: []byte(`SELECT 1;`)}
	delete(files, "m/0991_broken.sql")
	if err := s.migrateFrom(context.Background(), files, "m"); err == nil || !strings.Contains(err.Error(), "share version 990") {
		t.Fatalf("two files of one version = %v, want refused", err)
	}
	delete(files, "m/0990_later.sql")
	if err := s.migrateFrom(context.Background(), files, "m"); err == nil || !strings.Contains(err.Error(), "applied as 0990_later.sql") {
		t.Fatalf("a renamed applied file = %v, want refused", err)
	}
}
