package rie

import (
	"net"
	"os"
	"os/exec"
	"runtime"
	"testing"
)

// TestListens: a listening socket belongs to the process that holds it, not
// to another process probing the same port.
func TestListens(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc")
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	other := exec.Command("sleep", "30")
	if err := other.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = other.Process.Kill(); _ = other.Wait() }()
	if !listens(os.Getpid(), port) {
		t.Errorf("listens(self, %d) = false, want true", port)
	}
	if listens(other.Process.Pid, port) {
		t.Errorf("listens(another process, %d) = true, want false", port)
	}
	l.Close()
	if listens(os.Getpid(), port) {
		t.Errorf("listens(self, %d) after close = true, want false", port)
	}
}

// TestReadStat: a command name with spaces and parentheses does not shift
// the fields after it.
func TestReadStat(t *testing.T) {
	f := t.TempDir() + "/stat"
	if err := os.WriteFile(f, []byte("4242 (a (b) c) S 17 4242 4242 0 -1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	got, ok := readStat(f)
	if want := (proc{pid: 4242, ppid: 17, comm: "a (b) c", state: "S"}); !ok || got != want {
		t.Fatalf("readStat = %+v, %v; want %+v", got, ok, want)
	}
}
