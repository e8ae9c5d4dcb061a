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
	was := tableFiles(t, pool, 3)
	if err := Migrate(ctx, pool); err != nil {
		t.Fatal(err)
	}
	wantAllApplied(t, pool)
	if got := tableFiles(t, pool, 3); got != was {
		t.Errorf("the migration rewrote the table or its vector index: %s, was %s", got, was)
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
