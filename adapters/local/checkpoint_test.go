package local

import (
	"context"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// walCheckpointSeq reads the checkpoint sequence number from the WAL
// header (bytes 12–15, big-endian): SQLite bumps it each time a writer
// starts the WAL over after a complete checkpoint.
func walCheckpointSeq(t *testing.T, home string) uint32 {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(home, "pumasi.db-wal"))
	if err != nil || len(b) < 32 {
		t.Fatalf("read WAL header: %v (%d bytes)", err, len(b))
	}
	return binary.BigEndian.Uint32(b[12:16])
}

// TestWritersNeverCheckpoint: no connection checkpoints inside a commit
// (wal_autocheckpoint is 0), and the background checkpointer keeps the WAL
// from growing: after a burst of commits and a quiet second, the next
// writer starts the WAL over.
func TestWritersNeverCheckpoint(t *testing.T) {
	home := t.TempDir()
	s := openT(t, home, Options{})
	ctx := context.Background()
	var auto int
	if err := s.db.QueryRowContext(ctx, `PRAGMA wal_autocheckpoint`).Scan(&auto); err != nil || auto != 0 {
		t.Fatalf("wal_autocheckpoint = %d, %v; want 0 (no checkpoint inside a commit)", auto, err)
	}
	place := func(i int) {
		t.Helper()
		if _, _, err := s.PlaceAgent(ctx, "r", fmt.Sprintf("agent%04d", i%500), fmt.Sprintf("m%d", i%3)); err != nil {
			t.Fatal(err)
		}
	}
	place(0)
	seq := walCheckpointSeq(t, home)
	for i := 1; i <= 2*checkpointEvery+10; i++ {
		place(i)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		time.Sleep(checkpointIdle + 100*time.Millisecond)
		place(1) // a writer after a complete checkpoint starts the WAL over
		if walCheckpointSeq(t, home) != seq {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the WAL was never checkpointed and started over (checkpoint sequence stays %d)", seq)
		}
	}
}
