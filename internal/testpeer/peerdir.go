package testpeer

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// ramBase is the tmpfs the test peers of a test binary keep their data on
// when it has room: a throwaway cluster's data dies with it (fsync is off
// already), and on a shared disk the writes were most of its time. On the
// shared 2-core machine CREATE DATABASE took 0.6-1.4 s on disk against
// 30-40 ms here, and adapters/postgres under -race ran 161 s against 59 s.
const ramBase = "/dev/shm"

// ramMinFree is the room ramBase must have left for a test binary's peers to
// use it: a container's /dev/shm is often 64 MiB, which one cluster with a
// few databases fills.
const ramMinFree = 2 << 30

// tmpfsMagic is statfs's f_type of a tmpfs (linux/magic.h).
const tmpfsMagic = 0x01021994

// staleAfter is how old a peer folder left on ramBase by a test binary that
// was killed (its cleanups never ran) must be before scratchDir removes it:
// no test binary runs that long (make test's longest timeout is 14 m).
const staleAfter = 24 * time.Hour

// peerDir makes the data folder of a test peer (prefix: pumasi-testpg-,
// pumasi-testminio-): for a test (test), on ramBase when it is a tmpfs with
// ramMinFree left; else, and for programs that are not tests (the bench,
// whose 1M-row cluster outgrows memory), in os.TempDir().
func peerDir(prefix string, test bool) (string, error) {
	if test && ramRoom() {
		removeStale(ramBase, prefix)
		if dir, err := os.MkdirTemp(ramBase, prefix); err == nil {
			return dir, nil
		}
	}
	return os.MkdirTemp("", prefix)
}

// ramRoom reports whether ramBase is a tmpfs with ramMinFree available.
func ramRoom() bool {
	var st syscall.Statfs_t
	if err := syscall.Statfs(ramBase, &st); err != nil {
		return false
	}
	return int64(st.Type) == tmpfsMagic && int64(st.Bavail)*int64(st.Bsize) >= ramMinFree
}

// removeStale removes the folders named prefix* in base not changed for
// staleAfter: what killed test binaries left, which would otherwise hold
// memory until the machine restarts.
func removeStale(base, prefix string) {
	entries, err := os.ReadDir(base)
	if err != nil {
		return
	}
	for _, e := range entries {
		if !e.IsDir() || !strings.HasPrefix(e.Name(), prefix) {
			continue
		}
		if info, err := e.Info(); err == nil && time.Since(info.ModTime()) > staleAfter {
			os.RemoveAll(filepath.Join(base, e.Name()))
		}
	}
}
