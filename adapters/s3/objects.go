package s3

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/smithy-go"

	"pumasi"
)

// The objects under the prefix: reads (uncached, or through the ETag
// cache), writes, and what an SDK error says about them.

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

// noteWrite records in the request's pumasi.WriteLog a plain write of
// visible state: applied when it answered, unsure when its answer was lost
// (it may have landed), so that a later failure of the request is not
// answered as "nothing was applied".
func noteWrite(ctx context.Context, err error) {
	switch {
	case err == nil:
		pumasi.NoteApplied(ctx)
	case !isRefusal(err) && !isCASConflict(err):
		pumasi.NoteUnsure(ctx)
	}
}

// isRefusal reports a 4xx that is not a compare-and-swap conflict (403, 400,
// NoSuchBucket, ...): the write was refused and will be refused again.
func isRefusal(err error) bool {
	st := statusOf(err)
	return (st >= 400 && st < 500 && st != 408 && st != 429) || codeOf(err) == "NoSuchBucket"
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

func jsonMarshal(v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encode: %w", err)
	}
	return b, nil
}
