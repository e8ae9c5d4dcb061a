package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"pumasi/internal/ann"
)

func init() {
	register(scenario{name: "knowledge-1m", run: benchANN1M})
}

// benchANN1M measures the vector index at a million entries of 512
// dimensions, beside the exact float32 scan over the same vectors. The
// vectors are synthetic (ann.Clustered: 1,000 clusters, each point its
// centre plus a move in a rank-16 subspace plus noise, as sentence
// embeddings cluster), because no corpus of a million findings exists
// offline. The built index is kept in the cache folder
// (~/.cache/pumasi/bench) so that a rerun measures a restart instead of a
// second build; -quick uses 50,000 entries.
func benchANN1M(ctx context.Context, cfg config) ([]row, error) {
	n, nq, nExact := 1_000_000, 200, 40
	if cfg.quick {
		n, nq, nExact = 50_000, 50, 20
	}
	const dim, clusters = 512, 1000
	data, queries := ann.Clustered(n, nq, dim, clusters, 1)

	cache, err := os.UserCacheDir()
	if err != nil {
		cache = cfg.tmp
	}
	path := filepath.Join(cache, "pumasi", "bench", fmt.Sprintf("ann-%d-%d-v1.idx", n, dim))
	var x *ann.Index
	var addRate float64
	if f, err := os.Open(path); err == nil {
		x, err = ann.Load(bufio.NewReader(f))
		f.Close()
		if err != nil {
			x = nil
		}
	}
	if x == nil {
		x = ann.New(dim, ann.Options{Seed: 1})
		start := time.Now()
		for i, v := range data {
			if err := x.Add(uint64(i), v); err != nil {
				return nil, err
			}
			if i%100_000 == 99_999 {
				fmt.Fprintf(os.Stderr, "bench: knowledge-1m: %d of %d vectors indexed (%.0f/s)\n", i+1, n, float64(i+1)/time.Since(start).Seconds())
			}
		}
		addRate = float64(n) / time.Since(start).Seconds()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return nil, err
		}
		f, err := os.Create(path + ".tmp")
		if err != nil {
			return nil, err
		}
		if err := x.Save(f); err != nil {
			f.Close()
			return nil, err
		}
		if err := f.Close(); err != nil {
			return nil, err
		}
		if err := os.Rename(path+".tmp", path); err != nil {
			return nil, err
		}
	}
	// A restart: load the saved index from disk.
	runtime.GC()
	start := time.Now()
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	y, err := ann.Load(bufio.NewReader(f))
	f.Close()
	if err != nil {
		return nil, err
	}
	loadTook := time.Since(start)
	x = y

	// The graph is built at the package defaults (M 16, efConstruction 100);
	// the search list ef is what a caller turns for recall.
	type efRun struct {
		ef     int
		lat    []time.Duration
		recall float64
	}
	var runs []efRun
	for _, ef := range []int{64, 256, 512} {
		got := make([][]ann.Result, nq)
		lat := make([]time.Duration, nq)
		for i, q := range queries {
			t := time.Now()
			got[i] = x.Search(q, 10, ef)
			lat[i] = time.Since(t)
		}
		sortDurations(lat)
		runs = append(runs, efRun{ef, lat, ann.Recall(data, queries, got, 10)})
	}

	// The exact scan: a dot product against every vector and a sort, the
	// cost of any exact top 10 (recall above uses the exact cosine).
	exact := make([]time.Duration, nExact)
	for i := range exact {
		t := time.Now()
		bruteTopK(data, queries[i], 10)
		exact[i] = time.Since(t)
	}
	sortDurations(exact)

	k := fmt.Sprintf("%dk", n/1000)
	if n >= 1_000_000 {
		k = fmt.Sprintf("%dM", n/1_000_000)
	}
	var rows []row
	for _, r := range runs {
		at := fmt.Sprintf("@%s ef %d (synthetic, 512 d)", k, r.ef)
		rows = append(rows,
			row{Metric: "ann query p50 " + at, Value: percentile(r.lat, 50), Unit: "ms", Baseline: "exact float32 scan p50", Base: percentile(exact, 50)},
			row{Metric: "ann query p99 " + at, Value: percentile(r.lat, 99), Unit: "ms", Baseline: "exact float32 scan p99", Base: percentile(exact, 99)},
			row{Metric: "ann recall@10 " + at, Value: r.recall, Baseline: "exact scan", Base: 1, HigherIsBetter: true})
	}
	rows = append(rows,
		row{Metric: "ann resident bytes/entry @" + k, Value: float64(x.Bytes()) / float64(n), Unit: "B", Baseline: "float32 vector alone", Base: 4 * dim},
		row{Metric: "ann restart (load) @" + k, Value: ms(loadTook), Unit: "ms", Baseline: "rebuild: not timed (index from cache)", Base: 0})
	if addRate > 0 {
		rows[len(rows)-1].Baseline, rows[len(rows)-1].Base = "rebuild by adding", float64(n)/addRate*1000
		rows = append(rows, row{Metric: "ann add @" + k, Value: addRate, Unit: "/s", Baseline: "exact scans/s", Base: 1 / exact[len(exact)/2].Seconds(), HigherIsBetter: true})
	}
	return rows, nil
}
