package postgres

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/google/uuid"

	"pumasi/knowledge"
)

// insertTitled stores an entry whose text is its title, for the tests
// that count words, and returns its id.
func insertTitled(t *testing.T, k *Knowledge, hive, title string) string {
	t.Helper()
	at := time.Now().UTC()
	e := knowledge.NewEntry{ID: uuid.NewString(), Hive: hive, Title: title, Content: title + " content",
		NormHash: knowledge.Hash(title, title), Model: "m", Vector: []float32{1, 0}, Specificity: 0.5, At: at}
	if _, _, err := k.Insert(context.Background(), e, knowledge.Contribution{Agent: "a", Title: title, Content: title, Similarity: 1, At: at}); err != nil {
		t.Fatal(err)
	}
	return e.ID
}

// TestCommonWordsByStatistics pins the statistics' shortcuts against exact
// answers: once ANALYZE shows a word in most entries, TermCounts answers
// past the limit without counting it, and Match, looking for it among the
// newest entries first, still lists the newest entries holding it, in the
// hive asked for, also when that range holds too few (another hive's
// entries are newer).
func TestCommonWordsByStatistics(t *testing.T) {
	ctx := context.Background()
	k := newKnowledgeDriver(t)
	var redis, other []string // newest first
	insert := func(hive, title string) string { return insertTitled(t, k, hive, title) }
	for i := range 300 {
		if i%3 == 0 {
			insert("academy", fmt.Sprintf("kafka finding %d", i))
			continue
		}
		redis = slices.Insert(redis, 0, insert("academy", fmt.Sprintf("redis finding %d", i)))
	}
	for i := range 60 { // newer, in another hive
		other = slices.Insert(other, 0, insert("other", fmt.Sprintf("redis elsewhere %d", i)))
	}
	if _, err := k.pool.Exec(ctx, `ANALYZE knowledge_entries`); err != nil {
		t.Fatal(err)
	}
	terms := []knowledge.Term{{Text: "redis"}, {Text: "finding"}, {Text: "kafka"}, {Text: "absent"}}
	got, err := k.TermCounts(ctx, terms, 10)
	if err != nil {
		t.Fatal(err)
	}
	// "redis" (260 entries), "finding" (360) and "kafka" (100) are past 10.
	for i, n := range got {
		want := i < 3
		if (n > 10) != want {
			t.Fatalf("TermCounts(%q) = %d, want past 10: %v", terms[i].Text, n, want)
		}
	}
	if est, _ := k.commonWord("redis"); est < 200 {
		t.Fatalf("estimate of redis = %v, want about 260", est)
	}
	// The academy's newest 5 lie past the range sized for them (4 × 5 /
	// 0.7 ≈ 28 seqs, all the other hive's): Match asks again, whole.
	lists, err := k.Match(ctx, "academy", terms[:1], 5)
	if err != nil {
		t.Fatal(err)
	}
	if want := redis[:5]; !slices.Equal(lists[0], want) {
		t.Fatalf("Match(academy, redis) = %v, want %v", lists[0], want)
	}
	// In every hive they lie in it.
	lists, err = k.Match(ctx, "", terms[:1], 5)
	if err != nil {
		t.Fatal(err)
	}
	if want := other[:5]; !slices.Equal(lists[0], want) {
		t.Fatalf("Match(every hive, redis) = %v, want %v", lists[0], want)
	}
	// Past half the table the range is no use: the whole posting list.
	lists, err = k.Match(ctx, "academy", terms[:1], 100)
	if err != nil {
		t.Fatal(err)
	}
	if want := redis[:100]; !slices.Equal(lists[0], want) {
		t.Fatalf("Match(academy, redis, 100): %d ids, want the newest 100", len(lists[0]))
	}
}
