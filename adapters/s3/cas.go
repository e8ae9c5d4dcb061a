package s3

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/smithy-go"
)

// CAS retry bounds. Full jitter spreads contenders so that each round has
// one winner and few losers; the attempt cap is a safety net well above
// what 50 concurrent writers on one object need.
const (
	casAttempts   = 200
	casBackoffMin = 2 * time.Millisecond
	casBackoffMax = 200 * time.Millisecond
)

// statusOf returns the HTTP status of an SDK error, 0 when there is none.
func statusOf(err error) int {
	var re *awshttp.ResponseError
	if errors.As(err, &re) {
		return re.HTTPStatusCode()
	}
	return 0
}

// codeOf returns the S3 error code of an SDK error ("NoSuchKey", ...).
func codeOf(err error) string {
	var ae smithy.APIError
	if errors.As(err, &ae) {
		return ae.ErrorCode()
	}
	return ""
}

// isNotFound reports a missing object or key; a missing bucket is an error
// instead, so that a deleted bucket never reads as empty rooms.
func isNotFound(err error) bool {
	c := codeOf(err)
	if c == "NoSuchBucket" {
		return false
	}
	return c == "NoSuchKey" || c == "NotFound" || statusOf(err) == 404
}

// isCASConflict reports a conditional write that lost a race: 412 when the
// ETag moved or the object appeared, 409 ConditionalRequestConflict when two
// writes overlapped, 404 when an If-Match target vanished (AWS answers so).
func isCASConflict(err error) bool {
	if codeOf(err) == "NoSuchBucket" {
		return false
	}
	switch statusOf(err) {
	case 412, 409, 404:
		return true
	}
	c := codeOf(err)
	return c == "PreconditionFailed" || c == "ConditionalRequestConflict" || c == "NoSuchKey"
}

// getObject reads a whole object, uncached. exists is false, with no error,
// when the key is absent.
func (s *Store) getObject(ctx context.Context, key string) (body []byte, etag string, exists bool, err error) {
	return s.get(ctx, key, "")
}

func (s *Store) get(ctx context.Context, key, ifNoneMatch string) (body []byte, etag string, exists bool, err error) {
	in := &s3.GetObjectInput{Bucket: aws.String(s.bucket), Key: aws.String(key)}
	if ifNoneMatch != "" {
		in.IfNoneMatch = aws.String(ifNoneMatch)
	}
	out, err := s.client.GetObject(ctx, in)
	if err != nil {
		if isNotFound(err) {
			return nil, "", false, nil
		}
		return nil, "", false, fmt.Errorf("get %s: %w", key, err)
	}
	defer out.Body.Close()
	body, err = io.ReadAll(out.Body)
	if err != nil {
		return nil, "", false, fmt.Errorf("read %s: %w", key, err)
	}
	return body, aws.ToString(out.ETag), true, nil
}

// fetch reads a JSON object through the cache: a GET with If-None-Match on
// the cached ETag, so an unchanged object costs a 304 and no body. The answer
// is always current; only bytes are saved.
func (s *Store) fetch(ctx context.Context, key string) (body []byte, etag string, exists bool, err error) {
	c, ok := s.cache.get(key)
	body, etag, exists, err = s.get(ctx, key, c.etag)
	if err != nil {
		if ok && statusOf(err) == 304 {
			return c.body, c.etag, true, nil
		}
		return nil, "", false, err
	}
	if !exists {
		s.cache.drop(key)
		return nil, "", false, nil
	}
	s.cache.put(key, etag, body)
	return body, etag, true, nil
}

// getJSON decodes the object at key into v; exists is false when absent.
func (s *Store) getJSON(ctx context.Context, key string, v any) (etag string, exists bool, err error) {
	body, etag, exists, err := s.fetch(ctx, key)
	if err != nil || !exists {
		return "", exists, err
	}
	if err := json.Unmarshal(body, v); err != nil {
		return "", false, fmt.Errorf("decode %s: %w", key, err)
	}
	return etag, true, nil
}

