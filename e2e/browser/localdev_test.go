package browser_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// startProc starts a process that is stopped (SIGTERM, then SIGKILL after
// 5s) when the test ends; its stderr is kept for failure messages.
func startProc(t *testing.T, name string, cmd *exec.Cmd) (stdout io.Reader, stderr *lockedBuffer) {
	t.Helper()
	stderr = &lockedBuffer{}
	cmd.Stderr = stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", name, err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			_ = cmd.Process.Kill()
			<-done
			t.Errorf("%s did not stop within 5s of SIGTERM", name)
		}
		if t.Failed() {
			t.Logf("%s stderr (tail):\n%s", name, tail(stderr.String(), 3000))
		}
	})
	return out, stderr
}

func tail(s string, n int) string {
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}

// localdev is one `pumasi localdev` for a test, on a free port, with its
// own home and the admin token it wrote there.
type localdev struct {
	t      *testing.T
	tools  tools
	Bin    string
	Home   string
	Base   string
	Admin  string
	Banner []string
}

// startLocaldev skips the test in -short mode or without the browser
// tools, then starts localdev with extra environment (KEY=value).
func startLocaldev(t *testing.T, env ...string) *localdev {
	t.Helper()
	if testing.Short() {
		t.Skip("starts localdev and chromium")
	}
	l := &localdev{t: t, tools: browserTools(t), Bin: pumasiBin(t), Home: t.TempDir()}
	cmd := exec.Command(l.Bin, "localdev", "--home", l.Home, "--addr", "127.0.0.1:0", "--no-machine")
	cmd.Env = append(append(os.Environ(), "PUMASI_SECRET="), env...)
	stdout, stderr := startProc(t, "localdev", cmd)
	lines := make(chan string, 64)
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	deadline := time.After(30 * time.Second)
	// The banner ends with the one-click link (or the stream ends).
	for !slices.ContainsFunc(l.Banner, func(s string) bool { return strings.Contains(s, "#token=") }) {
		select {
		case s, ok := <-lines:
			if !ok {
				t.Fatalf("localdev exited or printed no one-click link; banner %q; stderr: %s", l.Banner, stderr.String())
			}
			l.Banner = append(l.Banner, s)
			if b, found := strings.CutPrefix(s, "pumasi localdev listening on "); found {
				l.Base = b
			}
		case <-deadline:
			t.Fatalf("localdev printed no one-click link within 30s; banner %q; stderr: %s", l.Banner, stderr.String())
		}
	}
	if l.Base == "" {
		t.Fatalf("banner has no address: %q", l.Banner)
	}
	go func() {
		for range lines {
		}
	}()
	for i := 0; ; i++ {
		resp, err := http.Get(l.Base + "/healthz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				break
			}
		}
		if i == 200 {
			t.Fatalf("%s never became healthy", l.Base)
		}
		time.Sleep(50 * time.Millisecond)
	}
	b, err := os.ReadFile(filepath.Join(l.Home, "admin.token"))
	if err != nil {
		t.Fatal(err)
	}
	l.Admin = strings.TrimSpace(string(b))
	return l
}

// Token mints a token with `pumasi token` on localdev's home, valid for an
// hour: Token("--room", "r1", "--subject", "alice").
func (l *localdev) Token(args ...string) string {
	l.t.Helper()
	out, err := exec.Command(l.Bin, append([]string{"token", "--home", l.Home, "--ttl", "1h"}, args...)...).Output()
	if err != nil {
		l.t.Fatalf("pumasi token %v: %v", args, err)
	}
	return strings.TrimSpace(string(out))
}

// CLI runs a pumasi command on localdev's home with extra environment and
// returns its standard output; it fails the test when the command fails.
func (l *localdev) CLI(env []string, args ...string) []byte {
	l.t.Helper()
	cmd := exec.Command(l.Bin, args...)
	cmd.Env = append(append(os.Environ(), "PUMASI_SECRET=", "PUMASI_STORAGE=", "PUMASI_KNOWLEDGE="), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		l.t.Fatalf("pumasi %v: %v\n%s", args, err, tail(stderr.String(), 2000))
	}
	return out
}

// Do sends one request: body nil, a string or []byte sent as it is, or any
// other value as JSON; header holds pairs (name, value). It returns the
// status and the body.
func (l *localdev) Do(method, path, token string, body any, header ...string) (int, []byte) {
	l.t.Helper()
	var rd io.Reader
	ctype := ""
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	case []byte:
		rd = bytes.NewReader(b)
	default:
		j, err := json.Marshal(b)
		if err != nil {
			l.t.Fatal(err)
		}
		rd, ctype = bytes.NewReader(j), "application/json"
	}
	req, err := http.NewRequest(method, l.Base+path, rd)
	if err != nil {
		l.t.Fatal(err)
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		l.t.Fatal(err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, out
}

// Must is Do that fails the test unless the answer is 2xx.
func (l *localdev) Must(method, path, token string, body any, header ...string) []byte {
	l.t.Helper()
	status, out := l.Do(method, path, token, body, header...)
	if status/100 != 2 {
		l.t.Fatalf("%s %s = %d %s", method, path, status, tail(string(out), 500))
	}
	return out
}

// JSON is Do that decodes the answer into v and returns the status.
func (l *localdev) JSON(method, path, token string, body any, v any) int {
	l.t.Helper()
	status, out := l.Do(method, path, token, body)
	if v != nil {
		_ = json.Unmarshal(out, v)
	}
	return status
}

// Contribute posts a finding as handle and returns the id of the entry it
// created; anything but 201 accepted fails the test.
func (l *localdev) Contribute(handle string, finding map[string]any) string {
	l.t.Helper()
	var ans struct {
		Data struct {
			Verdict string `json:"verdict"`
			EntryID string `json:"entry_id"`
		} `json:"data"`
	}
	status, body := l.Do("POST", "/knowledge/contribute", "", finding, "X-Hive-Agent", handle)
	json.Unmarshal(body, &ans)
	if status != 201 || ans.Data.Verdict != "accepted" || ans.Data.EntryID == "" {
		l.t.Fatalf("contribute %q as %s = %d %s, want 201 accepted", finding["title"], handle, status, body)
	}
	return ans.Data.EntryID
}

// lockedBuffer is a buffer that exec's copying goroutine writes while the
// test reads it.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
