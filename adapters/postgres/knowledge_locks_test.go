package postgres

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgconn"

	"pumasi"
	"pumasi/knowledge"
)

// TestSupersedeRacingAbsorbNeverDeadlocks: a supersession of two entries
// and a sweep's absorb of the same two, run at once many times, lock the
// rows in one order (by id), so PostgreSQL never has to pick a deadlock's
// victim. Each round ends one of the ways the engine expects: both
// applied in some order, or one refused (the absorb kept apart by the
// lineage, the supersession finding its entry absorbed). The raw driver
// is used, so a retry cannot hide a deadlock.
func TestSupersedeRacingAbsorbNeverDeadlocks(t *testing.T) {
	k := newKnowledgeDriver(t)
	ctx := context.Background()
	insert := func(i int) string {
		v := make([]float32, 8)
		v[i%8] = 1
		title := fmt.Sprintf("lock order finding %d", i)
		at := time.Now().UTC()
		id, _, err := k.Insert(ctx, knowledge.NewEntry{ID: uuid.NewString(), Hive: "academy", Title: title, Content: title,
			NormHash: knowledge.Hash(title, title), Model: "test-model", Vector: v, Specificity: 0.5, At: at},
			knowledge.Contribution{Agent: "writer", Title: title, Content: title, Similarity: 1, At: at})
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	const rounds = 60
	outcomes := map[string]int{}
	for r := range rounds {
		a, b := insert(2*r), insert(2*r+1)
		hi, lo := max(a, b), min(a, b)
		var wg sync.WaitGroup
		var supErr, absErr error
		start := make(chan struct{})
		wg.Add(2)
		go func() {
			defer wg.Done()
			<-start
			supErr = k.Supersede(ctx, hi, lo, time.Now().UTC()) // older has the larger id: locked first before the fix
		}()
		go func() {
			defer wg.Done()
			<-start
			absErr = k.Absorb(ctx, knowledge.Merge{EntryID: lo, MergedInto: hi, Hive: "academy", At: time.Now().UTC(),
				Similarity: 0.99, Via: knowledge.MergeViaSweep, Apart: true})
		}()
		close(start)
		wg.Wait()
		for _, err := range []error{supErr, absErr} {
			var pe *pgconn.PgError
			if errors.As(err, &pe) && pe.Code == "40P01" {
				t.Fatalf("round %d: deadlock: %v", r, err)
			}
			switch c := pumasi.ErrorCode(err); {
			case err == nil, c == pumasi.ENotFound, c == pumasi.EPreconditionFailed:
			default:
				t.Fatalf("round %d: unexpected error %v (supersede %v, absorb %v)", r, err, supErr, absErr)
			}
		}
		outcomes[fmt.Sprintf("supersede %s, absorb %s", pumasi.ErrorCode(supErr), pumasi.ErrorCode(absErr))]++
	}
	t.Logf("%d rounds: %v", rounds, outcomes)
}

// TestRetryRunsAnAbortedCallAgain: a call the server rolled back as a
// deadlock's or a serialization failure's victim is run again, a few
// times at most; one that had applied a write first is not.
func TestRetryRunsAnAbortedCallAgain(t *testing.T) {
	deadlock := &pgconn.PgError{Code: "40P01", Message: "deadlock detected"}
	calls := 0
	err := retry(context.Background(), write, func(context.Context) error {
		calls++
		if calls < 3 {
			return deadlock
		}
		return nil
	})
	if err != nil || calls != 3 {
		t.Fatalf("aborted twice then done: err %v after %d calls, want nil after 3", err, calls)
	}
	calls = 0
	err = retry(context.Background(), read, func(context.Context) error { calls++; return deadlock })
	if !errors.As(err, new(*pgconn.PgError)) || calls != 1+abortRetries {
		t.Fatalf("always aborted: err %v after %d calls, want the deadlock after %d", err, calls, 1+abortRetries)
	}
	calls = 0
	err = retry(context.Background(), write, func(ctx context.Context) error {
		calls++
		pumasi.NoteApplied(ctx) // a first transaction committed, the second was the victim
		return deadlock
	})
	if calls != 1 || err == nil {
		t.Fatalf("aborted after a write applied: err %v after %d calls, want the error after 1", err, calls)
	}
}
