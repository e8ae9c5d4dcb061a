package local

// ReleaseMemory closes the pool's idle SQLite connections now, with their
// page caches and statements (memory outside the Go heap); the pool opens
// connections again as requests need them. localdev calls it when it goes
// idle after a busy spell.
func (s *Store) ReleaseMemory() {
	s.db.SetMaxIdleConns(0)
	s.db.SetMaxIdleConns(maxConns)
}
