package functions

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/text/unicode/norm"

	"pumasi"
	"pumasi/adapters/local"
)

var testSecret = []byte("test-secret-0123456789abcdef-0123456789")

// testEnv is an API over a real local store, served by httptest.
type testEnv struct {
	t     *testing.T
	home  string
	store *local.Store
	srv   *httptest.Server
	admin string
}

func newTestEnv(t *testing.T) *testEnv {
	t.Helper()
	home := t.TempDir()
	st, err := local.Open(context.Background(), home, local.Options{})
	if err != nil {
		t.Fatalf("open store: %v", err)
	}
	t.Cleanup(func() { st.Close() })
	api := &API{Store: st, Secret: testSecret}
	srv := httptest.NewServer(api.Handler())
	t.Cleanup(srv.Close)
	e := &testEnv{t: t, home: home, store: st, srv: srv}
	e.admin = e.token(pumasi.ScopeAdmin)
	return e
}

func (e *testEnv) token(scopes ...string) string {
	e.t.Helper()
	tok, err := pumasi.SignToken(testSecret, "tester", scopes, time.Hour, time.Now())
	if err != nil {
		e.t.Fatalf("sign: %v", err)
	}
	return tok
}

// response is a finished request: status, headers, body and decoded error code.
type response struct {
	status int
	header http.Header
	body   []byte
}

func (r response) code() string {
	var eb errorBody
	_ = json.Unmarshal(r.body, &eb)
	return eb.Error.Code
}

func (e *testEnv) do(method, path, token string, body io.Reader, header map[string]string) response {
	e.t.Helper()
	req, err := http.NewRequest(method, e.srv.URL+path, body)
	if err != nil {
		e.t.Fatalf("new request: %v", err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return response{resp.StatusCode, resp.Header, b}
}

// multipartBody builds a multipart upload with a raw filename parameter.
func multipartBody(t *testing.T, filename string, content []byte) (io.Reader, string) {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	h := make(map[string][]string)
	h["Content-Disposition"] = []string{`form-data; name="file"; filename="` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(filename) + `"`}
	h["Content-Type"] = []string{"application/octet-stream"}
	pw, err := mw.CreatePart(h)
	if err != nil {
		t.Fatal(err)
	}
	pw.Write(content)
	mw.Close()
	return &buf, mw.FormDataContentType()
}

func (e *testEnv) upload(room, filename string, content []byte, header map[string]string) response {
	e.t.Helper()
	body, ctype := multipartBody(e.t, filename, content)
	h := map[string]string{"Content-Type": ctype}
	for k, v := range header {
		h[k] = v
	}
	return e.do("POST", "/rooms/"+room+"/files", e.admin, body, h)
}

func (e *testEnv) listing(room string) pumasi.Listing {
	e.t.Helper()
	r := e.do("GET", "/rooms/"+room+"/files", e.admin, nil, nil)
	if r.status != 200 {
		e.t.Fatalf("list %s: status %d %s", room, r.status, r.body)
	}
	var l pumasi.Listing
	if err := json.Unmarshal(r.body, &l); err != nil {
		e.t.Fatalf("decode listing: %v", err)
	}
	return l
}

// assertNothingStored checks that room lists nothing at rev 0 and that no blob
// or temp file is left on disk for it.
func (e *testEnv) assertNothingStored(room string) {
	e.t.Helper()
	if l := e.listing(room); l.Rev != 0 || len(l.Files) != 0 {
		e.t.Fatalf("room %s: rev %d, %d files; want nothing stored", room, l.Rev, len(l.Files))
	}
	var left []string
	filepath.WalkDir(filepath.Join(e.home, "room_files", room), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			left = append(left, p)
		}
		return nil
	})
	if len(left) > 0 {
		e.t.Fatalf("room %s: files left on disk: %v", room, left)
	}
}

