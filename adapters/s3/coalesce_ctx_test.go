package s3

import (
	"context"
	"errors"
	"testing"
	"time"

	"pumasi"
)

// queueWith returns a store whose manifest key k has a runner that never
// runs (a batch in flight that does not end), so changes queue behind it.
func queueWith(k string) (*Store, *opQueue) {
	s := &Store{stallPatience: time.Hour}
	q := &opQueue{runners: 1}
	s.coalesce.keys = map[string]*opQueue{k: q}
	return s, q
}

// waitQueued polls until q holds n changes (the caller is waiting).
func waitQueued(t *testing.T, s *Store, q *opQueue, n int) {
	t.Helper()
	for end := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		s.coalesce.mu.Lock()
		got := len(q.pending)
		s.coalesce.mu.Unlock()
		if got == n {
			return
		}
		if time.Now().After(end) {
			t.Fatalf("queue holds %d changes, want %d", got, n)
		}
	}
}

// TestQueuedCallerHonoursItsContext: a change queued behind a batch that
// does not end returns as soon as its caller's context ends, leaves the
// queue, and says nothing was applied (unavailable on a deadline).
func TestQueuedCallerHonoursItsContext(t *testing.T) {
	const k = "rooms/r/manifest.json"
	noop := func(*manifest, bool) (bool, error) { return true, nil }

	s, q := queueWith(k)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { _, err := s.updateManifest(ctx, k, noop); done <- err }()
	waitQueued(t, s, q, 1)
	cancel()
	err := <-done
	if !errors.Is(err, context.Canceled) || pumasi.IsOutcomeUnknown(err) {
		t.Fatalf("cancelled while queued: %v; want context.Canceled, not an unknown outcome", err)
	}
	waitQueued(t, s, q, 0)

	dctx, dcancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer dcancel()
	_, err = s.updateManifest(dctx, k, noop)
	if pumasi.ErrorCode(err) != pumasi.EUnavailable || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("deadline while queued: %v; want unavailable (nothing was sent)", err)
	}
	waitQueued(t, s, q, 0)
}

// TestInFlightCallerHonoursItsContext: a caller whose change is in a batch
// being written returns when its context ends, and says the outcome is
// unknown, since the write may still land; the batch's own answer reaches
// the callers that still wait.
func TestInFlightCallerHonoursItsContext(t *testing.T) {
	const k = "rooms/r/manifest.json"
	noop := func(*manifest, bool) (bool, error) { return true, nil }
	s, q := queueWith(k)
	ctx, cancel := context.WithCancel(context.Background())
	left, stayed := make(chan error, 1), make(chan error, 1)
	go func() { _, err := s.updateManifest(ctx, k, noop); left <- err }()
	go func() { _, err := s.updateManifest(context.Background(), k, noop); stayed <- err }()
	waitQueued(t, s, q, 2)
	// Take both into a batch, as a runner does, and keep it in flight.
	s.coalesce.mu.Lock()
	batch := q.pending
	q.pending = nil
	for _, op := range batch {
		op.taken = true
	}
	s.coalesce.mu.Unlock()
	cancel()
	if err := <-left; !pumasi.IsOutcomeUnknown(err) {
		t.Fatalf("cancelled while its write is in flight: %v; want an unknown outcome", err)
	}
	for _, op := range batch {
		op.wrote = true
		close(op.done)
	}
	if err := <-stayed; err != nil {
		t.Fatalf("the caller that waited: %v; want the batch's answer", err)
	}
}
