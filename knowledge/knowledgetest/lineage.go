package knowledgetest

import (
	"context"
	"testing"

	"pumasi/knowledge"
)

// runLineage pins what a redaction does to the lineage it was part of.
func runLineage(t *testing.T, newDriver func(t *testing.T) knowledge.Driver) {
	t.Run("RedactedSuccessorLeavesTheLineage", func(t *testing.T) {
		testRedactedSuccessor(t, knowledge.New(newDriver(t), knowledge.Options{Now: knowClock.now}))
	})
}

// testRedactedSuccessor: A ← B ← C (C supersedes B, which supersedes A).
// Redacting B leaves no entry naming it: A is superseded by C, C
// supersedes A, and a query for A answers C. Redacting C too makes A
// current again.
func testRedactedSuccessor(t *testing.T, k *knowledge.Engine) {
	ctx := context.Background()
	const hive = "probe-lineage-redact"
	ai := knowIn("agent-a", hive, "Pool size 10 for the API", "The first advice on the API's pool size.", knowVec(2, 3, 0))
	a := mustContribute(t, k, ai).Entry.ID
	bi := knowIn("agent-b", hive, "Pool size 20 for the API", "A correction of the API's pool size.", knowVec(6, 7, 0))
	bi.Supersedes = a
	b := mustContribute(t, k, bi).Entry.ID
	ci := knowIn("agent-c", hive, "Pool size from the core count", "A later correction of the API's pool size.", knowVec(10, 11, 0))
	ci.Supersedes = b
	c := mustContribute(t, k, ci).Entry.ID
	if e := mustEntry(t, k, a); e.SupersededBy != b {
		t.Fatalf("A superseded by %q, want B %s", e.SupersededBy, b)
	}
	if err := k.Redact(ctx, b, "the-admin", "wrong"); err != nil {
		t.Fatal(err)
	}
	if e := mustEntry(t, k, a); e.SupersededBy != c {
		t.Fatalf("after B's redaction A is superseded by %q, want C %s (B answers gone)", e.SupersededBy, c)
	}
	if e := mustEntry(t, k, c); e.Supersedes != a {
		t.Fatalf("after B's redaction C supersedes %q, want A %s", e.Supersedes, a)
	}
	if !queried(t, k, knowVec(2, 3, 0), c, false) || queried(t, k, knowVec(2, 3, 0), a, false) {
		t.Fatalf("a query near A after B's redaction does not answer C in its place")
	}
	if err := k.Redact(ctx, c, "the-admin", "wrong"); err != nil {
		t.Fatal(err)
	}
	if e := mustEntry(t, k, a); e.SupersededBy != "" || e.Supersedes != "" {
		t.Fatalf("with its successors redacted A is superseded by %q, supersedes %q; want neither", e.SupersededBy, e.Supersedes)
	}
	if !queried(t, k, knowVec(2, 3, 0), a, false) {
		t.Fatalf("with its successors redacted A is not queried")
	}
}
