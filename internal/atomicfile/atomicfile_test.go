package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestWrite: the new bytes and mode land in place, a failing fill leaves
// the old file and no temp file, and a leftover temp name is recognised.
func TestWrite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.json")
	if err := WriteFile(path, []byte("one"), 0o600); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	err := Write(path, 0o644, func(f *os.File) error {
		f.Write([]byte("half"))
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("Write with a failing fill = %v, want %v", err, boom)
	}
	b, err := os.ReadFile(path)
	if err != nil || string(b) != "one" {
		t.Fatalf("after a failed write the file holds %q, %v; want the old %q", b, err, "one")
	}
	st, _ := os.Stat(path)
	if st.Mode().Perm() != 0o600 {
		t.Fatalf("mode = %v, want 0600", st.Mode().Perm())
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 {
		t.Fatalf("directory holds %d names, want only state.json (no temp file left)", len(ents))
	}
	// A temp file as a killed write leaves it.
	f, err := os.CreateTemp(dir, ".state.json"+tmpInfix+"*")
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	for name, want := range map[string]bool{filepath.Base(f.Name()): true, "state.json": false, ".hidden": false, "graph.tmp-1": false} {
		if got := IsTemp(name); got != want {
			t.Errorf("IsTemp(%q) = %v, want %v", name, got, want)
		}
	}
}