// putObject writes an object. ifMatch, when set, is the ETag the current
// object must have; create requires that the key does not exist.
// It returns the new ETag.
func (s *Store) putObject(ctx context.Context, key string, body []byte, contentType, ifMatch string, create bool, optFns ...func(*s3.Options)) (string, error) {
	in := &s3.PutObjectInput{
		Bucket:        aws.String(s.bucket),
		Key:           aws.String(key),
		Body:          bytes.NewReader(body),
		ContentLength: aws.Int64(int64(len(body))),
		ContentType:   aws.String(contentType),
	}
	switch {
	case ifMatch != "":
		in.IfMatch = aws.String(ifMatch)
	case create:
		in.IfNoneMatch = aws.String("*")
	}
	out, err := s.client.PutObject(ctx, in, optFns...)
	if err != nil {
		return "", err
	}
	return aws.ToString(out.ETag), nil
}

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
					return false, fmt.Errorf("update %s: %w (after %w)", key, errOutcomeUnknown, pendingErr)
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
				return true, nil
			case !known && mark.Seq >= pendingSeq && !pendingConflict:
				return false, fmt.Errorf("update %s: %w (after %w)", key, errOutcomeUnknown, pendingErr)
			case unsure >= casUnsureMax && !pendingConflict:
				return false, fmt.Errorf("put %s: %w", key, pendingErr)
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
			return true, nil
		}
		switch {
		case ctx.Err() != nil:
			return false, fmt.Errorf("put %s: %w", key, err)
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
				return false, fmt.Errorf("update %s: %w (after %w)", key, errOutcomeUnknown, pendingErr)
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

// isRefusal reports a 4xx that is not a compare-and-swap conflict (403, 400,
// NoSuchBucket, ...): the write was refused and will be refused again.
func isRefusal(err error) bool {
	st := statusOf(err)
	return (st >= 400 && st < 500 && st != 408 && st != 429) || codeOf(err) == "NoSuchBucket"
}

// casHistory is how many of its last writers an object remembers.
const casHistory = 64

// casUnsureMax bounds the writes of one update whose answer was lost and
// that turned out not to have landed, so a store that keeps failing ends
// the call with its error.
const casUnsureMax = 8

// casMark is the identity an object written by update carries, as its first
// field "_cas": its version number and the write ids of its last versions.
// A conditional write on version n can only make version n+1, and exactly
// one write does, so "is IDs' entry for n+1 mine?" tells whether a write
// whose answer was lost landed, even after others wrote on top of it.
type casMark struct {
	Seq int64    `json:"seq"`
	IDs []string `json:"ids"` // writers of versions Seq-len(IDs)+1 .. Seq
}

// writer returns who wrote version seq, known false when it is not
// remembered (not yet written, or too old).
func (m casMark) writer(seq int64) (id string, known bool) {
	i := len(m.IDs) - 1 - int(m.Seq-seq)
	if seq < 1 || seq > m.Seq || i < 0 {
		return "", false
	}
	return m.IDs[i], true
}

// next is the mark of the version that write id makes on top of m.
func (m casMark) next(id string) casMark {
	ids := m.IDs[max(0, len(m.IDs)-casHistory+1):]
	return casMark{Seq: m.Seq + 1, IDs: append(slices.Clone(ids), id)}
}

// readMark decodes the mark at the start of an object; an object that has
// none (written before marks, or by hand) reads as version 0.
func readMark(raw []byte) casMark {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return casMark{}
	}
	if tok, err := dec.Token(); err != nil || tok != "_cas" {
		return casMark{}
	}
	var m casMark
	if err := dec.Decode(&m); err != nil {
		return casMark{}
	}
	return m
}

// withMark returns the JSON object body with mark as its first field.
func withMark(body []byte, mark casMark) ([]byte, error) {
	if len(body) < 2 || body[0] != '{' {
		return nil, errors.New("not a JSON object")
	}
	mb, err := json.Marshal(mark)
	if err != nil {
		return nil, err
	}
	out := make([]byte, 0, len(body)+len(mb)+10)
	out = append(out, `{"_cas":`...)
	out = append(out, mb...)
	if rest := bytes.TrimSpace(body[1:]); len(rest) > 0 && rest[0] != '}' {
		out = append(out, ',')
	}
	return append(out, body[1:]...), nil
}

// newWriteID names one logical write: all attempts of one update share it.
func newWriteID() string {
	return strconv.FormatUint(rand.Uint64(), 36)
}

// cacheLimit bounds the cached objects; past it the cache starts over.
const cacheLimit = 4096

// objCache keeps the last seen body and ETag of JSON objects.
type objCache struct {
	mu sync.Mutex
	m  map[string]cachedObject
}

type cachedObject struct {
	etag string
	body []byte
	// Set only for a body this process wrote (putOwn): its mark, and its
	// decoded form when the type is a keeper.
	mark *casMark
	kept any
}

func (c *objCache) get(key string) (cachedObject, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	o, ok := c.m[key]
	return o, ok
}

func (c *objCache) put(key, etag string, body []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= cacheLimit {
		c.m = make(map[string]cachedObject)
	}
	c.m[key] = cachedObject{etag: etag, body: body}
}

// putOwn caches a body this process wrote, with its mark and kept form.
func (c *objCache) putOwn(key, etag string, body []byte, mark casMark, kept any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= cacheLimit {
		c.m = make(map[string]cachedObject)
	}
	c.m[key] = cachedObject{etag: etag, body: body, mark: &mark, kept: kept}
}

func (c *objCache) drop(key string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.m, key)
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

func jsonMarshal(v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encode: %w", err)
	}
	return b, nil
}
