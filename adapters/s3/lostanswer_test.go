package s3_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/s3"

	"pumasi"
	s3store "pumasi/adapters/s3"
)

// buryAnswer lets the first manifest PUT land, then runs more writes to the
// same manifest than an object remembers (through another store) before it
// answers 500, so the write can no longer be recognised by reading back.
type buryAnswer struct {
	next   s3.HTTPClient
	bury   func()
	buried atomic.Bool
}

func (b *buryAnswer) Do(r *http.Request) (*http.Response, error) {
	resp, err := b.next.Do(r)
	if err != nil || r.Method != http.MethodPut || !strings.HasSuffix(r.URL.Path, "/manifest.json") ||
		resp.StatusCode != http.StatusOK || !b.buried.CompareAndSwap(false, true) {
		return resp, err
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	b.bury()
	return &http.Response{StatusCode: 500, Status: "500 Internal Server Error", Proto: resp.Proto, ProtoMajor: resp.ProtoMajor, ProtoMinor: resp.ProtoMinor,
		Header: http.Header{}, Body: io.NopCloser(strings.NewReader("")), Request: r}, nil
}

// TestLostAnswerPastMemory: when a lost answer cannot be settled, because
// more writes landed on top of it than the object remembers, the store must
// say it does not know (an internal error), never a false 200 or 412.
func TestLostAnswerPastMemory(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	st := e.open(t, s3store.Options{})
	other := e.open(t, s3store.Options{})
	b := &buryAnswer{bury: func() {
		for i := 0; i < 70; i++ {
			if _, err := other.PutFile(ctx, pumasi.PutFileInput{Room: "deep", Name: fmt.Sprintf("o%02d.md", i), Body: []byte(fmt.Sprint(i))}); err != nil {
				t.Errorf("other upload %d: %v", i, err)
			}
		}
	}}
	s3store.WrapHTTPClient(st, func(c s3.HTTPClient) s3.HTTPClient { b.next = c; return b })
	_, err := st.PutFile(ctx, pumasi.PutFileInput{Room: "deep", Name: "mine.md", Body: []byte("mine")})
	if !b.buried.Load() {
		t.Fatalf("the fault was not injected; the test proves nothing")
	}
	if pumasi.ErrorCode(err) != pumasi.EInternal || !strings.Contains(err.Error(), "unknown") {
		t.Fatalf("PutFile after a buried answer = %v; want an internal error saying the outcome is unknown", err)
	}
	if _, err := other.StatFile(ctx, "deep", "mine.md"); err != nil {
		t.Fatalf("the write did land; StatFile: %v", err)
	}
}

// conflictAnswer lets the first manifest PUT land and answers 412, as a
// retry below the store (a proxy, a retrying client) that met the store's
// own write would.
type conflictAnswer struct {
	next s3.HTTPClient
	done atomic.Bool
}

func (c *conflictAnswer) Do(r *http.Request) (*http.Response, error) {
	resp, err := c.next.Do(r)
	if err != nil || r.Method != http.MethodPut || !strings.HasSuffix(r.URL.Path, "/manifest.json") ||
		resp.StatusCode != http.StatusOK || !c.done.CompareAndSwap(false, true) {
		return resp, err
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	body := `<?xml version="1.0" encoding="UTF-8"?><Error><Code>PreconditionFailed</Code><Message>At least one of the pre-conditions you specified did not hold</Message></Error>`
	return &http.Response{StatusCode: 412, Status: "412 Precondition Failed", Proto: resp.Proto, ProtoMajor: resp.ProtoMajor, ProtoMinor: resp.ProtoMinor,
		Header: http.Header{"Content-Type": {"application/xml"}}, Body: io.NopCloser(strings.NewReader(body)), ContentLength: int64(len(body)), Request: r}, nil
}

// TestConflictAgainstOwnWrite: a 412 that answers a write which in fact
// landed is recognised by the write's mark, so the upload answers
// changed:true at version 1 instead of "identical content, unchanged", and
// a conditional create does not answer 412 for its own write.
func TestConflictAgainstOwnWrite(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	for _, ifNoneMatch := range []bool{false, true} {
		st := e.open(t, s3store.Options{})
		c := &conflictAnswer{}
		s3store.WrapHTTPClient(st, func(h s3.HTTPClient) s3.HTTPClient { c.next = h; return c })
		name := fmt.Sprintf("own-%v.md", ifNoneMatch)
		res, err := st.PutFile(ctx, pumasi.PutFileInput{Room: "own", Name: name, Body: []byte("x"), IfNoneMatch: ifNoneMatch})
		if !c.done.Load() {
			t.Fatalf("the fault was not injected; the test proves nothing")
		}
		if err != nil || !res.Changed || res.File.Version != 1 {
			t.Fatalf("PutFile(If-None-Match=%v) after a 412 against its own write = %+v, %v; want changed at version 1", ifNoneMatch, res, err)
		}
	}
}
