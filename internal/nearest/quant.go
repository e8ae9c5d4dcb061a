package nearest

import (
	"errors"
	"fmt"
	"math"
)

// ErrZeroVector is returned by Add for a vector whose every component is zero:
// it has no direction, so cosine similarity to it is undefined.
var ErrZeroVector = errors.New("nearest: zero vector")

// ErrBadVector is returned by Add for a vector holding NaN or ±Inf.
var ErrBadVector = errors.New("nearest: vector holds NaN or Inf")

// quantize writes v as int8 codes into q (len(q) == len(v)), scaled per vector
// so the largest magnitude maps to ±127, and returns the inverse norm of the
// codes. Cosine ignores scale, so the per-vector factor max|v|/127 cancels and
// only the codes' own norm is kept: cos(a, b) ≈ Σ qa·qb × invA × invB.
func quantize(v []float32, q []int8) (float32, error) {
	var mx float64
	for _, f := range v {
		a := math.Abs(float64(f))
		if math.IsNaN(a) || math.IsInf(a, 0) {
			return 0, ErrBadVector
		}
		if a > mx {
			mx = a
		}
	}
	if mx == 0 {
		return 0, ErrZeroVector
	}
	s := 127 / mx
	var n2 int64
	for i, f := range v {
		c := int64(math.Round(float64(f) * s))
		c = max(-127, min(127, c))
		q[i] = int8(c)
		n2 += c * c
	}
	// n2 ≥ 127² because the largest component rounds to ±127.
	return float32(1 / math.Sqrt(float64(n2))), nil
}

// checkDim reports a vector of the wrong length.
func checkDim(v []float32, dim int) error {
	if len(v) != dim {
		return fmt.Errorf("nearest: vector has %d dimensions, index has %d", len(v), dim)
	}
	return nil
}

// dotGeneric is the integer inner product of two codes of equal length in
// plain Go. Four accumulators break the add dependency chain; |sum| ≤
// 127²·dim fits int32 up to dim 133k.
func dotGeneric(a, b []int8) int32 {
	b = b[:len(a)]
	var s0, s1, s2, s3 int32
	i := 0
	for ; i+8 <= len(a); i += 8 {
		x := a[i : i+8 : i+8]
		y := b[i : i+8 : i+8]
		s0 += int32(x[0])*int32(y[0]) + int32(x[4])*int32(y[4])
		s1 += int32(x[1])*int32(y[1]) + int32(x[5])*int32(y[5])
		s2 += int32(x[2])*int32(y[2]) + int32(x[6])*int32(y[6])
		s3 += int32(x[3])*int32(y[3]) + int32(x[7])*int32(y[7])
	}
	for ; i < len(a); i++ {
		s0 += int32(a[i]) * int32(b[i])
	}
	return s0 + s1 + s2 + s3
}
