package local

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"pumasi"
)

// trashPrefix names a blob that an older pumasi moved aside inside a delete's
// transaction; the sweep still restores such a stash when a row needs it, so
// a home left by a crash of that version heals. Nothing moves blobs aside
// any more: see retire.
const trashPrefix = "del-"

func (s *Store) roomDir(room string) string { return filepath.Join(s.filesDir, room) }

func (s *Store) tmpDir(room string) string { return filepath.Join(s.filesDir, room, ".tmp") }

func (s *Store) blobPath(room, sum string) string { return filepath.Join(s.filesDir, room, sum) }

// writeTemp writes body durably to a fresh file in the room's .tmp/ and
// returns its path.
func (s *Store) writeTemp(room string, body []byte) (string, error) {
	dir := s.tmpDir(room)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("write temp: %w", err)
	}
	f, err := os.CreateTemp(dir, "up-*")
	if err != nil {
		return "", fmt.Errorf("write temp: %w", err)
	}
	_, err = f.Write(body)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(f.Name())
		return "", fmt.Errorf("write temp: %w", err)
	}
	return f.Name(), nil
}

// renameBlob renames a synced temp file onto the blob path. The caller syncs
// the room directory before any row pointing at the blob commits (a group
// commit does it once for all its uploads). An identical blob already there
// is overwritten harmlessly.
func (s *Store) renameBlob(room, sum, tmp string) error {
	if err := os.Rename(tmp, s.blobPath(room, sum)); err != nil {
		return fmt.Errorf("place blob %s: %w", sum, err)
	}
	return nil
}

// retireGrace is how long a blob that a commit stopped referencing stays on
// disk before the reaper may remove it. A reader that read the old row just
// before the commit still opens the blob within this window, so a
// concurrent write never turns a read into "no such file".
const retireGrace = 10 * time.Second

// retired is a blob a committed write stopped referencing, waiting out
// retireGrace.
type retired struct {
	room, sum string
	at        time.Time
}

// retire is called after a commit that dropped a reference to sum: the blob
// is never touched inside the transaction (readers still see the old row,
// and a rolled-back row must still find its blob). Its mtime is set to now
// so that every sweep, in any process, gives it the same grace; the reaper
// removes it once the grace is over and no row has taken it up again.
func (s *Store) retire(room, sum string) {
	now := time.Now()
	if err := os.Chtimes(s.blobPath(room, sum), now, now); err != nil && !errors.Is(err, fs.ErrNotExist) {
		s.log.Warn("retire blob", "room", room, "sha256", sum, "err", err)
	}
	s.rmu.Lock()
	s.retired = append(s.retired, retired{room: room, sum: sum, at: now})
	s.rmu.Unlock()
}

// reap removes the retired blobs whose grace is over and that no row
// references, in one write transaction, at most once per quarter grace so
// that a tight update loop pays for it rarely. Every committed write calls
// it; what a crash forgets, the sweep collects.
func (s *Store) reap(ctx context.Context, now time.Time) {
	s.rmu.Lock()
	if now.Sub(s.lastReap) < s.retireGrace/4 {
		s.rmu.Unlock()
		return
	}
	i := 0
	for i < len(s.retired) && now.Sub(s.retired[i].at) >= s.retireGrace {
		i++
	}
	due := append([]retired(nil), s.retired[:i]...)
	s.retired = append(s.retired[:0], s.retired[i:]...)
	if len(due) > 0 {
		s.lastReap = now
	}
	s.rmu.Unlock()
	if len(due) == 0 {
		return
	}
	ctx = context.WithoutCancel(ctx)
	// It writes no row; it syncs the WAL itself before unlinking.
	err := s.writeTxNoSync(ctx, func(tx *sql.Tx) error {
		var drop []retired
		for _, r := range due {
			ref, err := referenced(ctx, tx, r.room, r.sum)
			if err != nil {
				return err
			}
			if !ref {
				drop = append(drop, r)
			}
		}
		if len(drop) == 0 {
			return nil
		}
		if err := s.durable(); err != nil {
			return err
		}
		for _, r := range drop {
			if err := os.Remove(s.blobPath(r.room, r.sum)); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("reap blob %s: %w", r.sum, err)
			}
		}
		return nil
	})
	if err != nil {
		s.log.Warn("reap retired blobs (the sweep will collect them)", "blobs", len(due), "err", err)
	}
}

