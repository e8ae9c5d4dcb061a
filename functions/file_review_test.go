package functions

import (
	"encoding/json"
	"strconv"
	"testing"

	"pumasi"
)

// TestDeleteIfNoneMatchStar checks DESIGN §4: If-None-Match: * on a delete
// holds only when the name does not exist, so an existing file answers 412
// and stays; an absent one answers 404.
func TestDeleteIfNoneMatchStar(t *testing.T) {
	e := newTestEnv(t)
	if r := e.upload("r1", "spec.md", []byte("# spec\n"), nil); r.status != 201 {
		t.Fatalf("upload = %d %s", r.status, r.body)
	}
	rev := e.listing("r1").Rev

	r := e.do("DELETE", "/rooms/r1/files/spec.md", e.admin, nil, map[string]string{"If-None-Match": "*"})
	if r.status != 412 || r.code() != pumasi.EPreconditionFailed {
		t.Fatalf("delete with If-None-Match: * on an existing name = %d %s, want 412 %s", r.status, r.code(), pumasi.EPreconditionFailed)
	}
	l := e.listing("r1")
	if len(l.Files) != 1 || l.Files[0].Name != "spec.md" || l.Rev != rev {
		t.Fatalf("after refused delete: %d files at rev %d, want spec.md kept at rev %d", len(l.Files), l.Rev, rev)
	}

	r = e.do("DELETE", "/rooms/r1/files/gone.md", e.admin, nil, map[string]string{"If-None-Match": "*"})
	if r.status != 404 || r.code() != pumasi.ENotFound {
		t.Fatalf("delete with If-None-Match: * on an absent name = %d %s, want 404", r.status, r.code())
	}

	if r := e.do("DELETE", "/rooms/r1/files/spec.md", e.admin, nil, nil); r.status != 204 {
		t.Fatalf("plain delete = %d %s, want 204", r.status, r.body)
	}
}

// TestMetaNotModified checks that GET ?meta=1 honours If-None-Match with the
// file's ETag like the bytes do (DESIGN §4: 200 / 304).
func TestMetaNotModified(t *testing.T) {
	e := newTestEnv(t)
	r := e.upload("r1", "spec.md", []byte("# spec\n"), nil)
	if r.status != 201 {
		t.Fatalf("upload = %d %s", r.status, r.body)
	}
	etag := r.header.Get("ETag")
	if etag == "" || etag[0] != '"' {
		t.Fatalf("upload ETag = %q, want a quoted sha256", etag)
	}
	r = e.do("GET", "/rooms/r1/files/spec.md?meta=1", e.admin, nil, map[string]string{"If-None-Match": etag})
	if r.status != 304 || len(r.body) != 0 {
		t.Fatalf("meta with matching If-None-Match = %d (%d body bytes), want 304 and no body", r.status, len(r.body))
	}
	if got := r.header.Get("ETag"); got != etag {
		t.Fatalf("304 ETag = %q, want %q", got, etag)
	}
	other := strconv.Quote("0000000000000000000000000000000000000000000000000000000000000000")
	r = e.do("GET", "/rooms/r1/files/spec.md?meta=1", e.admin, nil, map[string]string{"If-None-Match": other})
	if r.status != 200 || r.header.Get("Content-Type") != "application/json" {
		t.Fatalf("meta with another ETag = %d %q, want 200 JSON", r.status, r.header.Get("Content-Type"))
	}
}

// TestMethodNotAllowedListsMethods checks that a 405 names the methods the
// path does serve in Allow, as HTTP requires, OPTIONS included; that the
// most specific pattern decides (POST /knowledge/contribute beats GET
// /knowledge/{id}); and that OPTIONS answers 204 with the same Allow.
func TestMethodNotAllowedListsMethods(t *testing.T) {
	e := newTestEnv(t)
	for _, tc := range []struct{ method, path, want string }{
		{"PATCH", "/rooms/r1/files", "GET, HEAD, POST, OPTIONS"},
		{"POST", "/rooms/r1/files/spec.md", "GET, HEAD, DELETE, OPTIONS"},
		{"DELETE", "/knowledge/query", "GET, HEAD, OPTIONS"},
		{"GET", "/knowledge/contribute", "POST, OPTIONS"},
		{"PUT", "/knowledge/some-entry", "GET, HEAD, DELETE, OPTIONS"}, // DELETE redacts (admin)
	} {
		r := e.do(tc.method, tc.path, e.admin, nil, nil)
		var body struct {
			Success *bool `json:"success"`
		}
		json.Unmarshal(r.body, &body)
		if r.status != 405 || r.code() != "method_not_allowed" || body.Success == nil || *body.Success {
			t.Fatalf("%s %s = %d %s %s, want 405 method_not_allowed with success false", tc.method, tc.path, r.status, r.code(), r.body)
		}
		if got := r.header.Get("Allow"); got != tc.want {
			t.Fatalf("%s %s: Allow = %q, want %q", tc.method, tc.path, got, tc.want)
		}
		opt := e.do("OPTIONS", tc.path, "", nil, nil)
		if opt.status != 204 || opt.header.Get("Allow") != tc.want {
			t.Fatalf("OPTIONS %s = %d Allow %q, want 204 %q", tc.path, opt.status, opt.header.Get("Allow"), tc.want)
		}
	}
	if r := e.do("GET", "/no/such/path", e.admin, nil, nil); r.status != 404 || r.header.Get("Allow") != "" {
		t.Fatalf("unknown path = %d Allow %q, want 404 without Allow", r.status, r.header.Get("Allow"))
	}
}

// TestBearerSchemeCaseInsensitive checks that the auth scheme is matched
// case-insensitively, as HTTP defines it, and that other schemes stay 401.
func TestBearerSchemeCaseInsensitive(t *testing.T) {
	e := newTestEnv(t)
	for _, tc := range []struct {
		auth string
		want int
	}{
		{"Bearer " + e.admin, 200},
		{"bearer " + e.admin, 200},
		{"BEARER " + e.admin, 200},
		{"Basic " + e.admin, 401},
		{"Bearer ", 401},
		{"bearer", 401},
	} {
		r := e.do("GET", "/rooms/r1/files", "", nil, map[string]string{"Authorization": tc.auth})
		if r.status != tc.want {
			t.Fatalf("Authorization %.12q... = %d %s, want %d", tc.auth, r.status, r.code(), tc.want)
		}
	}
}
