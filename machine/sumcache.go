package machine

import (
	"os"
	"path/filepath"

	"pumasi"
)

// sumCache remembers the sha256 of files the daemon has hashed or written,
// keyed by what stat shows (inode, size, mtime and, where the OS has it, the
// change time that no user tool can set back), so a reconcile re-reads only
// files that changed. It is owned by one agent and guarded by its lock.
type sumCache map[string]cachedSum

type cachedSum struct {
	ino   uint64
	size  int64
	mtime int64
	ctime int64
	sum   string
}

func keyOf(fi os.FileInfo) cachedSum {
	ino, ctime := fileIdentity(fi)
	return cachedSum{ino: ino, size: fi.Size(), mtime: fi.ModTime().UnixNano(), ctime: ctime}
}

// hash returns the sha256 of dir/name, "" when it cannot be a correct copy
// (not a regular file, or larger than a room file may be).
func (c sumCache) hash(dir, name string) (string, error) {
	path := filepath.Join(dir, name)
	fi, err := os.Lstat(path)
	if err != nil {
		delete(c, name)
		return "", err
	}
	if !fi.Mode().IsRegular() || fi.Size() > pumasi.MaxFileSize {
		delete(c, name)
		return "", nil
	}
	k := keyOf(fi)
	if e, ok := c[name]; ok && e.ino == k.ino && e.size == k.size && e.mtime == k.mtime && e.ctime == k.ctime {
		return e.sum, nil
	}
	s, err := hashFile(path)
	if err != nil {
		delete(c, name)
		return "", err
	}
	// Re-stat: a file changed while it was read must not be cached as it.
	if fi2, err := os.Lstat(path); err == nil && keyOf(fi2) == k {
		k.sum = s
		c[name] = k
	}
	return s, nil
}

// record notes that dir/name was just written with sum.
func (c sumCache) record(dir, name, sum string) {
	fi, err := os.Lstat(filepath.Join(dir, name))
	if err != nil {
		delete(c, name)
		return
	}
	k := keyOf(fi)
	k.sum = sum
	c[name] = k
}
