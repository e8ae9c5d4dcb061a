package machine

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"pumasi"
)

// TestLockChild is the daemon process the lock test starts: it runs Run
// with the config in its environment and, like `pumasi machine run`,
// prints a refusal and exits non-zero.
func TestLockChild(t *testing.T) {
	if os.Getenv("MACHINE_LOCK_CHILD") != "1" {
		t.Skip("helper process for TestOneDaemonPerHomeAndMachine")
	}
	err := Run(context.Background(), Config{
		Server: os.Getenv("MACHINE_LOCK_SERVER"), Machine: os.Getenv("MACHINE_LOCK_MACHINE"),
		Token: os.Getenv("MACHINE_LOCK_TOKEN"), Home: os.Getenv("MACHINE_LOCK_HOME"),
		Poll: 200 * time.Millisecond, Log: quietLog(),
	})
	fmt.Fprintln(os.Stderr, "machine run:", err)
	os.Exit(3)
}

// TestOneDaemonPerHomeAndMachine runs daemons as real processes: while one
// mirrors an agent, a second for the same (home, machine) exits at once
// naming the first's pid and leaves the agent's files alone; an in-process
// Start is refused the same way; another machine on the same home may run;
// and once the holder is SIGKILLed the kernel has released the lock.
func TestOneDaemonPerHomeAndMachine(t *testing.T) {
	s := newServer(t)
	home := t.TempDir()
	s.place("r", "a1", "m1")
	s.upload("r", "keep.md", "mirrored\n")
	child := func(machine string) (*exec.Cmd, *bytes.Buffer) {
		cmd := exec.Command(os.Args[0], "-test.run=^TestLockChild$")
		cmd.Env = append(os.Environ(), "MACHINE_LOCK_CHILD=1", "MACHINE_LOCK_SERVER="+s.srv.URL,
			"MACHINE_LOCK_MACHINE="+machine, "MACHINE_LOCK_TOKEN="+s.token(pumasi.ScopeMachine+machine),
			"MACHINE_LOCK_HOME="+home)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		return cmd, &stderr
	}

	first, _ := child("m1")
	t.Cleanup(func() { first.Process.Kill(); first.Wait() })
	waitDir(t, home, "a1", map[string]string{"keep.md": "mirrored\n"})

	second, stderr := child("m1")
	exited := make(chan error, 1)
	go func() { exited <- second.Wait() }()
	select {
	case err := <-exited:
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 3 {
			t.Fatalf("second daemon exited with %v, want the refusal (exit 3)", err)
		}
	case <-time.After(10 * time.Second):
		second.Process.Kill()
		t.Fatalf("second daemon for the same home and machine still runs after 10s")
	}
	msg := stderr.String()
	if want := "pid " + strconv.Itoa(first.Process.Pid); !strings.Contains(msg, want) || !strings.Contains(msg, "already runs") {
		t.Fatalf("second daemon said %q, want a refusal naming %s", msg, want)
	}

	_, err := Start(context.Background(), Config{Server: s.srv.URL, Machine: "m1", Token: "x", Home: home})
	var held *HeldError
	if !errors.As(err, &held) || held.PID != first.Process.Pid || held.Machine != "m1" || held.Home != home {
		t.Fatalf("in-process Start on a held home = %v, want a HeldError naming pid %d", err, first.Process.Pid)
	}

	// Another machine on the same home, and the same machine elsewhere, may run.
	for _, c := range []struct{ machine, home string }{{"m2", home}, {"m1", t.TempDir()}} {
		ctx, cancel := context.WithCancel(context.Background())
		wait, err := Start(ctx, Config{Server: s.srv.URL, Machine: c.machine, Token: s.token(pumasi.ScopeMachine + c.machine), Home: c.home, Log: quietLog()})
		if err != nil {
			cancel()
			t.Fatalf("Start(%s on %s) beside m1's daemon: %v", c.machine, c.home, err)
		}
		cancel()
		if err := wait(); err != nil {
			t.Fatalf("daemon %s stopped with %v", c.machine, err)
		}
	}

	// The refused daemon touched nothing. It has stopped, so it is checked
	// at once: a wait would only give the first daemon's polls time to
	// repair what it broke.
	if got := dirFiles(t, home, "a1"); !sameFiles(got, map[string]string{"keep.md": "mirrored\n"}) {
		t.Fatalf("a1's shared folder = %s after the refused daemon, want keep.md", show(got))
	}

	if err := first.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	first.Wait()
	if b, err := os.ReadFile(filepath.Join(home, "machines", "m1.lock")); err != nil || strings.TrimSpace(string(b)) != strconv.Itoa(first.Process.Pid) {
		t.Fatalf("lock file = %q, %v; want the dead holder's pid still written", b, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	wait, err := Start(ctx, Config{Server: s.srv.URL, Machine: "m1", Token: s.token(pumasi.ScopeMachine + "m1"), Home: home, Log: quietLog()})
	if err != nil {
		cancel()
		t.Fatalf("Start after the holder was killed: %v (a dead process's lock must not outlive it)", err)
	}
	cancel()
	if err := wait(); err != nil {
		t.Fatalf("daemon stopped with %v", err)
	}
}
