package local

import (
	"context"
	"testing"

	"pumasi"
	"pumasi/adapters/storagetest"
)

func TestKnowledgeConformance(t *testing.T) {
	storagetest.RunKnowledge(t, func(t *testing.T) pumasi.KnowledgeDriver {
		s, err := Open(context.Background(), t.TempDir(), Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return NewKnowledgeDriver(s)
	})
}
