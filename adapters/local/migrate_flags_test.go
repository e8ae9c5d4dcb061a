package local

import (
	"testing"
)

// TestMigrateFlagOriginBackfill: 0021 on a home of 0020's schema gives
// every existing flag its own entry as origin and marks cleared the first
// moderation.cleared flags of each entry (oldest first, by agent on a
// tie): the ones its last restore counted.
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
		`INSERT INTO knowledge_flags VALUES
			('e1', 'b', 'wrong', '', 0, '2026-01-01T00:00:02Z'),
			('e1', 'a', 'wrong', '', 0, '2026-01-01T00:00:02Z'),
			('e1', 'c', 'wrong', '', 0, '2026-01-01T00:00:01Z'),
			('e1', 'd', 'wrong', '', 0, '2026-01-01T00:00:03Z'),
			('e2', 'a', 'pii', 'x', 1, '2026-01-01T00:00:01Z')`,
		`INSERT INTO knowledge_moderation (entry_id, hive, flags, cleared) VALUES ('e1', 'h', 4, 2), ('e2', 'h', 1, 0)`,
	} {
		if _, err := s.db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	s.Close()
	s = openT(t, home, Options{})
	rows, err := s.db.Query(`SELECT entry_id, agent, origin, cleared FROM knowledge_flags ORDER BY entry_id, agent`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var got []string
	for rows.Next() {
		var id, agent, origin string
		var cleared int
		if err := rows.Scan(&id, &agent, &origin, &cleared); err != nil {
			t.Fatal(err)
		}
		mark := " pending"
		if cleared == 1 {
			mark = " cleared"
		}
		got = append(got, id+"/"+agent+"@"+origin+mark)
	}
	// e1's first two: c (second 1), then a (second 2, a before b).
	want := []string{"e1/a@e1 cleared", "e1/b@e1 pending", "e1/c@e1 cleared", "e1/d@e1 pending", "e2/a@e2 pending"}
	if len(got) != len(want) {
		t.Fatalf("flags after 0021 = %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("flags after 0021 = %v, want %v", got, want)
		}
	}
	var pruned int
	if err := s.db.QueryRow(`SELECT COUNT(*) FROM pragma_table_info('knowledge_sweeps') WHERE name = 'cites_pruned'`).Scan(&pruned); err != nil || pruned != 1 {
		t.Fatalf("knowledge_sweeps.cites_pruned after 0021: %d, %v", pruned, err)
	}
}
