package postgres

import (
	"testing"

	"pumasi/knowledge"
	"pumasi/knowledge/knowledgetest"
)

// TestKnowledgePort runs the export and import conformance on PostgreSQL.
func TestKnowledgePort(t *testing.T) {
	knowledgetest.RunPort(t, func(t *testing.T) knowledge.Driver { return newKnowledgeDriver(t) })
}
