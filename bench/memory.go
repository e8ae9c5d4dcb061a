package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"pumasi"
)

func init() {
	register(scenario{name: "memory", run: benchMemory})
}

// Env of the memory bench: EnvMemDuration shortens the load (a Go
// duration; -quick makes it 15 s), EnvPumasiBin names a built pumasi
// binary (default: go build one).
const (
	EnvMemDuration = "PUMASI_BENCH_MEM_DURATION"
	EnvPumasiBin   = "PUMASI_BIN"
)

// memIdleWait is how long the server idles after the load before its RSS
// is read: past localdev's idle memory release (localdev/memory.go).
const memIdleWait = 30 * time.Second

// benchMemory runs localdev as its own process, reads its resident memory
// idle, loads it with 50 clients for 60 s (uploads of 4–64 KiB, listings,
// reads, knowledge queries and contributions), lets it idle, and reports
// its idle RSS after the load beside its idle RSS before (the baseline):
// the goal is within 1.5×. The peak during the load is printed too.
func benchMemory(ctx context.Context, cfg config) ([]row, error) {
	dur := 60 * time.Second
	if cfg.quick {
		dur = 15 * time.Second
	}
	if v := os.Getenv(EnvMemDuration); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return nil, fmt.Errorf("%s=%q: want a duration such as 20s", EnvMemDuration, v)
		}
		dur = d
	}
	bin := os.Getenv(EnvPumasiBin)
	if bin == "" {
		bin = filepath.Join(cfg.tmp, "pumasi")
		build := exec.CommandContext(ctx, "go", "build", "-trimpath", "-o", bin, "./cmd/pumasi")
		if out, err := build.CombinedOutput(); err != nil {
			return nil, fmt.Errorf("build pumasi: %v: %s", err, out)
		}
	}
	home := filepath.Join(cfg.tmp, "home")
	cmd := exec.CommandContext(ctx, bin, "localdev", "--home", home, "--addr", "127.0.0.1:0", "--no-machine",
		"--rate-per-handle", "off", "--rate-per-address", "off")
	cmd.Env = append(os.Environ(), "PUMASI_SECRET="+string(benchSecret))
	var logs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	defer func() { cmd.Process.Signal(os.Interrupt); cmd.Wait() }()
	base, err := waitAddr(ctx, home)
	if err != nil {
		return nil, fmt.Errorf("%v: %s", err, logs.String())
	}
	tok, _ := pumasi.SignToken(benchSecret, "bench", []string{pumasi.ScopeAdmin}, time.Hour, time.Now())
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	pid := cmd.Process.Pid

	var seq atomic.Int64
	op := func(ctx context.Context, i int) error {
		room := fmt.Sprintf("mem%d", i%10)
		switch i % 6 {
		case 0, 1:
			b := make([]byte, (4<<10+i%16*(4<<10))/2)
			rand.Read(b)
			return postFile(ctx, client, base, tok, room, fmt.Sprintf("f%03d.md", i%200), []byte(hex.EncodeToString(b)))
		case 2:
			return walDo(ctx, client, "GET", base+"/rooms/"+room+"/files", tok, "", 200)
		case 3:
			return walDo(ctx, client, "GET", fmt.Sprintf("%s/rooms/%s/files/f%03d.md", base, room, i%200), tok, "", 200, 404)
		case 4:
			q := []string{"timeout", "checkpoint wal", "connection refused", "cache eviction"}[i%4]
			return walDo(ctx, client, "GET", base+"/knowledge/query?q="+strings.ReplaceAll(q, " ", "+"), "", "", 200)
		default:
			title, content := benchFinding(7_000_000 + int(seq.Add(1)))
			body := fmt.Sprintf(`{"title":%q,"content":%q,"hive":"academy","tags":[]}`, title, content)
			return walDo(ctx, client, "POST", base+"/knowledge/contribute", "", body, 200, 201)
		}
	}
	// Warm up every path, then idle.
	for i := 0; i < 60; i++ {
		if err := op(ctx, i); err != nil {
			return nil, fmt.Errorf("warm up: %w", err)
		}
	}
	if !sleepCtx(ctx, memIdleWait) {
		return nil, ctx.Err()
	}
	before, err := rss(pid)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(os.Stderr, "bench: memory: before: %s; %s\n", goMemory(ctx, client, base, tok), rssParts(pid))

	lctx, cancel := context.WithTimeout(ctx, dur)
	defer cancel()
	var peak atomic.Int64
	var ops, failures atomic.Int64
	var wg sync.WaitGroup
	for c := 0; c < 50; c++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := c; lctx.Err() == nil; i += 50 {
				if err := op(lctx, i); err != nil {
					if lctx.Err() == nil && failures.Add(1) <= 3 {
						fmt.Fprintf(os.Stderr, "bench: memory: %v\n", err)
					}
					continue
				}
				ops.Add(1)
			}
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		for lctx.Err() == nil {
			if n, err := rss(pid); err == nil && n > peak.Load() {
				peak.Store(n)
			}
			sleepCtx(lctx, 200*time.Millisecond)
		}
	}()
	wg.Wait()
	client.CloseIdleConnections()
	if !sleepCtx(ctx, memIdleWait) {
		return nil, ctx.Err()
	}
	after, err := rss(pid)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(os.Stderr, "bench: memory: %d requests in %s from 50 clients (%d failed); RSS idle %.1f MiB before, peak %.1f MiB, idle %.1f MiB %s after\n",
		ops.Load(), dur, failures.Load(), mib(before), mib(peak.Load()), mib(after), memIdleWait)
	fmt.Fprintf(os.Stderr, "bench: memory: after: %s; %s\n", goMemory(ctx, client, base, tok), rssParts(pid))
	if failures.Load() > 0 {
		return nil, fmt.Errorf("%d of the load's requests failed", failures.Load())
	}
	load := fmt.Sprintf("%s × 50 clients", dur.Round(time.Second))
	return []row{
		{Metric: "memory: idle RSS " + memIdleWait.String() + " after " + load + " (goal ≤ 1.5×)", Value: mib(after), Unit: "MiB", Baseline: "idle RSS before the load", Base: mib(before)},
		{Metric: "memory: peak RSS during " + load, Value: mib(peak.Load()), Unit: "MiB", Baseline: "idle RSS before the load", Base: mib(before)},
	}, nil
}

