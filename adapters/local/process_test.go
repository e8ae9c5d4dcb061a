package local

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"pumasi"
)

// TestMain lets the test binary double as a second process on a shared home:
// with PUMASI_LOCAL_HELPER set it runs helperMain instead of the tests.
func TestMain(m *testing.M) {
	if mode := os.Getenv("PUMASI_LOCAL_HELPER"); mode != "" {
		os.Exit(helperMain(mode, os.Getenv("PUMASI_LOCAL_HOME"), os.Getenv("PUMASI_LOCAL_TAG")))
	}
	os.Exit(m.Run())
}

// helperMain is the body of a helper process. "upload" puts 50 files
// concurrently and exits; "churn" puts, updates and deletes until killed,
// printing a line per 10 operations.
func helperMain(mode, home, tag string) int {
	ctx := context.Background()
	s, err := Open(ctx, home, Options{Logger: quiet})
	if err != nil {
		fmt.Fprintln(os.Stderr, "open:", err)
		return 2
	}
	defer s.Close()
	switch mode {
	case "upload":
		var wg sync.WaitGroup
		var mu sync.Mutex
		failed := 0
		for i := 0; i < 50; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, err := s.PutFile(ctx, pumasi.PutFileInput{
					Room: "procs", Name: fmt.Sprintf("%s-%02d.md", tag, i), Body: []byte(fmt.Sprintf("%s body %d", tag, i%7)),
				})
				if err != nil {
					mu.Lock()
					failed++
					mu.Unlock()
					fmt.Fprintln(os.Stderr, "put:", err)
				}
			}()
		}
		wg.Wait()
		if failed > 0 {
			return 1
		}
		return 0
	case "churn":
		var wg sync.WaitGroup
		var mu sync.Mutex
		ops := 0
		for w := 0; w < 4; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := 0; ; i++ {
					name := fmt.Sprintf("c-%d.md", (i*7+w)%23)
					var err error
					if i%5 == 4 {
						_, _, err = s.DeleteFile(ctx, "crash", name, "")
						if pumasi.ErrorCode(err) == pumasi.ENotFound {
							err = nil
						}
					} else {
						_, err = s.PutFile(ctx, pumasi.PutFileInput{
							Room: "crash", Name: name, Body: []byte(strings.Repeat(fmt.Sprintf("w%d i%d ", w, i%13), 200)),
						})
					}
					if err != nil {
						fmt.Fprintln(os.Stderr, "churn:", err)
					}
					mu.Lock()
					ops++
					if ops%10 == 0 {
						fmt.Println("ops", ops)
					}
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
	}
	return 0
}

func helperCmd(t *testing.T, mode, home, tag string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "PUMASI_LOCAL_HELPER="+mode, "PUMASI_LOCAL_HOME="+home, "PUMASI_LOCAL_TAG="+tag)
	cmd.Stderr = os.Stderr
	return cmd
}

// TestTwoProcessesOneHome runs two real processes uploading 50 files each
// into one room while this process holds the home open too.
func TestTwoProcessesOneHome(t *testing.T) {
	home := t.TempDir()
	s := openT(t, home, Options{})
	ctx := context.Background()
	a, b := helperCmd(t, "upload", home, "pa"), helperCmd(t, "upload", home, "pb")
	if err := a.Start(); err != nil {
		t.Fatal(err)
	}
	if err := b.Start(); err != nil {
		t.Fatal(err)
	}
	errA, errB := a.Wait(), b.Wait()
	if errA != nil || errB != nil {
		t.Fatalf("helpers failed: %v, %v", errA, errB)
	}
	l, err := s.ListFiles(ctx, "procs")
	if err != nil {
		t.Fatal(err)
	}
	if l.Rev != 100 || len(l.Files) != 100 {
		t.Fatalf("rev %d with %d files, want 100 and 100", l.Rev, len(l.Files))
	}
	blobs := blobsOn(t, home, "procs")
	for _, f := range l.Files {
		if sum256(blobs[f.SHA256]) != f.SHA256 {
			t.Fatalf("%s has no valid blob", f.Name)
		}
	}
	if len(blobs) != 14 {
		t.Fatalf("blobs = %d, want 14 distinct contents", len(blobs))
	}
}

// TestCrashRecovery kills a process with SIGKILL in the middle of uploads
// and deletes, then checks that the next Open, alone on the home, leaves no
// temp files, no blob without a row and no row without its blob.
func TestCrashRecovery(t *testing.T) {
	home := t.TempDir()
	for round := 0; round < 3; round++ {
		cmd := helperCmd(t, "churn", home, "")
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(out)
		target := fmt.Sprintf("ops %d", 100+round*70)
		deadline := time.AfterFunc(30*time.Second, func() { cmd.Process.Kill() })
		for sc.Scan() && sc.Text() != target {
		}
		deadline.Stop()
		if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		cmd.Wait()

		s, err := Open(context.Background(), home, Options{Logger: quiet})
		if err != nil {
			t.Fatalf("Open after crash: %v", err)
		}
		l, err := s.ListFiles(context.Background(), "crash")
		if err != nil {
			t.Fatal(err)
		}
		if l.Rev == 0 || len(l.Files) == 0 {
			t.Fatalf("round %d: the helper stored nothing (rev %d)", round, l.Rev)
		}
		if left := tmpEntries(t, home, "crash"); len(left) != 0 {
			t.Fatalf("round %d: .tmp after crash recovery holds %q", round, left)
		}
		blobs := blobsOn(t, home, "crash")
		listed := map[string]bool{}
		for _, f := range l.Files {
			listed[f.SHA256] = true
			if sum256(blobs[f.SHA256]) != f.SHA256 {
				t.Fatalf("round %d: %s lost its blob", round, f.Name)
			}
			if _, b, err := s.ReadFile(context.Background(), "crash", f.Name); err != nil || sum256(b) != f.SHA256 {
				t.Fatalf("round %d: ReadFile(%s): %v", round, f.Name, err)
			}
		}
		for sha := range keptShas(t, s, "crash") {
			listed[sha] = true
		}
		for sha := range blobs {
			if !listed[sha] {
				t.Fatalf("round %d: blob %s has no row", round, sha)
			}
		}
		if _, err := os.Stat(filepath.Join(home, "room_files", "crash")); err != nil {
			t.Fatal(err)
		}
		t.Logf("round %d: rev %d, %d files, %d blobs after recovery", round, l.Rev, len(l.Files), len(blobs))
		s.Close()
	}
}