func TestFileLifecycle(t *testing.T) {
	e := newTestEnv(t)
	content := []byte("# Spec\n\nThe agents share this.\n")

	r := e.upload("r1", "spec.md", content, nil)
	if r.status != 201 {
		t.Fatalf("upload status = %d (%s), want 201", r.status, r.body)
	}
	var f struct {
		pumasi.File
		Changed bool `json:"changed"`
	}
	json.Unmarshal(r.body, &f)
	if !f.Changed || f.Name != "spec.md" || f.Version != 1 || f.Size != int64(len(content)) || f.RoomID != "r1" {
		t.Fatalf("upload answer = %+v", f)
	}
	if f.ContentType != "text/markdown; charset=utf-8" {
		t.Fatalf("content_type = %q", f.ContentType)
	}

	r = e.upload("r1", "spec.md", content, nil)
	if r.status != 200 || !strings.Contains(string(r.body), `"changed":false`) {
		t.Fatalf("identical re-upload = %d %s, want 200 changed false", r.status, r.body)
	}
	if l := e.listing("r1"); l.Rev != 1 {
		t.Fatalf("rev after identical re-upload = %d, want 1", l.Rev)
	}

	r = e.do("GET", "/rooms/r1/files", e.admin, nil, nil)
	if got := r.header.Get("ETag"); got != `"r1"` {
		t.Fatalf("list ETag = %q, want \"r1\"", got)
	}
	if r = e.do("GET", "/rooms/r1/files", e.admin, nil, map[string]string{"If-None-Match": `"r1"`}); r.status != 304 {
		t.Fatalf("list If-None-Match = %d, want 304", r.status)
	}

	r = e.do("GET", "/rooms/r1/files/spec.md", e.admin, nil, nil)
	if r.status != 200 || !bytes.Equal(r.body, content) {
		t.Fatalf("get = %d %q", r.status, r.body)
	}
	etag := r.header.Get("ETag")
	if etag != `"`+f.SHA256+`"` || !strings.HasPrefix(r.header.Get("Content-Type"), "text/markdown") {
		t.Fatalf("get headers ETag=%q Content-Type=%q", etag, r.header.Get("Content-Type"))
	}
	if r = e.do("GET", "/rooms/r1/files/spec.md", e.admin, nil, map[string]string{"If-None-Match": etag}); r.status != 304 {
		t.Fatalf("get If-None-Match = %d, want 304", r.status)
	}
	r = e.do("GET", "/rooms/r1/files/spec.md?meta=1", e.admin, nil, nil)
	var meta pumasi.File
	if json.Unmarshal(r.body, &meta); r.status != 200 || meta.ID != f.ID || meta.SHA256 != f.SHA256 {
		t.Fatalf("meta = %d %s", r.status, r.body)
	}

	// Raw body with ?name= works whatever its Content-Type.
	r = e.do("POST", "/rooms/r1/files?name=notes.txt", e.admin, strings.NewReader("plain text\n"), map[string]string{"Content-Type": "application/octet-stream"})
	if r.status != 201 {
		t.Fatalf("raw upload = %d %s", r.status, r.body)
	}

	// Preconditions.
	r = e.upload("r1", "spec.md", []byte("v2\n"), map[string]string{"If-None-Match": "*"})
	if r.status != 412 || r.code() != pumasi.EPreconditionFailed {
		t.Fatalf("If-None-Match * on existing = %d %s", r.status, r.code())
	}
	r = e.upload("r1", "spec.md", []byte("v2\n"), map[string]string{"If-Match": `"` + strings.Repeat("0", 64) + `"`})
	if r.status != 412 {
		t.Fatalf("If-Match wrong = %d, want 412", r.status)
	}
	r = e.upload("r1", "spec.md", []byte("v2\n"), map[string]string{"If-Match": etag})
	if r.status != 201 || !strings.Contains(string(r.body), `"version":2`) {
		t.Fatalf("If-Match right = %d %s", r.status, r.body)
	}
	r = e.do("DELETE", "/rooms/r1/files/spec.md", e.admin, nil, map[string]string{"If-Match": etag})
	if r.status != 412 {
		t.Fatalf("delete with stale If-Match = %d, want 412", r.status)
	}

	// Case-insensitive clash.
	r = e.upload("r1", "SPEC.md", []byte("other\n"), nil)
	if r.status != 409 || r.code() != pumasi.ENameConflict {
		t.Fatalf("case clash = %d %s, want 409 name_conflict", r.status, r.code())
	}

	if r = e.do("DELETE", "/rooms/r1/files/spec.md", e.admin, nil, nil); r.status != 204 {
		t.Fatalf("delete = %d %s", r.status, r.body)
	}
	if r = e.do("GET", "/rooms/r1/files/spec.md", e.admin, nil, nil); r.status != 404 || r.code() != pumasi.ENotFound {
		t.Fatalf("get after delete = %d %s", r.status, r.code())
	}
	if r = e.do("DELETE", "/rooms/r1/files/spec.md", e.admin, nil, nil); r.status != 404 {
		t.Fatalf("second delete = %d, want 404", r.status)
	}
	if l := e.listing("empty-room"); l.Rev != 0 || l.Files == nil || len(l.Files) != 0 {
		t.Fatalf("empty room listing = %+v", l)
	}
}

