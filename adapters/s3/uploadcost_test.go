package s3_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/http/httptrace"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"pumasi"
	s3store "pumasi/adapters/s3"
)

// reqLog records every HTTP request a store sends: method, object kind,
// status, body size, whether it rode a reused connection, and the
// checksum-like headers the SDK added.
type reqLog struct {
	next s3.HTTPClient
	mu   sync.Mutex
	reqs []reqRec
}

type reqRec struct {
	method, kind string
	status       int
	size         int64
	reused       bool
	extra        []string // x-amz-checksum-*, Content-MD5, x-amz-sdk-checksum-algorithm
}

func (l *reqLog) Do(r *http.Request) (*http.Response, error) {
	rec := reqRec{method: r.Method, kind: objectKind(r.URL.Path), size: r.ContentLength}
	for h := range r.Header {
		if lh := strings.ToLower(h); strings.HasPrefix(lh, "x-amz-checksum") || lh == "content-md5" || lh == "x-amz-sdk-checksum-algorithm" {
			rec.extra = append(rec.extra, lh)
		}
	}
	trace := &httptrace.ClientTrace{GotConn: func(i httptrace.GotConnInfo) { rec.reused = i.Reused }}
	r = r.WithContext(httptrace.WithClientTrace(r.Context(), trace))
	resp, err := l.next.Do(r)
	if resp != nil {
		rec.status = resp.StatusCode
	}
	l.mu.Lock()
	l.reqs = append(l.reqs, rec)
	l.mu.Unlock()
	return resp, err
}

func (l *reqLog) take() []reqRec {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := l.reqs
	l.reqs = nil
	return out
}

func objectKind(path string) string {
	switch {
	case strings.HasSuffix(path, "/manifest.json"):
		return "manifest"
	case strings.Contains(path, "/blobs/"):
		return "blob"
	case strings.Contains(path, "/snap/"):
		return "snapshot"
	case strings.Contains(path, "/hist/"):
		return "segment"
	}
	return path
}

// uploadBody is a 4 KiB text body unique to i, as the bench uploads.
func uploadBody(i int) []byte {
	b := make([]byte, 2048)
	rand.Read(b)
	t := []byte(hex.EncodeToString(b))
	copy(t, fmt.Sprintf("%08d", i))
	return t
}

// TestSequentialPutFileRequests pins the requests one sequential upload
// sends from a process that wrote the room last: the blob PUT and the
// manifest compare-and-swap, plus a snapshot PUT once per maxLog changes in
// a large room. No GET or HEAD, no SDK retry, no checksum header, and every
// request on a kept-alive connection.
func TestSequentialPutFileRequests(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	st := e.open(t, s3store.Options{})
	log := &reqLog{}
	s3store.WrapHTTPClient(st, func(c s3.HTTPClient) s3.HTTPClient { log.next = c; return log })
	const n = 200
	snaps, segs := 0, 0
	for i := 0; i < n; i++ {
		if _, err := st.PutFile(ctx, pumasi.PutFileInput{Room: "seq", Name: fmt.Sprintf("f%05d.txt", i), Body: uploadBody(i), ContentType: "text/plain"}); err != nil {
			t.Fatalf("upload %d: %v", i, err)
		}
		reqs := log.take()
		var kinds []string
		for _, r := range reqs {
			kinds = append(kinds, r.method+" "+r.kind)
			if len(r.extra) > 0 {
				t.Errorf("upload %d: %s %s carries %v; the SDK computes checksums it need not", i, r.method, r.kind, r.extra)
			}
			if i > 0 && !r.reused {
				t.Errorf("upload %d: %s %s opened a new connection", i, r.method, r.kind)
			}
		}
		got := strings.Join(kinds, ", ")
		want := "PUT blob, PUT manifest"
		if i == 0 {
			want = "PUT blob, GET manifest, PUT manifest" // a new process reads once
		}
		if i > 0 && len(reqs) == 3 && reqs[1].kind == "snapshot" {
			snaps++
			want = "PUT blob, PUT snapshot, PUT manifest"
		}
		if i > 0 && len(reqs) >= 3 && reqs[len(reqs)-2].kind == "segment" {
			segs++ // One history segment per 32 changes (history.go).
			want = strings.TrimSuffix(want, ", PUT manifest") + ", PUT segment, PUT manifest"
		}
		if got != want {
			t.Fatalf("upload %d sent %q, want %q", i, got, want)
		}
		if i == 99 || i == n-1 {
			t.Logf("manifest PUT at %d files: %d bytes", i+1, reqs[len(reqs)-1].size)
		}
	}
	if segs < n/33 || segs > n/32 {
		t.Errorf("%d history segment PUTs in %d uploads, want one per 32", segs, n)
	}
	// 200 files: the first snapshot at 65 files, then one per maxLog changes.
	if snaps < 2 || snaps > 4 {
		t.Errorf("%d snapshot PUTs in %d uploads, want 2-4 (one per 64 changes past 64 files)", snaps, n)
	}
}

