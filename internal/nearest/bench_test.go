package nearest

import (
	"fmt"
	"math/rand/v2"
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

// BenchmarkSearch measures one k=10 search of 512-dimensional vectors.
func BenchmarkSearch(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			r := rand.New(rand.NewPCG(1, 1))
			x := New(512)
			x.Reserve(n)
			for i := range n {
				if err := x.Add(uint64(i), randVec(r, 512)); err != nil {
					b.Fatal(err)
				}
			}
			q := randVec(r, 512)
			for b.Loop() {
				x.Search(q, 10)
			}
			b.ReportMetric(float64(x.Bytes())/float64(n), "B/entry")
		})
	}
}
