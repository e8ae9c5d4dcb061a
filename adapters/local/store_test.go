package local

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"testing"
	"time"

	"pumasi"
	"pumasi/adapters/storagetest"
)

func TestConformance(t *testing.T) { storagetest.Run(t, harness()) }

func harness() storagetest.Harness {
	return storagetest.Harness{
		New: func(t *testing.T, lim storagetest.Limits) pumasi.Store {
			home := t.TempDir()
			s := openT(t, home, Options{MaxRoomFiles: lim.MaxRoomFiles, MaxRoomBytes: lim.MaxRoomBytes, History: lim.History, Now: lim.Now})
			// Whatever a suite test did, no upload or delete may leave a temp file.
			t.Cleanup(func() {
				rooms, _ := os.ReadDir(filepath.Join(home, "room_files"))
				for _, r := range rooms {
					if left := tmpEntries(t, home, r.Name()); len(left) != 0 {
						t.Errorf("room %s: .tmp holds %q after the test", r.Name(), left)
					}
				}
			})
			return s
		},
		Blobs: func(t *testing.T, s pumasi.Store, room string) map[string][]byte {
			return blobsOn(t, s.(*Store).home, room)
		},
		Reopen: func(t *testing.T, s pumasi.Store, lim storagetest.Limits) pumasi.Store {
			return openT(t, s.(*Store).home, Options{MaxRoomFiles: lim.MaxRoomFiles, MaxRoomBytes: lim.MaxRoomBytes, History: lim.History, Now: lim.Now})
		},
		PutOrphan: func(t *testing.T, s pumasi.Store, room string, body []byte) {
			t.Helper()
			dir := s.(*Store).roomDir(room)
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, sum256(body)), body, 0o644); err != nil {
				t.Fatal(err)
			}
		},
	}
}

// quiet drops the store's cleanup notes so test output shows only failures.
var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

func openT(t *testing.T, home string, opts Options) *Store {
	t.Helper()
	if opts.Logger == nil {
		opts.Logger = quiet
	}
	s, err := Open(context.Background(), home, opts)
	if err != nil {
		t.Fatalf("Open(%s) error: %v", home, err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// blobsOn reads the blobs of room straight from disk.
func blobsOn(t *testing.T, home, room string) map[string][]byte {
	t.Helper()
	dir := filepath.Join(home, "room_files", room)
	out := map[string][]byte{}
	entries, err := os.ReadDir(dir)
	if os.IsNotExist(err) {
		return out
	}
	if err != nil {
		t.Fatalf("read blobs: %v", err)
	}
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatalf("read blob: %v", err)
		}
		out[e.Name()] = b
	}
	return out
}

func tmpEntries(t *testing.T, home, room string) []string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(home, "room_files", room, ".tmp"))
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}

func putT(t *testing.T, s *Store, room, name, body string) pumasi.PutFileResult {
	t.Helper()
	r, err := s.PutFile(context.Background(), pumasi.PutFileInput{Room: room, Name: name, Body: []byte(body)})
	if err != nil {
		t.Fatalf("PutFile(%q) error: %v", name, err)
	}
	return r
}

func plant(t *testing.T, path, body string, age time.Duration) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	if age > 0 {
		old := time.Now().Add(-age)
		if err := os.Chtimes(path, old, old); err != nil {
			t.Fatal(err)
		}
	}
}

func exists(path string) bool { _, err := os.Stat(path); return err == nil }

func TestLayout(t *testing.T) {
	home := t.TempDir()
	s := openT(t, home, Options{})
	body := "marker-7f3a9c body that must never be in the database\n"
	r := putT(t, s, "lay", "doc.md", body)
	if r.File.ContentType != "text/markdown; charset=utf-8" {
		t.Fatalf("detected content type = %q", r.File.ContentType)
	}
	blob := filepath.Join(home, "room_files", "lay", r.File.SHA256)
	got, err := os.ReadFile(blob)
	if err != nil || string(got) != body {
		t.Fatalf("blob at %s = %q, %v", blob, got, err)
	}
	if !exists(filepath.Join(home, "pumasi.db")) || !exists(filepath.Join(home, ".lock")) {
		t.Fatalf("pumasi.db or .lock missing in %s", home)
	}
	for _, f := range []string{"pumasi.db", "pumasi.db-wal"} {
		b, _ := os.ReadFile(filepath.Join(home, f))
		if bytes.Contains(b, []byte("marker-7f3a9c")) {
			t.Fatalf("%s holds the file body", f)
		}
	}
	if left := tmpEntries(t, home, "lay"); len(left) != 0 {
		t.Fatalf(".tmp after a put holds %q", left)
	}
	var n int
	if err := s.db.QueryRow(`SELECT COUNT(*) FROM schema_migrations WHERE name = '0001_files.sql'`).Scan(&n); err != nil || n != 1 {
		t.Fatalf("schema_migrations rows for 0001 = %d, %v", n, err)
	}
}

