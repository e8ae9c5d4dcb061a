package functions

import (
	"strconv"
	"testing"

	"pumasi"
)

// TestIfMatchSemantics drives RFC 9110 If-Match through HTTP: a weak tag
// never matches (it once deleted a file), "*" means the name exists, and a
// malformed value is a 400, not a silent "no condition".
func TestIfMatchSemantics(t *testing.T) {
	e := newTestEnv(t)
	r := e.upload("r1", "spec.md", []byte("v1\n"), nil)
	if r.status != 201 {
		t.Fatalf("upload = %d %s", r.status, r.body)
	}
	etag := r.header.Get("ETag")
	sha, err := strconv.Unquote(etag)
	if err != nil {
		t.Fatalf("ETag %q: %v", etag, err)
	}
	weak := "W/" + etag

	steps := []struct {
		what   string
		resp   func() response
		status int
		code   string
	}{
		{"upload, weak If-Match", func() response { return e.upload("r1", "spec.md", []byte("v2\n"), map[string]string{"If-Match": weak}) }, 412, pumasi.EPreconditionFailed},
		{"delete, weak If-Match", func() response {
			return e.do("DELETE", "/rooms/r1/files/spec.md", e.admin, nil, map[string]string{"If-Match": weak})
		}, 412, pumasi.EPreconditionFailed},
		{"upload, malformed If-Match", func() response {
			return e.upload("r1", "spec.md", []byte("v2\n"), map[string]string{"If-Match": `"v1"`})
		}, 400, pumasi.EInvalidRequest},
		{"upload, If-Match * on an absent name", func() response { return e.upload("r1", "new.md", []byte("n\n"), map[string]string{"If-Match": "*"}) }, 412, pumasi.EPreconditionFailed},
		{"upload, If-Match bare sha256", func() response { return e.upload("r1", "spec.md", []byte("v2\n"), map[string]string{"If-Match": sha}) }, 201, ""},
		{"upload, If-Match * on an existing name", func() response { return e.upload("r1", "spec.md", []byte("v3\n"), map[string]string{"If-Match": "*"}) }, 201, ""},
		{"delete, If-Match *", func() response {
			return e.do("DELETE", "/rooms/r1/files/spec.md", e.admin, nil, map[string]string{"If-Match": "*"})
		}, 204, ""},
		{"delete again, If-Match *", func() response {
			return e.do("DELETE", "/rooms/r1/files/spec.md", e.admin, nil, map[string]string{"If-Match": "*"})
		}, 404, pumasi.ENotFound},
	}
	for _, s := range steps {
		r := s.resp()
		if r.status != s.status || r.code() != s.code {
			t.Fatalf("%s = %d %q, want %d %q (%s)", s.what, r.status, r.code(), s.status, s.code, r.body)
		}
	}
	if _, err := e.store.StatFile(t.Context(), "r1", "new.md"); pumasi.ErrorCode(err) != pumasi.ENotFound {
		t.Fatalf("If-Match * created new.md: %v", err)
	}
}
