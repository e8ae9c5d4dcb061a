package localdev_test

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
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

// binDir holds the CLI the tests build; TestMain removes it, so nothing is
// left in $TMPDIR.
var binDir string

func TestMain(m *testing.M) {
	var err error
	if binDir, err = os.MkdirTemp("", "pumasi-bin-"); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(binDir)
	os.Exit(code)
}

// installPumasi installs the real CLI once per test binary, the way the
// README's Install section does (make install, into binDir as GOBIN), so
// the README test checks the one build every other test runs. It returns
// the binary and what make printed. Without make it builds with the same
// flags.
var installPumasi = sync.OnceValues(func() (installed, error) {
	bin := filepath.Join(binDir, "pumasi")
	cmd := exec.Command("make", "install")
	if _, err := exec.LookPath("make"); err != nil {
		cmd = exec.Command("go", "install", "-trimpath", "-buildvcs=auto", "./cmd/pumasi")
	}
	cmd.Dir = ".."
	cmd.Env = append(os.Environ(), "GOBIN="+binDir)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return installed{}, fmt.Errorf("%s: %v\n%s", strings.Join(cmd.Args, " "), err, out)
	}
	return installed{bin: bin, out: string(out)}, nil
})

// installed is the CLI installPumasi made.
type installed struct{ bin, out string }

// buildPumasi returns the installed CLI.
func buildPumasi() (string, error) {
	i, err := installPumasi()
	return i.bin, err
}

// proc is a running localdev process.
type proc struct {
	cmd  *exec.Cmd
	base string
	// out holds stdout's lines as they come: the banner first.
	out *lines
}

// lines is a growing list of output lines, safe for concurrent use.
type lines struct {
	mu   sync.Mutex
	l    []string
	more chan struct{} // closed and replaced at each new line
}

func newLines() *lines { return &lines{more: make(chan struct{})} }

func (o *lines) add(s string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.l = append(o.l, s)
	close(o.more)
	o.more = make(chan struct{})
}

// wait returns the first line with prefix, waiting for it at most d.
func (o *lines) wait(prefix string, d time.Duration) (string, bool) {
	deadline := time.After(d)
	for {
		o.mu.Lock()
		for _, l := range o.l {
			if strings.HasPrefix(l, prefix) {
				o.mu.Unlock()
				return l, true
			}
		}
		more := o.more
		o.mu.Unlock()
		select {
		case <-more:
		case <-deadline:
			return "", false
		}
	}
}

// startLocaldev starts `pumasi localdev` on a free loopback port and waits,
// bounded, until it answers /healthz.
func startLocaldev(t *testing.T, home string, env ...string) *proc {
	t.Helper()
	return startLocaldevArgs(t, home, []string{"--no-machine"}, env...)
}

// startLocaldevArgs is startLocaldev with extra flags instead of --no-machine.
func startLocaldevArgs(t *testing.T, home string, args []string, env ...string) *proc {
	t.Helper()
	bin, err := buildPumasi()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, append([]string{"localdev", "--home", home, "--addr", "127.0.0.1:0"}, args...)...)
	cmd.Env = append(append(os.Environ(), "PUMASI_SECRET=", "PUMASI_STORAGE="), env...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	lines := make(chan string, 16)
	out := newLines()
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			out.add(sc.Text())
			lines <- sc.Text()
		}
		close(lines)
	}()
	deadline := time.After(30 * time.Second)
	for {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("localdev exited before listening: %s", stderr.String())
			}
			if base, found := strings.CutPrefix(l, "pumasi localdev listening on "); found {
				go func() {
					for range lines {
					}
				}()
				waitHealthy(t, base)
				return &proc{cmd: cmd, base: base, out: out}
			}
		case <-deadline:
			t.Fatalf("localdev did not start within 30s: %s", stderr.String())
		}
	}
}

