// Package atomicfile replaces a file so that a reader, or a crash, sees the
// old content or the new, never a part: a temp file in the same directory,
// synced, renamed into place, then the directory synced.
package atomicfile

import (
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// tmpInfix sits between the target's name and the random part of its temp
// file's name: ".<name>.tmp-<random>".
const tmpInfix = ".tmp-"

// Write replaces path with what fill writes, with permissions perm. On any
// error the temp file is removed and path is left as it was; a process
// killed midway leaves a temp file that IsTemp recognises.
func Write(path string, perm fs.FileMode, fill func(f *os.File) error) (err error) {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+tmpInfix+"*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			os.Remove(tmp.Name())
		}
	}()
	err = fill(tmp)
	if err == nil {
		err = tmp.Chmod(perm)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	if err = os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	return SyncDir(dir)
}

// WriteFile replaces path with b (see Write).
func WriteFile(path string, b []byte, perm fs.FileMode) error {
	return Write(path, perm, func(f *os.File) error {
		_, err := f.Write(b)
		return err
	})
}

// IsTemp reports whether name is the name of a temp file Write makes, so
// an owner can remove what a killed process left.
func IsTemp(name string) bool {
	return strings.HasPrefix(name, ".") && strings.Contains(name, tmpInfix)
}

// SyncDir syncs a directory, so a rename or an unlink in it is durable.
// Windows cannot sync a directory handle (and journals its renames), so
// there it does nothing.
func SyncDir(dir string) error {
	if runtime.GOOS == "windows" {
		return nil
	}
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}
