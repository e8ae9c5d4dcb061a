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
	"pumasi/knowledge/knowledgetest"
)

// TestReembedderConformance runs the re-embedding suite; each open is a
// pool of its own over one database, as another process's would be.
func TestReembedderConformance(t *testing.T) {
	knowledgetest.RunReembedder(t, func(t *testing.T) func(t *testing.T) knowledge.Driver {
		url := testpeer.Postgres(t)
		migrated := false
		return func(t *testing.T) knowledge.Driver {
			pool := openTest(t, url)
			if !migrated {
				if err := Migrate(t.Context(), pool); err != nil {
					t.Fatal(err)
				}
				migrated = true
			}
			return NewKnowledgeDriver(pool)
		}
	})
}

// TestSinceWalksEverySeqWhileReembedding pins SetVector's side of the seq
// lock: entries embedded again take new seqs while others are inserted and
// a walker calls Since back to back, all on a pool of two connections. The
// walk, moving its mark as the sweep does, must meet every entry at the seq
// it ends with (none turned up behind the mark), and every re-embedded row
// must carry its new dimension, whose HNSW index now exists.
func TestSinceWalksEverySeqWhileReembedding(t *testing.T) {
	const seeded, setters, inserts = 150, 3, 60
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
	insert := func(tag string, i, dims int) (string, error) {
		v := make([]float32, dims)
		v[i%dims] = 1
		title := fmt.Sprintf("%s finding %d", tag, i)
		at := time.Now().UTC()
		id, _, err := k.Insert(ctx, knowledge.NewEntry{ID: uuid.NewString(), Hive: "academy", Title: title, Content: title,
			NormHash: knowledge.Hash(title, title), Model: map[int]string{8: "old", 24: "new"}[dims], Vector: v,
			Specificity: 0.5, At: at}, knowledge.Contribution{Agent: "writer", Title: title, Content: title, Similarity: 1, At: at})
		return id, err
	}
	var ids []string
	for i := range seeded {
		id, err := insert("seeded", i, 8)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}

	var wg sync.WaitGroup
	errs := make(chan error, setters+1)
	for w := range setters {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < seeded; i += setters {
				v := make([]float32, 24)
				v[i%24] = 1
				if err := k.SetVector(ctx, ids[i], "new", v); err != nil {
					errs <- fmt.Errorf("set vector %d: %w", i, err)
					return
				}
			}
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := range inserts {
			if _, err := insert("fresh", i, 24); err != nil {
				errs <- fmt.Errorf("insert %d: %w", i, err)
				return
			}
		}
	}()
	written := make(chan struct{})
	go func() { wg.Wait(); close(written) }()

	seen := map[int64]string{}
	reads := walkSinceUntil(t, ctx, k, written, errs, func(e knowledge.StoredEntry) { seen[e.Seq] = e.ID })
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}

	rows, err := pool.Query(ctx, `SELECT id, seq, model, dims FROM knowledge_entries`)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for rows.Next() {
		var id, model string
		var seq int64
		var dims int
		if err := rows.Scan(&id, &seq, &model, &dims); err != nil {
			t.Fatal(err)
		}
		n++
		if seen[seq] != id {
			t.Errorf("entry %s at seq %d: the walk never met it there (it met %q): a seq appeared behind the mark", id, seq, seen[seq])
		}
		if model != "new" || dims != 24 {
			t.Errorf("entry %s: model %s, dims %d; want new, 24", id, model, dims)
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if n != seeded+inserts {
		t.Fatalf("%d entries, want %d", n, seeded+inserts)
	}
	var indexed bool
	if err := pool.QueryRow(ctx, `SELECT to_regclass($1) IS NOT NULL`, VectorIndexName(24)).Scan(&indexed); err != nil || !indexed {
		t.Fatalf("HNSW index of the new dimension: exists %v, %v", indexed, err)
	}
	if !t.Failed() {
		t.Logf("%d entries embedded again and %d inserted beside %d back-to-back Since calls on a 2-connection pool: every final seq met",
			seeded, inserts, reads)
	}
}
