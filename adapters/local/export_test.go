package local

// RaceEnabled tells the external tests (package local_test) whether the
// race detector is on, so load tests can lower their counts.
const RaceEnabled = raceEnabled
