package postgres

import (
	"context"
	"testing"

	"pumasi/knowledge/knowledgetest"
)

// TestFlagOriginMigrationBackfill: 0005 on a database of the migrations
// before it gives every existing flag its own entry as origin and marks
// cleared the ones each entry's last restore counted, as adapters/local's
// 0021 does (knowledgetest.WantFlagBackfill).
func TestFlagOriginMigrationBackfill(t *testing.T) {
	ctx := context.Background()
	pool := migratedBelow(t, 5)
	flags, mods := knowledgetest.FlagBackfillSeed()
	for _, f := range flags {
		if _, err := pool.Exec(ctx, `INSERT INTO knowledge_flags (entry_id, agent, reason, note, admin, at) VALUES ($1, $2, $3, $4, $5, $6)`,
			f.Entry, f.Agent, f.Reason, f.Note, f.Admin, f.At); err != nil {
			t.Fatal(err)
		}
	}
	for _, m := range mods {
		if _, err := pool.Exec(ctx, `INSERT INTO knowledge_moderation (entry_id, hive, flags, cleared) VALUES ($1, $2, $3, $4)`,
			m.Entry, m.Hive, m.Flags, m.Cleared); err != nil {
			t.Fatal(err)
		}
	}
	if err := Migrate(ctx, pool); err != nil {
		t.Fatal(err)
	}
	wantAllApplied(t, pool)
	rows, err := pool.Query(ctx, `SELECT entry_id, agent, origin, cleared FROM knowledge_flags ORDER BY entry_id, agent`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	knowledgetest.WantFlagBackfill(t, "0005", rows)
}
