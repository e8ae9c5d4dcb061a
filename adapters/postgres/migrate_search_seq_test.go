package postgres

import (
	"context"
	"strings"
	"testing"
)

// TestSearchSeqMigration: 0011 leaves one full-text index, named as
// before, over the words and seq, with its statistics gathered (the driver
// reads them to tell common words), without rewriting the table or its
// vector index; and an index an operator built beforehand under 0011's
// name (README: CREATE INDEX CONCURRENTLY) is kept instead of built again.
func TestSearchSeqMigration(t *testing.T) {
	ctx := context.Background()
	for _, prebuilt := range []bool{false, true} {
		pool := migratedBelow(t, 11)
		pool.Reset()
		if err := EnsureVectorIndex(ctx, pool, 3); err != nil {
			t.Fatal(err)
		}
		insertEntry(t, pool, "kafka", "academy", "Consumer rebalances", "Lower max.poll.records when processing outlasts max.poll.interval.ms", nil, "a", "[1,0,0]")
		insertEntry(t, pool, "redis", "academy", "Config path", "The server reads /etc/redis/redis.conf at start", nil, "b", "[0,1,0]")
		var before int64
		if prebuilt {
			if _, err := pool.Exec(ctx, `CREATE EXTENSION IF NOT EXISTS btree_gin`); err != nil {
				t.Fatal(err)
			}
			if _, err := pool.Exec(ctx, `CREATE INDEX CONCURRENTLY knowledge_entries_search_seq ON knowledge_entries
				USING gin (knowledge_search(title, content, tags), seq) WITH (gin_pending_list_limit = 64)`); err != nil {
				t.Fatal(err)
			}
			if err := pool.QueryRow(ctx, `SELECT 'knowledge_entries_search_seq'::regclass::oid::bigint`).Scan(&before); err != nil {
				t.Fatal(err)
			}
		}
		was := tableFiles(t, pool, 3)
		if err := Migrate(ctx, pool); err != nil {
			t.Fatal(err)
		}
		wantAllApplied(t, pool)
		if got := tableFiles(t, pool, 3); got != was {
			t.Errorf("prebuilt %v: the migration rewrote the table or its vector index: %s, was %s", prebuilt, got, was)
		}
		var defs []string
		if err := pool.QueryRow(ctx, `SELECT array_agg(indexname || ': ' || indexdef ORDER BY indexname) FROM pg_indexes
			WHERE tablename = 'knowledge_entries' AND indexname LIKE 'knowledge_entries_search%'`).Scan(&defs); err != nil {
			t.Fatal(err)
		}
		if len(defs) != 1 || !strings.HasPrefix(defs[0], "knowledge_entries_search: ") || !strings.Contains(defs[0], "tags), seq)") {
			t.Fatalf("prebuilt %v: full-text indexes after 0011 = %q, want knowledge_entries_search over the words and seq", prebuilt, defs)
		}
		var oid int64
		var stats bool
		if err := pool.QueryRow(ctx, `SELECT 'knowledge_entries_search'::regclass::oid::bigint,
			EXISTS (SELECT 1 FROM pg_stats WHERE tablename = 'knowledge_entries_search')`).Scan(&oid, &stats); err != nil {
			t.Fatal(err)
		}
		if prebuilt && oid != before {
			t.Errorf("0011 built the index again (oid %d, the operator's was %d)", oid, before)
		}
		if !stats {
			t.Errorf("prebuilt %v: no statistics of knowledge_entries_search after 0011", prebuilt)
		}
		var got string
		if err := pool.QueryRow(ctx, `SELECT id FROM knowledge_entries
			WHERE knowledge_search(title, content, tags) @@ to_tsquery('english', 'poll')`).Scan(&got); err != nil || got != "kafka" {
			t.Errorf("prebuilt %v: word poll finds %q, %v; want kafka", prebuilt, got, err)
		}
	}
}
