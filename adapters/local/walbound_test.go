package local

import (
	"context"
	"crypto/rand"
	"database/sql"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestWALStaysBounded: four writers commit sustained 16 KiB rows while two
// readers read without a pause; the WAL file must stay within a few times
// the checkpointer's target although the writes append far more than that
// (with PASSIVE checkpoints alone it grew with every commit: readers always
// held the WAL, so it never started over). The thresholds are lowered so
// the test takes seconds; bench/wal.go runs the real ones for minutes.
func TestWALStaysBounded(t *testing.T) {
	const target, limit = 1 << 20, 2 << 20
	s := openT(t, t.TempDir(), Options{walTarget: target, walLimit: limit})
	ctx := context.Background()
	if _, err := s.db.ExecContext(ctx, `CREATE TABLE scratch (id INTEGER PRIMARY KEY, body BLOB NOT NULL)`); err != nil {
		t.Fatal(err)
	}
	const writers, rowBytes = 4, 16 << 10
	perWriter := 300
	if raceEnabled {
		perWriter = 120 // fewer commits, still many times the bound
	}
	var peak atomic.Int64
	stop := make(chan struct{})
	var bg sync.WaitGroup
	bg.Add(1)
	go func() { // the sampler
		defer bg.Done()
		for {
			if n := fileSize(s.walPath()); n > peak.Load() {
				peak.Store(n)
			}
			select {
			case <-stop:
				return
			case <-time.After(5 * time.Millisecond):
			}
		}
	}()
	var reads atomic.Int64
	for r := 0; r < 2; r++ {
		bg.Add(1)
		go func() {
			defer bg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				err := s.readTx(ctx, func(tx *sql.Tx) error {
					var n int
					return tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM scratch`).Scan(&n)
				})
				if err != nil {
					t.Error(err)
					return
				}
				reads.Add(1)
			}
		}()
	}
	var wg sync.WaitGroup
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			body := make([]byte, rowBytes)
			for i := 0; i < perWriter; i++ {
				rand.Read(body)
				if err := s.writeTx(ctx, func(tx *sql.Tx) error {
					_, err := tx.ExecContext(ctx, `INSERT INTO scratch (body) VALUES (?)`, body)
					return err
				}); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(stop)
	bg.Wait()
	written := int64(writers * perWriter * rowBytes)
	restarts, busy := s.WALStats()
	t.Logf("WAL peak %d KiB while %d KiB of rows were written; %d restarts, %d waited out; %d reads", peak.Load()>>10, written>>10, restarts, busy, reads.Load())
	if reads.Load() < 100 {
		t.Fatalf("the readers read %d times: not concurrent enough to hold the WAL", reads.Load())
	}
	// The file grows past the target until the checkpointer's next look
	// (each tick, or checkpointEvery commits): a few targets at most.
	if bound := int64(6 * target); peak.Load() > bound {
		t.Fatalf("WAL peaked at %d KiB, above %d KiB (target %d KiB), with %d KiB written", peak.Load()>>10, bound>>10, target>>10, written>>10)
	}
	if restarts == 0 {
		t.Fatal("the checkpointer never restarted the WAL")
	}
}
