package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"pumasi"
	"pumasi/adapters/local"
	"pumasi/adapters/push"
	"pumasi/functions"
	"pumasi/machine"
)

func init() {
	register(scenario{name: "fanout", run: benchFanOut})
}

// benchFanOut measures fan-out latency: from an upload's 201 to the file on
// disk at every agent, with 2 machine daemons × 25 agents in one room, over
// the real WebSocket hub. Its baseline is the least a delivery can cost: one
// HTTP round trip plus one fsync'd file write, measured in the same run.
// The e2e package has the same measurement with real processes
// (go test -run '^$' -bench FanOut -benchtime 200x ./e2e/).
func benchFanOut(ctx context.Context, cfg config) ([]row, error) {
	const machines, perMachine = 2, 25
	n := 200
	if cfg.quick {
		n = 30
	}
	st, err := local.Open(ctx, filepath.Join(cfg.tmp, "server"), local.Options{MaxRoomFiles: 1 << 20, MaxRoomBytes: 1 << 40})
	if err != nil {
		return nil, err
	}
	defer st.Close()
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	hub := push.NewHub(quiet)
	defer hub.Close()
	api := &functions.API{Store: st, Secret: benchSecret, Pusher: hub, Socket: hub, Log: quiet}
	base, stop, err := serve(api.Handler())
	if err != nil {
		return nil, err
	}
	defer stop()
	admin, _ := pumasi.SignToken(benchSecret, "bench", []string{pumasi.ScopeAdmin}, time.Hour, time.Now())
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 16}, Timeout: time.Minute}

	dctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{}, machines)
	defer func() {
		cancel()
		for i := 0; i < machines; i++ {
			<-done
		}
	}()
	var dirs []string
	for m := 0; m < machines; m++ {
		id := fmt.Sprintf("m%d", m+1)
		home := filepath.Join(cfg.tmp, id)
		for a := 0; a < perMachine; a++ {
			agent := fmt.Sprintf("%s-a%02d", id, a)
			if _, _, err := st.PlaceAgent(ctx, "fanout", agent, id); err != nil {
				return nil, err
			}
			dirs = append(dirs, filepath.Join(home, "agents", agent, "memory", "shared"))
		}
		tok, _ := pumasi.SignToken(benchSecret, "bench", []string{pumasi.ScopeMachine + id}, time.Hour, time.Now())
		go func() {
			defer func() { done <- struct{}{} }()
			_ = machine.Run(dctx, machine.Config{Server: base, Machine: id, Token: tok, Home: home, Poll: time.Minute, Log: quiet})
		}()
	}
	// Warm up until both daemons are connected and every agent holds a file.
	if err := postFile(ctx, client, base, admin, "fanout", "warm.md", []byte("warm\n")); err != nil {
		return nil, err
	}
	if err := waitAll(ctx, dirs, "warm.md", time.Minute); err != nil {
		return nil, err
	}
	for len(hub.Connections("m1")) == 0 || len(hub.Connections("m2")) == 0 {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		time.Sleep(10 * time.Millisecond)
	}

	lat := make([]time.Duration, 0, n)
	for i := 0; i < n; i++ {
		name := fmt.Sprintf("f-%05d.md", i)
		if err := postFile(ctx, client, base, admin, "fanout", name, []byte(fmt.Sprintf("# fan-out %d\n", i))); err != nil {
			return nil, err
		}
		t201 := time.Now()
		if err := waitAll(ctx, dirs, name, 30*time.Second); err != nil {
			return nil, err
		}
		lat = append(lat, time.Since(t201))
	}
	sortDurations(lat)

	bdir := filepath.Join(cfg.tmp, "baseline")
	if err := os.MkdirAll(bdir, 0o755); err != nil {
		return nil, err
	}
	baseLat := make([]time.Duration, 0, n)
	body := make([]byte, 1024)
	for i := 0; i < n; i++ {
		t0 := time.Now()
		req, _ := http.NewRequestWithContext(ctx, "GET", base+"/healthz", nil)
		resp, err := client.Do(req)
		if err != nil {
			return nil, err
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		f, err := os.Create(filepath.Join(bdir, fmt.Sprintf("b%05d", i)))
		if err != nil {
			return nil, err
		}
		f.Write(body)
		err = f.Sync()
		f.Close()
		if err != nil {
			return nil, err
		}
		baseLat = append(baseLat, time.Since(t0))
	}
	sortDurations(baseLat)
	agents := fmt.Sprintf("%d daemons × %d agents", machines, perMachine)
	return []row{
		{Metric: "fan-out 201 → on disk at all agents p50 (" + agents + ")", Value: percentile(lat, 50), Unit: "ms", Baseline: "HTTP round trip + fsync'd write p50", Base: percentile(baseLat, 50)},
		{Metric: "fan-out 201 → on disk at all agents p99 (" + agents + ")", Value: percentile(lat, 99), Unit: "ms", Baseline: "HTTP round trip + fsync'd write p99", Base: percentile(baseLat, 99)},
	}, nil
}

// waitAll polls until name exists in every dir. The daemon renames complete
// files into place, so existence means the whole file is there.
func waitAll(ctx context.Context, dirs []string, name string, within time.Duration) error {
	deadline := time.Now().Add(within)
	for {
		all := true
		for _, d := range dirs {
			if _, err := os.Lstat(filepath.Join(d, name)); err != nil {
				all = false
				break
			}
		}
		if all {
			return nil
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s not at every agent within %v", name, within)
		}
		time.Sleep(200 * time.Microsecond)
	}
}
