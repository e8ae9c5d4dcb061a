package nearest

import (
	"math/rand/v2"
	"testing"
)

// TestDotMatchesGeneric checks the dispatching kernel against the plain loop
// on every length 0..300 (vector body plus every tail) and extreme codes.
func TestDotMatchesGeneric(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for n := range 301 {
		a, b := make([]int8, n), make([]int8, n)
		for i := range a {
			a[i], b[i] = int8(r.IntN(255)-127), int8(r.IntN(255)-127)
		}
		if got, want := dot(a, b), dotGeneric(a, b); got != want {
			t.Fatalf("dot(len %d) = %d, want %d", n, got, want)
		}
	}
	a, b := make([]int8, 4096), make([]int8, 4096)
	for i := range a {
		a[i], b[i] = -127, -127
	}
	if got, want := dot(a, b), int32(4096*127*127); got != want {
		t.Fatalf("dot(-127s) = %d, want %d", got, want)
	}
	b[7] = 127
	if got, want := dot(a, b), int32(4094*127*127); got != want {
		t.Fatalf("dot(one sign flipped) = %d, want %d", got, want)
	}
}

func BenchmarkDotGeneric512(b *testing.B) {
	x, y := make([]int8, 512), make([]int8, 512)
	for i := range x {
		x[i], y[i] = int8(i*7), int8(i*13)
	}
	var s int32
	for b.Loop() {
		s += dotGeneric(x, y)
	}
	_ = s
}
