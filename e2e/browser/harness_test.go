// Package browser_test drives localdev's dashboard in a real headless
// Chromium (Debian's chromium, driven by playwright-core; both installed and
// pinned by scripts/browser.sh) against a real localdev and real machine
// daemon processes.
//
// This file and localdev_test.go are the harness every test here shares:
// the pumasi CLI built once, one Chromium for the whole run (harness.cjs
// serve), a localdev per test file with its home and admin token, seeding
// through the HTTP API, and running a scenario's .cjs driver with its
// arguments (harness.cjs is the drivers' side). A test file holds only its
// scenario.
package browser_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"image/png"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

const (
	room    = "r1"
	agent   = "a1"
	machine = "m1"
)

// binDir holds the pumasi CLI built once for the run; TestMain removes it.
var binDir string

func TestMain(m *testing.M) {
	flag.Parse()
	dir, err := os.MkdirTemp("", "pumasi-browser-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binDir = dir
	code := m.Run()
	stopSharedBrowser()
	os.RemoveAll(dir)
	os.Exit(code)
}

// requirePeers reports whether a missing browser must fail the test rather
// than skip it: in CI and under `make test` (PUMASI_REQUIRE_PEERS=1).
func requirePeers() bool {
	ci := os.Getenv("CI")
	return (ci != "" && ci != "false" && ci != "0") || os.Getenv("PUMASI_REQUIRE_PEERS") == "1"
}

// tools are chromium, node and the playwright-core install that
// scripts/browser.sh made.
type tools struct{ chromium, node, modules string }

// browserTools finds the tools, or skips (fails under requirePeers) the
// test, saying what is missing.
func browserTools(t *testing.T) tools {
	t.Helper()
	var tl tools
	tl.chromium = os.Getenv("PUMASI_CHROMIUM")
	if tl.chromium == "" {
		tl.chromium = "/usr/bin/chromium"
	}
	dir := os.Getenv("PUMASI_TOOLS")
	if dir == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			t.Fatal(err)
		}
		dir = filepath.Join(home, ".cache", "pumasi", "tools")
	}
	tl.modules = filepath.Join(dir, "browser", "node_modules")
	var missing []string
	if _, err := os.Stat(tl.chromium); err != nil {
		missing = append(missing, tl.chromium)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		missing = append(missing, "node")
	}
	tl.node = node
	if _, err := os.Stat(filepath.Join(tl.modules, "playwright-core", "package.json")); err != nil {
		missing = append(missing, filepath.Join(tl.modules, "playwright-core"))
	}
	if len(missing) > 0 {
		msg := fmt.Sprintf("browser test needs %s: run `bash scripts/browser.sh` (make test does)", strings.Join(missing, ", "))
		if requirePeers() {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return tl
}

var (
	buildOnce sync.Once
	bin       string
	buildErr  error
)

// pumasiBin is the real CLI, built once for the run.
func pumasiBin(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		path := filepath.Join(binDir, "pumasi")
		out, err := exec.Command("go", "build", "-o", path, "../../cmd/pumasi").CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
			return
		}
		bin = path
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return bin
}

// The shared browser: `node harness.cjs serve`, started by the first driver
// and stopped by TestMain. Its stdin is its lifeline: when this process
// ends, however it ends, the browser goes with it.
var shared struct {
	once  sync.Once
	cmd   *exec.Cmd
	stdin io.WriteCloser
	ws    string
	err   error
}

func sharedBrowser(tl tools) (string, error) {
	shared.once.Do(func() {
		cmd := exec.Command(tl.node, "harness.cjs", "serve")
		cmd.Env = append(os.Environ(), "NODE_PATH="+tl.modules, "PUMASI_CHROMIUM="+tl.chromium)
		stderr := &lockedBuffer{}
		cmd.Stderr = stderr
		stdin, err := cmd.StdinPipe()
		if err != nil {
			shared.err = err
			return
		}
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			shared.err = err
			return
		}
		if err := cmd.Start(); err != nil {
			shared.err = fmt.Errorf("start the shared browser: %w", err)
			return
		}
		shared.cmd, shared.stdin = cmd, stdin
		first := make(chan string, 1)
		go func() {
			sc := bufio.NewScanner(stdout)
			if sc.Scan() {
				first <- sc.Text()
			}
			close(first)
			io.Copy(io.Discard, stdout)
		}()
		select {
		case l := <-first:
			var hello struct{ WS string }
			if json.Unmarshal([]byte(l), &hello) != nil || hello.WS == "" {
				shared.err = fmt.Errorf("shared browser said %q; stderr: %s", l, tail(stderr.String(), 2000))
			}
			shared.ws = hello.WS
		case <-time.After(60 * time.Second):
			shared.err = fmt.Errorf("shared browser gave no endpoint within 60s; stderr: %s", tail(stderr.String(), 2000))
		}
	})
	return shared.ws, shared.err
}

