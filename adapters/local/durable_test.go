package local

import (
	"context"
	"database/sql"
	"fmt"
	"sync"
	"testing"
	"time"

	"pumasi"
	"pumasi/knowledge"
)

// syncsT returns how many WAL syncs s has run.
func syncsT(s *Store) uint64 {
	s.wal.mu.Lock()
	defer s.wal.mu.Unlock()
	return s.wal.syncs
}

// TestAcknowledgedWritesAreSynced checks that every write the store answers
// about (upload, delete, place, move, unplace, a knowledge contribution) has
// its WAL synced before it returns: with synchronous(NORMAL) a commit alone
// survives a crash of the process but not of the machine.
func TestAcknowledgedWritesAreSynced(t *testing.T) {
	s := openT(t, t.TempDir(), Options{})
	ctx := context.Background()
	k := NewKnowledge(s)
	steps := []struct {
		name string
		do   func() error
	}{
		{"upload", func() error {
			_, err := s.PutFile(ctx, pumasi.PutFileInput{Room: "r", Name: "a.md", Body: []byte("a\n")})
			return err
		}},
		{"delete", func() error { _, _, err := s.DeleteFile(ctx, "r", "a.md", ""); return err }},
		{"place", func() error { _, _, err := s.PlaceAgent(ctx, "r", "ag1", "m1"); return err }},
		{"move", func() error { _, _, err := s.PlaceAgent(ctx, "r2", "ag1", "m1"); return err }},
		{"unplace", func() error { _, err := s.UnplaceAgent(ctx, "r2", "ag1"); return err }},
		{"contribute", func() error {
			title, content := "SQLite WAL needs a sync", "With `synchronous=NORMAL` a commit is not synced until the next checkpoint."
			_, err := k.Contribute(ctx, knowledge.ContributeInput{Hive: "h", Agent: "agent-1", Title: title, Content: content,
				NormHash: knowledge.Hash(title, content), Model: "m", Vector: []float32{1, 0}, Specificity: 0.8, Threshold: 1.01})
			return err
		}},
	}
	for _, st := range steps {
		before := syncsT(s)
		if err := st.do(); err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		if after := syncsT(s); after <= before {
			t.Errorf("%s returned without a WAL sync (syncs %d → %d)", st.name, before, after)
		}
	}
}

// TestDurableSharesSyncs checks that writers committing while a sync runs
// share the next one instead of each paying its own, and that every one is
// answered: the first placement's sync is held until the other 47 have
// committed and wait, so exactly one more sync must cover them all.
func TestDurableSharesSyncs(t *testing.T) {
	s := openT(t, t.TempDir(), Options{})
	ctx := context.Background()
	const n = 48
	before := syncsT(s)
	release := make(chan struct{})
	var once sync.Once
	s.wal.mu.Lock()
	s.wal.beforeSync = func() { once.Do(func() { <-release }) }
	base := s.wal.commits
	s.wal.mu.Unlock()
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, _, err := s.PlaceAgent(ctx, "r", fmt.Sprintf("agent%02d", i), "m1")
			errs <- err
		}()
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		s.wal.mu.Lock()
		done := s.wal.commits - base
		s.wal.mu.Unlock()
		if done == n {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d placements committed while the first sync was held", done, n)
		}
		time.Sleep(5 * time.Millisecond)
	}
	close(release)
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if syncs := syncsT(s) - before; syncs != 2 {
		t.Errorf("%d placements took %d WAL syncs; want 2 (the held one, then one for the other %d)", n, syncs, n-1)
	}
	if got, err := s.RoomAgents(ctx, "r"); err != nil || len(got) != n {
		t.Fatalf("RoomAgents = %d, %v; want %d", len(got), err, n)
	}
}

// usageT compares the usage counters of every room with its files' rows.
func usageT(t *testing.T, s *Store) {
	t.Helper()
	rows, err := s.db.Query(`SELECT r.room_id, r.files, r.bytes,
		(SELECT COUNT(*) FROM files f WHERE f.room_id = r.room_id),
		(SELECT COALESCE(SUM(size), 0) FROM files f WHERE f.room_id = r.room_id) FROM rooms r`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		var room string
		var files, bytes, wantFiles, wantBytes int64
		if err := rows.Scan(&room, &files, &bytes, &wantFiles, &wantBytes); err != nil {
			t.Fatal(err)
		}
		if files != wantFiles || bytes != wantBytes {
			t.Errorf("room %s: counters %d files / %d bytes, rows say %d / %d", room, files, bytes, wantFiles, wantBytes)
		}
		n++
	}
	if n == 0 {
		t.Fatal("no rooms to compare")
	}
}

// TestRoomUsageCounters checks that the per-room counters the quota reads
// follow uploads, replacements, deletes and refused writes, and that a home
// from before the counters gets them filled in when it is opened.
func TestRoomUsageCounters(t *testing.T) {
	home := t.TempDir()
	s := openT(t, home, Options{MaxRoomFiles: 6})
	ctx := context.Background()
	for i := 0; i < 5; i++ {
		putT(t, s, "a", fmt.Sprintf("f%d.md", i), fmt.Sprintf("body %d\n", i))
		putT(t, s, "b", fmt.Sprintf("g%d.md", i), "same\n")
	}
	putT(t, s, "a", "f1.md", "a longer body than before\n") // replace: bytes change, files do not
	putT(t, s, "a", "f2.md", "body 2\n")                    // identical: nothing changes
	if _, _, err := s.DeleteFile(ctx, "a", "f3.md", ""); err != nil {
		t.Fatal(err)
	}
	putT(t, s, "a", "f5.md", "x\n")
	putT(t, s, "a", "f6.md", "y\n")
	if _, err := s.PutFile(ctx, pumasi.PutFileInput{Room: "a", Name: "f7.md", Body: []byte("z\n")}); pumasi.ErrorCode(err) != pumasi.EQuotaExceeded {
		t.Fatalf("7th file: %v, want quota_exceeded", err)
	}
	usageT(t, s)
	var files int
	if err := s.db.QueryRow(`SELECT files FROM rooms WHERE room_id = 'a'`).Scan(&files); err != nil || files != 6 {
		t.Fatalf("room a counts %d files (%v), want 6", files, err)
	}

	// A home from before migration 0011: no counters, no triggers.
	for _, q := range []string{
		`DROP TRIGGER files_usage_insert`, `DROP TRIGGER files_usage_delete`, `DROP TRIGGER files_usage_update`,
		`ALTER TABLE rooms DROP COLUMN files`, `ALTER TABLE rooms DROP COLUMN bytes`,
		`DELETE FROM schema_migrations WHERE name = '0011_room_usage.sql'`,
	} {
		if _, err := s.db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	s.Close()
	s = openT(t, home, Options{MaxRoomFiles: 6})
	usageT(t, s)
	if _, err := s.PutFile(ctx, pumasi.PutFileInput{Room: "a", Name: "f7.md", Body: []byte("z\n")}); pumasi.ErrorCode(err) != pumasi.EQuotaExceeded {
		t.Fatalf("7th file after the upgrade: %v, want quota_exceeded", err)
	}
	var room string
	if err := s.db.QueryRow(`SELECT room_id FROM rooms WHERE files != (SELECT COUNT(*) FROM files f WHERE f.room_id = rooms.room_id)`).Scan(&room); err != sql.ErrNoRows {
		t.Fatalf("room %q miscounted after the upgrade (%v)", room, err)
	}
}
