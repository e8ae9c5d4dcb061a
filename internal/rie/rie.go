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
	// name is the function's (its bootstrap's base name).
	name    string
	apiAddr string
	cmd     *exec.Cmd

	mu     sync.Mutex
	kids   []proc // function processes seen before the emulator was stopped
	out    bytes.Buffer
	inits  []float64
	exited chan struct{}
	err    error
}

// startTimeout bounds how long the emulator may take to listen.
const startTimeout = 15 * time.Second

// FunctionTimeout is the function timeout the emulator is given
// (AWS_LAMBDA_FUNCTION_TIMEOUT). Under the emulator it bounds a cold start
// and the invocation together: past it the emulator resets the function
// and answers "Task timed out".
const FunctionTimeout = 30 * time.Second

// AnswerWithin bounds how long Invoke waits for the emulator's answer: the
// function's timeout, then the emulator's reset (it waits up to 9 s for a
// SIGKILLed function to die and 2 s more for its processes to be reaped),
// and a margin. The emulator's own timeout thus always fires first; an
// invocation still unanswered after AnswerWithin means the emulator itself
// is stuck, and Invoke says where.
const AnswerWithin = FunctionTimeout + 15*time.Second

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
		"AWS_LAMBDA_FUNCTION_TIMEOUT=" + strconv.Itoa(int(FunctionTimeout/time.Second)), "AWS_LAMBDA_FUNCTION_NAME=" + filepath.Base(bootstrap)}, env...)
	// The emulator forks the function; a process group stops both.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	e := &Emulator{URL: "http://" + addr + "/2015-03-31/functions/function/invocations", name: filepath.Base(bootstrap),
		apiAddr: "127.0.0.1:" + strconv.Itoa(apiPort), cmd: cmd, exited: make(chan struct{})}
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
		// Both listeners: the runtime API's is opened on a goroutine of
		// its own, and an emulator that cannot bind it (another process
		// took the port) panics, maybe after the invoke port answered.
		// And both are the emulator's own (listens): a probe answered by
		// another process on a stolen port would send every invocation
		// there.
		pid := cmd.Process.Pid
		if serving(addr) && runtimeAPIServing(e.apiAddr) && listens(pid, invokePort) && listens(pid, apiPort) {
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

// runtimeAPIServing reports whether the emulator's runtime API answers its
// ping at addr ("pong"), which starts nothing.
func runtimeAPIServing(addr string) bool {
	res, err := probeClient.Get("http://" + addr + "/2018-06-01/ping")
	if err != nil {
		return false
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(res.Body, 64))
	return res.StatusCode == http.StatusOK && string(body) == "pong"
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

// ExpectOutput waits up to within for the output to hold every one of want,
// as WaitOutput does, and returns an error naming the function and what did
// not arrive, with the output, when it does not.
func (e *Emulator) ExpectOutput(within time.Duration, want ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), within)
	defer cancel()
	out, ok := e.WaitOutput(ctx, want...)
	if ok {
		return out, nil
	}
	var missing []string
	for _, w := range want {
		if !strings.Contains(out, w) {
			missing = append(missing, strconv.Quote(w))
		}
	}
	return out, fmt.Errorf("%s under aws-lambda-rie: after %s its output still lacks %s; it holds:\n%s", e.name, within, strings.Join(missing, " and "), out)
}

// InitDurations returns the "Init Duration" the emulator reported for each
// cold start, in milliseconds.
func (e *Emulator) InitDurations() []float64 {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]float64(nil), e.inits...)
}

// invokeClient sends invocations; each is bounded by its context.
var invokeClient = &http.Client{}

// timedOutPrefix starts the emulator's answer when the function's timeout
// passed first (it answers 200 with this text, not a JSON payload).
const timedOutPrefix = "Task timed out after "

