package local

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"pumasi"
)

// TestFailedSyncIsNeverAcknowledged: an upload whose WAL sync fails is
// answered with an error, yet its row is committed; the client's retry of
// the same body must not be answered 200 "unchanged" from that unsynced row
// (a power loss could undo it), and after a failed fsync no later write is
// acknowledged until the store is reopened. The sync is made to fail by
// hiding <db>-wal behind a symlink loop (SQLite keeps writing through its
// open descriptors; syncWAL's os.Open fails).
func TestFailedSyncIsNeverAcknowledged(t *testing.T) {
	home := t.TempDir()
	s := openT(t, home, Options{})
	ctx := context.Background()
	putT(t, s, "r", "warm.md", "warm\n")
	wal := filepath.Join(home, "pumasi.db-wal")
	hidden := wal + ".hidden"
	if err := os.Rename(wal, hidden); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Base(wal), wal); err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	restore := func() {
		once.Do(func() {
			os.Remove(wal)
			os.Rename(hidden, wal)
		})
	}
	defer restore()

	in := pumasi.PutFileInput{Room: "r", Name: "x.md", Body: []byte("x\n")}
	if _, err := s.PutFile(ctx, in); err == nil {
		t.Fatal("upload answered although its WAL sync could not run")
	} else {
		t.Logf("first upload: %v", err)
	}
	res, err := s.PutFile(ctx, in) // the client's retry
	if err == nil {
		t.Errorf("retry acknowledged (changed=%v rev=%d) from a row whose sync failed", res.Changed, res.Rev)
	}
	restore() // the WAL is reachable again, but the failure sticks
	if _, _, err := s.PlaceAgent(ctx, "r", "a1", "m1"); err == nil {
		t.Error("a placement was acknowledged after a failed sync, before the store was reopened")
	}
}
