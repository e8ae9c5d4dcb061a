package s3

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/s3"

	"pumasi"
)

// CAS retry bounds. Full jitter spreads contenders so that each round has
// one winner and few losers; the attempt cap is a safety net well above
// what 50 concurrent writers on one object need.
const (
	casAttempts   = 200
	casBackoffMin = 2 * time.Millisecond
	casBackoffMax = 200 * time.Millisecond
)

// update is the compare-and-swap loop over one JSON object: it reads the
// object (zero T when absent), lets fn change it, and writes it back only if
// nobody wrote in between, retrying with jittered backoff otherwise. fn may
// run several times and must derive everything from the value it is given;
// it returns false to leave the object alone. update reports whether it wrote.
//
// Every write carries the identity of this call (see casMark), so a write
// whose answer was lost (applied, then 500, a reset or a timeout) is settled
// by reading the object back: when the version that followed the one we
// wrote on is ours, the write landed and the values fn set in that run are
// the true answer; fn does not run again on a state that already holds its
// change. The SDK's own retries are off for these PUTs for the same reason.
//
// The first attempt starts from this process's cached copy, saving a GET when
// nobody else wrote since: the If-Match on the write validates it. An answer
// given without a write (no change, or fn's error) is only trusted after a
// conditional GET confirms the copy was current.
func update[T any](ctx context.Context, s *Store, key string, fn func(v *T, exists bool) (bool, error)) (bool, error) {
	id := newWriteID()
	losses, unsure := 0, 0
	var pendingSeq int64 // > 0: the version our last write would have made, outcome unknown
	var pendingErr error
	var pendingConflict bool // the last write was refused as a conflict
	for attempt := 0; attempt < casAttempts; attempt++ {
		var raw []byte
		var etag string
		var exists, cached bool
		var hit cachedObject
		if attempt == 0 {
			if c, ok := s.cache.get(key); ok {
				hit, raw, etag, exists, cached = c, c.body, c.etag, true, true
			}
		}
		if !cached {
			var err error
			if raw, etag, exists, err = s.fetch(ctx, key); err != nil {
				if pendingSeq > 0 && !pendingConflict {
					return false, outcomeUnknown(key, pendingErr)
				}
				return false, err
			}
		}
		var mark casMark
		switch {
		case cached && hit.mark != nil:
			mark = *hit.mark // The mark this process wrote into raw.
		case exists:
			mark = readMark(raw)
		}
		if pendingSeq > 0 {
			who, known := mark.writer(pendingSeq)
			switch {
			case known && who == id:
				s.landed.Add(1)
				s.log.Debug("s3 write landed though its answer was lost", "key", key, "err", pendingErr)
				pumasi.NoteApplied(ctx)
				return true, nil
			case !known && mark.Seq >= pendingSeq && !pendingConflict:
				return false, outcomeUnknown(key, pendingErr)
			case unsure >= casUnsureMax && !pendingConflict:
				// Not there when read back, but a PUT that timed out may
				// still land: no promise that nothing was applied.
				return false, outcomeUnknown(key, pendingErr)
			}
			// Not applied: someone else's write, or none, holds that place
			// (or, after a conflict, one too old to be ours).
			pendingSeq, pendingErr, pendingConflict = 0, nil, false
		}
		var v T
		restored := false
		if k, ok := any(&v).(keeper); ok && cached && hit.kept != nil {
			restored = k.restore(hit.kept)
		}
		if exists && !restored {
			if err := json.Unmarshal(raw, &v); err != nil {
				return false, fmt.Errorf("decode %s: %w", key, err)
			}
		}
		if l, ok := any(&v).(loader); ok && !restored {
			if err := l.load(ctx, s, key); errors.Is(err, errSnapshotGone) {
				continue // The object moved on; read it again.
			} else if err != nil {
				return false, err
			}
		}
		write, err := fn(&v, exists)
		if cached && (err != nil || !write) {
			continue // Revalidate before answering from the cached copy.
		}
		if err != nil || !write {
			return false, err
		}
		next := mark.next(id)
		if st, ok := any(&v).(storer); ok {
			if err := st.store(ctx, s); err != nil {
				return false, err
			}
		}
		body, err := json.Marshal(v)
		if err == nil {
			body, err = withMark(body, next)
		}
		if err != nil {
			return false, fmt.Errorf("encode %s: %w", key, err)
		}
		newETag, err := s.putCAS(ctx, key, body, etag, !exists)
		if err == nil {
			if newETag != "" {
				var kept any
				if k, ok := any(&v).(keeper); ok {
					kept = k.keep()
				}
				s.cache.putOwn(key, newETag, body, next, kept)
			}
			s.noteLosses(int64(losses))
			pumasi.NoteApplied(ctx)
			return true, nil
		}
		switch {
		case ctx.Err() != nil && (isCASConflict(err) || isRefusal(err)):
			return false, fmt.Errorf("put %s: %w", key, err)
		case ctx.Err() != nil:
			// Our deadline or the caller's ended the write: it may land.
			return false, outcomeUnknown(key, err)
		case isCASConflict(err):
			// Lost the race, as a rule. But a retry below us (a proxy, a
			// retrying client) would meet our own write as a conflict too,
			// so the read-back settles it like a lost answer.
			losses++
			s.conflicts.Add(1)
			pendingSeq, pendingErr, pendingConflict = next.Seq, err, true
			s.log.Debug("s3 compare-and-swap conflict", "key", key, "attempt", attempt+1, "status", statusOf(err), "code", codeOf(err))
		case isRefusal(err):
			return false, fmt.Errorf("put %s: %w", key, err)
		default:
			// 5xx, a reset or a timeout: the write may have landed.
			unsure++
			pendingSeq, pendingErr, pendingConflict = next.Seq, err, false
			s.log.Debug("s3 write answer lost; reading back", "key", key, "attempt", attempt+1, "err", err)
		}
		if err := sleep(ctx, backoff(attempt)); err != nil {
			if pendingSeq > 0 && !pendingConflict {
				return false, outcomeUnknown(key, pendingErr)
			}
			return false, err
		}
	}
	return false, fmt.Errorf("update %s: %w", key, errTooBusy)
}