func stopSharedBrowser() {
	if shared.cmd == nil {
		return
	}
	shared.stdin.Close()
	done := make(chan struct{})
	go func() { shared.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		shared.cmd.Process.Kill()
		<-done
	}
}

// run is what a driver reported: its steps in order, and by name (a
// screenshot step by "screenshot <file name>").
type run struct {
	Order []json.RawMessage
	Steps map[string]json.RawMessage
	// Artifacts is the folder the driver saved its screenshots in.
	Artifacts string
}

// Decode decodes step name into v and reports whether there was one.
func (r *run) Decode(name string, v any) bool {
	raw, ok := r.Steps[name]
	if ok {
		_ = json.Unmarshal(raw, v)
	}
	return ok
}

// artifactDir is where a scenario's screenshots go: under
// PUMASI_ARTIFACTS/name when that is set, else a folder removed with the
// test.
func artifactDir(t *testing.T, name string) string {
	if a := os.Getenv("PUMASI_ARTIFACTS"); a != "" {
		return filepath.Join(a, name)
	}
	return t.TempDir()
}

// Drive runs the scenario driver script (a .cjs beside this file) in the
// shared browser with args (base defaults to localdev's, artifacts to
// artifactDir) and returns what it reported; a failing driver, or one that
// ends without its done step, fails the test with its error and stderr.
func (l *localdev) Drive(script string, timeout time.Duration, args map[string]any) *run {
	l.t.Helper()
	return drive(l.t, l.tools, script, timeout, l.Base, args)
}

func drive(t *testing.T, tl tools, script string, timeout time.Duration, base string, args map[string]any) *run {
	t.Helper()
	if args == nil {
		args = map[string]any{}
	}
	if _, ok := args["base"]; !ok {
		args["base"] = base
	}
	if _, ok := args["artifacts"]; !ok {
		args["artifacts"] = artifactDir(t, strings.TrimSuffix(script, ".cjs"))
	}
	ws, err := sharedBrowser(tl)
	if err != nil {
		t.Fatal(err)
	}
	argv, _ := json.Marshal(args)
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, tl.node, script)
	cmd.Env = append(os.Environ(), "NODE_PATH="+tl.modules, "PUMASI_CHROMIUM="+tl.chromium,
		"PUMASI_BROWSER_WS="+ws, "PUMASI_ARGS="+string(argv))
	cmd.WaitDelay = 5 * time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	runErr := cmd.Run()
	elapsed := time.Since(start)
	r := &run{Steps: map[string]json.RawMessage{}, Artifacts: args["artifacts"].(string)}
	for _, line := range strings.Split(strings.TrimSpace(stdout.String()), "\n") {
		var s struct {
			Step string `json:"step"`
			File string `json:"file"`
		}
		if json.Unmarshal([]byte(line), &s) != nil || s.Step == "" {
			continue
		}
		raw := json.RawMessage(line)
		r.Order = append(r.Order, raw)
		if s.Step == "screenshot" {
			r.Steps["screenshot "+filepath.Base(s.File)] = raw
		} else {
			r.Steps[s.Step] = raw
		}
		t.Logf("%s step %s", script, tail(line, 400))
	}
	if runErr != nil || r.Steps["done"] == nil {
		var e struct{ Message string }
		r.Decode("error", &e)
		t.Fatalf("%s: %v after %s (done step: %v)\nerror: %s\nstderr: %s", script, runErr, elapsed.Round(time.Millisecond),
			r.Steps["done"] != nil, e.Message, tail(stderr.String(), 2000))
	}
	t.Logf("%s ran in %s", script, elapsed.Round(time.Millisecond))
	return r
}

// shot is a screenshot a scenario must leave: its file name and its width
// in pixels (twice the viewport's at 375 px, a phone's scale).
type shot struct {
	name  string
	width int
}

// checkShots checks each screenshot is a real PNG of its width and at least
// 400 px tall.
func checkShots(t *testing.T, dir string, shots ...shot) {
	t.Helper()
	for _, s := range shots {
		f, err := os.Open(filepath.Join(dir, s.name))
		if err != nil {
			t.Fatalf("screenshot %s: %v", s.name, err)
		}
		img, err := png.Decode(f)
		f.Close()
		if err != nil {
			t.Fatalf("screenshot %s: %v", s.name, err)
		}
		if b := img.Bounds(); b.Dx() != s.width || b.Dy() < 400 {
			t.Fatalf("screenshot %s is %dx%d, want width %d and at least 400 tall", s.name, b.Dx(), b.Dy(), s.width)
		}
	}
}
