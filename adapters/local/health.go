package local

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"

	"pumasi"
)

// healthTimeout bounds the database probe of a health check.
const healthTimeout = 2 * time.Second

// HealthChecks reports whether the store can take writes: its WAL syncs
// have not failed (durable) and the home's free space is above the floor
// (disk).
func (s *Store) HealthChecks(ctx context.Context) []pumasi.HealthCheck {
	durable := pumasi.HealthCheck{Name: pumasi.CheckDurable, OK: true}
	if err := s.Healthy(); err != nil {
		durable.OK = false
		durable.Message = "a WAL sync failed: the store can no longer make writes durable; restart the server"
	}
	disk := pumasi.HealthCheck{Name: pumasi.CheckDisk, OK: true, FloorBytes: s.space.minFree}
	free, err := s.freeBytes()
	switch {
	case err != nil:
		disk.OK, disk.Message = false, "cannot read the home's free space"
	case free < s.space.minFree:
		disk.OK = false
		disk.Message = "the home has " + humanBytes(free) + " free, below the floor of " + humanBytes(s.space.minFree)
	}
	disk.FreeBytes = free
	return []pumasi.HealthCheck{durable, disk}
}

// probe reads one row, proving the database answers.
func (s *Store) probe(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, healthTimeout)
	defer cancel()
	var n int
	return s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM schema_migrations`).Scan(&n)
}

// HealthChecks reports the knowledge driver's database (knowledge) and the
// store under it.
func (k *Knowledge) HealthChecks(ctx context.Context) []pumasi.HealthCheck {
	c := pumasi.HealthCheck{Name: pumasi.CheckKnowledge, OK: true}
	if err := k.s.probe(ctx); err != nil {
		c.OK, c.Message = false, "the knowledge database does not answer"
	}
	return append([]pumasi.HealthCheck{c}, k.s.HealthChecks(ctx)...)
}

// usageTTL is how long a walk of the blobs is reused by DiskUsage.
const usageTTL = 15 * time.Second

// blobWalk caches the total size of the blobs.
type blobWalk struct {
	mu    sync.Mutex
	at    time.Time
	bytes int64
}

// DiskUsage reports what the home holds by part: the database, its WAL, the
// room files' blobs (walked at most every usageTTL) and the saved vector
// index.
func (s *Store) DiskUsage(ctx context.Context) (pumasi.DiskUsage, error) {
	u := pumasi.DiskUsage{Floor: s.space.minFree}
	u.Database = fileSize(filepath.Join(s.home, "pumasi.db"))
	u.WAL = fileSize(filepath.Join(s.home, "pumasi.db-wal"))
	u.Index = treeSize(filepath.Join(s.home, "knowledge-index"))
	w := &s.blobs
	w.mu.Lock()
	if time.Since(w.at) > usageTTL {
		w.bytes, w.at = treeSize(s.filesDir), time.Now()
	}
	u.Blobs = w.bytes
	w.mu.Unlock()
	free, err := s.freeBytes()
	u.Free = free
	return u, err
}

func fileSize(p string) int64 {
	fi, err := os.Stat(p)
	if err != nil {
		return 0
	}
	return fi.Size()
}

// treeSize adds up the sizes of the regular files under dir.
func treeSize(dir string) int64 {
	var n int64
	_ = filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // A file removed meanwhile, or an unreadable folder: skip it.
		}
		if d.Type().IsRegular() {
			if fi, err := d.Info(); err == nil {
				n += fi.Size()
			}
		}
		return nil
	})
	return n
}

// DiskUsage is the store's DiskUsage, for a driver whose store keeps no
// room files (S3 storage with knowledge in the home).
func (k *Knowledge) DiskUsage(ctx context.Context) (pumasi.DiskUsage, error) {
	return k.s.DiskUsage(ctx)
}

// ReleaseMemory is the store's ReleaseMemory, for the knowledge driver
// over it.
func (k *Knowledge) ReleaseMemory() { k.s.ReleaseMemory() }
