package postgres

import (
	"testing"

	"pumasi/knowledge"
	"pumasi/knowledge/knowledgetest"
)

// newKnowledgeDriver returns the driver over a fresh, migrated database.
func newKnowledgeDriver(t *testing.T) *Knowledge {
	t.Helper()
	return NewKnowledgeDriver(migrated(t))
}

// TestKnowledgeConformance runs the suite every knowledge driver passes.
func TestKnowledgeConformance(t *testing.T) {
	knowledgetest.Run(t, func(t *testing.T) knowledge.Driver { return newKnowledgeDriver(t) })
}