func TestClock(t *testing.T) {
	now := time.Date(2026, 3, 1, 9, 0, 0, 123456789, time.FixedZone("KST", 9*3600))
	s := openT(t, t.TempDir(), Options{Now: func() time.Time { return now }})
	ctx := context.Background()
	r1 := putT(t, s, "clock", "a.md", "one")
	now = now.Add(time.Hour)
	r2 := putT(t, s, "clock", "a.md", "two")
	st, err := s.StatFile(ctx, "clock", "a.md")
	if err != nil {
		t.Fatal(err)
	}
	want0, want1 := r1.File.CreatedAt, now.UTC()
	if !want0.Equal(now.Add(-time.Hour)) || !st.CreatedAt.Equal(want0) || !st.UpdatedAt.Equal(want1) || !r2.File.UpdatedAt.Equal(want1) {
		t.Fatalf("times: created %v updated %v, want %v and %v", st.CreatedAt, st.UpdatedAt, want0, want1)
	}
	if st.CreatedAt.Location() != time.UTC || st.UpdatedAt.Location() != time.UTC {
		t.Fatalf("times are not UTC: %v", st.CreatedAt.Location())
	}
	if _, _, err := s.PlaceAgent(ctx, "clock", "ag", "m"); err != nil {
		t.Fatal(err)
	}
	ps, err := s.RoomAgents(ctx, "clock")
	if err != nil || len(ps) != 1 || !ps[0].PlacedAt.Equal(now) {
		t.Fatalf("placements = %+v, %v; want placed at %v", ps, err, now)
	}
	if err := s.ReportStatus(ctx, "m", []pumasi.AgentStatus{{AgentID: "ag", ReportedAt: now.Add(-48 * time.Hour)}}); err != nil {
		t.Fatal(err)
	}
	st2, err := s.AgentStatuses(ctx, []string{"ag"})
	if err != nil || !st2["ag"].ReportedAt.Equal(now) {
		t.Fatalf("reported_at = %v, %v; want the store clock %v", st2["ag"].ReportedAt, err, now)
	}
}

