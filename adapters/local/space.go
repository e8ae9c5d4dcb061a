package local

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"pumasi"
)

// DefaultMinFree is the free space the home must keep: below it the store
// refuses what brings data in (uploads, knowledge contributions) with
// insufficient_storage and GET /healthz answers 503, while deletes and
// unplacements, which are how space is freed, still work.
const DefaultMinFree int64 = 64 << 20

// reserveSize is the file the store keeps in the home against a disk that
// something else fills to the last byte: it is released before a write
// that finds the disk nearly full, so a delete (a few WAL pages) can still
// commit, and made again once the floor is clear. CockroachDB keeps an
// "emergency ballast" file for the same reason.
const (
	reserveSize = 4 << 20
	reserveName = ".reserve"
)

// space watches the free space of the home. Every reading is a fresh
// statfs (about a microsecond): a reading from before another process
// filled the disk would let a write eat the reserve.
type space struct {
	// minFree is the floor; zero turns the floor off (the reserve stays).
	minFree int64
	// statfs reads the free bytes; tests replace it.
	statfs func(path string) (int64, error)
}

// freeBytes returns the bytes available to this process on the home's
// filesystem.
func (s *Store) freeBytes() (int64, error) {
	if s.space.statfs != nil {
		return s.space.statfs(s.home)
	}
	return statfsFree(s.home)
}

func statfsFree(path string) (int64, error) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(path, &st); err != nil {
		return 0, fmt.Errorf("statfs %s: %w", path, err)
	}
	return int64(st.Bavail) * int64(st.Bsize), nil
}

// MinFree returns the store's free-space floor in bytes (0: none).
func (s *Store) MinFree() int64 { return s.space.minFree }

// roomToGrow returns insufficient_storage when the home's free space is
// below the floor: the check of every write that brings data in.
func (s *Store) roomToGrow() error {
	if s.space.minFree <= 0 {
		return nil
	}
	free, err := s.freeBytes()
	if err != nil {
		return nil // Unknown: let the write itself find out.
	}
	if free < s.space.minFree {
		return pumasi.Errorf(pumasi.EInsufficientStorage,
			"the server's disk has %s free, below its floor of %s (PUMASI_MIN_FREE): delete files to make room",
			humanBytes(free), humanBytes(s.space.minFree))
	}
	return nil
}

// RoomToGrow is roomToGrow for the knowledge driver over this store.
func (s *Store) RoomToGrow() error { return s.roomToGrow() }

// reservePath is the reserve file's path.
func (s *Store) reservePath() string { return filepath.Join(s.home, reserveName) }

// spareReserve releases the reserve when the disk is nearly full, so the
// write about to run finds room for its WAL pages. It costs one statfs.
func (s *Store) spareReserve() {
	free, err := s.freeBytes()
	if err != nil || free >= 2*reserveSize {
		return
	}
	if err := os.Remove(s.reservePath()); err == nil {
		s.log.Warn("disk nearly full: released the reserve so deletes can still commit", "home", s.home, "free", free)
	}
}

// keepReserve makes the reserve file when it is missing and the disk has
// room for it above the floor; the checkpointer calls it now and then.
func (s *Store) keepReserve() {
	p := s.reservePath()
	if _, err := os.Stat(p); err == nil || !errors.Is(err, fs.ErrNotExist) {
		return
	}
	free, err := s.freeBytes()
	if err != nil || free < s.space.minFree+2*reserveSize {
		return
	}
	tmp := p + ".tmp"
	err = func() error {
		f, err := os.OpenFile(tmp, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o600)
		if err != nil {
			return err
		}
		// Written, not sparse: the blocks must really be taken.
		_, err = f.Write(make([]byte, reserveSize))
		if err == nil {
			err = f.Sync()
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err == nil {
			err = os.Rename(tmp, p)
		}
		return err
	}()
	if err != nil {
		os.Remove(tmp)
		s.log.Debug("make the disk reserve (tried again later)", "err", err)
	}
}

// storageErr turns a failure for lack of space (ENOSPC, EDQUOT, SQLite's
// SQLITE_FULL) into insufficient_storage, keeping the cause for the log;
// anything else is returned as it is.
func storageErr(err error) error {
	if err == nil || pumasi.ErrorCode(err) != pumasi.EInternal {
		return err
	}
	full := errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT)
	var se *sqlite.Error
	if errors.As(err, &se) && se.Code()&0xff == sqlite3.SQLITE_FULL {
		full = true
	}
	if !full {
		return err
	}
	return &pumasi.Error{Code: pumasi.EInsufficientStorage,
		Message: "the server's disk is full: delete files to make room", Err: err}
}

// humanBytes prints n in binary units.
func humanBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTPE"[exp])
}

// ParseMinFree reads a free-space floor (PUMASI_MIN_FREE, --min-free):
// bytes, or a number with a unit (KiB, MiB, GiB, TiB; KB, MB, GB, TB),
// "" for the default, "0" or "off" for none. It returns what
// Options.MinFree takes.
func ParseMinFree(v string) (int64, error) {
	v = strings.TrimSpace(v)
	switch strings.ToLower(v) {
	case "":
		return 0, nil
	case "0", "off":
		return -1, nil
	}
	num := strings.TrimRightFunc(v, func(r rune) bool { return r < '0' || r > '9' })
	unit := strings.TrimSpace(v[len(num):])
	mult, ok := map[string]int64{"": 1, "b": 1,
		"kib": 1 << 10, "mib": 1 << 20, "gib": 1 << 30, "tib": 1 << 40,
		"kb": 1e3, "mb": 1e6, "gb": 1e9, "tb": 1e12}[strings.ToLower(unit)]
	n, err := strconv.ParseInt(num, 10, 64)
	if !ok || err != nil || n < 0 || n > math.MaxInt64/mult {
		return 0, fmt.Errorf("free-space floor %q: want bytes or a size like 64MiB or 1GiB, or off", v)
	}
	if n == 0 {
		return -1, nil
	}
	return n * mult, nil
}