// loader is an object whose stored form update must complete after decoding
// (a manifest's file list lives partly in a snapshot).
type loader interface {
	load(ctx context.Context, s *Store, key string) error
}

// storer is an object that update must turn into its stored form before
// encoding.
type storer interface {
	store(ctx context.Context, s *Store) error
}

// keeper is an object whose decoded form update keeps beside the body it
// wrote, so that the next write of this process, which starts from that
// body when nobody else wrote since (the If-Match checks it), skips decoding
// and loading it: for a manifest of a few hundred files that is the bulk of
// an upload's CPU.
type keeper interface {
	// keep returns the value as decoding and loading the body just written
	// would make it; it is shared and never changed.
	keep() any
	// restore sets the receiver to a copy of what keep returned; false when
	// it is not of the receiver's type.
	restore(kept any) bool
}

// putCAS is putObject for update: one HTTP attempt, bounded by writeTimeout.
// A retry inside the SDK would meet our own write as a conflict and hide that
// it landed; update settles the outcome instead.
func (s *Store) putCAS(ctx context.Context, key string, body []byte, ifMatch string, create bool) (string, error) {
	if s.writeTimeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, s.writeTimeout)
		defer cancel()
	}
	return s.putObject(ctx, key, body, "application/json", ifMatch, create, func(o *s3.Options) { o.RetryMaxAttempts = 1 })
}

func (s *Store) noteLosses(n int64) {
	for {
		cur := s.maxLosses.Load()
		if n <= cur || s.maxLosses.CompareAndSwap(cur, n) {
			return
		}
	}
}

// backoff is a full-jitter exponential delay for the given attempt.
func backoff(attempt int) time.Duration {
	d := casBackoffMin << min(attempt, 10)
	if d > casBackoffMax {
		d = casBackoffMax
	}
	return time.Duration(rand.Int64N(int64(d)) + 1)
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
