package postgres

import (
	"testing"

	"pumasi"
	"pumasi/adapters/storagetest"
	"pumasi/internal/testpeer"
)

// TestReembedderConformance runs the re-embedding suite; each open is a
// pool of its own over one database, as another process's would be.
func TestReembedderConformance(t *testing.T) {
	storagetest.RunReembedder(t, func(t *testing.T) func(t *testing.T) pumasi.KnowledgeDriver {
		url := testpeer.Postgres(t)
		migrated := false
		return func(t *testing.T) pumasi.KnowledgeDriver {
			pool := openTest(t, url)
			if !migrated {
				if err := Migrate(t.Context(), pool); err != nil {
					t.Fatal(err)
				}
				migrated = true
			}
			return NewKnowledgeDriver(pool)
		}
	})
}