// syncWAL makes every committed transaction durable before a blob that only
// older rows reference is unlinked. With synchronous(NORMAL) a commit is
// written to <db>-wal but synced only at the next checkpoint, so a power loss
// could roll it back; fsync of the WAL (any descriptor of the file will do)
// closes that window. No WAL file means everything is in the synced database.
func (s *Store) syncWAL() error {
	f, err := os.Open(filepath.Join(s.home, "pumasi.db-wal"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("sync wal: %w", err)
	}
	err = f.Sync()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("sync wal: %w", err)
	}
	return nil
}

// referenced reports whether any row of room points at sum: a file or a
// kept version.
func referenced(ctx context.Context, tx *sql.Tx, room, sum string) (bool, error) {
	var n int
	err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM files WHERE room_id = ? AND sha256 = ?)
		OR EXISTS (SELECT 1 FROM room_changes WHERE room_id = ? AND to_sha256 = ?)`, room, sum, room, sum).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("blob refs %s: %w", sum, err)
	}
	return n > 0, nil
}

// dropBlobIfOrphan removes a blob after a failed put, unless a committed row
// references it; the check and removal share one write transaction.
func (s *Store) dropBlobIfOrphan(ctx context.Context, room, sum string) {
	// The cleanup must run even when the upload failed because ctx ended.
	ctx = context.WithoutCancel(ctx)
	err := s.writeTxNoSync(ctx, func(tx *sql.Tx) error {
		ref, err := referenced(ctx, tx, room, sum)
		if err != nil || ref {
			return err
		}
		// The blob may be one an earlier, not yet synced commit (of this
		// process or another on the home) stopped referencing; that commit
		// must be durable before the blob goes.
		if err := s.syncAll(); err != nil {
			return err
		}
		err = os.Remove(s.blobPath(room, sum))
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return err
	})
	if err != nil {
		s.log.Warn("drop orphan blob", "room", room, "sha256", sum, "err", err)
	}
}

// Sweep removes .tmp/ leftovers and blobs no file references whose
// modification time is older than grace before now. The cutoff uses the
// real clock, not Options.Now, because it is compared with file mtimes.
// A retired blob's mtime is its retirement, so a grace of at least
// retireGrace never pulls a blob from under a read in flight.
func (s *Store) Sweep(ctx context.Context, grace time.Duration) (pumasi.SweepReport, error) {
	if grace < 0 {
		grace = 0
	}
	versions, err := s.sweepHistory(ctx)
	if err != nil {
		return pumasi.SweepReport{Versions: versions}, err
	}
	rep, err := s.sweep(ctx, time.Now().Add(-grace), false)
	rep.Versions = versions
	return rep, err
}

// sweepHistory applies the retention to every room that keeps changes,
// before the blob sweep, so what falls out is reaped in the same run.
func (s *Store) sweepHistory(ctx context.Context) (int, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT DISTINCT room_id FROM room_changes`)
	if err != nil {
		return 0, fmt.Errorf("sweep history: %w", err)
	}
	var rooms []string
	for rows.Next() {
		var r string
		if err := rows.Scan(&r); err != nil {
			rows.Close()
			return 0, fmt.Errorf("sweep history: %w", err)
		}
		rooms = append(rooms, r)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, fmt.Errorf("sweep history: %w", err)
	}
	total := 0
	for _, room := range rooms {
		if err := ctx.Err(); err != nil {
			return total, err
		}
		n, err := s.applyRetention(ctx, room)
		total += n
		if err != nil {
			return total, err
		}
	}
	return total, nil
}

