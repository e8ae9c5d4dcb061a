package localdev_test

import (
	"bufio"
	"context"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// lockedProc is a localdev process whose whole stdout and stderr are kept.
type lockedProc struct {
	cmd  *exec.Cmd
	base string
	mu   sync.Mutex
	out  strings.Builder
	err  strings.Builder
}

func (p *lockedProc) stdout() string { p.mu.Lock(); defer p.mu.Unlock(); return p.out.String() }

func (p *lockedProc) stderr() string { p.mu.Lock(); defer p.mu.Unlock(); return p.err.String() }

// Write keeps what the process prints on stderr.
func (p *lockedProc) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.err.Write(b)
}

func startKeepingOutput(t *testing.T, home string, args ...string) *lockedProc {
	t.Helper()
	bin, err := buildPumasi()
	if err != nil {
		t.Fatal(err)
	}
	p := &lockedProc{}
	p.cmd = exec.Command(bin, append([]string{"localdev", "--home", home, "--addr", "127.0.0.1:0"}, args...)...)
	p.cmd.Env = append(os.Environ(), "PUMASI_SECRET=", "PUMASI_STORAGE=")
	stdout, err := p.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	p.cmd.Stderr = p
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.cmd.Process.Kill(); p.cmd.Wait() })
	listening := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			p.mu.Lock()
			p.out.WriteString(sc.Text() + "\n")
			p.mu.Unlock()
			if base, ok := strings.CutPrefix(sc.Text(), "pumasi localdev listening on "); ok {
				listening <- base
			}
		}
	}()
	select {
	case p.base = <-listening:
	case <-time.After(30 * time.Second):
		t.Fatalf("localdev did not start within 30s: %s", p.stderr())
	}
	waitHealthy(t, p.base)
	return p
}

// TestSecondLocaldevRefusesTheHomesDaemon runs two real localdev processes
// on one home. The second serves the API but does not start its in-process
// daemon for machine "local", naming the first's pid; the first's daemon
// keeps mirroring (also what is uploaded through the second) and nothing it
// mirrors is emptied.
func TestSecondLocaldevRefusesTheHomesDaemon(t *testing.T) {
	home := t.TempDir()
	first := startKeepingOutput(t, home, "--poll", "200ms")
	tok, err := os.ReadFile(filepath.Join(home, "admin.token"))
	if err != nil {
		t.Fatal(err)
	}
	token := strings.TrimSpace(string(tok))
	req, _ := http.NewRequest(http.MethodPut, first.base+"/rooms/r1/agents/a1", strings.NewReader(`{"machine_id":"local"}`))
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	if err != nil || res.StatusCode/100 != 2 {
		t.Fatalf("place a1: %v %v", res, err)
	}
	res.Body.Close()
	ctx := context.Background()
	if code, err := upload(ctx, first.base, token, "r1", "keep.md", []byte("kept\n")); err != nil || code/100 != 2 {
		t.Fatalf("upload keep.md = %d, %v", code, err)
	}
	shared := filepath.Join(home, "agents", "a1", "memory", "shared")
	waitFile := func(name, want string) {
		t.Helper()
		for end := time.Now().Add(15 * time.Second); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
			if b, err := os.ReadFile(filepath.Join(shared, name)); err == nil && string(b) == want {
				return
			}
		}
		t.Fatalf("%s never held %q", name, want)
	}
	waitFile("keep.md", "kept\n")

	second := startKeepingOutput(t, home, "--poll", "200ms")
	want := "in-process daemon not started: a machine daemon for local already runs on home " + home + " (pid " + strconv.Itoa(first.cmd.Process.Pid) + " holds"
	for end := time.Now().Add(10 * time.Second); !strings.Contains(second.stdout(), want); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("second localdev printed:\n%s\nwant a line starting %q", second.stdout(), want)
		}
	}
	if strings.Contains(first.stdout(), "in-process daemon not started") {
		t.Fatalf("first localdev refused its own daemon:\n%s", first.stdout())
	}
	if code, err := upload(ctx, second.base, token, "r1", "via-second.md", []byte("second\n")); err != nil || code/100 != 2 {
		t.Fatalf("upload through the second localdev = %d, %v", code, err)
	}
	waitFile("via-second.md", "second\n")
	time.Sleep(time.Second) // Several polls of the first daemon.
	waitFile("keep.md", "kept\n")
}
