package postgres

import (
	"context"
	"testing"
)

// TestWordsMigrationRewritesNothing: 0004 makes "max.poll.records" hold the
// word "poll" without rewriting the table or rebuilding its HNSW graph
// (hours at a million entries): the table's and the vector index's files
// are the same ones after it, and the old rows are found by their words.
func TestWordsMigrationRewritesNothing(t *testing.T) {
	ctx := context.Background()
	pool := migratedBelow(t, 4)
	pool.Reset()
	if err := EnsureVectorIndex(ctx, pool, 3); err != nil {
		t.Fatal(err)
	}
	insertEntry(t, pool, "kafka", "academy", "Consumer rebalances", "Lower max.poll.records when processing outlasts max.poll.interval.ms", nil, "a", "[1,0,0]")
	insertEntry(t, pool, "redis", "academy", "Config path", "The server reads /etc/redis/redis.conf at start", nil, "b", "[0,1,0]")
	files := func() map[string]uint32 {
		rows, err := pool.Query(ctx, `SELECT c.relname, c.relfilenode FROM pg_class c
			WHERE c.relname = 'knowledge_entries' OR c.relname = $1`, VectorIndexName(3))
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		out := map[string]uint32{}
		for rows.Next() {
			var name string
			var node uint32
			if err := rows.Scan(&name, &node); err != nil {
				t.Fatal(err)
			}
			out[name] = node
		}
		if err := rows.Err(); err != nil || len(out) != 2 {
			t.Fatalf("relfilenodes = %v, %v; want the table and its vector index", out, err)
		}
		return out
	}
	was := files()
	if err := Migrate(ctx, pool); err != nil {
		t.Fatal(err)
	}
	wantAllApplied(t, pool)
	for name, node := range files() {
		if node != was[name] {
			t.Errorf("%s was rewritten by the migration (relfilenode %d -> %d)", name, was[name], node)
		}
	}
	for word, want := range map[string]string{"poll": "kafka", "conf": "redis"} {
		var got string
		err := pool.QueryRow(ctx, `SELECT id FROM knowledge_entries
			WHERE knowledge_search(title, content, tags) @@ to_tsquery('english', $1)`, word).Scan(&got)
		if err != nil || got != want {
			t.Errorf("word %q finds %q, %v; want %s", word, got, err, want)
		}
	}
}