// sweep cleans every room. With all set (boot, no other process on the
// home) everything is removed regardless of age; otherwise only items older
// than cutoff go. Stashed blobs a row still needs are restored either way.
func (s *Store) sweep(ctx context.Context, cutoff time.Time, all bool) (pumasi.SweepReport, error) {
	var rep pumasi.SweepReport
	entries, err := os.ReadDir(s.filesDir)
	if err != nil {
		return rep, fmt.Errorf("sweep: %w", err)
	}
	for _, e := range entries {
		if !e.IsDir() || !pumasi.ValidID(e.Name()) {
			continue
		}
		if err := ctx.Err(); err != nil {
			return rep, err
		}
		r, err := s.sweepRoom(ctx, e.Name(), cutoff, all)
		rep.TempFiles += r.TempFiles
		rep.Blobs += r.Blobs
		if err != nil {
			return rep, err
		}
	}
	return rep, nil
}

// sweepRoom cleans one room inside one write transaction, so no upload can
// place a blob (and take up an orphan again) while it decides.
func (s *Store) sweepRoom(ctx context.Context, room string, cutoff time.Time, all bool) (pumasi.SweepReport, error) {
	var rep pumasi.SweepReport
	old := func(info fs.FileInfo) bool { return all || info.ModTime().Before(cutoff) }
	// It writes no row (the lock orders it against uploads); it syncs the
	// WAL itself before unlinking.
	err := s.writeTxNoSync(ctx, func(tx *sql.Tx) error {
		rep = pumasi.SweepReport{}
		refs := map[string]bool{}
		rows, err := tx.QueryContext(ctx, `SELECT sha256 FROM files WHERE room_id = ?
			UNION SELECT to_sha256 FROM room_changes WHERE room_id = ? AND to_sha256 != ''`, room, room)
		if err != nil {
			return fmt.Errorf("sweep %s: %w", room, err)
		}
		for rows.Next() {
			var sum string
			if err := rows.Scan(&sum); err != nil {
				rows.Close()
				return fmt.Errorf("sweep %s: %w", room, err)
			}
			refs[sum] = true
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return fmt.Errorf("sweep %s: %w", room, err)
		}

		// Temp files first, so a restored blob is not then taken for an orphan.
		tmps, err := os.ReadDir(s.tmpDir(room))
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("sweep %s: %w", room, err)
		}
		for _, t := range tmps {
			p := filepath.Join(s.tmpDir(room), t.Name())
			info, err := t.Info()
			if err != nil || !old(info) {
				continue
			}
			// A stash a row still needs is put back by every sweep, not only
			// a lone boot: the rename kept the blob's mtime, so the stash of
			// a crashed or failed delete can look old at once. The write
			// transaction means no delete is in flight, so restoring is safe.
			if strings.HasPrefix(t.Name(), trashPrefix) {
				sum := strings.TrimPrefix(t.Name(), trashPrefix)
				if i := strings.IndexByte(sum, '-'); i >= 0 {
					sum = sum[:i]
				}
				if refs[sum] {
					if _, err := os.Stat(s.blobPath(room, sum)); errors.Is(err, fs.ErrNotExist) {
						if err := os.Rename(p, s.blobPath(room, sum)); err == nil {
							s.log.Warn("restored blob stashed by an interrupted delete", "room", room, "sha256", sum)
							continue
						}
					}
				}
			}
			if err := os.RemoveAll(p); err == nil {
				rep.TempFiles++
			}
		}

		blobs, err := os.ReadDir(s.roomDir(room))
		if err != nil {
			return fmt.Errorf("sweep %s: %w", room, err)
		}
		var orphans []string
		for _, b := range blobs {
			if b.IsDir() || !isSHA256(b.Name()) || refs[b.Name()] {
				continue
			}
			info, err := b.Info()
			if err != nil || !old(info) {
				continue
			}
			orphans = append(orphans, b.Name())
		}
		if len(orphans) == 0 {
			return nil
		}
		// The commits that dropped these blobs, whichever process made
		// them, must survive a power loss before the blobs go, or a
		// rolled-back row would point at nothing.
		if err := s.syncAll(); err != nil {
			return fmt.Errorf("sweep %s: %w", room, err)
		}
		for _, sum := range orphans {
			if err := os.Remove(filepath.Join(s.roomDir(room), sum)); err == nil {
				rep.Blobs++
			}
		}
		return nil
	})
	return rep, err
}

// isSHA256 reports whether s is a lowercase hex sha256, the only names blobs get.
func isSHA256(s string) bool {
	if len(s) != 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

func sum256(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}
