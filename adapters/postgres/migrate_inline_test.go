package postgres

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"
)

// TestInlineRowsMigration: after 0009 a 512-dimension entry keeps its
// vector and text in its row (nothing new in TOAST), a 3072-dimension one,
// too large for a page, still goes in; the migration rewrites neither the
// table nor its HNSW graph, so an entry written before keeps its vector in
// TOAST until the operator's VACUUM FULL, after which only the row that
// cannot fit a page has a value there. Old and new rows score alike.
func TestInlineRowsMigration(t *testing.T) {
	ctx := context.Background()
	pool := migratedBelow(t, 9)
	pool.Reset()
	if err := EnsureVectorIndex(ctx, pool, 512); err != nil {
		t.Fatal(err)
	}
	// toasted is how many values of knowledge_entries' rows are in TOAST.
	toasted := func() int {
		t.Helper()
		var toast string
		if err := pool.QueryRow(ctx, `SELECT reltoastrelid::regclass::text FROM pg_class
			WHERE oid = 'knowledge_entries'::regclass`).Scan(&toast); err != nil {
			t.Fatal(err)
		}
		var n int
		if err := pool.QueryRow(ctx, `SELECT count(DISTINCT chunk_id) FROM `+toast).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	old, fresh := unitVector(512, 1), unitVector(512, 2)
	insertEntry(t, pool, "old", "academy", "Replica lag", "The replica lagged behind the primary during a vacuum freeze", nil, "a", old)
	if got := toasted(); got != 1 {
		t.Fatalf("before 0009: %d values in TOAST, want 1 (the old entry's vector)", got)
	}
	was := tableFiles(t, pool, 512)
	if err := Migrate(ctx, pool); err != nil {
		t.Fatal(err)
	}
	wantAllApplied(t, pool)
	if got := tableFiles(t, pool, 512); got != was {
		t.Errorf("0009 rewrote the table or its vector index: %s, was %s", got, was)
	}
	insertEntry(t, pool, "new", "academy", "Pool size", "Size the pgx pool to the cores the database has, not the clients", nil, "b", fresh)
	if got := toasted(); got != 1 {
		t.Errorf("after 0009 and a new 512-dimension entry: %d values in TOAST, want 1 (the old one's)", got)
	}
	insertEntry(t, pool, "wide", "academy", "Large model", "A 3072-dimension vector does not fit a page", nil, "c", unitVector(3072, 3))
	if got := toasted(); got != 2 {
		t.Errorf("after a 3072-dimension entry: %d values in TOAST, want 2", got)
	}

	k := NewKnowledgeDriver(pool)
	for id, v := range map[string]string{"old": old, "new": fresh} {
		es, err := k.NearestScored(ctx, "academy", "test", parseVector(t, v), 1)
		if err != nil {
			t.Fatal(err)
		}
		if len(es) != 1 || es[0].ID != id || math.Abs(es[0].Similarity-1) > 1e-5 {
			t.Fatalf("NearestScored(%s's vector) = %+v, want %s at similarity 1", id, es, id)
		}
	}

	if _, err := pool.Exec(ctx, `VACUUM FULL knowledge_entries`); err != nil {
		t.Fatal(err)
	}
	if got := toasted(); got != 1 {
		t.Errorf("after VACUUM FULL: %d values in TOAST, want 1 (the 3072-dimension vector)", got)
	}
}

// unitVector is a dims-dimensional unit vector in pgvector's text form,
// its entries spread by seed.
func unitVector(dims, seed int) string {
	v := make([]float64, dims)
	var norm float64
	for i := range v {
		v[i] = float64((i*seed*7919)%97) + 1
		norm += v[i] * v[i]
	}
	parts := make([]string, dims)
	for i := range v {
		parts[i] = fmt.Sprintf("%.6f", v[i]/math.Sqrt(norm))
	}
	return "[" + strings.Join(parts, ",") + "]"
}

// parseVector reads unitVector's text form back.
func parseVector(t *testing.T, s string) []float32 {
	t.Helper()
	var out []float32
	for _, p := range strings.Split(strings.Trim(s, "[]"), ",") {
		var f float32
		if _, err := fmt.Sscan(p, &f); err != nil {
			t.Fatal(err)
		}
		out = append(out, f)
	}
	return out
}