func TestUnicodeNames(t *testing.T) {
	e := newTestEnv(t)
	nfd := norm.NFD.String("회의록.md")
	if r := e.upload("r1", nfd, []byte("안녕하세요\n"), nil); r.status != 201 {
		t.Fatalf("upload NFD Korean name = %d %s", r.status, r.body)
	}
	// The NFC form names the same file.
	r := e.do("GET", "/rooms/r1/files/"+url.PathEscape("회의록.md"), e.admin, nil, nil)
	if r.status != 200 || string(r.body) != "안녕하세요\n" {
		t.Fatalf("get NFC name = %d %q", r.status, r.body)
	}
	if r := e.upload("r1", "회의록.md", []byte("안녕하세요\n"), nil); r.status != 200 {
		t.Fatalf("re-upload NFC = %d, want 200 unchanged", r.status)
	}
	if r := e.upload("r1", "my notes.md", []byte("x\n"), nil); r.status != 201 {
		t.Fatalf("name with space = %d %s", r.status, r.body)
	}
	l := e.listing("r1")
	if len(l.Files) != 2 || l.Files[1].Name != "회의록.md" {
		t.Fatalf("listing = %+v", l.Files)
	}
}

func TestUploadRejectsBadInput(t *testing.T) {
	png := append([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), make([]byte, 16)...)
	cases := []struct {
		name     string
		filename string
		query    string
		content  []byte
		raw      string // raw multipart body instead of a built one
		status   int
		code     string
	}{
		{name: "one byte over the limit", filename: "big.txt", content: bytes.Repeat([]byte("a"), pumasi.MaxFileSize+1), status: 413, code: pumasi.ETooLarge},
		{name: "png bytes", filename: "image.txt", content: png, status: 415, code: pumasi.EUnsupportedType},
		{name: "png name", filename: "pic.png", content: []byte("just text"), status: 415, code: pumasi.EUnsupportedType},
		{name: "invalid utf-8", filename: "a.txt", content: []byte("caf\xe9\n"), status: 415, code: pumasi.EUnsupportedType},
		{name: "nul byte", filename: "a.txt", content: []byte("a\x00b"), status: 415, code: pumasi.EUnsupportedType},
		{name: "dot dot", filename: "..", content: []byte("x"), status: 400, code: pumasi.EInvalidName},
		{name: "slash", filename: "a/b", content: []byte("x"), status: 400, code: pumasi.EInvalidName},
		{name: "backslash", filename: `a\b`, content: []byte("x"), status: 400, code: pumasi.EInvalidName},
		{name: "hidden", filename: ".hidden", content: []byte("x"), status: 400, code: pumasi.EInvalidName},
		{name: "percent-encoded dot dot in query", query: "?name=%2e%2e", filename: "ok.txt", content: []byte("x"), status: 400, code: pumasi.EInvalidName},
		{name: "percent-encoded slash in query", query: "?name=..%2fescape.txt", filename: "ok.txt", content: []byte("x"), status: 400, code: pumasi.EInvalidName},
		{name: "control character", query: "?name=a%01b.txt", filename: "ok.txt", content: []byte("x"), status: 400, code: pumasi.EInvalidName},
		{name: "129 bytes", filename: strings.Repeat("a", 126) + ".md", content: []byte("x"), status: 400, code: pumasi.EInvalidName},
		{name: "no name", filename: "", content: []byte("x"), status: 400, code: pumasi.EInvalidName},
		{name: "broken multipart", raw: "--b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.txt\"\r\n\r\nunterminated", status: 400, code: pumasi.EInvalidRequest},
		{name: "multipart without file field", raw: "--b\r\nContent-Disposition: form-data; name=\"other\"\r\n\r\nx\r\n--b--\r\n", status: 400, code: pumasi.EInvalidRequest},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newTestEnv(t)
			var r response
			if c.raw != "" {
				r = e.do("POST", "/rooms/r1/files", e.admin, strings.NewReader(c.raw), map[string]string{"Content-Type": "multipart/form-data; boundary=b"})
			} else {
				body, ctype := multipartBody(t, c.filename, c.content)
				r = e.do("POST", "/rooms/r1/files"+c.query, e.admin, body, map[string]string{"Content-Type": ctype})
			}
			if r.status != c.status || r.code() != c.code {
				t.Fatalf("status, code = %d %q (%s), want %d %q", r.status, r.code(), r.body, c.status, c.code)
			}
			e.assertNothingStored("r1")
		})
	}
}