// Invoke sends one event and returns the function's result payload,
// waiting for the answer until ctx ends or AnswerWithin passes, whichever
// is first. A function error (the runtime's error payload, or the init error
// a failed cold start reported) is returned as an error, and so is the
// emulator's "Task timed out". When no answer comes, the error says how far
// the invocation got (whether the emulator took it, the state of the
// function's process) and the emulator is stopped with SIGQUIT so that its
// goroutines are in Output; it serves nothing after that.
func (e *Emulator) Invoke(ctx context.Context, event []byte) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, AnswerWithin)
	defer cancel()
	started := time.Now()
	starts := strings.Count(e.Output(), "START RequestId:")
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, e.URL, bytes.NewReader(event))
	if err != nil {
		return nil, err
	}
	res, err := invokeClient.Do(req)
	if err == nil {
		defer res.Body.Close()
		var body []byte
		body, err = io.ReadAll(res.Body)
		if err == nil {
			return e.answer(res.StatusCode, body)
		}
	}
	if ctx.Err() == nil {
		select {
		case <-e.exited:
			return nil, fmt.Errorf("invoke %s: aws-lambda-rie exited (%v): %w", e.name, e.err, err)
		default:
			return nil, fmt.Errorf("invoke %s: %w", e.name, err)
		}
	}
	return nil, e.noAnswer(time.Since(started), starts)
}

// answer reads the emulator's answer to an invocation.
func (e *Emulator) answer(status int, body []byte) ([]byte, error) {
	var fnErr struct {
		Type    string `json:"errorType"`
		Message string `json:"errorMessage"`
	}
	isErr := json.Unmarshal(body, &fnErr) == nil && fnErr.Message != ""
	switch {
	case status == http.StatusOK && bytes.HasPrefix(body, []byte(timedOutPrefix)):
		return nil, fmt.Errorf("invoke %s: the emulator answered %q: the function did not answer within its timeout (%s, cold start included)", e.name, body, FunctionTimeout)
	case isErr:
		return nil, fmt.Errorf("invoke %s: function error %s: %s (emulator answered %d)", e.name, fnErr.Type, fnErr.Message, status)
	case status != http.StatusOK:
		return nil, fmt.Errorf("invoke %s: emulator answered %d: %s", e.name, status, body)
	}
	return body, nil
}

// noAnswer describes an invocation the emulator did not answer within
// waited, then stops the emulator with SIGQUIT (Go prints every goroutine's
// stack) so that the output shows where it is stuck.
func (e *Emulator) noAnswer(waited time.Duration, startsBefore int) error {
	took := "the emulator never printed START for it (its HTTP handler did not reach the function)"
	if strings.Count(e.Output(), "START RequestId:") > startsBefore {
		took = "the emulator printed START for it"
	}
	fn := "no function process is running"
	kids := children(e.cmd.Process.Pid)
	e.mu.Lock()
	e.kids = append(e.kids, kids...)
	e.mu.Unlock()
	if len(kids) > 0 {
		var ds []string
		for _, k := range kids {
			d := k.describe()
			if rie := filepath.Base(e.cmd.Path); k.comm == rie[:min(len(rie), 15)] {
				// The child still runs the emulator's image: its exec of
				// the bootstrap has not returned, and the emulator holds
				// its handler lock across that exec, so even its own
				// timeout cannot answer until it does.
				d += ", not yet exec'd (its exec of the bootstrap has not returned)"
			}
			ds = append(ds, d)
		}
		fn = "function process " + strings.Join(ds, ", ")
	}
	_ = e.cmd.Process.Signal(syscall.SIGQUIT)
	select {
	case <-e.exited:
	case <-time.After(3 * time.Second):
	}
	return fmt.Errorf("invoke %s: no answer from aws-lambda-rie within %s, though its own timeout is %s: %s; %s; its goroutines (SIGQUIT) are in its output", e.name, waited.Round(time.Millisecond), FunctionTimeout, took, fn)
}

// Stop kills the emulator and the function it runs, and waits for them.
// The emulator starts its function in a process group of its own, so that
// group is killed too: a function stuck in its cold start would otherwise
// outlive the test.
func (e *Emulator) Stop() {
	if e.cmd.Process != nil {
		kids := children(e.cmd.Process.Pid)
		_ = syscall.Kill(-e.cmd.Process.Pid, syscall.SIGKILL)
		e.mu.Lock()
		kids = append(kids, e.kids...)
		e.mu.Unlock()
		killGroups(kids)
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
