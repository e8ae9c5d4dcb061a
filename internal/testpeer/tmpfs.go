package testpeer

import (
	"fmt"
	"os"
	"syscall"
	"testing"
)

// Tmpfs mounts a tmpfs of size bytes on a fresh folder and returns the
// folder; it is unmounted when t ends (after cleanups registered later,
// such as a server using it). A test of a full disk fills it. Mounting
// needs root (CAP_SYS_ADMIN): without it the test is skipped, or fails in
// CI and under PUMASI_REQUIRE_PEERS=1, so CI never passes by skipping.
func Tmpfs(t testing.TB, size int64) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "pumasi-tmpfs-")
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mount("tmpfs", dir, "tmpfs", syscall.MS_NOSUID|syscall.MS_NODEV,
		fmt.Sprintf("size=%d,mode=0755", size)); err != nil {
		os.Remove(dir)
		msg := fmt.Sprintf("cannot mount a %d-byte tmpfs (run as root to test a full disk): %v", size, err)
		if Required() {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	t.Cleanup(func() {
		if err := syscall.Unmount(dir, syscall.MNT_DETACH); err != nil {
			t.Errorf("unmount %s: %v", dir, err)
		}
		os.Remove(dir)
	})
	return dir
}

// Fill writes a file at path until the filesystem has no space left, and
// returns how many bytes it took: what another process filling the disk
// would do.
func Fill(t testing.TB, path string) int64 {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	buf := make([]byte, 64<<10)
	var n int64
	for len(buf) > 0 {
		m, err := f.Write(buf)
		n += int64(m)
		if err != nil {
			if len(buf) == 1 {
				break
			}
			buf = buf[:len(buf)/2] // the last blocks, to the last byte
		}
	}
	return n
}
