//go:build !race

package local

// raceEnabled lets load tests lower their counts under the race detector.
const raceEnabled = false
