package s3

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
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
func (s *Store) putObject(ctx context.Context, key string, body []byte, contentType, ifMatch string, create bool) (string, error) {
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
	out, err := s.client.PutObject(ctx, in)
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
// The first attempt starts from this process's cached copy, saving a GET when
// nobody else wrote since: the If-Match on the write validates it. An answer
// given without a write (no change, or fn's error) is only trusted after a
// conditional GET confirms the copy was current.
func update[T any](ctx context.Context, s *Store, key string, fn func(v *T, exists bool) (bool, error)) (bool, error) {
	losses := 0
	for attempt := 0; attempt < casAttempts; attempt++ {
		var raw []byte
		var etag string
		var exists, cached bool
		if attempt == 0 {
			if c, ok := s.cache.get(key); ok {
				raw, etag, exists, cached = c.body, c.etag, true, true
			}
		}
		if !cached {
			var err error
			if raw, etag, exists, err = s.fetch(ctx, key); err != nil {
				return false, err
			}
		}
		var v T
		if exists {
			if err := json.Unmarshal(raw, &v); err != nil {
				return false, fmt.Errorf("decode %s: %w", key, err)
			}
		}
		write, err := fn(&v, exists)
		if cached && (err != nil || !write) {
			continue // Revalidate before answering from the cached copy.
		}
		if err != nil || !write {
			return false, err
		}
		body, err := json.Marshal(v)
		if err != nil {
			return false, fmt.Errorf("encode %s: %w", key, err)
		}
		newETag, err := s.putObject(ctx, key, body, "application/json", etag, !exists)
		if err == nil {
			if newETag != "" {
				s.cache.put(key, newETag, body)
			}
			s.noteLosses(int64(losses))
			return true, nil
		}
		if !isCASConflict(err) {
			return false, fmt.Errorf("put %s: %w", key, err)
		}
		losses++
		s.conflicts.Add(1)
		s.log.Debug("s3 compare-and-swap conflict", "key", key, "attempt", attempt+1, "status", statusOf(err), "code", codeOf(err))
		if err := sleep(ctx, backoff(attempt)); err != nil {
			return false, err
		}
	}
	return false, fmt.Errorf("update %s: %w", key, errTooBusy)
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
