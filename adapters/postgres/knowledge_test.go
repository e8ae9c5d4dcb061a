package postgres

import (
	"context"
	"testing"

	"pumasi"
	"pumasi/adapters/storagetest"
	"pumasi/internal/testpeer"
)

// newKnowledgeDriver returns the driver over a fresh, migrated database.
func newKnowledgeDriver(t *testing.T) *Knowledge {
	t.Helper()
	pool := openTest(t, testpeer.Postgres(t))
	if err := Migrate(context.Background(), pool); err != nil {
		t.Fatal(err)
	}
	return NewKnowledgeDriver(pool)
}

// TestKnowledgeConformance runs the suite every knowledge driver passes.
func TestKnowledgeConformance(t *testing.T) {
	storagetest.RunKnowledge(t, func(t *testing.T) pumasi.KnowledgeDriver { return newKnowledgeDriver(t) })
}
