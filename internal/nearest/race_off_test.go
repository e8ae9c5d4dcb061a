//go:build !race

package nearest

// raceEnabled shrinks the heavier tests under the race detector.
const raceEnabled = false
