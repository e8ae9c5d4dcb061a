// Package rie builds pumasi's Lambda functions and runs them under the real
// AWS Lambda Runtime Interface Emulator (aws-lambda-rie, installed by
// scripts/tools.sh), one emulator process per function on free loopback
// ports, for the e2e tests and the bench.
package rie

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Binary is where scripts/tools.sh installs the emulator under toolsDir.
func Binary(toolsDir string) string { return filepath.Join(toolsDir, "bin", "aws-lambda-rie") }

// ModuleRoot returns the folder holding pumasi's go.mod, searching upward
// from the working directory.
func ModuleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if b, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil && bytes.HasPrefix(b, []byte("module pumasi\n")) {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("go.mod of module pumasi not found above the working directory")
		}
		dir = parent
	}
}

// Build compiles functions/<name> for linux/goarch exactly as `make lambda`
// does and returns each bootstrap's path, keyed by function name.
func Build(ctx context.Context, root, outDir, goarch string, names ...string) (map[string]string, error) {
	args := []string{"build", "-trimpath", "-buildvcs=false", "-tags", "lambda.norpc", "-ldflags=-s -w", "-o", outDir + string(filepath.Separator)}
	for _, n := range names {
		args = append(args, "./functions/"+n)
	}
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS=linux", "GOARCH="+goarch)
	if out, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("go build functions: %v\n%s", err, out)
	}
	out := map[string]string{}
	for _, n := range names {
		out[n] = filepath.Join(outDir, n)
	}
	return out, nil
}

// Emulator is one aws-lambda-rie process running one function.
type Emulator struct {
	// URL is the invoke endpoint.
	URL string
	cmd *exec.Cmd

	mu     sync.Mutex
	out    bytes.Buffer
	inits  []float64
	exited chan struct{}
	err    error
}

// startTimeout bounds how long the emulator may take to listen.
const startTimeout = 15 * time.Second

// Start runs bootstrap under the emulator at rieBin with env (added to a
// minimal environment: PATH and HOME only, so the host's AWS settings do not
// leak in) on free loopback ports. The function itself starts lazily, at
// the first invocation, as in Lambda.
func Start(ctx context.Context, rieBin, bootstrap string, env []string) (*Emulator, error) {
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ {
		e, err := tryStart(ctx, rieBin, bootstrap, env)
		if err == nil {
			return e, nil
		}
		lastErr = err
	}
	return nil, lastErr
}

func tryStart(ctx context.Context, rieBin, bootstrap string, env []string) (*Emulator, error) {
	invokePort, err := freePort()
	if err != nil {
		return nil, err
	}
	apiPort, err := freePort()
	if err != nil {
		return nil, err
	}
	addr := "127.0.0.1:" + strconv.Itoa(invokePort)
	cmd := exec.Command(rieBin, "--log-level", "error",
		"--runtime-interface-emulator-address", addr,
		"--runtime-api-address", "127.0.0.1:"+strconv.Itoa(apiPort),
		bootstrap)
	cmd.Dir = filepath.Dir(bootstrap)
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.TempDir(),
		"AWS_LAMBDA_FUNCTION_TIMEOUT=30", "AWS_LAMBDA_FUNCTION_NAME=" + filepath.Base(bootstrap)}, env...)
	// The emulator forks the function; a process group stops both.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	e := &Emulator{URL: "http://" + addr + "/2015-03-31/functions/function/invocations", cmd: cmd, exited: make(chan struct{})}
	pr, pw := io.Pipe()
	cmd.Stdout, cmd.Stderr = pw, pw
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start aws-lambda-rie: %w", err)
	}
	go e.scan(pr)
	go func() {
		e.err = cmd.Wait()
		pw.Close()
		close(e.exited)
	}()
	deadline := time.Now().Add(startTimeout)
	for {
		if serving(addr) {
			return e, nil
		}
		select {
		case <-e.exited:
			return nil, fmt.Errorf("aws-lambda-rie exited at start: %v\n%s", e.err, e.Output())
		case <-ctx.Done():
			e.Stop()
			return nil, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			e.Stop()
			return nil, fmt.Errorf("aws-lambda-rie did not serve HTTP on %s within %s", addr, startTimeout)
		}
	}
}

// probeClient bounds one readiness probe.
var probeClient = &http.Client{Timeout: time.Second}

// serving reports whether the emulator's HTTP server answers a real request
// at addr. A listening socket is not enough: the port may belong to another
// process that took it first (the emulator then exits), and an accepted
// connection says nothing about the handler. GET / is answered by the
// emulator's mux with Go's plain 404 without starting the function, so a
// probe never counts as a cold start.
func serving(addr string) bool {
	res, err := probeClient.Get("http://" + addr + "/")
	if err != nil {
		return false
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(res.Body, 64))
	return res.StatusCode == http.StatusNotFound && string(body) == "404 page not found\n"
}

var initRE = regexp.MustCompile(`Init Duration: ([0-9.]+) ms`)

// scan keeps the emulator's output and the init durations it reports.
func (e *Emulator) scan(r io.Reader) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		e.mu.Lock()
		if e.out.Len() < 1<<20 {
			e.out.WriteString(line + "\n")
		}
		if m := initRE.FindStringSubmatch(line); m != nil {
			if v, err := strconv.ParseFloat(m[1], 64); err == nil {
				e.inits = append(e.inits, v)
			}
		}
		e.mu.Unlock()
	}
	_, _ = io.Copy(io.Discard, r)
}

// Output returns what the emulator and the function printed so far.
func (e *Emulator) Output() string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.out.String()
}

// WaitOutput returns the output once it holds every one of want, or what
// it holds when ctx ends. The emulator's output is read as it arrives, so
// the lines a function printed before its invocation was answered (an init
// error, a log line) may still be on their way when Invoke returns.
func (e *Emulator) WaitOutput(ctx context.Context, want ...string) (string, bool) {
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		out := e.Output()
		all := true
		for _, w := range want {
			all = all && strings.Contains(out, w)
		}
		if all {
			return out, true
		}
		select {
		case <-ctx.Done():
			return out, false
		case <-tick.C:
		}
	}
}

// InitDurations returns the "Init Duration" the emulator reported for each
// cold start, in milliseconds.
func (e *Emulator) InitDurations() []float64 {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]float64(nil), e.inits...)
}

// invokeClient bounds one invocation; the function's own timeout is 30 s.
var invokeClient = &http.Client{Timeout: 45 * time.Second}

// Invoke sends one event and returns the function's result payload. A
// function error (the runtime's error payload) is returned as an error.
func (e *Emulator) Invoke(ctx context.Context, event []byte) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, e.URL, bytes.NewReader(event))
	if err != nil {
		return nil, err
	}
	res, err := invokeClient.Do(req)
	if err != nil {
		return nil, fmt.Errorf("invoke: %w", err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		return nil, fmt.Errorf("invoke: read: %w", err)
	}
	if res.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("invoke: emulator answered %d: %s", res.StatusCode, body)
	}
	var fnErr struct {
		Type    string `json:"errorType"`
		Message string `json:"errorMessage"`
	}
	if json.Unmarshal(body, &fnErr) == nil && fnErr.Message != "" {
		return nil, fmt.Errorf("invoke: function error %s: %s", fnErr.Type, fnErr.Message)
	}
	return body, nil
}

// Stop kills the emulator and the function it runs, and waits for them.
func (e *Emulator) Stop() {
	if e.cmd.Process != nil {
		_ = syscall.Kill(-e.cmd.Process.Pid, syscall.SIGKILL)
	}
	select {
	case <-e.exited:
	case <-time.After(5 * time.Second):
	}
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
