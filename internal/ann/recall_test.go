package ann

import (
	"testing"
	"time"
)

// skipUnderRace skips a recall test under the race detector: they hold no
// concurrency, and instrumented dot products make them minutes long there.
func skipUnderRace(t *testing.T) {
	t.Helper()
	if raceEnabled {
		t.Skip("recall is measured without -race")
	}
}

func TestRecallClustered(t *testing.T) {
	skipUnderRace(t)
	n := 20000
	if testing.Short() {
		n = 3000
	}
	data, queries := Clustered(n, 200, 512, 50, 1)
	checkRecall(t, "clustered", data, queries, 0.95)
}

// TestRecallSparse runs the hashed n-gram case. Random buckets give data with
// no low-dimensional structure: past the text a query was made from, its
// "neighbours" share only 3–4 buckets, so a graph must search wide to rank
// them exactly. The test pins, at the default ef, 256 and 1024, how often the
// source text is found and recall@10 (measured 0.587, 0.849, 0.986 at 20k).
func TestRecallSparse(t *testing.T) {
	skipUnderRace(t)
	n := 20000
	if testing.Short() {
		n = 3000
	}
	data, queries, src := Sparse(n, 200, 512, 2)
	x := New(512, Options{Seed: 7})
	for i, v := range data {
		if err := x.Add(uint64(i), v); err != nil {
			t.Fatalf("Add(%d) = %v", i, err)
		}
	}
	kth, cos := Exact(data, queries, 10)
	for _, c := range []struct {
		ef           int
		recall, srcs float64
	}{{0, 0.55, 0.97}, {256, 0.80, 0.99}, {1024, 0.95, 0.99}} {
		got := make([][]Result, len(queries))
		found := 0
		st := time.Now()
		for i, q := range queries {
			got[i] = x.Search(q, 10, c.ef)
			for _, r := range got[i] {
				if r.Key == uint64(src[i]) {
					found++
				}
			}
		}
		per := time.Since(st) / time.Duration(len(queries))
		r, s := recallKth(data, queries, got, 10, kth, cos), float64(found)/float64(len(queries))
		t.Logf("sparse: n=%d dim=512 ef=%d recall@10=%.4f source found=%.3f search=%v/query", n, c.ef, r, s, per)
		if r < c.recall || s < c.srcs {
			t.Fatalf("sparse ef=%d: recall@10 = %.4f, source found = %.3f, want ≥ %.2f, ≥ %.2f", c.ef, r, s, c.recall, c.srcs)
		}
	}
}

func checkRecall(t *testing.T, name string, data, queries [][]float32, floor float64) {
	t.Helper()
	x := New(len(data[0]), Options{Seed: 7})
	for i, v := range data {
		if err := x.Add(uint64(i), v); err != nil {
			t.Fatalf("Add(%d) = %v", i, err)
		}
	}
	got := make([][]Result, len(queries))
	for i, q := range queries {
		got[i] = x.Search(q, 10, 0)
		if len(got[i]) != 10 {
			t.Fatalf("Search returned %d results, want 10", len(got[i]))
		}
		for j := 1; j < len(got[i]); j++ {
			if got[i][j].Similarity > got[i][j-1].Similarity {
				t.Fatalf("results not best first: %v", got[i])
			}
		}
	}
	r := Recall(data, queries, got, 10)
	t.Logf("%s: n=%d dim=%d recall@10=%.4f (ef=%d) bytes/entry=%.0f",
		name, len(data), len(data[0]), r, x.opt.EfSearch, float64(x.Bytes())/float64(len(data)))
	if r < floor {
		t.Fatalf("%s recall@10 = %.4f, want ≥ %.2f", name, r, floor)
	}
}
