// Package browser_test drives localdev's dashboard in a real headless
// Chromium (Debian's chromium, driven by playwright-core; both installed and
// pinned by scripts/browser.sh) against a real localdev and a real machine
// daemon process.
package browser_test

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"image/png"
	"io"
	"net/http"
	"net/url"
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

const (
	room    = "r1"
	agent   = "a1"
	machine = "m1"
)

// requirePeers reports whether a missing browser must fail the test rather
// than skip it: in CI and under `make test` (PUMASI_REQUIRE_PEERS=1).
func requirePeers() bool {
	ci := os.Getenv("CI")
	return (ci != "" && ci != "false" && ci != "0") || os.Getenv("PUMASI_REQUIRE_PEERS") == "1"
}

// browserTools finds chromium, node and the playwright-core install that
// scripts/browser.sh made, or says what is missing.
func browserTools(t *testing.T) (chromium, node, modules string) {
	t.Helper()
	chromium = os.Getenv("PUMASI_CHROMIUM")
	if chromium == "" {
		chromium = "/usr/bin/chromium"
	}
	tools := os.Getenv("PUMASI_TOOLS")
	if tools == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			t.Fatal(err)
		}
		tools = filepath.Join(home, ".cache", "pumasi", "tools")
	}
	modules = filepath.Join(tools, "browser", "node_modules")
	var missing []string
	if _, err := os.Stat(chromium); err != nil {
		missing = append(missing, chromium)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		missing = append(missing, "node")
	}
	if _, err := os.Stat(filepath.Join(modules, "playwright-core", "package.json")); err != nil {
		missing = append(missing, filepath.Join(modules, "playwright-core"))
	}
	if len(missing) > 0 {
		msg := fmt.Sprintf("browser test needs %s: run `bash scripts/browser.sh` (make test does)", strings.Join(missing, ", "))
		if requirePeers() {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return chromium, node, modules
}

// buildPumasi compiles the real CLI.
func buildPumasi(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "pumasi")
	out, err := exec.Command("go", "build", "-o", bin, "../../cmd/pumasi").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

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

// startLocaldev starts `pumasi localdev` on a free port and returns its base
// URL and banner lines.
func startLocaldev(t *testing.T, bin, home string) (string, []string) {
	t.Helper()
	return startLocaldevEnv(t, bin, home)
}

// startLocaldevEnv is startLocaldev with extra environment (KEY=value).
func startLocaldevEnv(t *testing.T, bin, home string, env ...string) (string, []string) {
	t.Helper()
	cmd := exec.Command(bin, "localdev", "--home", home, "--addr", "127.0.0.1:0", "--no-machine")
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
	var banner []string
	base := ""
	deadline := time.After(30 * time.Second)
	// The banner ends with the one-click link (or the stream ends).
	for !slices.ContainsFunc(banner, func(l string) bool { return strings.Contains(l, "#token=") }) {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("localdev exited or printed no one-click link; banner %q; stderr: %s", banner, stderr.String())
			}
			banner = append(banner, l)
			if b, found := strings.CutPrefix(l, "pumasi localdev listening on "); found {
				base = b
			}
		case <-deadline:
			t.Fatalf("localdev printed no one-click link within 30s; banner %q; stderr: %s", banner, stderr.String())
		}
	}
	if base == "" {
		t.Fatalf("banner has no address: %q", banner)
	}
	go func() {
		for range lines {
		}
	}()
	for i := 0; ; i++ {
		resp, err := http.Get(base + "/healthz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				break
			}
		}
		if i == 200 {
			t.Fatalf("%s never became healthy", base)
		}
		time.Sleep(50 * time.Millisecond)
	}
	return base, banner
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

func getJSON(t *testing.T, url, token string, v any) int {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if v != nil {
		_ = json.NewDecoder(resp.Body).Decode(v)
	}
	return resp.StatusCode
}

type step struct {
	Step  string          `json:"step"`
	Raw   json.RawMessage `json:"-"`
	Cases []struct {
		Name string `json:"name"`
		Code string `json:"code"`
	} `json:"cases"`
	UploadToGreenMS *int64 `json:"upload_to_green_ms"`
	File            string `json:"file"`
	Width           int    `json:"width"`
	Message         string `json:"message"`
	Version         string `json:"version"`
}

