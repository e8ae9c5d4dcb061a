//go:build !race

package functions

// raceEnabled lets the quality measurements skip the race detector's pass.
const raceEnabled = false
