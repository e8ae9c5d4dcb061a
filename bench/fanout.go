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
// disk at every agent, over the real WebSocket hub, for 2 daemons × 25
// agents and 10 daemons × 100 agents in one room. Its baseline is the floor
// a delivery cannot beat, measured in the same run: one HTTP round trip plus
// the fastest correct write (temp file, fsync, rename, directory fsync) of
// one daemon's copies on this disk, all at once. The e2e package has the
// same measurement with real processes
// (go test -run '^$' -bench FanOut -benchtime 200x ./e2e/).
func benchFanOut(ctx context.Context, cfg config) ([]row, error) {
	small, big := 200, 30
	if cfg.quick {
		small, big = 30, 5
	}
	var rows []row
	for _, c := range []struct{ machines, perMachine, n int }{{2, 25, small}, {10, 100, big}} {
		r, err := fanOutRun(ctx, filepath.Join(cfg.tmp, fmt.Sprintf("%dx%d", c.machines, c.perMachine)), c.machines, c.perMachine, c.n)
		if err != nil {
			return nil, err
		}
		rows = append(rows, r...)
	}
	return rows, nil
}

func fanOutRun(ctx context.Context, tmp string, machines, perMachine, n int) ([]row, error) {
	st, err := local.Open(ctx, filepath.Join(tmp, "server"), local.Options{MaxRoomFiles: 1 << 20, MaxRoomBytes: 1 << 40})
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
	var ids []string
	for m := 0; m < machines; m++ {
		id := fmt.Sprintf("m%d", m+1)
		ids = append(ids, id)
		home := filepath.Join(tmp, id)
		for a := 0; a < perMachine; a++ {
			agent := fmt.Sprintf("%s-a%03d", id, a)
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
	// Warm up until every daemon is connected and every agent holds a file.
	if err := postFile(ctx, client, base, admin, "fanout", "warm.md", []byte("warm\n")); err != nil {
		return nil, err
	}
	if err := waitAll(ctx, dirs, "warm.md", 2*time.Minute); err != nil {
		return nil, err
	}
	for _, id := range ids {
		for len(hub.Connections(id)) == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			time.Sleep(10 * time.Millisecond)
		}
	}

	// The floor is sampled after each delivery, so that the load of this
	// shared machine falls on both alike.
	fl, err := newFloor(filepath.Join(tmp, "floor"), perMachine)
	if err != nil {
		return nil, err
	}
	lat := make([]time.Duration, 0, n)
	floor := make([]time.Duration, 0, n)
	for i := 0; i < n; i++ {
		name := fmt.Sprintf("f-%05d.md", i)
		if err := postFile(ctx, client, base, admin, "fanout", name, []byte(fmt.Sprintf("# fan-out %d\n", i))); err != nil {
			return nil, err
		}
		t201 := time.Now()
		if err := waitAll(ctx, dirs, name, time.Minute); err != nil {
			return nil, err
		}
		lat = append(lat, time.Since(t201))
		d, err := fl.sample(ctx, client, base, i)
		if err != nil {
			return nil, err
		}
		floor = append(floor, d)
	}
	sortDurations(lat)
	sortDurations(floor)
	agents := fmt.Sprintf("%d daemons × %d agents", machines, perMachine)
	floorName := fmt.Sprintf("floor: round trip + %d copies written at once", perMachine)
	return []row{
		{Metric: "fan-out 201 → on disk at all agents p50 (" + agents + ")", Value: percentile(lat, 50), Unit: "ms", Baseline: floorName + " p50", Base: percentile(floor, 50)},
		{Metric: "fan-out 201 → on disk at all agents p99 (" + agents + ")", Value: percentile(lat, 99), Unit: "ms", Baseline: floorName + " p99", Base: percentile(floor, 99)},
	}, nil
}

// floorDirs is where the floor is measured: one directory per copy.
type floorDirs []string

func newFloor(dir string, copies int) (floorDirs, error) {
	dirs := make(floorDirs, copies)
	for i := range dirs {
		dirs[i] = filepath.Join(dir, fmt.Sprintf("a%03d", i))
		if err := os.MkdirAll(dirs[i], 0o755); err != nil {
			return nil, err
		}
	}
	return dirs, nil
}

// sample measures one HTTP round trip plus the fastest correct write of one
// file into every directory: each a temp file, fsync, rename and directory
// fsync (so no reader ever sees half of it), all in parallel, which on this
// disk beats one after another (concurrent fsyncs share journal commits).
func (dirs floorDirs) sample(ctx context.Context, c *http.Client, base string, i int) (time.Duration, error) {
	body := []byte("# fan-out floor\n")
	errs := make(chan error, len(dirs))
	t0 := time.Now()
	req, _ := http.NewRequestWithContext(ctx, "GET", base+"/healthz", nil)
	resp, err := c.Do(req)
	if err != nil {
		return 0, err
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	name := fmt.Sprintf("b%05d.md", i)
	for _, d := range dirs {
		go func() { errs <- writeSynced(d, name, body) }()
	}
	for range dirs {
		if err := <-errs; err != nil {
			return 0, err
		}
	}
	return time.Since(t0), nil
}

// writeSynced writes dir/name the way a daemon must: temp, fsync, rename,
// directory fsync.
func writeSynced(dir, name string, body []byte) error {
	f, err := os.CreateTemp(dir, ".tmp-*")
	if err != nil {
		return err
	}
	_, err = f.Write(body)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), filepath.Join(dir, name))
	}
	if err != nil {
		os.Remove(f.Name())
		return err
	}
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	d.Close()
	return err
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
