//go:build coderhnsw

// This file compares github.com/coder/hnsw v0.6.1 with this package on the
// same data. It is behind a build tag so the default build does not depend on
// that module: go test -tags coderhnsw -run TestCompareCoder -v ./internal/ann/
package ann

import (
	mrand "math/rand"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/coder/hnsw"
)

// heapNow returns live heap bytes after a full collection.
func heapNow() int64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return int64(ms.HeapAlloc)
}

func TestCompareCoder(t *testing.T) {
	const n, dim, k = 20000, 512, 10
	for _, c := range []struct {
		name string
		gen  func() ([][]float32, [][]float32)
	}{
		{"clustered", func() ([][]float32, [][]float32) { return Clustered(n, 200, dim, 50, 1) }},
		{"sparse", func() ([][]float32, [][]float32) { d, q, _ := Sparse(n, 200, dim, 2); return d, q }},
	} {
		data, queries := c.gen()
		kth, cos := Exact(data, queries, k)

		// coder/hnsw keeps the caller's slice, so hand it a copy made inside
		// the measurement: the float32 vector is part of its cost.
		h0 := heapNow()
		st := time.Now()
		g := hnsw.NewGraph[uint64]()
		g.M, g.EfSearch, g.Distance = 16, 64, hnsw.CosineDistance
		g.Rng = mrand.New(mrand.NewSource(7))
		for i, v := range data {
			g.Add(hnsw.MakeNode(uint64(i), slices.Clone(v)))
		}
		coderAdd := time.Since(st)
		coderBytes := float64(heapNow()-h0) / n
		got := make([][]Result, len(queries))
		st = time.Now()
		for i, q := range queries {
			for _, nd := range g.Search(q, k) {
				got[i] = append(got[i], Result{Key: nd.Key})
			}
		}
		coderSearch := time.Since(st) / time.Duration(len(queries))
		coderRecall := recallKth(data, queries, got, k, kth, cos)
		runtime.KeepAlive(g)

		h0 = heapNow()
		st = time.Now()
		x := New(dim, Options{Seed: 7})
		for i, v := range data {
			if err := x.Add(uint64(i), v); err != nil {
				t.Fatal(err)
			}
		}
		ourAdd := time.Since(st)
		ourBytes := float64(heapNow()-h0) / n
		st = time.Now()
		for i, q := range queries {
			got[i] = x.Search(q, k, 0)
		}
		ourSearch := time.Since(st) / time.Duration(len(queries))
		ourRecall := recallKth(data, queries, got, k, kth, cos)
		runtime.KeepAlive(x)

		t.Logf("%s n=%d dim=%d: coder/hnsw recall@10=%.4f heap=%.0f B/entry add=%.0f/s search=%v | ann recall@10=%.4f heap=%.0f B/entry (Bytes() %.0f) add=%.0f/s search=%v",
			c.name, n, dim, coderRecall, coderBytes, n/coderAdd.Seconds(), coderSearch,
			ourRecall, ourBytes, float64(x.Bytes())/n, n/ourAdd.Seconds(), ourSearch)
		if ourRecall < coderRecall-0.01 || ourBytes > coderBytes/2 {
			t.Errorf("%s: ann (recall %.4f, %.0f B) is not ahead of coder/hnsw (recall %.4f, %.0f B)",
				c.name, ourRecall, ourBytes, coderRecall, coderBytes)
		}
	}
}
