package machine

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// HeldError is Start's and Run's answer when another daemon already runs
// for the same machine on the same home: two of them would each empty the
// shared folders of the agents the other mirrors.
type HeldError struct {
	Home    string
	Machine string
	// PID is the holder's process id, 0 when it could not be read.
	PID int
}

func (e *HeldError) Error() string {
	holder := "another process"
	if e.PID > 0 {
		holder = "pid " + strconv.Itoa(e.PID)
	}
	return fmt.Sprintf("a machine daemon for %s already runs on home %s (%s holds %s); stop it, or use another --home",
		e.Machine, e.Home, holder, lockPath(e.Home, e.Machine))
}

// homeLock is the OS lock that makes a daemon the only one for its
// (home, machine): an exclusive flock on <home>/machines/<machine>.lock,
// held for the daemon's life. The kernel drops it when the process dies,
// so a crash never leaves a stale lock behind; the file keeps the holder's
// pid only to name it in the next one's error.
type homeLock struct{ f *os.File }

func lockPath(home, machine string) string {
	return filepath.Join(home, "machines", machine+".lock")
}

// lockHome takes the lock for (home, machine) without waiting. Returns a
// *HeldError when another daemon, in this process or another, holds it.
func lockHome(home, machine string) (*homeLock, error) {
	path := lockPath(home, machine)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("lock home: %w", err)
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("lock home: %w", err)
	}
	// flock locks belong to the open file, so a second daemon in the same
	// process is refused as well.
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		defer f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, &HeldError{Home: home, Machine: machine, PID: holderPID(f)}
		}
		return nil, fmt.Errorf("lock home: %w", err)
	}
	if err := f.Truncate(0); err == nil {
		_, err = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	return &homeLock{f: f}, nil
}

// holderPID reads the pid the holder wrote after taking the lock, waiting a
// moment for a holder that has just taken it.
func holderPID(f *os.File) int {
	for range 20 {
		b := make([]byte, 32)
		n, _ := f.ReadAt(b, 0)
		if pid, err := strconv.Atoi(strings.TrimSpace(string(b[:n]))); err == nil && pid > 0 {
			return pid
		}
		time.Sleep(5 * time.Millisecond)
	}
	return 0
}

// release drops the lock; the file stays, empty of meaning until the next
// daemon locks it.
func (l *homeLock) release() {
	if l == nil || l.f == nil {
		return
	}
	_ = syscall.Flock(int(l.f.Fd()), syscall.LOCK_UN)
	_ = l.f.Close()
	l.f = nil
}
