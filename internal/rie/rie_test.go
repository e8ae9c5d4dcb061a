package rie_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"pumasi/internal/rie"
	"pumasi/internal/testpeer"
)

// TestColdStarts starts the real emulator again and again and invokes the
// function as soon as Start returns: every invocation must succeed, and the
// readiness probe must not have started the function (exactly one Init
// Duration, reported by the first real invocation).
func TestColdStarts(t *testing.T) {
	bin, bootstrap := echo(t)
	const starts = 10
	for i := range starts {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		em, err := rie.Start(ctx, bin, bootstrap, nil)
		if err != nil {
			cancel()
			t.Fatalf("start %d: %v", i, err)
		}
		want := fmt.Sprintf(`{"n":%d}`, i)
		got, err := em.Invoke(ctx, []byte(want))
		if err != nil || string(got) != want {
			em.Stop()
			cancel()
			t.Fatalf("start %d: first invoke = %q, %v; want %q", i, got, err, want)
		}
		// The REPORT line may be printed after the answer: wait for it.
		inits := em.InitDurations()
		for wait := time.Now().Add(5 * time.Second); len(inits) == 0 && time.Now().Before(wait); inits = em.InitDurations() {
			time.Sleep(20 * time.Millisecond)
		}
		reports := strings.Count(em.Output(), "REPORT RequestId:")
		em.Stop()
		cancel()
		if len(inits) != 1 || reports != 1 {
			t.Fatalf("start %d: %d init durations and %d invocations reported after one invoke, want 1 and 1 (the probe must not invoke)", i, len(inits), reports)
		}
	}
}

// echo returns the emulator and the echo function's bootstrap, built for
// this test.
func echo(t *testing.T) (string, string) {
	t.Helper()
	bin := testpeer.Tool(t, "aws-lambda-rie", "rie")
	root, err := rie.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	bootstrap := filepath.Join(t.TempDir(), "echo")
	build := exec.Command("go", "build", "-tags", "lambda.norpc", "-o", bootstrap, "./internal/rie/testdata/echo")
	build.Dir = root
	build.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS=linux", "GOARCH="+runtime.GOARCH)
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build echo: %v\n%s", err, out)
	}
	return bin, bootstrap
}

// TestNoAnswerSaysWhere: an invocation that gets no answer in time (the
// function's cold start outlasts the caller's bound) fails with an error
// that says the emulator took it and names the function's process and its
// state, and the emulator's goroutines land in its output; Stop then kills
// the function too, though it runs in a process group of its own.
func TestNoAnswerSaysWhere(t *testing.T) {
	bin, bootstrap := echo(t)
	em, err := rie.Start(context.Background(), bin, bootstrap, []string{"ECHO_INIT_SLEEP=1h"})
	if err != nil {
		t.Fatal(err)
	}
	defer em.Stop()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_, err = em.Invoke(ctx, []byte(`{}`))
	if err == nil {
		t.Fatal("invoke of a function asleep in its cold start answered, want no answer")
	}
	for _, want := range []string{"no answer from aws-lambda-rie within 2", "printed START", "function process echo (pid "} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error = %q, want %q in it", err, want)
		}
	}
	if out, werr := em.ExpectOutput(5*time.Second, "goroutine "); werr != nil {
		t.Errorf("no goroutine dump after the hang: %v", werr)
	} else if !strings.Contains(out, "SIGQUIT") {
		t.Errorf("output after the hang:\n%s\nwant the SIGQUIT dump", out)
	}
	pid := pidIn(err.Error())
	em.Stop()
	for wait := time.Now().Add(5 * time.Second); pid > 0 && time.Now().Before(wait); time.Sleep(20 * time.Millisecond) {
		if _, serr := os.Stat(fmt.Sprintf("/proc/%d", pid)); serr != nil {
			return
		}
	}
	t.Fatalf("function process %d still runs after Stop (error was %q)", pid, err)
}

// TestTimedOutIsAnError: the emulator's own "Task timed out" answer (the
// function's timeout passed during its cold start) is an error naming it,
// not a payload.
func TestTimedOutIsAnError(t *testing.T) {
	bin, bootstrap := echo(t)
	em, err := rie.Start(context.Background(), bin, bootstrap, []string{"ECHO_INIT_SLEEP=1h", "AWS_LAMBDA_FUNCTION_TIMEOUT=1"})
	if err != nil {
		t.Fatal(err)
	}
	defer em.Stop()
	got, err := em.Invoke(context.Background(), []byte(`{}`))
	if err == nil || !strings.Contains(err.Error(), "Task timed out") || !strings.Contains(err.Error(), "did not answer within its timeout") {
		t.Fatalf("invoke past the function's timeout = %q, %v; want an error naming the timeout", got, err)
	}
}

// pidIn returns the pid in an error's "(pid N)", 0 when there is none.
func pidIn(s string) int {
	var pid int
	if i := strings.Index(s, "(pid "); i >= 0 {
		fmt.Sscanf(s[i:], "(pid %d)", &pid)
	}
	return pid
}
