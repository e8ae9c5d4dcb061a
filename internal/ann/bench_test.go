package ann

import (
	"fmt"
	"testing"
)

func BenchmarkDot512(b *testing.B) {
	x, y := make([]int8, 512), make([]int8, 512)
	for i := range x {
		x[i], y[i] = int8(i*7), int8(i*13)
	}
	var s int32
	for b.Loop() {
		s += dot(x, y)
	}
	_ = s
}

// benchIndex builds one index per size for the search benchmark.
var benchIndexes = map[int]*Index{}

func benchIndex(b *testing.B, n int) (*Index, [][]float32) {
	b.Helper()
	data, queries := Clustered(n, 256, 512, 50, 11)
	if x, ok := benchIndexes[n]; ok {
		return x, queries
	}
	x := New(512, Options{Seed: 11})
	for i, v := range data {
		if err := x.Add(uint64(i), v); err != nil {
			b.Fatal(err)
		}
	}
	benchIndexes[n] = x
	return x, queries
}

// BenchmarkSearch measures one k=10 query at the default ef on clustered
// 512-dimensional vectors.
func BenchmarkSearch(b *testing.B) {
	for _, n := range []int{20000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			x, qs := benchIndex(b, n)
			i := 0
			for b.Loop() {
				x.Search(qs[i%len(qs)], 10, 0)
				i++
			}
		})
	}
}

// BenchmarkAdd measures one insert into a growing index of clustered
// 512-dimensional vectors.
func BenchmarkAdd(b *testing.B) {
	data, _ := Clustered(20000, 0, 512, 50, 12)
	x := New(512, Options{Seed: 12})
	i := 0
	for b.Loop() {
		if err := x.Add(uint64(i), data[i%len(data)]); err != nil {
			b.Fatal(err)
		}
		i++
	}
	b.ReportMetric(float64(x.Bytes())/float64(max(x.Len(), 1)), "B/entry")
}
