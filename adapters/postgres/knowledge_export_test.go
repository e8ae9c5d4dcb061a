package postgres

import (
	"testing"

	"pumasi/knowledge"
	"pumasi/knowledge/knowledgetest"
)

// TestKnowledgePort runs the export and import conformance, and the pruning of old citation rows, on PostgreSQL.
func TestKnowledgePort(t *testing.T) {
	newDriver := func(t *testing.T) knowledge.Driver { return newKnowledgeDriver(t) }
	knowledgetest.RunPort(t, newDriver)
	knowledgetest.RunCitePrune(t, newDriver)
}
