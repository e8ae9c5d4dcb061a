package postgres

import (
	"context"
	"testing"
)

// TestFlagOriginMigrationBackfill: 0005 on a database of the migrations
// before it gives every existing flag its own entry as origin and marks
// cleared the first moderation.cleared flags of each entry (oldest first,
// by agent on a tie): the ones its last restore counted, as adapters/local's
// 0021 does.
func TestFlagOriginMigrationBackfill(t *testing.T) {
	ctx := context.Background()
	pool := migratedBelow(t, 5)
	for _, q := range []string{
		`INSERT INTO knowledge_flags (entry_id, agent, reason, note, admin, at) VALUES
			('e1', 'b', 'wrong', '', false, '2026-01-01T00:00:02Z'),
			('e1', 'a', 'wrong', '', false, '2026-01-01T00:00:02Z'),
			('e1', 'c', 'wrong', '', false, '2026-01-01T00:00:01Z'),
			('e1', 'd', 'wrong', '', false, '2026-01-01T00:00:03Z'),
			('e2', 'a', 'pii', 'x', true, '2026-01-01T00:00:01Z')`,
		`INSERT INTO knowledge_moderation (entry_id, hive, flags, cleared) VALUES ('e1', 'h', 4, 2), ('e2', 'h', 1, 0)`,
	} {
		if _, err := pool.Exec(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
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
	var got []string
	for rows.Next() {
		var id, agent, origin string
		var cleared bool
		if err := rows.Scan(&id, &agent, &origin, &cleared); err != nil {
			t.Fatal(err)
		}
		mark := " pending"
		if cleared {
			mark = " cleared"
		}
		got = append(got, id+"/"+agent+"@"+origin+mark)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	// e1's first two: c (second 1), then a (second 2, a before b).
	want := []string{"e1/a@e1 cleared", "e1/b@e1 pending", "e1/c@e1 cleared", "e1/d@e1 pending", "e2/a@e2 pending"}
	if len(got) != len(want) {
		t.Fatalf("flags after 0005 = %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("flags after 0005 = %v, want %v", got, want)
		}
	}
}
