package s3

// SetAfterBlob installs a hook that PutFile runs between its blob PUT and
// its manifest update, so tests can kill the process at that point.
func SetAfterBlob(s *Store, fn func()) { s.afterBlob = fn }

// MaxLosses returns the most compare-and-swap conflicts one update of s met
// before it won.
func MaxLosses(s *Store) int64 { return s.maxLosses.Load() }
