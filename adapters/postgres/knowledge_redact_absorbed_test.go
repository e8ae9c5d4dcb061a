package postgres

import (
	"testing"

	"pumasi/knowledge"
	"pumasi/knowledge/knowledgetest"
)

// TestRedactionOfAbsorbedLeavesNoRow: redacting an absorbed id (and a
// survivor at the end of a chain) leaves the redacted words in no row of
// any table (its record, the contributions and flag it brought to its
// survivor); the survivor's own stay (knowledgetest's scenario).
func TestRedactionOfAbsorbedLeavesNoRow(t *testing.T) {
	d := newKnowledgeDriver(t)
	knowledgetest.RedactAbsorbedLeavesNoTrace(t, knowledge.New(Retrying(d), knowledge.Options{}), knowledgetest.RedactTrace{
		Dim: 16, MinBefore: 2,
		Found: func(t *testing.T, w string) []string { return rowsHolding(t, d, w) },
	})
}
