package local

import (
	"context"
	"testing"

	"pumasi/knowledge"
	"pumasi/knowledge/knowledgetest"
)

// TestKnowledgePort runs the export and import conformance, and the pruning of old citation rows, on SQLite.
func TestKnowledgePort(t *testing.T) {
	newDriver := func(t *testing.T) knowledge.Driver {
		s, err := Open(context.Background(), t.TempDir(), Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return NewKnowledgeDriver(s)
	}
	knowledgetest.RunPort(t, newDriver)
	knowledgetest.RunCitePrune(t, newDriver)
}
