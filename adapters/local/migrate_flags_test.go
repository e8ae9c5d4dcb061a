package local

import (
	"testing"

	"pumasi/knowledge/knowledgetest"
)

// TestMigrateFlagOriginBackfill: 0021 on a home of 0020's schema gives
// every existing flag its own entry as origin and marks cleared the ones
// each entry's last restore counted (knowledgetest.WantFlagBackfill), and
// adds knowledge_sweeps.cites_pruned.
func TestMigrateFlagOriginBackfill(t *testing.T) {
	home := t.TempDir()
	s := openT(t, home, Options{})
	// Back to 0020's tables, holding flags of that schema.
	for _, q := range []string{
		`DROP TABLE knowledge_flags`,
		`CREATE TABLE knowledge_flags (entry_id TEXT NOT NULL, agent TEXT NOT NULL, reason TEXT NOT NULL,
			note TEXT NOT NULL, admin INTEGER NOT NULL, at TEXT NOT NULL, PRIMARY KEY (entry_id, agent))`,
		`ALTER TABLE knowledge_sweeps DROP COLUMN cites_pruned`,
		`DELETE FROM schema_migrations WHERE name = '0021_knowledge_flag_origin.sql'`,
	} {
		if _, err := s.db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	flags, mods := knowledgetest.FlagBackfillSeed()
	for _, f := range flags {
		if _, err := s.db.Exec(`INSERT INTO knowledge_flags VALUES (?, ?, ?, ?, ?, ?)`, f.Entry, f.Agent, f.Reason, f.Note, f.Admin, f.At); err != nil {
			t.Fatal(err)
		}
	}
	for _, m := range mods {
		if _, err := s.db.Exec(`INSERT INTO knowledge_moderation (entry_id, hive, flags, cleared) VALUES (?, ?, ?, ?)`,
			m.Entry, m.Hive, m.Flags, m.Cleared); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	s = openT(t, home, Options{})
	rows, err := s.db.Query(`SELECT entry_id, agent, origin, cleared FROM knowledge_flags ORDER BY entry_id, agent`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	knowledgetest.WantFlagBackfill(t, "0021", rows)
	var pruned int
	if err := s.db.QueryRow(`SELECT COUNT(*) FROM pragma_table_info('knowledge_sweeps') WHERE name = 'cites_pruned'`).Scan(&pruned); err != nil || pruned != 1 {
		t.Fatalf("knowledge_sweeps.cites_pruned after 0021: %d, %v", pruned, err)
	}
}
