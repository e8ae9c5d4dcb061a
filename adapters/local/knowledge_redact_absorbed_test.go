package local

import (
	"context"
	"testing"

	"pumasi/knowledge"
	"pumasi/knowledge/knowledgetest"
)

// TestRedactionOfAbsorbedLeavesNoTrace: redacting an absorbed id (and a
// survivor at the end of a chain) leaves the redacted words in no file
// under the home, database, WAL and index files included, after a
// checkpoint; the survivor's own words stay (knowledgetest's scenario).
func TestRedactionOfAbsorbedLeavesNoTrace(t *testing.T) {
	ctx := context.Background()
	home := t.TempDir()
	s, err := Open(ctx, home, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	d := NewKnowledgeDriver(s)
	defer d.Close()
	knowledgetest.RedactAbsorbedLeavesNoTrace(t, knowledge.New(d, knowledge.Options{}), knowledgetest.RedactTrace{
		Dim: 32, Fillers: 200,
		Settle: func(t *testing.T) {
			if err := s.truncateWAL(ctx); err != nil {
				t.Fatal(err)
			}
		},
		Found: func(t *testing.T, w string) []string { return filesHolding(t, home, w) },
	})
}