// rss reads a process's resident set size (VmRSS) in bytes.
func rss(pid int) (int64, error) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return kb << 10, err
		}
	}
	return 0, fmt.Errorf("no VmRSS in /proc/%d/status", pid)
}

// waitAddr waits for localdev to write its address into home.
func waitAddr(ctx context.Context, home string) (string, error) {
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if b, err := os.ReadFile(filepath.Join(home, "localdev.addr")); err == nil && len(bytes.TrimSpace(b)) > 0 {
			return string(bytes.TrimSpace(b)), nil
		}
		if !sleepCtx(ctx, 50*time.Millisecond) {
			return "", ctx.Err()
		}
	}
	return "", fmt.Errorf("localdev did not start within 30 s")
}

func sleepCtx(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

// goMemory reads the Go runtime's view of the server's memory from its
// /metrics, to tell the Go heap from what SQLite and the stacks hold.
func goMemory(ctx context.Context, c *http.Client, base, tok string) string {
	req, _ := http.NewRequestWithContext(ctx, "GET", base+"/metrics", nil)
	req.Header.Set("Authorization", "Bearer "+tok)
	res, err := c.Do(req)
	if err != nil {
		return err.Error()
	}
	defer res.Body.Close()
	var out []string
	sc := bufio.NewScanner(res.Body)
	for sc.Scan() {
		for _, name := range []string{"go_memstats_heap_inuse_bytes", "go_memstats_heap_idle_bytes", "go_memstats_heap_released_bytes",
			"go_memstats_stack_inuse_bytes", "go_memstats_sys_bytes", "go_goroutines"} {
			if v, ok := strings.CutPrefix(sc.Text(), name+" "); ok {
				f, _ := strconv.ParseFloat(v, 64)
				if strings.HasSuffix(name, "_bytes") {
					v = fmt.Sprintf("%.1f MiB", f/(1<<20))
				}
				out = append(out, strings.TrimPrefix(strings.TrimPrefix(name, "go_memstats_"), "go_")+" "+v)
			}
		}
	}
	return strings.Join(out, ", ")
}

// rssParts reads the anonymous and file-backed parts of a process's RSS.
func rssParts(pid int) string {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return err.Error()
	}
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "RssAnon:") || strings.HasPrefix(l, "RssFile:") {
			out = append(out, strings.Join(strings.Fields(l), " "))
		}
	}
	return strings.Join(out, ", ")
}
