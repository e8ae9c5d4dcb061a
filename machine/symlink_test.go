package machine

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestSymlinkedSharedDirIsRefused checks that a memory/shared that is a
// symlink to memory/ is never managed: the agent's notes.md survives a
// reconcile of a room that does not have it.
func TestSymlinkedSharedDirIsRefused(t *testing.T) {
	s := newServer(t)
	home := t.TempDir()
	mem := filepath.Join(home, "agents", "a1", "memory")
	if err := os.MkdirAll(mem, 0o755); err != nil {
		t.Fatal(err)
	}
	notes := filepath.Join(mem, "notes.md")
	if err := os.WriteFile(notes, []byte("private\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(mem, filepath.Join(mem, "shared")); err != nil {
		t.Fatal(err)
	}
	s.place("r1", "a1", "m1")
	s.upload("r1", "spec.md", "spec\n")
	m := s.mark()
	s.daemon(t, "m1", home, 200*time.Millisecond)
	// Two whole reconciles (the first, and a poll's).
	s.waitSync(t, "m1", m)
	s.waitSync(t, "m1", s.mark())
	if b, err := os.ReadFile(notes); err != nil || string(b) != "private\n" {
		t.Fatalf("notes.md = %q, %v; a symlinked shared/ must not be managed", b, err)
	}
	if _, err := os.Lstat(filepath.Join(mem, "spec.md")); !os.IsNotExist(err) {
		t.Fatalf("spec.md was written through the symlink: %v", err)
	}
}