func TestReopen(t *testing.T) {
	home := t.TempDir()
	ctx := context.Background()
	s, err := Open(ctx, home, Options{Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	putT(t, s, "keep", "회의록.md", "minutes")
	putT(t, s, "keep", "b.md", "bee")
	putT(t, s, "keep", "b.md", "bee two")
	if _, _, err := s.PlaceAgent(ctx, "keep", "agent-1", "m1"); err != nil {
		t.Fatal(err)
	}
	if err := s.ReportStatus(ctx, "m1", []pumasi.AgentStatus{{AgentID: "agent-1", Files: []pumasi.Holding{{Name: "b.md", SHA256: sum256([]byte("bee two"))}}}}); err != nil {
		t.Fatal(err)
	}
	before, err := s.ListFiles(ctx, "keep")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("Close error: %v", err)
	}

	s2 := openT(t, home, Options{})
	after, err := s2.ListFiles(ctx, "keep")
	if err != nil {
		t.Fatal(err)
	}
	if after.Rev != before.Rev || after.Rev != 4 || len(after.Files) != 2 {
		t.Fatalf("after reopen: rev %d files %d, want rev %d files 2", after.Rev, len(after.Files), before.Rev)
	}
	for i, f := range after.Files {
		if f != before.Files[i] {
			t.Fatalf("file %d after reopen = %+v, want %+v", i, f, before.Files[i])
		}
	}
	if _, b, err := s2.ReadFile(ctx, "keep", "b.md"); err != nil || string(b) != "bee two" {
		t.Fatalf("b.md after reopen = %q, %v", b, err)
	}
	if ps, err := s2.MachineAgents(ctx, "m1"); err != nil || len(ps) != 1 || ps[0].RoomID != "keep" {
		t.Fatalf("placements after reopen = %+v, %v", ps, err)
	}
	if st, err := s2.AgentStatuses(ctx, []string{"agent-1"}); err != nil || len(st["agent-1"].Files) != 1 {
		t.Fatalf("status after reopen = %+v, %v", st, err)
	}
	// The old blob of b.md stays as its version 1; nothing else remains.
	if blobs := blobsOn(t, home, "keep"); len(blobs) != 3 {
		t.Fatalf("blobs after reopen = %d, want 3 (two files and b.md's first version)", len(blobs))
	}
}

func TestBootCleanupAlone(t *testing.T) {
	home := t.TempDir()
	ctx := context.Background()
	s, err := Open(ctx, home, Options{Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	keep := putT(t, s, "boot", "keep.md", "keep me")
	gone := putT(t, s, "boot", "gone.md", "delete me")
	if _, _, err := s.DeleteFile(ctx, "boot", "gone.md", ""); err != nil {
		t.Fatal(err)
	}
	s.Close()

	room := filepath.Join(home, "room_files", "boot")
	// A crash mid-upload: a fresh temp file and a blob whose row never committed.
	plant(t, filepath.Join(room, ".tmp", "up-123"), "half an upload", 0)
	plant(t, filepath.Join(room, sum256([]byte("orphan"))), "orphan", 0)
	// A crash inside a delete's transaction of keep.md: its blob was stashed
	// but the row never went away, so boot must put the blob back.
	if err := os.Rename(filepath.Join(room, keep.File.SHA256), filepath.Join(room, ".tmp", trashPrefix+keep.File.SHA256+"-abcd")); err != nil {
		t.Fatal(err)
	}
	// A delete of gone.md that committed but crashed before removing its stash.
	plant(t, filepath.Join(room, ".tmp", trashPrefix+gone.File.SHA256+"-ef01"), "delete me", 0)

	s2 := openT(t, home, Options{})
	if left := tmpEntries(t, home, "boot"); len(left) != 0 {
		t.Fatalf(".tmp after boot holds %q, want nothing", left)
	}
	blobs := blobsOn(t, home, "boot")
	// gone.md's content stays as a version of the deleted name.
	if len(blobs) != 2 || string(blobs[keep.File.SHA256]) != "keep me" || string(blobs[gone.File.SHA256]) != "delete me" {
		t.Fatalf("blobs after boot = %v, want keep.md's and deleted gone.md's", keysOf(blobs))
	}
	if _, b, err := s2.ReadFile(ctx, "boot", "keep.md"); err != nil || string(b) != "keep me" {
		t.Fatalf("keep.md after boot = %q, %v", b, err)
	}
}

func TestBootCleanupSharedHome(t *testing.T) {
	home := t.TempDir()
	s1 := openT(t, home, Options{})
	putT(t, s1, "shared", "a.md", "referenced")
	room := filepath.Join(home, "room_files", "shared")
	freshTmp, oldTmp := filepath.Join(room, ".tmp", "up-fresh"), filepath.Join(room, ".tmp", "up-old")
	freshBlob, oldBlob := filepath.Join(room, sum256([]byte("fresh"))), filepath.Join(room, sum256([]byte("old")))
	plant(t, freshTmp, "in flight in another process", 0)
	plant(t, oldTmp, "stale", time.Hour)
	plant(t, freshBlob, "fresh", 0)
	plant(t, oldBlob, "old", time.Hour)

	// s1 still holds the home: a second Open only cleans what is old.
	s2 := openT(t, home, Options{Grace: 10 * time.Minute})
	if !exists(freshTmp) || !exists(freshBlob) {
		t.Fatalf("a second process removed fresh items another process may be using")
	}
	if exists(oldTmp) || exists(oldBlob) {
		t.Fatalf("a second process left items older than the grace period")
	}
	s1.Close()
	s2.Close()

	// Alone again: everything unreferenced goes, whatever its age.
	s3 := openT(t, home, Options{})
	if exists(freshTmp) || exists(freshBlob) {
		t.Fatalf("boot alone left fresh leftovers")
	}
	if _, b, err := s3.ReadFile(context.Background(), "shared", "a.md"); err != nil || string(b) != "referenced" {
		t.Fatalf("a.md = %q, %v", b, err)
	}
}

func TestSweepKeepsOldReferencedBlobs(t *testing.T) {
	home := t.TempDir()
	s := openT(t, home, Options{})
	r := putT(t, s, "old", "a.md", "ancient but referenced")
	old := time.Now().Add(-48 * time.Hour)
	blob := filepath.Join(home, "room_files", "old", r.File.SHA256)
	if err := os.Chtimes(blob, old, old); err != nil {
		t.Fatal(err)
	}
	plant(t, filepath.Join(home, "room_files", "old", sum256([]byte("x"))), "x", 48*time.Hour)
	oldTmp, freshTmp := filepath.Join(home, "room_files", "old", ".tmp", "up-1"), filepath.Join(home, "room_files", "old", ".tmp", "up-2")
	plant(t, oldTmp, "stale", 2*time.Hour)
	plant(t, freshTmp, "in flight", 0)
	rep, err := s.Sweep(context.Background(), time.Hour)
	if err != nil || rep.Blobs != 1 || rep.TempFiles != 1 {
		t.Fatalf("Sweep = %+v, %v; want 1 blob and 1 temp file removed", rep, err)
	}
	if !exists(blob) || !exists(freshTmp) || exists(oldTmp) {
		t.Fatalf("Sweep(1h): referenced blob kept %v, fresh temp kept %v, old temp gone %v; want all true",
			exists(blob), exists(freshTmp), !exists(oldTmp))
	}
	if _, b, err := s.ReadFile(context.Background(), "old", "a.md"); err != nil || string(b) != "ancient but referenced" {
		t.Fatalf("a.md after sweep = %q, %v", b, err)
	}
}

func TestCanceledPutLeavesNothing(t *testing.T) {
	home := t.TempDir()
	s := openT(t, home, Options{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	// IfNoneMatch skips the read-only fast path, so the temp file gets written.
	_, err := s.PutFile(ctx, pumasi.PutFileInput{Room: "gone", Name: "a.md", Body: []byte("never stored"), IfNoneMatch: true})
	if err == nil {
		t.Fatalf("PutFile with a canceled context succeeded")
	}
	if left := tmpEntries(t, home, "gone"); len(left) != 0 {
		t.Fatalf(".tmp holds %q after a failed put", left)
	}
	if blobs := blobsOn(t, home, "gone"); len(blobs) != 0 {
		t.Fatalf("blobs after a failed put: %v", keysOf(blobs))
	}
	if l, err := s.ListFiles(context.Background(), "gone"); err != nil || l.Rev != 0 || len(l.Files) != 0 {
		t.Fatalf("list after a failed put = %+v, %v", l, err)
	}
}

func TestTwoStoresOneHome(t *testing.T) {
	home := t.TempDir()
	ctx := context.Background()
	stores := []*Store{openT(t, home, Options{}), openT(t, home, Options{})}
	var wg sync.WaitGroup
	errs := make(chan error, 100)
	for si, s := range stores {
		for i := 0; i < 50; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, err := s.PutFile(ctx, pumasi.PutFileInput{
					Room: "pair", Name: fmt.Sprintf("s%d-%02d.md", si, i), Body: []byte(fmt.Sprintf("from store %d upload %d", si, i%10)),
				})
				errs <- err
			}()
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatalf("upload error: %v", err)
		}
	}
	for _, s := range stores {
		l, err := s.ListFiles(ctx, "pair")
		if err != nil {
			t.Fatal(err)
		}
		if l.Rev != 100 || len(l.Files) != 100 {
			t.Fatalf("rev %d, %d files; want 100 and 100", l.Rev, len(l.Files))
		}
	}
	l, _ := stores[0].ListFiles(ctx, "pair")
	blobs := blobsOn(t, home, "pair")
	for _, f := range l.Files {
		if sum256(blobs[f.SHA256]) != f.SHA256 {
			t.Fatalf("%s has no valid blob", f.Name)
		}
	}
	if len(blobs) != 20 {
		t.Fatalf("blobs = %d, want 20 distinct contents", len(blobs))
	}
}

func keysOf(m map[string][]byte) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
