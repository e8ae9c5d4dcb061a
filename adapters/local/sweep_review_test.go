package local

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestSweepRestoresStashOfCrashedDelete: a process that crashed inside a
// delete's transaction leaves the blob stashed in .tmp/ while the row still
// references it. A rename keeps the blob's mtime, so the stash of a file
// uploaded long ago is old at once: a sweep that is not a lone boot (the
// periodic sweep, or a restart beside another process on the home) must put
// it back, not remove it, or the file can never be read again.
func TestSweepRestoresStashOfCrashedDelete(t *testing.T) {
	ctx := context.Background()
	for _, via := range []string{"periodic sweep", "second process boot"} {
		t.Run(via, func(t *testing.T) {
			home := t.TempDir()
			s := openT(t, home, Options{})
			r := putT(t, s, "crash", "keep.md", "uploaded last week")
			room := filepath.Join(home, "room_files", "crash")
			blob := filepath.Join(room, r.File.SHA256)
			week := time.Now().Add(-7 * 24 * time.Hour)
			if err := os.Chtimes(blob, week, week); err != nil {
				t.Fatal(err)
			}
			// The crashed delete: blob moved aside, row never deleted.
			if err := os.Rename(blob, filepath.Join(room, ".tmp", trashPrefix+r.File.SHA256+"-abcd")); err != nil {
				t.Fatal(err)
			}
			reader := s
			switch via {
			case "periodic sweep":
				if _, err := s.Sweep(ctx, 10*time.Minute); err != nil {
					t.Fatalf("Sweep: %v", err)
				}
			default:
				// s still holds the home, so this Open is not alone.
				reader = openT(t, home, Options{Grace: 10 * time.Minute})
			}
			_, b, err := reader.ReadFile(ctx, "crash", "keep.md")
			if err != nil || string(b) != "uploaded last week" {
				t.Fatalf("keep.md after %s = %q, %v; want its bytes", via, b, err)
			}
		})
	}
}