func TestLimitBoundaryAccepted(t *testing.T) {
	e := newTestEnv(t)
	if r := e.upload("r1", "max.txt", bytes.Repeat([]byte("a"), pumasi.MaxFileSize), nil); r.status != 201 {
		t.Fatalf("exactly %d bytes = %d %s, want 201", pumasi.MaxFileSize, r.status, r.body)
	}
	// Raw bodies far past the limit are refused without reading them whole.
	r := e.do("POST", "/rooms/r1/files?name=huge.txt", e.admin, bytes.NewReader(bytes.Repeat([]byte("a"), 4<<20)), nil)
	if r.status != 413 || r.code() != pumasi.ETooLarge {
		t.Fatalf("4 MiB raw body = %d %s", r.status, r.code())
	}
}

func TestHostilePathNames(t *testing.T) {
	e := newTestEnv(t)
	if r := e.upload("r1", "safe.md", []byte("x\n"), nil); r.status != 201 {
		t.Fatalf("upload = %d", r.status)
	}
	for _, p := range []string{"%2e%2e", "a%2Fb", "a%5Cb", ".hidden", "a%00b", "%2e%2e%2fsafe.md"} {
		for _, m := range []string{"GET", "DELETE"} {
			r := e.do(m, "/rooms/r1/files/"+p, e.admin, nil, nil)
			if r.status != 400 || r.code() != pumasi.EInvalidName {
				t.Errorf("%s %s = %d %s, want 400 invalid_name", m, p, r.status, r.code())
			}
		}
	}
	if l := e.listing("r1"); len(l.Files) != 1 {
		t.Fatalf("listing after hostile requests = %d files, want 1", len(l.Files))
	}
	if r := e.do("GET", "/rooms/BAD..room/files", e.admin, nil, nil); r.status != 400 {
		t.Fatalf("bad room id = %d, want 400", r.status)
	}
}

func TestFileAuth(t *testing.T) {
	e := newTestEnv(t)
	forged, _ := pumasi.SignToken([]byte("another-secret-0123456789abcdef"), "x", []string{pumasi.ScopeAdmin}, time.Hour, time.Now())
	expired, _ := pumasi.SignToken(testSecret, "x", []string{pumasi.ScopeAdmin}, time.Hour, time.Now().Add(-2*time.Hour))
	r1 := e.token("room:r1")
	r2 := e.token("room:r2")
	cases := []struct {
		name, token string
		status      int
		code        string
	}{
		{"missing", "", 401, pumasi.EUnauthorized},
		{"garbage", "not-a-jwt", 401, pumasi.EUnauthorized},
		{"forged", forged, 401, pumasi.EUnauthorized},
		{"expired", expired, 401, pumasi.EUnauthorized},
		{"other room", r2, 403, pumasi.EForbidden},
		{"own room", r1, 201, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			body, ctype := multipartBody(t, "a.md", []byte("x\n"))
			r := e.do("POST", "/rooms/r1/files", c.token, body, map[string]string{"Content-Type": ctype})
			if r.status != c.status || r.code() != c.code {
				t.Fatalf("upload = %d %q, want %d %q", r.status, r.code(), c.status, c.code)
			}
			for _, m := range []string{"GET /rooms/r1/files", "GET /rooms/r1/files/a.md", "DELETE /rooms/r1/files/zz.md"} {
				mp := strings.SplitN(m, " ", 2)
				r := e.do(mp[0], mp[1], c.token, nil, nil)
				if c.status >= 400 && (r.status != c.status || r.code() != c.code) {
					t.Fatalf("%s = %d %q, want %d %q", m, r.status, r.code(), c.status, c.code)
				}
			}
		})
	}
	if l := e.listing("r1"); len(l.Files) != 1 {
		t.Fatalf("files = %d, want only the authorised upload", len(l.Files))
	}
}

func TestUnknownRouteAndMethod(t *testing.T) {
	e := newTestEnv(t)
	if r := e.do("GET", "/nope", e.admin, nil, nil); r.status != 404 || r.code() != pumasi.ENotFound {
		t.Fatalf("unknown path = %d %s", r.status, r.code())
	}
	if r := e.do("PATCH", "/rooms/r1/files", e.admin, nil, nil); r.status != 405 {
		t.Fatalf("wrong method = %d, want 405", r.status)
	}
	if r := e.do("GET", "/healthz", "", nil, nil); r.status != 200 {
		t.Fatalf("healthz = %d", r.status)
	}
}
