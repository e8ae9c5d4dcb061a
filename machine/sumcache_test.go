package machine

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestSumCacheSeesEdits checks that a cached sum is not trusted after an
// edit that keeps the size and puts the mtime back.
func TestSumCacheSeesEdits(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f.md")
	os.WriteFile(p, []byte("aaaa"), 0o644)
	old := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	os.Chtimes(p, old, old)
	c := sumCache{}
	s1, err := c.hash(dir, "f.md")
	if err != nil || s1 != sumHex([]byte("aaaa")) {
		t.Fatalf("hash = %s, %v", s1, err)
	}
	if s, _ := c.hash(dir, "f.md"); s != s1 {
		t.Fatalf("second hash = %s, want cached %s", s, s1)
	}
	time.Sleep(20 * time.Millisecond)
	os.WriteFile(p, []byte("bbbb"), 0o644)
	os.Chtimes(p, old, old)
	if s, _ := c.hash(dir, "f.md"); s != sumHex([]byte("bbbb")) {
		t.Fatalf("after a same-size edit with mtime put back: %s, want the new sum", s)
	}
	os.Remove(p)
	if s, err := c.hash(dir, "f.md"); s != "" || err == nil || len(c) != 0 {
		t.Fatalf("after remove: %q %v, cache %v", s, err, c)
	}
	os.Symlink("/etc/passwd", p)
	if s, _ := c.hash(dir, "f.md"); s != "" {
		t.Fatalf("a symlink hashed to %s, want \"\"", s)
	}
}
