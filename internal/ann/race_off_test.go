//go:build !race

package ann

// raceEnabled shrinks the heavier tests under the race detector.
const raceEnabled = false
