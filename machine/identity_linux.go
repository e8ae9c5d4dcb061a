//go:build linux

package machine

import (
	"os"
	"syscall"
)

// fileIdentity returns the inode and change time of fi.
func fileIdentity(fi os.FileInfo) (uint64, int64) {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Ino), st.Ctim.Sec*1e9 + st.Ctim.Nsec
	}
	return 0, 0
}
