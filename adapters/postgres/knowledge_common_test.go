package postgres

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"pumasi/knowledge"
)

// TestCommonTermsRecorded pins knowledge_common_terms (migration 0010)
// against exact counts: a term found past the limit is answered from the
// table by a later count (of any process: another driver on the pool), a
// deletion makes every term count again, and a term that falls back under
// the limit counts exactly.
func TestCommonTermsRecorded(t *testing.T) {
	ctx := context.Background()
	k := newKnowledgeDriver(t)
	var kafka []string
	for i := range 14 {
		kafka = append(kafka, insertTitled(t, k, "academy", fmt.Sprintf("kafka 4.1 broker finding %d", i)))
	}
	terms := []knowledge.Term{{Text: "kafka"}, {Text: "4.1", Substring: true}, {Text: "broker"}, {Text: "absent"}}
	count := func(d *Knowledge) []int {
		t.Helper()
		got, err := d.TermCounts(ctx, terms, 10)
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	recorded := func() int {
		t.Helper()
		var n int
		if err := k.pool.QueryRow(ctx, `SELECT count(*) FROM knowledge_common_terms c JOIN knowledge_text_epoch e USING (epoch)`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	want := []int{11, 11, 11, 0}
	if got := count(k); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("TermCounts = %v, want %v", got, want)
	}
	if got := recorded(); got != 3 {
		t.Fatalf("common terms recorded = %d, want 3", got)
	}
	// Another process's driver reads the record: remove the rows behind the
	// table's back (no trigger), and the answer still says past the limit.
	if _, err := k.pool.Exec(ctx, `ALTER TABLE knowledge_entries DISABLE TRIGGER knowledge_entries_text_changed`); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{`DELETE FROM knowledge_contributions WHERE entry_id = ANY($1)`,
		`DELETE FROM knowledge_contributors WHERE entry_id = ANY($1)`, `DELETE FROM knowledge_entries WHERE id = ANY($1)`} {
		if _, err := k.pool.Exec(ctx, q, kafka[:5]); err != nil {
			t.Fatal(err)
		}
	}
	if got := count(NewKnowledgeDriver(k.pool)); got[0] != 11 {
		t.Fatalf("TermCounts(kafka) from the record = %d, want 11", got[0])
	}
	if _, err := k.pool.Exec(ctx, `ALTER TABLE knowledge_entries ENABLE TRIGGER knowledge_entries_text_changed`); err != nil {
		t.Fatal(err)
	}
	// A deletion moves the epoch: 9 → 8 entries, every term counted again.
	var redaction knowledge.Redaction
	redaction.At, redaction.Reason, redaction.By = time.Now().UTC(), "test", "admin"
	for _, id := range kafka[5:6] {
		if err := k.Redact(ctx, id, redaction); err != nil {
			t.Fatal(err)
		}
	}
	if got := recorded(); got != 0 {
		t.Fatalf("common terms at the current epoch after a deletion = %d, want 0", got)
	}
	want = []int{8, 8, 8, 0}
	if got := count(k); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("TermCounts after a deletion = %v, want %v", got, want)
	}
}

// TestCommonTermsConcurrent records the same common terms from many
// queries at once, in opposite orders and with a term twice: no deadlock,
// no "cannot affect row a second time", the same counts for each.
func TestCommonTermsConcurrent(t *testing.T) {
	ctx := context.Background()
	k := newKnowledgeDriver(t)
	for i := range 6 {
		insertTitled(t, k, "academy", fmt.Sprintf("redis 7.2 replica lag finding %d", i))
	}
	terms := []knowledge.Term{{Text: "redis"}, {Text: "replica"}, {Text: "lag"}, {Text: "7.2", Substring: true}, {Text: "redis"}}
	errs := make(chan error, 16)
	for g := range 16 {
		go func() {
			ts := slices.Clone(terms)
			if g%2 == 1 {
				slices.Reverse(ts)
			}
			got, err := NewKnowledgeDriver(k.pool).TermCounts(ctx, ts, 3)
			if err == nil && !slices.Equal(got, []int{4, 4, 4, 4, 4}) {
				err = fmt.Errorf("TermCounts = %v, want 4 each", got)
			}
			errs <- err
		}()
	}
	for range 16 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
}
