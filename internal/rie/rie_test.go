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
