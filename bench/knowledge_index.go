package main

import (
	"context"
	"fmt"
	"math"
	"slices"
	"time"

	"pumasi/internal/nearest"
)

func init() {
	register(scenario{name: "knowledge-index", run: func(ctx context.Context, cfg config) ([]row, error) {
		sizes := []int{10_000, 100_000}
		if cfg.quick {
			sizes = []int{2_000}
		}
		return benchIndexSizes(ctx, sizes)
	}})
	// A long scenario (a few minutes and ~3 GB: the float32 baseline holds
	// every vector); a million entries and more belong on Postgres +
	// pgvector (knowledge-postgres).
	register(scenario{name: "knowledge-index-1m", run: func(ctx context.Context, cfg config) ([]row, error) {
		sizes := []int{1_000_000}
		if cfg.quick {
			sizes = []int{50_000}
		}
		return benchIndexSizes(ctx, sizes)
	}})
}

// benchIndexSizes measures the local backend's vector index (an exact scan
// over 8-bit codes, internal/nearest) at each size on four vector sets,
// beside an exact float32 cosine scan of the same vectors: query p50/p99
// (k = 10), recall@10 against that scan, the time to add every vector, and
// resident bytes per entry. Until 2026-12 an HNSW graph stood here; the
// measurement that replaced it is in internal/nearest/README.md.
func benchIndexSizes(ctx context.Context, sizes []int) ([]row, error) {
	var rows []row
	for _, n := range sizes {
		sets := []indexData{hashedData(), clusteredData(n, 512), sparseData(n, 512)}
		if d, ok := goDocData(n); ok {
			sets = append(sets, d)
		}
		for _, d := range sets {
			r, err := benchIndexAt(ctx, d, n)
			if err != nil {
				return nil, fmt.Errorf("%s, %d entries: %w", d.name, n, err)
			}
			progress(r...)
			rows = append(rows, r...)
		}
	}
	return rows, nil
}

func benchIndexAt(ctx context.Context, d indexData, n int) ([]row, error) {
	const k, nq = 10, 200
	start := time.Now()
	data := make([][]float32, n)
	inv := make([]float32, n)
	for i := range data {
		if i%10000 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		data[i] = d.vector(i)
		inv[i] = float32(1 / vecNorm(data[i]))
	}
	gen := time.Since(start)
	queries := make([][]float32, nq)
	for i := range queries {
		queries[i] = d.query(i)
	}

	x := nearest.New(d.dim)
	start = time.Now()
	x.Reserve(n)
	for i, v := range data {
		if err := x.Add(uint64(i), v); err != nil {
			return nil, err
		}
	}
	build := time.Since(start)

	// The baseline: the exact float32 cosine against every vector, k best
	// kept in a heap. Its k-th best is what recall is scored against.
	exact := make([]time.Duration, nq)
	kth := make([]float32, nq)
	for qi, q := range queries {
		t := time.Now()
		top := floatTop{k: k}
		qinv := float32(1 / vecNorm(q))
		for i, v := range data {
			top.offer(dot32(q, v) * qinv * inv[i])
		}
		exact[qi] = time.Since(t)
		kth[qi] = top.kth()
	}
	sortDurations(exact)

	lat := make([]time.Duration, nq)
	hits := 0
	for qi, q := range queries {
		t := time.Now()
		got := x.Search(q, k)
		lat[qi] = time.Since(t)
		qinv := float32(1 / vecNorm(q))
		for _, r := range got {
			if dot32(q, data[r.Key])*qinv*inv[r.Key] >= kth[qi]-1e-5 {
				hits++
			}
		}
	}
	sortDurations(lat)
	recall := float64(hits) / float64(k*nq)

	at := fmt.Sprintf("@%s %s", sizeLabel(n), d.name)
	return []row{
		{Metric: "index query p50 " + at, Value: percentile(lat, 50), Unit: "ms", Baseline: "exact float32 scan p50", Base: percentile(exact, 50)},
		{Metric: "index query p99 " + at, Value: percentile(lat, 99), Unit: "ms", Baseline: "exact float32 scan p99", Base: percentile(exact, 99)},
		{Metric: "index recall@10 " + at, Value: recall, Baseline: "exact float32 scan", Base: 1, HigherIsBetter: true},
		{Metric: "index add every vector " + at, Value: ms(build), Unit: "ms", Baseline: "making the vectors", Base: ms(gen)},
		{Metric: "index bytes/entry " + at, Value: float64(x.Bytes()) / float64(n), Unit: "B", Baseline: "float32 vector alone", Base: float64(4 * d.dim)},
	}, nil
}

func sizeLabel(n int) string {
	if n >= 1_000_000 && n%1_000_000 == 0 {
		return fmt.Sprintf("%dM", n/1_000_000)
	}
	return fmt.Sprintf("%dk", n/1000)
}

func dot32(a, b []float32) float32 {
	var s float32
	for i, x := range a {
		s += x * b[i]
	}
	return s
}

func vecNorm(v []float32) float64 { return math.Sqrt(float64(dot32(v, v))) }

// floatTop keeps the k best cosines offered, ascending.
type floatTop struct {
	k    int
	sims []float32
}

func (t *floatTop) offer(sim float32) {
	if len(t.sims) == t.k && sim <= t.sims[0] {
		return
	}
	i, _ := slices.BinarySearch(t.sims, sim)
	t.sims = slices.Insert(t.sims, i, sim)
	if len(t.sims) > t.k {
		t.sims = t.sims[1:]
	}
}

// kth is the k-th best cosine (the worst kept).
func (t *floatTop) kth() float32 { return t.sims[0] }
