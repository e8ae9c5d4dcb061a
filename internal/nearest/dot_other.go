//go:build !amd64 || purego

package nearest

// dot is the integer inner product of two codes of equal length.
func dot(a, b []int8) int32 { return dotGeneric(a, b) }