func waitHealthy(t *testing.T, base string) {
	t.Helper()
	for i := 0; i < 100; i++ {
		resp, err := http.Get(base + "/healthz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("%s never became healthy", base)
}

func upload(ctx context.Context, base, token, room, name string, content []byte) (int, error) {
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	pw, _ := mw.CreateFormFile("file", name)
	pw.Write(content)
	mw.Close()
	req, _ := http.NewRequestWithContext(ctx, "POST", base+"/rooms/"+room+"/files", &buf)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, err
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode, nil
}

// TestCrashLosesNothingAcknowledged streams uploads into a real localdev,
// kills it with SIGKILL at varying moments, restarts it and checks that every
// acknowledged upload survived byte-exact and that boot cleanup left no temp
// file and no blob without a row.
func TestCrashLosesNothingAcknowledged(t *testing.T) {
	if testing.Short() {
		t.Skip("starts real processes")
	}
	home := t.TempDir()
	acked := map[string]string{} // name -> sha256 of the acknowledged content
	var mu sync.Mutex
	seq := 0
	for round, killAfter := range []time.Duration{150 * time.Millisecond, 400 * time.Millisecond, 50 * time.Millisecond, 700 * time.Millisecond} {
		p := startLocaldev(t, home)
		token := strings.TrimSpace(readFile(t, filepath.Join(home, "admin.token")))
		ctx, cancel := context.WithCancel(context.Background())
		var wg sync.WaitGroup
		for w := 0; w < 4; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for ctx.Err() == nil {
					mu.Lock()
					seq++
					n := seq
					mu.Unlock()
					name := fmt.Sprintf("f%05d.md", n)
					// Sizes vary up to the limit so kills land inside writes too.
					content := bytes.Repeat([]byte(fmt.Sprintf("round %d file %d\n", round, n)), 1+(n*997)%9000)
					content = content[:min(len(content), pumasi.MaxFileSize)]
					status, err := upload(ctx, p.base, token, "crash", name, content)
					if err == nil && status/100 == 2 {
						sum := sha256.Sum256(content)
						mu.Lock()
						acked[name] = hex.EncodeToString(sum[:])
						mu.Unlock()
					}
				}
			}()
		}
		time.Sleep(killAfter)
		if err := p.cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		p.cmd.Wait()
		cancel()
		wg.Wait()
	}

	p := startLocaldev(t, home)
	token := strings.TrimSpace(readFile(t, filepath.Join(home, "admin.token")))
	req, _ := http.NewRequest("GET", p.base+"/rooms/crash/files", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var l pumasi.Listing
	json.NewDecoder(resp.Body).Decode(&l)
	resp.Body.Close()
	listed := map[string]string{}
	for _, f := range l.Files {
		listed[f.Name] = f.SHA256
	}
	if len(acked) < 20 {
		t.Fatalf("only %d uploads were acknowledged; the test did not exercise much", len(acked))
	}
	for name, sum := range acked {
		if listed[name] != sum {
			t.Errorf("acknowledged %s (sha %s) is listed as %q after crashes", name, sum[:12], listed[name])
		}
	}
	roomDir := filepath.Join(home, "room_files", "crash")
	tmps, _ := os.ReadDir(filepath.Join(roomDir, ".tmp"))
	if len(tmps) != 0 {
		t.Errorf("%d .tmp leftovers survived the boot cleanup", len(tmps))
	}
	entries, err := os.ReadDir(roomDir)
	if err != nil {
		t.Fatal(err)
	}
	shas := map[string]bool{}
	for _, sum := range listed {
		shas[sum] = true
	}
	blobs := 0
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		blobs++
		if !shas[e.Name()] {
			t.Errorf("blob %s has no row after the boot cleanup", e.Name())
			continue
		}
		b := readFile(t, filepath.Join(roomDir, e.Name()))
		sum := sha256.Sum256([]byte(b))
		if hex.EncodeToString(sum[:]) != e.Name() {
			t.Errorf("blob %s holds bytes with another sha256", e.Name())
		}
	}
	if blobs != len(shas) {
		t.Errorf("%d blobs on disk for %d listed contents", blobs, len(shas))
	}
	t.Logf("%d uploads acknowledged across 4 SIGKILLs, %d listed, %d blobs", len(acked), len(listed), blobs)
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
