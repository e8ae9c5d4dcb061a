package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"pumasi"
)

// TestWait: wait returns once the daemon of every placed agent reports the
// room's current files, so the agent's copy can be read right after it; an
// agent whose machine runs no daemon makes it time out with exit 1, naming
// the agent.
func TestWait(t *testing.T) {
	w := newCLIWorld(t)
	spec := w.file("spec.md", "# spec\n")
	if _, _, err := runCLI(t, w.env, "place", "--room", "r1", "--agent", "a1", "--machine", "m1"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := runCLI(t, w.env, "put", "--room", "r1", spec); err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := runMachineCLI(ctx, map[string]string{"PUMASI_SERVER": w.srv.URL, "PUMASI_TOKEN": w.sign(pumasi.ScopeMachine + "m1"), "PUMASI_HOME": home},
			"machine", "run", "--machine", "m1", "--poll", "1s")
		done <- err
	}()
	defer func() {
		cancel()
		<-done
	}()
	out, errOut, err := runCLI(t, w.env, "wait", "r1", "--timeout", "30s")
	if err != nil || !strings.Contains(out, "1 agent holds the room's files: a1") {
		t.Fatalf("wait r1 = %q, %v (stderr %s)", out, err, errOut)
	}
	if b, err := os.ReadFile(filepath.Join(home, "agents", "a1", "memory", "shared", "spec.md")); err != nil || string(b) != "# spec\n" {
		t.Fatalf("right after wait the copy holds %q, %v", b, err)
	}

	// a2's machine m9 runs no daemon: wait gives up and names it.
	if _, _, err := runCLI(t, w.env, "place", "--room", "r1", "--agent", "a2", "--machine", "m9"); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, _, err = runCLI(t, w.env, "wait", "--timeout", "500ms", "r1")
	if exitCode(err) != 1 || !strings.Contains(err.Error(), "a2 (machine m9) has never reported") || strings.Contains(err.Error(), "a1") {
		t.Fatalf("wait with a2 on a machine without a daemon: %v (exit %d), want exit 1 naming a2 only", err, exitCode(err))
	}
	if time.Since(start) < 500*time.Millisecond {
		t.Fatalf("wait gave up before its timeout")
	}
}
