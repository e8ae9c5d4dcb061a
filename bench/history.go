package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"pumasi"
	"pumasi/adapters/local"
	s3store "pumasi/adapters/s3"
	"pumasi/functions"
)

func init() {
	register(scenario{name: "history", run: benchHistory})
}

// benchHistory measures what keeping history costs: uploads that replace
// existing files' content (each one keeps the old version) with history on,
// beside the same uploads with history off in the same run, over HTTP on
// the local backend and through the s3 backend on a real MinIO; and the
// latency of restoring a 256 KiB version beside uploading 256 KiB of new
// content to the same name.
func benchHistory(ctx context.Context, cfg config) ([]row, error) {
	n := 600
	if cfg.quick {
		n = 120
	}
	content := make([]byte, 2048)
	rand.Read(content)
	text := []byte(hex.EncodeToString(content))

	on, err := local.Open(ctx, filepath.Join(cfg.tmp, "on"), local.Options{MaxRoomFiles: 1 << 20, MaxRoomBytes: 1 << 40})
	if err != nil {
		return nil, err
	}
	defer on.Close()
	off, err := local.Open(ctx, filepath.Join(cfg.tmp, "off"), local.Options{MaxRoomFiles: 1 << 20, MaxRoomBytes: 1 << 40, History: pumasi.Retention{Off: true}})
	if err != nil {
		return nil, err
	}
	defer off.Close()
	tok, _ := pumasi.SignToken(benchSecret, "bench", []string{pumasi.ScopeAdmin}, time.Hour, time.Now())
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 16}}
	bases := [2]string{}
	for i, st := range []pumasi.Store{off, on} {
		base, stop, err := serve((&functions.API{Store: st, Secret: benchSecret}).Handler())
		if err != nil {
			return nil, err
		}
		defer stop()
		bases[i] = base
	}
	// 50 names, each replaced over and over; off and on alternate in rounds
	// so that the machine's moods fall on both alike.
	const names = 50
	var seq atomic.Int64
	replace := func(base string, count, clients int) (time.Duration, error) {
		var next atomic.Int64
		errs := make(chan error, clients)
		start := time.Now()
		for w := 0; w < clients; w++ {
			go func() {
				for {
					i := int(next.Add(1)) - 1
					if i >= count {
						errs <- nil
						return
					}
					v := seq.Add(1)
					body := append([]byte(fmt.Sprintf("%08d", v)), text[8:]...)
					if err := postFile(ctx, client, base, tok, "hist", fmt.Sprintf("f%03d.txt", i%names), body); err != nil {
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
	for _, base := range bases { // Every name exists before the timed rounds.
		if _, err := replace(base, names, 4); err != nil {
			return nil, err
		}
	}
	// Short rounds, off and on in turn (and which goes first alternates),
	// so that the noise of this shared machine falls on both alike.
	const rounds = 20
	per := n / rounds
	var t1, t8 [2]time.Duration
	for r := 0; r < rounds; r++ {
		for k := range bases {
			i := (k + r) % 2
			base := bases[i]
			d, err := replace(base, per, 1)
			if err != nil {
				return nil, err
			}
			t1[i] += d
			if d, err = replace(base, 2*per, 8); err != nil {
				return nil, err
			}
			t8[i] += d
		}
	}
	rate := func(d time.Duration, count int) float64 { return float64(count) / d.Seconds() }

	// Restore of a 256 KiB version beside an upload of 256 KiB to the same
	// name, alternating.
	big := func(tag int) []byte {
		line := fmt.Sprintf("line %08d of a large shared file\n", tag)
		return []byte(strings.Repeat(line, pumasi.MaxFileSize/len(line)+1)[:pumasi.MaxFileSize])
	}
	for v := 1; v <= 2; v++ {
		if _, err := on.PutFile(ctx, pumasi.PutFileInput{Room: "big", Name: "big.md", Body: big(v), ContentType: "text/markdown"}); err != nil {
			return nil, err
		}
	}
	reps := 60
	if cfg.quick {
		reps = 12
	}
	var restores, uploads []time.Duration
	for i := 0; i < reps; i++ {
		start := time.Now()
		res, err := doJSON(ctx, client, "POST", bases[1]+"/rooms/big/files/big.md/restore", tok, fmt.Sprintf(`{"version":%d}`, 1+i%2))
		if err != nil {
			return nil, err
		}
		if res != http.StatusCreated {
			return nil, fmt.Errorf("restore answered %d, want 201", res)
		}
		restores = append(restores, time.Since(start))
		start = time.Now()
		if err := postFile(ctx, client, bases[1], tok, "big", "big-upload.md", big(1000+i)); err != nil {
			return nil, err
		}
		uploads = append(uploads, time.Since(start))
	}
	slices.Sort(restores)
	slices.Sort(uploads)

	rows := []row{
		{Metric: "replace 4 KiB over HTTP (local), history on, 1 client", Value: rate(t1[1], rounds*per), Unit: "ops/s", Baseline: "same, history off", Base: rate(t1[0], rounds*per), HigherIsBetter: true},
		{Metric: "replace 4 KiB over HTTP (local), history on, 8 clients", Value: rate(t8[1], rounds*2*per), Unit: "ops/s", Baseline: "same, history off", Base: rate(t8[0], rounds*2*per), HigherIsBetter: true},
		{Metric: "restore a 256 KiB version over HTTP (local) p50", Value: percentile(restores, 50), Unit: "ms", Baseline: "upload 256 KiB over HTTP p50", Base: percentile(uploads, 50)},
		{Metric: "restore a 256 KiB version over HTTP (local) p99", Value: percentile(restores, 99), Unit: "ms", Baseline: "upload 256 KiB over HTTP p99", Base: percentile(uploads, 99)},
	}
	s3rows, err := benchHistoryS3(ctx, cfg, text)
	if err != nil {
		return nil, err
	}
	return append(rows, s3rows...), nil
}

// benchHistoryS3 is the replace rate through the s3 backend with history on
// beside history off, alternating, on one MinIO.
func benchHistoryS3(ctx context.Context, cfg config, text []byte) ([]row, error) {
	n := 600
	if cfg.quick {
		n = 120
	}
	srv, bucket, err := startBucket(ctx)
	if err != nil {
		return nil, err
	}
	defer srv.Stop()
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	var stores [2]*s3store.Store
	for i, h := range []pumasi.Retention{{Off: true}, {}} {
		st, err := s3store.Open(ctx, srv.URL(bucket, fmt.Sprintf("hist%d", i)), s3store.Options{Credentials: srv.Credentials(), Logger: quiet, History: h})
		if err != nil {
			return nil, err
		}
		defer st.Close()
		stores[i] = st
	}
	const names = 50
	var seq int
	put := func(st *s3store.Store, count int) (time.Duration, error) {
		start := time.Now()
		for i := 0; i < count; i++ {
			seq++
			body := append([]byte(fmt.Sprintf("%08d", seq)), text[8:]...)
			if _, err := st.PutFile(ctx, pumasi.PutFileInput{Room: "hist", Name: fmt.Sprintf("f%03d.txt", seq%names), Body: body, ContentType: "text/plain"}); err != nil {
				return 0, err
			}
		}
		return time.Since(start), nil
	}
	for _, st := range stores {
		if _, err := put(st, names); err != nil {
			return nil, err
		}
	}
	const rounds = 20
	var took [2]time.Duration
	for r := 0; r < rounds; r++ {
		for k := range stores {
			i := (k + r) % 2
			st := stores[i]
			d, err := put(st, n/rounds)
			if err != nil {
				return nil, err
			}
			took[i] += d
		}
	}
	count := float64(n / rounds * rounds)
	return []row{{Metric: "replace 4 KiB through s3 (MinIO), history on, 1 writer", Value: count / took[1].Seconds(), Unit: "ops/s",
		Baseline: "same, history off", Base: count / took[0].Seconds(), HigherIsBetter: true}}, nil
}

// doJSON sends a JSON body and returns the answer's status.
func doJSON(ctx context.Context, c *http.Client, method, url, tok, body string) (int, error) {
	req, err := http.NewRequestWithContext(ctx, method, url, strings.NewReader(body))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Authorization", "Bearer "+tok)
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.Do(req)
	if err != nil {
		return 0, err
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode, nil
}
