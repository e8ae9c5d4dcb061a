package machine

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"pumasi"
	"pumasi/internal/atomicfile"
)

// tmpPrefix started the temp files of daemons before internal/atomicfile;
// their leftovers are still removed. Room names may not start with a dot,
// so a temp file never collides with a room file.
const tmpPrefix = ".pumasi-tmp-"

// isTemp reports whether name is a temp file a killed write left.
func isTemp(name string) bool {
	return strings.HasPrefix(name, tmpPrefix) || atomicfile.IsTemp(name)
}

// sharedDir is the one directory the daemon writes for agent; agent is a
// valid id, so the path stays under home.
func (d *daemon) sharedDir(agent string) string {
	return filepath.Join(d.cfg.Home, "agents", agent, "memory", "shared")
}

func (d *daemon) statePath() string {
	return filepath.Join(d.cfg.Home, "machines", d.cfg.Machine+".json")
}

// state is the daemon's local memory across restarts: which agents' shared
// directories it owns, so it can empty them once they are unassigned even
// if that happened while it was down.
type state struct {
	MachineID string            `json:"machine_id"`
	Agents    map[string]string `json:"agents"`
}

func (d *daemon) loadState() error {
	b, err := os.ReadFile(d.statePath())
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("load state: %w", err)
	}
	var s state
	if err := json.Unmarshal(b, &s); err != nil {
		d.log.Warn("state file is corrupt; starting without it", "path", d.statePath(), "err", err)
		return nil
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	for a, r := range s.Agents {
		if pumasi.ValidID(a) {
			d.managed[a] = r
		}
	}
	return nil
}

func (d *daemon) saveState() error {
	d.mu.Lock()
	s := state{MachineID: d.cfg.Machine, Agents: make(map[string]string, len(d.managed))}
	for a, r := range d.managed {
		s.Agents[a] = r
	}
	d.mu.Unlock()
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return fmt.Errorf("save state: %w", err)
	}
	dir := filepath.Dir(d.statePath())
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("save state: %w", err)
	}
	if err := writeAtomic(dir, filepath.Base(d.statePath()), b); err != nil {
		return fmt.Errorf("save state: %w", err)
	}
	return nil
}

// removeTemps deletes temp files a crash left in the shared directories of
// the agents this daemon owns (from its state); reconciles remove any others
// once an agent is assigned here.
func (d *daemon) removeTemps() {
	d.mu.Lock()
	agents := make([]string, 0, len(d.managed))
	for a := range d.managed {
		agents = append(agents, a)
	}
	d.mu.Unlock()
	n := 0
	for _, a := range agents {
		n += removeTempFiles(d.sharedDir(a))
	}
	if n > 0 {
		d.log.Info("removed temp files left by a crash", "count", n)
	}
}

// removeTempFiles removes the daemon's temp files from dir and counts them.
func removeTempFiles(dir string) int {
	if checkRealDirs(dir) != nil {
		return 0
	}
	files, err := os.ReadDir(dir)
	if err != nil {
		return 0
	}
	n := 0
	for _, f := range files {
		if isTemp(f.Name()) && f.Type().IsRegular() {
			if err := os.Remove(filepath.Join(dir, f.Name())); err == nil {
				n++
			}
		}
	}
	return n
}

// fetchFunc returns the verified bytes of name with sha256 sum.
type fetchFunc func(ctx context.Context, name, sum string) ([]byte, error)

