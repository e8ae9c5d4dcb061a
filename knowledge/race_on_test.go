//go:build race

package knowledge

// raceEnabled lets the pure-CPU measurements over the tuning pairs skip
// the race detector's pass: they start no goroutine, and make test runs
// them once without it.
const raceEnabled = true
