package local

import (
	"context"
	"os"
	"testing"
	"time"

	"pumasi"
)

// TestRetiredBlobs checks the life of a blob a commit stopped referencing:
// it stays readable after the commit, a sweep with a grace keeps it (its
// mtime is its retirement, not its upload), the reaper removes it once the
// grace is over, and never when a row took the same content up again.
func TestRetiredBlobs(t *testing.T) {
	// With history off nothing keeps a replaced version's blob.
	s := openT(t, t.TempDir(), Options{History: pumasi.Retention{Off: true}})
	s.retireGrace = 200 * time.Millisecond
	ctx := context.Background()
	v1 := putT(t, s, "r", "a.md", "one\n").File.SHA256
	old := time.Now().Add(-time.Hour)
	if err := chtimes(s.blobPath("r", v1), old); err != nil {
		t.Fatal(err)
	}
	putT(t, s, "r", "a.md", "two\n")
	if !exists(s.blobPath("r", v1)) {
		t.Fatalf("replaced blob was removed by its own commit")
	}
	if rep, err := s.Sweep(ctx, time.Minute); err != nil || rep.Blobs != 0 {
		t.Fatalf("Sweep(1m) right after the replace = %+v, %v; want the retired blob kept", rep, err)
	}

	// The same content comes back under another name before the grace ends.
	putT(t, s, "r", "b.md", "one\n")
	time.Sleep(s.retireGrace + 50*time.Millisecond)
	v3 := putT(t, s, "r", "a.md", "three\n") // Reaps what is due.
	if !exists(s.blobPath("r", v1)) {
		t.Fatalf("reaper removed a blob b.md references again")
	}
	if _, b, err := s.ReadFile(ctx, "r", "b.md"); err != nil || string(b) != "one\n" {
		t.Fatalf("ReadFile(b.md) = %q, %v", b, err)
	}

	// "two" was retired by the third put's predecessor; delete retires v3.
	if _, _, err := s.DeleteFile(ctx, "r", "a.md", ""); err != nil {
		t.Fatal(err)
	}
	if !exists(s.blobPath("r", v3.File.SHA256)) {
		t.Fatalf("deleted file's blob was removed by its own commit")
	}
	time.Sleep(s.retireGrace + 50*time.Millisecond)
	putT(t, s, "r", "c.md", "four\n")
	for _, body := range []string{"two\n", "three\n"} {
		if exists(s.blobPath("r", sum256([]byte(body)))) {
			t.Fatalf("blob of %q outlived its grace", body)
		}
	}
	if got, want := len(blobsOn(t, s.home, "r")), 2; got != want { // one (b.md), four (c.md)
		t.Fatalf("%d blobs on disk, want %d", got, want)
	}
}

func chtimes(path string, t time.Time) error { return os.Chtimes(path, t, t) }