// reconcileDir makes dir hold exactly want (name -> sha256): it fetches and
// writes what is missing or differs, skips what already matches (so its
// mtime is untouched), and removes names not wanted. Entries that are not
// the daemon's (invalid names, directories) are left alone. It returns what
// dir holds afterwards and the first error; it goes on past errors.
func reconcileDir(ctx context.Context, dir string, want map[string]string, cache sumCache, fetch fetchFunc) (map[string]string, error) {
	if err := checkRealDirs(dir); err != nil {
		return map[string]string{}, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return map[string]string{}, fmt.Errorf("create %s: %w", dir, err)
	}
	// The caller holds the agent's lock, so no write of ours is in flight
	// here: any temp file is a leftover.
	removeTempFiles(dir)
	disk, err := scanDir(dir, cache)
	if err != nil {
		return map[string]string{}, err
	}
	held := map[string]string{}
	var firstErr error
	note := func(err error) {
		if firstErr == nil {
			firstErr = err
		}
	}
	// Unwanted names go first: on a case-insensitive file system (macOS,
	// Windows) a stale "a.md" and a wanted "A.md" are one entry, so removing
	// the stale name after writing the wanted one would delete the new copy.
	removed := false
	for name, s := range disk {
		if _, ok := want[name]; ok {
			continue
		}
		delete(cache, name)
		if err := os.Remove(filepath.Join(dir, name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			note(fmt.Errorf("remove %s: %w", name, err))
			if s != "" {
				held[name] = s
			}
			continue
		}
		removed = true
	}
	if removed {
		if err := syncDir(dir); err != nil {
			note(err)
		}
	}
	names := make([]string, 0, len(want))
	for n := range want {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		sum := want[name]
		if disk[name] == sum {
			held[name] = sum
			continue
		}
		if err := ctx.Err(); err != nil {
			note(err)
			break
		}
		body, err := fetch(ctx, name, sum)
		if err != nil {
			note(err)
			if s := disk[name]; s != "" {
				held[name] = s
			}
			continue
		}
		if err := writeAtomic(dir, name, body); err != nil {
			note(err)
			continue
		}
		cache.record(dir, name, sum)
		held[name] = sum
	}
	return held, firstErr
}

// scanDir lists the daemon's entries in dir: regular files and symlinks
// whose names pass the name rules, with the sha256 of regular files ("" for
// anything that cannot be a correct copy). Cached sums are reused for files
// whose stat is unchanged; names no longer present leave the cache.
func scanDir(dir string, cache sumCache) (map[string]string, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", dir, err)
	}
	out := map[string]string{}
	defer func() {
		for n := range cache {
			if _, ok := out[n]; !ok {
				delete(cache, n)
			}
		}
	}()
	for _, e := range ents {
		name := e.Name()
		if !validName(name) {
			continue
		}
		switch {
		case e.Type().IsRegular():
			sum, err := cache.hash(dir, name)
			if err != nil {
				sum = ""
			}
			out[name] = sum
		case e.Type()&fs.ModeSymlink != 0:
			out[name] = ""
		}
	}
	return out, nil
}

// hashFile returns the sha256 of a regular file no larger than a room file
// may be, and "" otherwise: such a file cannot be a correct copy.
func hashFile(path string) (string, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return "", err
	}
	if !fi.Mode().IsRegular() || fi.Size() > pumasi.MaxFileSize {
		return "", nil
	}
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, io.LimitReader(f, pumasi.MaxFileSize+1)); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

func sumHex(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// writeAtomic replaces dir/name with body through internal/atomicfile
// (temp file in the same directory, fsync, rename, fsync the directory): a
// reader sees the old file or the new one, never a part. name must already
// be validated.
func writeAtomic(dir, name string, body []byte) error {
	target := filepath.Join(dir, name)
	if filepath.Dir(target) != filepath.Clean(dir) {
		return fmt.Errorf("write %q: name leaves its directory", name)
	}
	if err := atomicfile.WriteFile(target, body, 0o644); err != nil {
		return fmt.Errorf("write %s: %w", name, err)
	}
	return nil
}

// checkRealDirs refuses a shared directory that is, or sits below, a symlink
// or a non-directory up to the agent's folder (agents/<agent>/memory/shared):
// a symlinked shared/ pointing at memory/ would let a reconcile delete the
// agent's private notes. Missing levels are fine; MkdirAll makes real ones.
func checkRealDirs(dir string) error {
	for i, d := 0, dir; i < 3; i, d = i+1, filepath.Dir(d) {
		fi, err := os.Lstat(d)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return fmt.Errorf("check %s: %w", d, err)
		}
		if !fi.IsDir() {
			return fmt.Errorf("refusing to manage %s: %s is not a real directory (symlink or file)", dir, d)
		}
	}
	return nil
}

// removeFile removes dir/name if present and syncs the directory.
func removeFile(dir, name string) error {
	err := os.Remove(filepath.Join(dir, name))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("remove %s: %w", name, err)
	}
	return syncDir(dir)
}

// emptyDir removes the daemon's entries from dir (valid names that are
// files or symlinks, and its temp files) and leaves anything else.
func emptyDir(dir string) error {
	if err := checkRealDirs(dir); err != nil {
		return err
	}
	ents, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("read %s: %w", dir, err)
	}
	removed := false
	for _, e := range ents {
		name := e.Name()
		ours := isTemp(name) || validName(name)
		if !ours || e.IsDir() {
			continue
		}
		if err := os.Remove(filepath.Join(dir, name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("remove %s: %w", name, err)
		}
		removed = true
	}
	if removed {
		return syncDir(dir)
	}
	return nil
}

// syncDir makes a rename or remove in dir durable.
func syncDir(dir string) error {
	if err := atomicfile.SyncDir(dir); err != nil {
		return fmt.Errorf("sync %s: %w", dir, err)
	}
	return nil
}
