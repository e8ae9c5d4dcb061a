package machine

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestReconcileRemovesBeforeWriting: when a room drops "a.md" and gains
// "A.md", a case-insensitive file system (macOS, Windows) holds both in one
// entry, so the stale name must be removed before the new one is written;
// removing it afterwards deletes the fresh copy. Linux is case-sensitive, so
// the test checks the order itself: when "A.md" is fetched (just before it
// is written), "a.md" must already be gone. On a case-insensitive file
// system it also checks the outcome.
func TestReconcileRemovesBeforeWriting(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.md"), []byte("old name"), 0o644); err != nil {
		t.Fatal(err)
	}
	body := []byte("new name")
	want := map[string]string{"A.md": sumHex(body)}
	staleAtFetch := false
	fetch := func(ctx context.Context, name, sum string) ([]byte, error) {
		// A.md is not written yet, so on any file system a hit here is the
		// stale entry.
		if _, err := os.Lstat(filepath.Join(dir, "a.md")); err == nil {
			staleAtFetch = true
		}
		return body, nil
	}
	held, err := reconcileDir(context.Background(), dir, want, sumCache{}, fetch)
	if err != nil {
		t.Fatalf("reconcileDir: %v", err)
	}
	if staleAtFetch {
		t.Fatalf("a.md was still on disk when A.md was fetched and written; on a case-insensitive file system its removal deletes A.md")
	}
	got, err := os.ReadFile(filepath.Join(dir, "A.md"))
	if err != nil || string(got) != "new name" {
		t.Fatalf("A.md = %q, %v; want %q", got, err, "new name")
	}
	if len(held) != 1 || held["A.md"] != sumHex(body) {
		t.Fatalf("held = %v, want only A.md", held)
	}
}
