package functions

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pumasi"
)

// TestHealthAfterFailedSync: once the local store's WAL sync has failed
// (made to fail here by hiding <db>-wal behind a symlink loop), writes are
// refused and /healthz answers 503, so a supervisor restarts the server and
// the store is reopened; it stays so when the file is back.
func TestHealthAfterFailedSync(t *testing.T) {
	e := newTestEnv(t)
	if r := e.do("POST", "/rooms/r/files?name=warm.md", e.admin, strings.NewReader("warm\n"), nil); r.status != http.StatusCreated {
		t.Fatalf("warm-up upload = %d %s", r.status, r.body)
	}
	if r := e.do("GET", "/healthz", "", nil, nil); r.status != http.StatusOK {
		t.Fatalf("healthz before = %d", r.status)
	}
	wal := filepath.Join(e.home, "pumasi.db-wal")
	hidden := wal + ".hidden"
	if err := os.Rename(wal, hidden); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Base(wal), wal); err != nil {
		t.Fatal(err)
	}
	r := e.do("POST", "/rooms/r/files?name=x.md", e.admin, strings.NewReader("x\n"), nil)
	os.Remove(wal)
	if err := os.Rename(hidden, wal); err != nil {
		t.Fatal(err)
	}
	if r.status != http.StatusInternalServerError || r.code() != pumasi.EInternal {
		t.Fatalf("upload whose sync failed = %d %s, want 500 internal", r.status, r.body)
	}
	h := e.do("GET", "/healthz", "", nil, nil)
	if h.status != http.StatusServiceUnavailable || h.code() != pumasi.EInternal || !strings.Contains(string(h.body), `"ok":false`) {
		t.Fatalf("healthz after a failed sync = %d %s, want 503", h.status, h.body)
	}
	if r := e.do("DELETE", "/rooms/r/files/warm.md", e.admin, nil, nil); r.status != http.StatusInternalServerError {
		t.Fatalf("delete after a failed sync = %d %s, want 500 until the store is reopened", r.status, r.body)
	}
}
