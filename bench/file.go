package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"fmt"
	"io"
	"mime/multipart"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sync/atomic"
	"time"

	_ "modernc.org/sqlite"

	"pumasi"
	"pumasi/adapters/local"
	"pumasi/functions"
)

func init() {
	register(scenario{name: "files", run: benchFiles})
}

var benchSecret = []byte("bench-secret-0123456789abcdef-0123456789")

// benchFiles measures uploads/s of 4 KiB files over HTTP from 1 and 8
// clients, list latency at 1,000 files and the rate of conditional
// assignment polls against the local backend, beside a raw SQLite insert +
// fsync of a blob (one writer) and a no-op HTTP round trip.
func benchFiles(ctx context.Context, cfg config) ([]row, error) {
	n := 400
	if cfg.quick {
		n = 50
	}
	content := make([]byte, 4096)
	rand.Read(content)
	text := []byte(hex.EncodeToString(content)[:4096])

	raw, err := openRaw(ctx, filepath.Join(cfg.tmp, "raw"))
	if err != nil {
		return nil, fmt.Errorf("baseline: %w", err)
	}
	defer raw.Close()

	st, err := local.Open(ctx, filepath.Join(cfg.tmp, "home"), local.Options{MaxRoomFiles: 1 << 20, MaxRoomBytes: 1 << 40})
	if err != nil {
		return nil, err
	}
	defer st.Close()
	api := &functions.API{Store: st, Secret: benchSecret}
	base, stop, err := serve(api.Handler())
	if err != nil {
		return nil, err
	}
	defer stop()
	tok, _ := pumasi.SignToken(benchSecret, "bench", []string{pumasi.ScopeAdmin}, time.Hour, time.Now())
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 16}}

	// The baseline and the two upload runs alternate in rounds, so that the
	// disk's moods on this shared machine fall on all three alike.
	const rounds = 4
	per := n / rounds
	var rawTime, oneTime, eightTime time.Duration
	for r := 0; r < rounds; r++ {
		d, err := rawSQLiteInsertFsync(ctx, raw, text, r*per, per)
		if err != nil {
			return nil, fmt.Errorf("baseline: %w", err)
		}
		rawTime += d
		if d, err = uploadRun(ctx, client, base, tok, "bench1", text, r*per, per, 1); err != nil {
			return nil, err
		}
		oneTime += d
		if d, err = uploadRun(ctx, client, base, tok, "bench8", text, r*2*per, 2*per, 8); err != nil {
			return nil, err
		}
		eightTime += d
	}
	baseOps := float64(rounds*per) / rawTime.Seconds()
	one := float64(rounds*per) / oneTime.Seconds()
	eight := float64(rounds*2*per) / eightTime.Seconds()

	// Fill the list room to 1,000 files directly through the store.
	for i := 0; i < 1000; i++ {
		body := append([]byte(fmt.Sprintf("%08d", i)), text[8:64]...)
		if _, err := st.PutFile(ctx, pumasi.PutFileInput{Room: "list", Name: fmt.Sprintf("f%05d.txt", i), Body: body, ContentType: "text/plain"}); err != nil {
			return nil, err
		}
	}
	reps := 200
	if cfg.quick {
		reps = 20
	}
	list, err := timeRequests(ctx, client, reps, func() (*http.Request, error) {
		req, err := http.NewRequestWithContext(ctx, "GET", base+"/rooms/list/files", nil)
		req.Header.Set("Authorization", "Bearer "+tok)
		return req, err
	})
	if err != nil {
		return nil, err
	}
	listHit, err := timeRequests(ctx, client, reps, func() (*http.Request, error) {
		req, err := http.NewRequestWithContext(ctx, "GET", base+"/rooms/list/files", nil)
		req.Header.Set("Authorization", "Bearer "+tok)
		req.Header.Set("If-None-Match", `"r1000"`)
		return req, err
	})
	if err != nil {
		return nil, err
	}
	noop, err := timeRequests(ctx, client, reps, func() (*http.Request, error) {
		return http.NewRequestWithContext(ctx, "GET", base+"/healthz", nil)
	})
	if err != nil {
		return nil, err
	}
	pollRate, noopRate, err := pollAssignments(ctx, st, client, base, 4*reps)
	if err != nil {
		return nil, err
	}
	return []row{
		{Metric: "upload 4 KiB over HTTP (local), 1 client", Value: one, Unit: "ops/s", Baseline: "raw SQLite insert + fsync'd blob", Base: baseOps, HigherIsBetter: true},
		{Metric: "upload 4 KiB over HTTP (local), 8 clients", Value: eight, Unit: "ops/s", Baseline: "raw SQLite insert + fsync'd blob", Base: baseOps, HigherIsBetter: true},
		{Metric: "list 1,000 files p50", Value: percentile(list, 50), Unit: "ms", Baseline: "no-op HTTP round trip p50", Base: percentile(noop, 50)},
		{Metric: "list 1,000 files p99", Value: percentile(list, 99), Unit: "ms", Baseline: "no-op HTTP round trip p99", Base: percentile(noop, 99)},
		{Metric: "list 1,000 files, If-None-Match current (304) p50", Value: percentile(listHit, 50), Unit: "ms", Baseline: "no-op HTTP round trip p50", Base: percentile(noop, 50)},
		{Metric: "assignments poll, 25 agents × 1,000 files (304)", Value: pollRate, Unit: "req/s", Baseline: "no-op handler, same client", Base: noopRate, HigherIsBetter: true},
	}, nil
}

