package functions

import (
	"bytes"
	"encoding/json"
	"fmt"
	"mime/multipart"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"pumasi"
	"pumasi/adapters/embed"
	"pumasi/adapters/local"
)

// multipartOfSize builds a multipart upload of exactly n bytes: a filler
// field first, then the file part with body.
func multipartOfSize(t *testing.T, n int, body string) (*bytes.Buffer, string) {
	t.Helper()
	build := func(pad int) (*bytes.Buffer, string) {
		var buf bytes.Buffer
		mw := multipart.NewWriter(&buf)
		mw.SetBoundary("edgeboundary0123456789")
		w, _ := mw.CreateFormField("pad")
		w.Write([]byte(strings.Repeat("p", pad)))
		fw, _ := mw.CreateFormFile("file", "edge.md")
		fw.Write([]byte(body))
		mw.Close()
		return &buf, mw.FormDataContentType()
	}
	b, _ := build(0)
	pad := n - b.Len()
	if pad < 0 {
		t.Fatalf("%d bytes is too small for this upload", n)
	}
	b, ct := build(pad)
	if b.Len() != n {
		t.Fatalf("built %d bytes, want %d", b.Len(), n)
	}
	return b, ct
}

// TestUploadLimitEdges: a multipart upload of exactly maxUploadRequest
// bytes with a file of exactly MaxFileSize is accepted, one byte more of
// request is 413; 16 parts are fine and a 17th before the file is 413.
func TestUploadLimitEdges(t *testing.T) {
	e := newTestEnv(t)
	post := func(body *bytes.Buffer, ctype string) response {
		t.Helper()
		return e.do("POST", "/rooms/r1/files", e.admin, body, map[string]string{"Content-Type": ctype})
	}
	file := strings.Repeat("f", pumasi.MaxFileSize)
	if r := post(multipartOfSize(t, maxUploadRequest, file)); r.status != 201 {
		t.Fatalf("upload of exactly %d bytes = %d %s, want 201", maxUploadRequest, r.status, r.body)
	}
	if r := post(multipartOfSize(t, maxUploadRequest+1, "g")); r.status != 413 || r.code() != pumasi.ETooLarge {
		t.Fatalf("upload of %d bytes = %d %s, want 413 too_large", maxUploadRequest+1, r.status, r.body)
	}
	parts := make([][3]string, 0, maxUploadParts+1)
	for i := 0; i < maxUploadParts; i++ {
		parts = append(parts, [3]string{fmt.Sprintf("f%d", i), "", "x"})
	}
	parts = append(parts, [3]string{"file", "seventeen.md", "x\n"})
	body, ctype := multipartParts(t, parts...)
	if r := post(body, ctype); r.status != 413 || r.code() != pumasi.ETooLarge {
		t.Fatalf("%d parts = %d %s, want 413 too_large", maxUploadParts+1, r.status, r.body)
	}
	if r := e.do("POST", "/rooms/r1/files?name=raw.md", e.admin, strings.NewReader(file), nil); r.status != 201 {
		t.Fatalf("raw body of exactly %d bytes = %d, want 201", pumasi.MaxFileSize, r.status)
	}
}

// TestStatusLimitEdge: a status report of exactly MaxStatusBody bytes is
// taken, one byte more is 413.
func TestStatusLimitEdge(t *testing.T) {
	e, _ := newPushEnv(t)
	if r := e.place(e.admin, "r1", "a1", "m1"); r.status != 200 {
		t.Fatalf("place = %d", r.status)
	}
	m1 := e.token(pumasi.ScopeMachine + "m1")
	of := func(n int) string {
		head := `{"agents":[{"agent_id":"a1","files":[]}],"pad":"`
		return head + strings.Repeat("p", n-len(head)-2) + `"}`
	}
	if r := e.do("POST", "/machines/m1/status", m1, strings.NewReader(of(MaxStatusBody)), nil); r.status != 204 {
		t.Fatalf("status of exactly %d bytes = %d %s, want 204", MaxStatusBody, r.status, r.body)
	}
	if r := e.do("POST", "/machines/m1/status", m1, strings.NewReader(of(MaxStatusBody+1)), nil); r.status != 413 || r.code() != pumasi.ETooLarge {
		t.Fatalf("status of %d bytes = %d %s, want 413 too_large", MaxStatusBody+1, r.status, r.body)
	}
}

// TestQueryTextLimitEdge: q of exactly MaxQueryBytes is answered, one byte
// more is 400.
func TestQueryTextLimitEdge(t *testing.T) {
	e := newKnowEnv(t)
	if r := e.do("GET", "/knowledge/query?q="+strings.Repeat("a", MaxQueryBytes), "", ""); r.status != 200 {
		t.Fatalf("q of %d bytes = %d %s, want 200", MaxQueryBytes, r.status, r.raw)
	}
	if r := e.do("GET", "/knowledge/query?q="+strings.Repeat("a", MaxQueryBytes+1), "", ""); r.status != 400 || r.errCode() != pumasi.EInvalidRequest {
		t.Fatalf("q of %d bytes = %d %s, want 400", MaxQueryBytes+1, r.status, r.raw)
	}
}

// TestDefaultRateLimitEdges: with the default limits a handle may write 60
// times at once and the 61st is 429 with Retry-After; a client address
// 120 times at once (across handles) and the 121st is 429.
func TestDefaultRateLimitEdges(t *testing.T) {
	st, err := local.Open(t.Context(), t.TempDir(), local.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	clock := &fakeClock{t: time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)}
	h := (&API{Store: st, Secret: testSecret, Knowledge: local.NewKnowledge(st), Embedder: embed.NewHashed(0), Now: clock.now}).Handler()
	post := func(handle, addr string) *httptest.ResponseRecorder {
		r := httptest.NewRequest("POST", "/knowledge/contribute", strings.NewReader("{"))
		r.RemoteAddr = addr + ":4000"
		r.Header.Set(HeaderAgent, handle)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w
	}
	for i := 1; i <= 60; i++ {
		if w := post("edge-agent", "10.0.0.1"); w.Code != 400 {
			t.Fatalf("write %d of the handle's 60 = %d %s", i, w.Code, w.Body)
		}
	}
	if w := post("edge-agent", "10.0.0.1"); w.Code != 429 || w.Header().Get("Retry-After") == "" {
		t.Fatalf("the handle's 61st write = %d %s, want 429 with Retry-After", w.Code, w.Body)
	}
	for i := 1; i <= 120; i++ {
		if w := post(fmt.Sprintf("agent-%03d", i), "10.0.0.2"); w.Code != 400 {
			t.Fatalf("write %d of the address's 120 = %d %s", i, w.Code, w.Body)
		}
	}
	if w := post("agent-121", "10.0.0.2"); w.Code != 429 {
		t.Fatalf("the address's 121st write = %d %s, want 429", w.Code, w.Body)
	}
	var body struct {
		Error struct{ Code string } `json:"error"`
	}
	w := post("agent-122", "10.0.0.2")
	if json.Unmarshal(w.Body.Bytes(), &body); body.Error.Code != pumasi.ERateLimited {
		t.Fatalf("refused write = %s, want rate_limited", w.Body)
	}
}
