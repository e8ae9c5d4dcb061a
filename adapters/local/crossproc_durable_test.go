package local

import (
	"context"
	"os"
	"testing"
	"time"

	"pumasi"
)

// TestSweepOfAnotherProcessSyncsBeforeUnlink: two stores on one
// home stand for localdev and a hand-run `pumasi sweep`. A replaces f.md and
// is held between its commit and its WAL sync; B's sweep then finds the old
// blob unreferenced (its mtime is old: retire only touches it after A's
// sync). Before unlinking it, a WAL sync must cover A's commit, or a power
// loss brings back the row pointing at a blob that is gone. durable() in B
// counts only B's own commits, which is why an unlink syncs (syncAll)
// whatever B has pending.
func TestSweepOfAnotherProcessSyncsBeforeUnlink(t *testing.T) {
	home := t.TempDir()
	a := openT(t, home, Options{})
	b := openT(t, home, Options{})
	ctx := context.Background()
	putT(t, a, "r", "f.md", "v1\n")
	oldBlob := a.blobPath("r", sum256([]byte("v1\n")))
	past := time.Now().Add(-time.Hour)
	if err := os.Chtimes(oldBlob, past, past); err != nil {
		t.Fatal(err)
	}

	entered, release := make(chan struct{}), make(chan struct{})
	a.wal.mu.Lock()
	a.wal.beforeSync = func() { close(entered); <-release }
	a.wal.mu.Unlock()
	done := make(chan error, 1)
	go func() {
		_, err := a.PutFile(ctx, pumasi.PutFileInput{Room: "r", Name: "f.md", Body: []byte("v2\n")})
		done <- err
	}()
	<-entered // A committed v2; its WAL sync has not run

	// B's own commits (those Open made) are synced already, as in a
	// sweep process that has been running a while.
	if err := b.durable(); err != nil {
		t.Fatal(err)
	}
	bSyncs := syncsT(b)
	// Whether the blob was still there when B's first sync of the sweep
	// began: a sync covering A's commit must come before the unlink.
	var presentAtFirstSync *bool
	b.wal.mu.Lock()
	b.wal.beforeSync = func() {
		if presentAtFirstSync == nil {
			_, err := os.Stat(oldBlob)
			v := err == nil
			presentAtFirstSync = &v
		}
	}
	b.wal.mu.Unlock()
	if _, err := b.Sweep(ctx, time.Minute); err != nil {
		t.Fatal(err)
	}
	_, statErr := os.Stat(oldBlob)
	removed := os.IsNotExist(statErr)
	synced := syncsT(b) - bSyncs
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if removed && (presentAtFirstSync == nil || !*presentAtFirstSync) {
		t.Errorf("B's sweep unlinked the v1 blob before any WAL sync covering A's unsynced commit that dropped it (B syncs: %d, all after the unlink)", synced)
	}
	t.Logf("removed=%v, B syncs during its sweep=%d", removed, synced)
}
