package functions

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	"pumasi"
)

// TestHistoryRoutes walks a file through its past over HTTP: versions with
// who made them, an old version's bytes and ETag, a stale restore told the
// current sha256, a restore fanned out like an upload, the deleted names,
// and the room log naming each token's subject.
func TestHistoryRoutes(t *testing.T) {
	e, rec := newPushEnv(t)
	alice, err := pumasi.SignToken(testSecret, "alice", []string{pumasi.ScopeRoom + "r"}, time.Hour, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	bob, _ := pumasi.SignToken(testSecret, "bob", []string{pumasi.ScopeRoom + "r"}, time.Hour, time.Now())
	machine := e.token(pumasi.ScopeMachine + "m1")
	if r := e.place(e.admin, "r", "a1", "m1"); r.status != 200 {
		t.Fatalf("place: %d %s", r.status, r.body)
	}
	put := func(tok, body string, header map[string]string) response {
		t.Helper()
		h := map[string]string{"Content-Type": "text/markdown"}
		for k, v := range header {
			h[k] = v
		}
		return e.do("POST", "/rooms/r/files?name=plan.md", tok, strings.NewReader(body), h)
	}
	v1 := put(alice, "# plan v1\n", nil)
	v2 := put(bob, "# plan v2, broken\n", nil)
	if v1.status != 201 || v2.status != 201 {
		t.Fatalf("uploads: %d %d", v1.status, v2.status)
	}
	sha1, sha2 := strings.Trim(v1.header.Get("ETag"), `"`), strings.Trim(v2.header.Get("ETag"), `"`)

	r := e.do("GET", "/rooms/r/files/plan.md/versions", alice, nil, nil)
	var vl versionList
	if err := json.Unmarshal(r.body, &vl); r.status != 200 || err != nil {
		t.Fatalf("versions: %d %s", r.status, r.body)
	}
	if len(vl.Versions) != 2 || vl.Versions[0].UploadedBy != "bob" || vl.Versions[1].UploadedBy != "alice" || !vl.Versions[0].Current {
		t.Fatalf("versions = %+v, want bob's 2 (current) over alice's 1", vl.Versions)
	}
	if r := e.do("GET", "/rooms/r/files/plan.md/versions", machine, nil, nil); r.status != 403 {
		t.Fatalf("versions with a machine token: %d, want 403", r.status)
	}

	r = e.do("GET", "/rooms/r/files/plan.md?version=1", alice, nil, nil)
	if r.status != 200 || string(r.body) != "# plan v1\n" || r.header.Get("ETag") != strconv.Quote(sha1) || r.header.Get("X-Pumasi-Version") != "1" {
		t.Fatalf("GET ?version=1 = %d %q ETag %s", r.status, r.body, r.header.Get("ETag"))
	}
	if r := e.do("GET", "/rooms/r/files/plan.md?version=1", alice, nil, map[string]string{"If-None-Match": strconv.Quote(sha1)}); r.status != 304 {
		t.Fatalf("GET ?version=1 with its ETag: %d, want 304", r.status)
	}
	for _, bad := range []string{"0", "x", "-1"} {
		if r := e.do("GET", "/rooms/r/files/plan.md?version="+bad, alice, nil, nil); r.status != 400 {
			t.Fatalf("GET ?version=%s: %d, want 400", bad, r.status)
		}
	}
	if r := e.do("GET", "/rooms/r/files/plan.md?version=9", alice, nil, nil); r.status != 404 {
		t.Fatalf("GET ?version=9: %d, want 404", r.status)
	}

	rec.take()
	restore := func(tok, body string, header map[string]string) response {
		t.Helper()
		return e.do("POST", "/rooms/r/files/plan.md/restore", tok, strings.NewReader(body), header)
	}
	r = restore(alice, `{"version":1}`, map[string]string{"If-Match": strconv.Quote(sha1)})
	if r.status != 412 || r.code() != pumasi.EPreconditionFailed || r.header.Get("ETag") != strconv.Quote(sha2) {
		t.Fatalf("stale restore = %d %s ETag %q, want 412 naming %s", r.status, r.body, r.header.Get("ETag"), sha2)
	}
	r = restore(alice, `{"version":1}`, map[string]string{"If-Match": strconv.Quote(sha2)})
	var fc fileChanged
	if err := json.Unmarshal(r.body, &fc); r.status != 201 || err != nil || fc.Version != 3 || fc.SHA256 != sha1 || fc.UploadedBy != "alice" || !fc.Changed {
		t.Fatalf("restore = %d %s, want 201 version 3 of v1's bytes by alice", r.status, r.body)
	}
	if got := rec.take(); len(got["m1"]) != 1 || got["m1"][0] != pumasi.FrameWrite {
		t.Fatalf("restore pushed %v, want one write frame to m1", got)
	}
	if r := restore(alice, `{"version":1}`, nil); r.status != 200 || len(rec.take()) != 0 {
		t.Fatalf("restoring the current content = %d, want 200 and nothing pushed", r.status)
	}
	for _, bad := range []string{`{}`, `{"version":0}`, `{"version":"1"}`, `not json`} {
		if r := restore(alice, bad, nil); r.status != 400 {
			t.Fatalf("restore %s: %d, want 400", bad, r.status)
		}
	}

	if r := e.do("DELETE", "/rooms/r/files/plan.md", bob, nil, nil); r.status != 204 {
		t.Fatalf("delete: %d", r.status)
	}
	r = e.do("GET", "/rooms/r/files?deleted=1", alice, nil, nil)
	var dl deletedList
	if err := json.Unmarshal(r.body, &dl); r.status != 200 || err != nil || len(dl.Files) != 1 || dl.Files[0].DeletedBy != "bob" || dl.Files[0].LastVersion != 3 {
		t.Fatalf("deleted names = %d %s", r.status, r.body)
	}
	if r := e.do("GET", "/rooms/r/files?deleted=1", machine, nil, nil); r.status != 403 {
		t.Fatalf("deleted names with a machine token: %d, want 403", r.status)
	}
	if r := e.do("GET", "/rooms/r/files/plan.md?version=4", alice, nil, nil); r.status != 410 || r.code() != pumasi.EGone {
		t.Fatalf("GET the delete's version: %d %s, want 410 gone", r.status, r.body)
	}
	r = restore(alice, `{"version":2}`, map[string]string{"If-None-Match": "*"})
	if r.status != 201 || e.listing("r").Files[0].SHA256 != sha2 {
		t.Fatalf("restore of the deleted name: %d %s", r.status, r.body)
	}

	r = e.do("GET", "/rooms/r/log?since=1", alice, nil, nil)
	var l pumasi.RoomLog
	if err := json.Unmarshal(r.body, &l); r.status != 200 || err != nil {
		t.Fatalf("log: %d %s", r.status, r.body)
	}
	var got []string
	for _, c := range l.Changes {
		got = append(got, c.Kind+":"+c.By)
	}
	if want := "upload:alice upload:bob restore:alice delete:bob restore:alice"; strings.Join(got, " ") != want {
		t.Fatalf("log since 1 = %s, want %s", strings.Join(got, " "), want)
	}
	if r := e.do("GET", "/rooms/r/log?limit=2", alice, nil, nil); r.status != 200 || !strings.Contains(string(r.body), `"more":true`) {
		t.Fatalf("log limit 2: %d %s", r.status, r.body)
	}
	for _, bad := range []string{"since=-1", "since=x", "limit=0", "limit=1001"} {
		if r := e.do("GET", "/rooms/r/log?"+bad, alice, nil, nil); r.status != 400 {
			t.Fatalf("log ?%s: %d, want 400", bad, r.status)
		}
	}
}
