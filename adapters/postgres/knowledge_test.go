package postgres

import (
	"context"
	"testing"

	"pumasi/internal/testpeer"
	"pumasi/knowledge"
	"pumasi/knowledge/knowledgetest"
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
	knowledgetest.Run(t, func(t *testing.T) knowledge.Driver { return newKnowledgeDriver(t) })
}
