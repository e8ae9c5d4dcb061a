package postgres

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"pumasi/internal/testpeer"
	"pumasi/knowledge"
)

// TestSinceWalksEverySeqWhileInsertsRace pins the seq lock (Insert holds
// seqLockKey shared, Since takes it exclusively) under the pressure it was
// once suspected to hang under: six inserters and a reader that calls Since
// back to back, all on a pool of two connections, so every lock request
// also waits for a connection. Every insert must finish in time (no
// starvation by the exclusive requests, no deadlock over the pool), and the
// reader, walking a mark as the sweep does, must meet every entry exactly
// once (no smaller seq turned up behind the mark).
func TestSinceWalksEverySeqWhileInsertsRace(t *testing.T) {
	const writers, each = 6, 40
	url := testpeer.Postgres(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	pool, err := OpenWith(ctx, url, Options{MaxConns: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	if err := Migrate(ctx, pool); err != nil {
		t.Fatal(err)
	}
	k := NewKnowledgeDriver(pool)

	start := time.Now()
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				v := make([]float32, 8)
				v[(w+i)%8] = 1
				title := fmt.Sprintf("writer %d finding %d", w, i)
				at := time.Now().UTC()
				e := knowledge.NewEntry{ID: uuid.NewString(), Hive: "academy", Title: title, Content: title,
					NormHash: knowledge.Hash(title, title), Model: "test-model", Vector: v, Specificity: 0.5, At: at}
				if _, _, err := k.Insert(ctx, e, knowledge.Contribution{Agent: fmt.Sprintf("w%d", w), Title: title,
					Content: title, Similarity: 1, At: at}); err != nil {
					errs <- fmt.Errorf("writer %d insert %d: %w", w, i, err)
					return
				}
			}
		}()
	}
	inserted := make(chan struct{})
	go func() { wg.Wait(); close(inserted) }()

	seen := map[int64]int{}
	reads := walkSinceUntil(t, ctx, k, inserted, errs, func(e knowledge.StoredEntry) { seen[e.Seq]++ })
	took := time.Since(start)
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}

	var n int
	var lo, hi int64
	if err := pool.QueryRow(ctx, `SELECT count(*), min(seq), max(seq) FROM knowledge_entries`).Scan(&n, &lo, &hi); err != nil {
		t.Fatal(err)
	}
	if n != writers*each {
		t.Fatalf("%d entries, want %d", n, writers*each)
	}
	if len(seen) != n {
		t.Errorf("the walk met %d of %d entries: a seq appeared behind the mark", len(seen), n)
	}
	for seq, c := range seen {
		if c != 1 || seq < lo || seq > hi {
			t.Errorf("seq %d met %d times", seq, c)
		}
	}
	if !t.Failed() {
		t.Logf("%d inserts by %d writers beside %d back-to-back Since calls on a 2-connection pool: all in %v, every seq met once",
			n, writers, reads, took.Round(time.Millisecond))
	}
}

// walkSinceUntil walks k's entries by Since from seq 0 the way the sweep
// walks its mark, again and again until done closes (then once more), and
// hands each entry met to visit. A writer's error on errs fails the test.
// It returns how many Since calls it made.
func walkSinceUntil(t *testing.T, ctx context.Context, k *Knowledge, done <-chan struct{}, errs <-chan error, visit func(knowledge.StoredEntry)) int {
	t.Helper()
	var mark int64
	reads := 0
	walk := func() {
		for {
			batch, err := k.Since(ctx, mark, 16)
			if err != nil {
				t.Fatalf("since %d: %v", mark, err)
			}
			reads++
			if len(batch) == 0 {
				return
			}
			for _, e := range batch {
				visit(e)
			}
			mark = batch[len(batch)-1].Seq
		}
	}
	for finished := false; !finished; {
		select {
		case <-done:
			finished = true
		case err := <-errs:
			t.Fatal(err)
		default:
		}
		walk()
	}
	return reads
}