// uploadRun posts files from..from+n-1 (distinct 4 KiB bodies) into room
// from clients goroutines at once and returns how long that took.
func uploadRun(ctx context.Context, c *http.Client, base, tok, room string, text []byte, from, n, clients int) (time.Duration, error) {
	var next atomic.Int64
	errs := make(chan error, clients)
	start := time.Now()
	for w := 0; w < clients; w++ {
		go func() {
			for {
				i := int(next.Add(1)) - 1
				if i >= n {
					errs <- nil
					return
				}
				i += from
				body := append([]byte(fmt.Sprintf("%08d", i)), text[8:]...)
				if err := postFile(ctx, c, base, tok, room, fmt.Sprintf("f%05d.txt", i), body); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	var first error
	for w := 0; w < clients; w++ {
		if err := <-errs; err != nil && first == nil {
			first = err
		}
	}
	return time.Since(start), first
}

// pollAssignments places 25 agents of one machine in the 1,000-file room and
// returns the rate of conditional polls answered 304 beside the rate of the
// no-op handler, both from one client one after another.
func pollAssignments(ctx context.Context, st *local.Store, c *http.Client, base string, reps int) (poll, noop float64, err error) {
	for a := 0; a < 25; a++ {
		if _, _, err := st.PlaceAgent(ctx, "list", fmt.Sprintf("pa%02d", a), "pm"); err != nil {
			return 0, 0, err
		}
	}
	mtok, _ := pumasi.SignToken(benchSecret, "bench", []string{pumasi.ScopeMachine + "pm"}, time.Hour, time.Now())
	req, _ := http.NewRequestWithContext(ctx, "GET", base+"/machines/pm/assignments", nil)
	req.Header.Set("Authorization", "Bearer "+mtok)
	resp, err := c.Do(req)
	if err != nil {
		return 0, 0, err
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	etag := resp.Header.Get("ETag")
	// The two alternate in short rounds, so that the load of this shared
	// machine falls on both alike.
	var pollTime, noopTime time.Duration
	timed := func(d *time.Duration, count int, mk func() (*http.Request, error), want int) error {
		start := time.Now()
		for i := 0; i < count; i++ {
			req, err := mk()
			if err != nil {
				return err
			}
			resp, err := c.Do(req)
			if err != nil {
				return err
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != want {
				return fmt.Errorf("%s: status %d, want %d", req.URL.Path, resp.StatusCode, want)
			}
		}
		*d += time.Since(start)
		return nil
	}
	const rounds = 20
	for r := 0; r < rounds; r++ {
		if err := timed(&pollTime, reps/rounds, func() (*http.Request, error) {
			req, err := http.NewRequestWithContext(ctx, "GET", base+"/machines/pm/assignments", nil)
			req.Header.Set("Authorization", "Bearer "+mtok)
			req.Header.Set("If-None-Match", etag)
			return req, err
		}, http.StatusNotModified); err != nil {
			return 0, 0, err
		}
		if err := timed(&noopTime, reps/rounds, func() (*http.Request, error) {
			return http.NewRequestWithContext(ctx, "GET", base+"/healthz", nil)
		}, http.StatusOK); err != nil {
			return 0, 0, err
		}
	}
	n := float64(reps / rounds * rounds)
	return n / pollTime.Seconds(), n / noopTime.Seconds(), nil
}

// rawDB is the baseline's bare SQLite database and its blob directory.
type rawDB struct {
	*sql.DB
	dir string
}

// openRaw opens the baseline's bare SQLite database in dir.
func openRaw(ctx context.Context, dir string) (*rawDB, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, "raw.db")+"?_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)&_pragma=busy_timeout(5000)")
	if err != nil {
		return nil, err
	}
	if _, err := db.ExecContext(ctx, `CREATE TABLE f (name TEXT PRIMARY KEY, sha TEXT, size INTEGER)`); err != nil {
		db.Close()
		return nil, err
	}
	return &rawDB{DB: db, dir: dir}, nil
}

// rawSQLiteInsertFsync is the floor an upload cannot beat: write a blob,
// fsync it, insert its row in its own transaction, for files from..from+n-1
// one after another; it returns how long that took.
func rawSQLiteInsertFsync(ctx context.Context, db *rawDB, body []byte, from, n int) (time.Duration, error) {
	dir := db.dir
	start := time.Now()
	for i := from; i < from+n; i++ {
		b := append([]byte(fmt.Sprintf("%08d", i)), body[8:]...)
		sum := sha256.Sum256(b)
		p := filepath.Join(dir, hex.EncodeToString(sum[:]))
		f, err := os.Create(p)
		if err != nil {
			return 0, err
		}
		f.Write(b)
		if err := f.Sync(); err != nil {
			return 0, err
		}
		f.Close()
		if _, err := db.ExecContext(ctx, `INSERT INTO f VALUES (?, ?, ?)`, fmt.Sprintf("f%05d", i), hex.EncodeToString(sum[:]), len(b)); err != nil {
			return 0, err
		}
	}
	return time.Since(start), nil
}

// serve runs h on a free loopback port.
func serve(h http.Handler) (string, func(), error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	return "http://" + ln.Addr().String(), func() { srv.Close() }, nil
}

func postFile(ctx context.Context, c *http.Client, base, tok, room, name string, body []byte) error {
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	pw, _ := mw.CreateFormFile("file", name)
	pw.Write(body)
	mw.Close()
	req, err := http.NewRequestWithContext(ctx, "POST", base+"/rooms/"+room+"/files", &buf)
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Authorization", "Bearer "+tok)
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 201 && resp.StatusCode != 200 {
		return fmt.Errorf("upload %s: status %d", name, resp.StatusCode)
	}
	return nil
}

// timeRequests runs reps requests one after another and returns their sorted
// latencies; any answer but 2xx or 304 is an error.
func timeRequests(ctx context.Context, c *http.Client, reps int, mk func() (*http.Request, error)) ([]time.Duration, error) {
	d := make([]time.Duration, 0, reps)
	for i := 0; i < reps; i++ {
		req, err := mk()
		if err != nil {
			return nil, err
		}
		t0 := time.Now()
		resp, err := c.Do(req)
		if err != nil {
			return nil, err
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		d = append(d, time.Since(t0))
		if resp.StatusCode/100 != 2 && resp.StatusCode != http.StatusNotModified {
			return nil, fmt.Errorf("%s: status %d", req.URL.Path, resp.StatusCode)
		}
	}
	return sortDurations(d), nil
}