// TestDashboard signs in, uploads through the page (file picker and drag and
// drop), watches the agent's badge turn synced after the daemon process has
// written the bytes, meets every upload error of §4, deletes with
// confirmation, uses the knowledge search and contribute form when the
// server has them, and saves screenshots at 1280 and 375 px wide.
func TestDashboard(t *testing.T) {
	if testing.Short() {
		t.Skip("starts localdev, a daemon and chromium")
	}
	chromium, node, modules := browserTools(t)
	bin := buildPumasi(t)
	home := t.TempDir()
	base, banner := startLocaldev(t, bin, home)
	tokenBytes, err := os.ReadFile(filepath.Join(home, "admin.token"))
	if err != nil {
		t.Fatal(err)
	}
	token := strings.TrimSpace(string(tokenBytes))

	// The banner's one-click link carries the admin token in the fragment,
	// which browsers never send to the server.
	oneClick := base + "/#token=" + token
	if !slices.ContainsFunc(banner, func(l string) bool { return strings.HasSuffix(l, oneClick) }) {
		t.Fatalf("banner has no one-click dashboard link %q:\n%s", oneClick, strings.Join(banner, "\n"))
	}

	// The page and its assets are served beside the API, self-contained.
	for _, p := range []struct{ path, ctype string }{{"/", "text/html"}, {"/ui/app.js", "javascript"}, {"/ui/app.css", "text/css"}} {
		resp, err := http.Get(base + p.path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.Contains(resp.Header.Get("Content-Type"), p.ctype) || len(body) < 500 {
			t.Fatalf("GET %s = %d %q (%d bytes), want 200 %s", p.path, resp.StatusCode, resp.Header.Get("Content-Type"), len(body), p.ctype)
		}
		if !strings.Contains(resp.Header.Get("Content-Security-Policy"), "default-src 'none'") {
			t.Fatalf("GET %s has no strict CSP: %q", p.path, resp.Header.Get("Content-Security-Policy"))
		}
		if bytes.Contains(body, []byte("http://")) || bytes.Contains(body, []byte("https://")) {
			t.Fatalf("%s refers to another origin; the page must work offline", p.path)
		}
	}

	// One daemon process for machine m1, with its own home.
	out, err := exec.Command(bin, "token", "--machine", machine, "--home", home, "--ttl", "1h").Output()
	if err != nil {
		t.Fatalf("pumasi token: %v", err)
	}
	machineToken := strings.TrimSpace(string(out))
	daemonHome := t.TempDir()
	dcmd := exec.Command(bin, "machine", "run", "--server", base, "--machine", machine, "--token", machineToken, "--home", daemonHome, "--poll", "2s")
	dcmd.Env = append(os.Environ(), "PUMASI_SECRET=", "PUMASI_TOKEN=")
	startProc(t, "machine daemon", dcmd)

	// localdev serves knowledge, so the page's knowledge steps always run; a
	// server that cannot answer the query endpoint fails the test here.
	var probe map[string]any
	if code := getJSON(t, base+"/knowledge/query?q=probe&limit=1", "", &probe); code != 200 {
		t.Fatalf("GET /knowledge/query = %d %v, want 200", code, probe)
	}

	artifacts := os.Getenv("PUMASI_ARTIFACTS")
	if artifacts != "" {
		artifacts = filepath.Join(artifacts, "dashboard")
	} else {
		// Kept only while the test runs: nothing is left in $TMPDIR.
		artifacts = t.TempDir()
	}
	t.Logf("screenshots: %s", artifacts)

	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	script := exec.CommandContext(ctx, node, "dashboard.cjs")
	script.Env = append(os.Environ(),
		"NODE_PATH="+modules,
		"PUMASI_BASE="+base,
		"PUMASI_TOKEN="+token,
		"PUMASI_ROOM="+room,
		"PUMASI_AGENT="+agent,
		"PUMASI_MACHINE="+machine,
		"PUMASI_AGENT_HOME="+daemonHome,
		"PUMASI_KNOWLEDGE=1",
		"PUMASI_ARTIFACTS="+artifacts,
		"PUMASI_CHROMIUM="+chromium,
	)
	script.WaitDelay = 5 * time.Second
	var stdout, stderr bytes.Buffer
	script.Stdout, script.Stderr = &stdout, &stderr
	start := time.Now()
	runErr := script.Run()
	elapsed := time.Since(start)

	steps := map[string]step{}
	var order []step
	for _, l := range strings.Split(strings.TrimSpace(stdout.String()), "\n") {
		var s step
		if err := json.Unmarshal([]byte(l), &s); err != nil || s.Step == "" {
			continue
		}
		s.Raw = json.RawMessage(l)
		if s.Step == "screenshot" {
			steps["screenshot "+filepath.Base(s.File)] = s
		} else {
			steps[s.Step] = s
		}
		order = append(order, s)
	}
	if runErr != nil {
		for _, s := range order {
			t.Logf("step %s", tail(string(s.Raw), 400))
		}
		t.Fatalf("dashboard.cjs: %v after %s\nerror: %s\nstderr: %s", runErr, elapsed.Round(time.Millisecond), steps["error"].Message, tail(stderr.String(), 2000))
	}
	if _, ok := steps["done"]; !ok {
		t.Fatalf("dashboard.cjs ended without its done step; stdout: %s", tail(stdout.String(), 2000))
	}
	for _, s := range order {
		t.Logf("step %s", tail(string(s.Raw), 400))
	}

	// The badge turned green after the daemon wrote the upload.
	green := steps["agent-synced"].UploadToGreenMS
	if green == nil || *green <= 0 || *green > 30000 {
		t.Fatalf("agent-synced step = %s, want upload_to_green_ms in (0, 30000]", steps["agent-synced"].Raw)
	}
	t.Logf("chromium %s; upload to green badge: %d ms; whole browser run: %s", steps["browser"].Version, *green, elapsed.Round(time.Millisecond))

	// Every error case reached the page with its contract code.
	var codes []string
	for _, c := range steps["upload-errors"].Cases {
		codes = append(codes, c.Name+"="+c.Code)
	}
	wantCodes := []string{"big.txt=too_large", "photo.png=unsupported_type", "nul.txt=unsupported_type", "latin1.txt=unsupported_type", ".hidden.md=invalid_name", "SPEC.md=name_conflict"}
	if !slices.Equal(codes, wantCodes) {
		t.Fatalf("upload error codes = %v, want %v", codes, wantCodes)
	}

	// Screenshots at both widths are real PNGs of the right size.
	for _, shot := range []struct {
		name  string
		width int
	}{{"rooms-1280.png", 1280}, {"knowledge-1280.png", 1280}, {"rooms-375.png", 750}, {"knowledge-375.png", 750}, {"login-375.png", 750}} {
		f, err := os.Open(filepath.Join(artifacts, shot.name))
		if err != nil {
			t.Fatalf("screenshot %s: %v", shot.name, err)
		}
		img, err := png.Decode(f)
		f.Close()
		if err != nil {
			t.Fatalf("screenshot %s: %v", shot.name, err)
		}
		if b := img.Bounds(); b.Dx() != shot.width || b.Dy() < 400 {
			t.Fatalf("screenshot %s is %dx%d, want width %d", shot.name, b.Dx(), b.Dy(), shot.width)
		}
	}

	// What the page did is what the server and the daemon's disk hold.
	var listing struct {
		Files []struct {
			Name   string `json:"name"`
			SHA256 string `json:"sha256"`
		} `json:"files"`
	}
	if code := getJSON(t, base+"/rooms/"+room+"/files", token, &listing); code != 200 {
		t.Fatalf("list = %d", code)
	}
	want := map[string]string{
		"mobile-notes.md": "- added from a phone\n",
		"노트.md":           "회의록: 배포는 금요일에 하지 않는다.\nversion 2 of the rule\n",
	}
	if len(listing.Files) != len(want) {
		t.Fatalf("room lists %d files, want %d: %+v", len(listing.Files), len(want), listing.Files)
	}
	for _, f := range listing.Files {
		content, ok := want[f.Name]
		sum := sha256.Sum256([]byte(content))
		if !ok || f.SHA256 != hex.EncodeToString(sum[:]) {
			t.Fatalf("listed %s sha %s; want one of %v with its content's sha256", f.Name, f.SHA256, want)
		}
	}
	shared := filepath.Join(daemonHome, "agents", agent, "memory", "shared")
	deadline := time.Now().Add(15 * time.Second)
	for {
		got, gotErr := sharedFiles(shared)
		if gotErr == nil && mapsEqual(got, want) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("daemon folder %s = %q (%v), want %q", shared, got, gotErr, want)
		}
		time.Sleep(100 * time.Millisecond)
	}
	var agents struct {
		Agents []struct {
			AgentID   string   `json:"agent_id"`
			MachineID string   `json:"machine_id"`
			Synced    bool     `json:"synced"`
			Missing   []string `json:"missing"`
		} `json:"agents"`
	}
	getJSON(t, base+"/rooms/"+room+"/agents", token, &agents)
	got := fmt.Sprintf("%+v", agents.Agents)
	if want := fmt.Sprintf("%+v", []struct {
		AgentID   string
		MachineID string
		Synced    bool
		Missing   []string
	}{{agent, machine, true, []string{}}}); got != want {
		// b2 was placed on "laptop" and removed again through the page.
		t.Fatalf("room agents placed through the page = %s, want %s", got, want)
	}

	var res struct {
		Data []struct {
			Title             string `json:"title"`
			ContributionCount int    `json:"contribution_count"`
		} `json:"data"`
	}
	getJSON(t, base+"/knowledge/query?hive=e2e&q="+url.QueryEscape("sqlite busy_timeout DSN"), "", &res)
	if len(res.Data) == 0 || res.Data[0].ContributionCount != 2 {
		t.Fatalf("knowledge query after the page's contributions = %+v, want the entry with 2 contributions", res.Data)
	}
}

// sharedFiles reads every regular file of dir by name.
func sharedFiles(dir string) (map[string]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, e := range entries {
		if !e.Type().IsRegular() {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		out[e.Name()] = string(b)
	}
	return out, nil
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}
