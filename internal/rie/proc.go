package rie

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// proc is one process as /proc/<pid>/stat shows it.
type proc struct {
	pid, ppid int
	comm      string
	state     string // R running, S sleeping, D uninterruptible (disk), Z zombie, T stopped
}

// children returns the processes whose parent is pid: the functions an
// emulator runs. The emulator starts each in a process group of its own, so
// killing the emulator's group does not reach them. Linux only (so is the
// emulator); elsewhere it returns nothing.
func children(pid int) []proc {
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	var out []proc
	for _, f := range stats {
		if p, ok := readStat(f); ok && p.ppid == pid {
			out = append(out, p)
		}
	}
	return out
}

// readStat parses one /proc/<pid>/stat: "pid (comm) state ppid ...", where
// comm may hold spaces and parentheses.
func readStat(path string) (proc, bool) {
	b, err := os.ReadFile(path)
	if err != nil {
		return proc{}, false
	}
	s := string(b)
	open, end := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
	if open < 0 || end < open {
		return proc{}, false
	}
	rest := strings.Fields(s[end+1:])
	if len(rest) < 2 {
		return proc{}, false
	}
	pid, err1 := strconv.Atoi(strings.TrimSpace(s[:open]))
	ppid, err2 := strconv.Atoi(rest[1])
	if err1 != nil || err2 != nil {
		return proc{}, false
	}
	return proc{pid: pid, ppid: ppid, comm: s[open+1 : end], state: rest[0]}, true
}

// describe says what a process is doing: its state and, when it sleeps,
// the kernel function it waits in.
func (p proc) describe() string {
	wchan, _ := os.ReadFile(fmt.Sprintf("/proc/%d/wchan", p.pid))
	d := fmt.Sprintf("%s (pid %d) state %s", p.comm, p.pid, p.state)
	if w := strings.TrimSpace(string(wchan)); w != "" && w != "0" {
		d += " in " + w
	}
	return d
}

// killGroups kills the process group each of procs leads, if that process
// still runs the same program (a pid seen earlier may have been reused).
func killGroups(procs []proc) {
	for _, p := range procs {
		if cur, ok := readStat(fmt.Sprintf("/proc/%d/stat", p.pid)); !ok || cur.comm != p.comm {
			continue
		}
		_ = syscall.Kill(-p.pid, syscall.SIGKILL)
		_ = syscall.Kill(p.pid, syscall.SIGKILL)
	}
}

// listens reports whether process pid holds the socket listening on
// 127.0.0.1:port, so that a probe that answered came from our emulator and
// not from another process that took the port between freePort and the
// emulator's bind (the emulator then exits, maybe after the probe). Where
// /proc/net/tcp cannot be read (not Linux) it reports true.
func listens(pid, port int) bool {
	b, err := os.ReadFile("/proc/net/tcp")
	if err != nil {
		return true
	}
	want := fmt.Sprintf(":%04X", port)
	var inodes []string
	for _, line := range strings.Split(string(b), "\n")[1:] {
		f := strings.Fields(line)
		// sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode
		if len(f) < 10 || f[3] != "0A" || !strings.HasSuffix(f[1], want) {
			continue
		}
		if addr := strings.TrimSuffix(f[1], want); addr == "0100007F" || addr == "00000000" {
			inodes = append(inodes, "socket:["+f[9]+"]")
		}
	}
	fds, _ := filepath.Glob(fmt.Sprintf("/proc/%d/fd/*", pid))
	for _, fd := range fds {
		target, err := os.Readlink(fd)
		if err != nil {
			continue
		}
		for _, in := range inodes {
			if target == in {
				return true
			}
		}
	}
	return false
}
