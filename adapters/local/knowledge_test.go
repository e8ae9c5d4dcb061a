package local

import (
	"context"
	"testing"

	"pumasi/knowledge"
	"pumasi/knowledge/knowledgetest"
)

func TestKnowledgeConformance(t *testing.T) {
	knowledgetest.Run(t, func(t *testing.T) knowledge.Driver {
		s, err := Open(context.Background(), t.TempDir(), Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return NewKnowledgeDriver(s)
	})
}
