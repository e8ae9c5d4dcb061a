package localdev_test

import (
	"testing"

	"pumasi/internal/testpeer"
)

// TestKnowledgeTwoLocaldevsOnePostgres: two real localdev processes, each
// with its own home, keep knowledge in one PostgreSQL database
// (PUMASI_KNOWLEDGE=postgres://…) and take 50 concurrent contributions of
// the same finding over HTTP, split between them → one entry,
// contribution_count 50, 50 attributions, found by a query on both.
func TestKnowledgeTwoLocaldevsOnePostgres(t *testing.T) {
	if testing.Short() {
		t.Skip("starts real processes")
	}
	env := "PUMASI_KNOWLEDGE=" + testpeer.Postgres(t)
	a := startLocaldev(t, t.TempDir(), env)
	b := startLocaldev(t, t.TempDir(), env)
	fiftySameFindings(t, a, b)
}
