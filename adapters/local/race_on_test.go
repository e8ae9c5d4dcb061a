//go:build race

package local_test

// raceEnabled lets load tests lower their counts under the race detector.
const raceEnabled = true
