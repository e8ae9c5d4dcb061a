package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"pumasi"
	"pumasi/adapters/local"
	"pumasi/functions"
	"pumasi/internal/wire"
)

func init() {
	register(scenario{name: "wal", run: benchWAL})
}

// EnvWALDuration shortens (or lengthens) the WAL bench's mixed load, as a
// Go duration; -quick makes it 20 s.
const EnvWALDuration = "PUMASI_BENCH_WAL_DURATION"

// benchWAL runs a sustained mixed load over HTTP on the local backend for
// five minutes: 4 uploaders (4–16 KiB files over 300 names per room, so
// most uploads replace), 2 contributors (new findings), 2 listers and 2
// readers of files, 2 knowledge queriers. It samples the WAL file every
// 50 ms and reports its peak beside the database's size at the end, the
// baseline of the same run: the WAL must stay within 64 MiB, or the
// database's size when that is larger.
func benchWAL(ctx context.Context, cfg config) ([]row, error) {
	dur := 5 * time.Minute
	if cfg.quick {
		dur = 20 * time.Second
	}
	if v := os.Getenv(EnvWALDuration); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return nil, fmt.Errorf("%s=%q: want a duration such as 30s", EnvWALDuration, v)
		}
		dur = d
	}
	home := filepath.Join(cfg.tmp, "home")
	st, err := local.Open(ctx, home, local.Options{MaxRoomFiles: 1 << 20, MaxRoomBytes: 1 << 40})
	if err != nil {
		return nil, err
	}
	defer st.Close()
	know, closeKnow, err := wire.OpenKnowledge(ctx, st, wire.KnowledgeConfig{Home: home})
	if err != nil {
		return nil, err
	}
	defer closeKnow()
	emb, err := wire.OpenEmbedder(wire.EmbedderConfig{})
	if err != nil {
		return nil, err
	}
	off, _ := functions.ParseRateLimit("off")
	api := &functions.API{Store: st, Secret: benchSecret, Knowledge: know, Embedder: emb,
		RateLimits: functions.RateLimits{PerHandle: off, PerAddress: off}}
	base, stop, err := serve(api.Handler())
	if err != nil {
		return nil, err
	}
	defer stop()
	tok, _ := pumasi.SignToken(benchSecret, "bench", []string{pumasi.ScopeAdmin}, time.Hour, time.Now())
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 32}}

	ctx, cancel := context.WithTimeout(ctx, dur)
	defer cancel()
	walPath := filepath.Join(home, "pumasi.db-wal")
	var peak atomic.Int64
	var ops, failures atomic.Int64
	var wg sync.WaitGroup
	worker := func(fn func(i int) error) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ctx.Err() == nil; i++ {
				if err := fn(i); err != nil {
					if ctx.Err() != nil {
						return
					}
					if failures.Add(1) <= 3 {
						fmt.Fprintf(os.Stderr, "bench: wal: %v\n", err)
					}
					continue
				}
				ops.Add(1)
			}
		}()
	}
	wg.Add(1)
	go func() { // the sampler
		defer wg.Done()
		t := time.NewTicker(50 * time.Millisecond)
		defer t.Stop()
		for {
			if fi, err := os.Stat(walPath); err == nil && fi.Size() > peak.Load() {
				peak.Store(fi.Size())
			}
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
		}
	}()
	for w := 0; w < 4; w++ {
		room := fmt.Sprintf("wal%d", w)
		worker(func(i int) error {
			b := make([]byte, (4<<10+i%4*(4<<10))/2)
			rand.Read(b)
			return postFile(ctx, client, base, tok, room, fmt.Sprintf("f%03d.md", i%300), []byte(hex.EncodeToString(b)))
		})
	}
	var seq atomic.Int64
	for w := 0; w < 2; w++ {
		worker(func(int) error {
			title, content := benchFinding(5_000_000 + int(seq.Add(1)))
			body := fmt.Sprintf(`{"title":%q,"content":%q,"hive":"academy","tags":[]}`, title, content)
			return walDo(ctx, client, "POST", base+"/knowledge/contribute", "", body, 200, 201)
		})
	}
	for w := 0; w < 2; w++ {
		room := fmt.Sprintf("wal%d", w)
		worker(func(int) error { return walDo(ctx, client, "GET", base+"/rooms/"+room+"/files", tok, "", 200) })
		worker(func(i int) error {
			return walDo(ctx, client, "GET", fmt.Sprintf("%s/rooms/%s/files/f%03d.md", base, room, i%50), tok, "", 200, 404)
		})
		worker(func(i int) error {
			q := []string{"timeout", "checkpoint wal", "connection refused", "cache eviction"}[i%4]
			return walDo(ctx, client, "GET", base+"/knowledge/query?q="+strings.ReplaceAll(q, " ", "+"), "", "", 200)
		})
	}
	wg.Wait()
	db := fileSizeOf(filepath.Join(home, "pumasi.db"))
	restarts, busy := st.WALStats()
	fmt.Fprintf(os.Stderr, "bench: wal: %s of mixed load: %d requests (%d failed), WAL peak %.1f MiB, database %.1f MiB, %d RESTART checkpoints (%d waited out by readers)\n",
		dur, ops.Load(), failures.Load(), mib(peak.Load()), mib(db), restarts, busy)
	if failures.Load() > 0 {
		return nil, fmt.Errorf("%d of the mixed load's requests failed", failures.Load())
	}
	bound := max(db, 64<<20)
	if peak.Load() > bound {
		return nil, fmt.Errorf("the WAL peaked at %.1f MiB, above %.1f MiB (64 MiB or the database's size)", mib(peak.Load()), mib(bound))
	}
	label := fmt.Sprintf("wal: peak WAL size, %s mixed load (4 uploaders, 2 contributors, 6 readers)", dur.Round(time.Second))
	return []row{{Metric: label, Value: mib(peak.Load()), Unit: "MiB", Baseline: "database size at the end", Base: mib(db)}}, nil
}

func mib(n int64) float64 { return float64(n) / (1 << 20) }

func fileSizeOf(p string) int64 {
	fi, err := os.Stat(p)
	if err != nil {
		return 0
	}
	return fi.Size()
}

// walDo sends one request and checks its status is one of want.
func walDo(ctx context.Context, c *http.Client, method, url, tok, body string, want ...int) error {
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, url, rd)
	if err != nil {
		return err
	}
	if tok != "" {
		req.Header.Set("Authorization", "Bearer "+tok)
	}
	req.Header.Set("X-Hive-Agent", "bench-agent")
	res, err := c.Do(req)
	if err != nil {
		return err
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	for _, w := range want {
		if res.StatusCode == w {
			return nil
		}
	}
	return fmt.Errorf("%s %s: status %d", method, url, res.StatusCode)
}