// BenchmarkUploadBreakdown times, against one MinIO in one run, the parts of
// a sequential upload: a plain 4 KiB PUT, the same with If-None-Match: * to
// a new key, an If-Match PUT of a manifest-sized body, the two conditional
// PUTs back to back (the floor of blob + compare-and-swap), and PutFile.
// Sizes come from the real manifest of the room PutFile fills.
func BenchmarkUploadBreakdown(b *testing.B) {
	ctx := context.Background()
	e := newEnv(b)
	st := e.open(b, s3store.Options{})
	c := e.srv.Client()
	log := &reqLog{}
	s3store.WrapHTTPClient(st, func(hc s3.HTTPClient) s3.HTTPClient { log.next = hc; return log })
	const files = 500
	manifestSize := int64(0)
	var upTime time.Duration
	for i := 0; i < files; i++ {
		start := time.Now()
		if _, err := st.PutFile(ctx, pumasi.PutFileInput{Room: "room", Name: fmt.Sprintf("f%05d.txt", i), Body: uploadBody(i), ContentType: "text/plain"}); err != nil {
			b.Fatal(err)
		}
		upTime += time.Since(start)
		for _, r := range log.take() {
			if r.kind == "manifest" {
				manifestSize = r.size
			}
		}
	}
	b.ReportMetric(float64(manifestSize), "manifest-bytes")
	body := uploadBody(1)
	manifestBody := bytes.Repeat([]byte("m"), int(manifestSize))
	key := func(s string, i int) *string { return aws.String(fmt.Sprintf("%s/%s/%d", e.prefix, s, i)) }
	put := func(in *s3.PutObjectInput) *s3.PutObjectOutput {
		out, err := c.PutObject(ctx, in)
		if err != nil {
			b.Fatal(err)
		}
		return out
	}
	etag := put(&s3.PutObjectInput{Bucket: aws.String(e.bucket), Key: key("man", 0), Body: bytes.NewReader(manifestBody)}).ETag
	small := put(&s3.PutObjectInput{Bucket: aws.String(e.bucket), Key: key("small", 0), Body: bytes.NewReader(body)}).ETag
	casOne := func() {
		etag = put(&s3.PutObjectInput{Bucket: aws.String(e.bucket), Key: key("man", 0), Body: bytes.NewReader(manifestBody), IfMatch: etag}).ETag
	}
	// The parts run in turn within each round, so the machine's noise
	// falls on all of them alike.
	ops := []struct {
		name string
		fn   func(i int)
	}{
		{"put", func(i int) {
			put(&s3.PutObjectInput{Bucket: aws.String(e.bucket), Key: key("plain", i), Body: bytes.NewReader(body)})
		}},
		{"put-manifest-size", func(i int) {
			put(&s3.PutObjectInput{Bucket: aws.String(e.bucket), Key: key("plainm", i), Body: bytes.NewReader(manifestBody)})
		}},
		{"put-inm", func(i int) {
			put(&s3.PutObjectInput{Bucket: aws.String(e.bucket), Key: key("inm", i), Body: bytes.NewReader(body), IfNoneMatch: aws.String("*")})
		}},
		{"put-ifmatch-4k", func(int) {
			small = put(&s3.PutObjectInput{Bucket: aws.String(e.bucket), Key: key("small", 0), Body: bytes.NewReader(body), IfMatch: small}).ETag
		}},
		{"put-ifmatch", func(int) { casOne() }},
		{"put-overwrite", func(int) {
			put(&s3.PutObjectInput{Bucket: aws.String(e.bucket), Key: key("over", 0), Body: bytes.NewReader(manifestBody)})
		}},
		{"floor", func(i int) {
			put(&s3.PutObjectInput{Bucket: aws.String(e.bucket), Key: key("floor", i), Body: bytes.NewReader(body), IfNoneMatch: aws.String("*")})
			casOne()
		}},
		{"putfile", func(i int) {
			// Overwrites of the room's last files: the manifest stays near
			// its 500-file size, and each is a new blob.
			if _, err := st.PutFile(ctx, pumasi.PutFileInput{Room: "room", Name: fmt.Sprintf("f%05d.txt", files-1-i%100), Body: uploadBody(files + i), ContentType: "text/plain"}); err != nil {
				b.Fatal(err)
			}
		}},
	}
	const rounds = 200
	spent := make([]time.Duration, len(ops))
	for i := 0; i < rounds; i++ {
		for j, op := range ops {
			start := time.Now()
			op.fn(i)
			spent[j] += time.Since(start)
		}
	}
	for j, op := range ops {
		b.ReportMetric(float64(spent[j].Microseconds())/rounds, op.name+"-µs")
	}
	b.ReportMetric(float64(upTime.Microseconds())/files, "putfile-fill-µs")
}
