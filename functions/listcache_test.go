package functions

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"pumasi"
	"pumasi/adapters/local"
)

// countingStore is a real local store that counts the listings read from it.
type countingStore struct {
	*local.Store
	lists atomic.Int64
}

func (c *countingStore) ListFiles(ctx context.Context, room string) (pumasi.Listing, error) {
	c.lists.Add(1)
	return c.Store.ListFiles(ctx, room)
}

// twoAPIs opens two stores on one home, each behind its own API (and so its
// own caches), as two processes sharing a home would be.
func twoAPIs(t *testing.T) (a, b *testEnv, ca *countingStore) {
	t.Helper()
	home := t.TempDir()
	open := func() (*testEnv, *countingStore) {
		st, err := local.Open(context.Background(), home, local.Options{})
		if err != nil {
			t.Fatalf("open store: %v", err)
		}
		t.Cleanup(func() { st.Close() })
		cs := &countingStore{Store: st}
		srv := httptest.NewServer((&API{Store: cs, Secret: testSecret}).Handler())
		t.Cleanup(srv.Close)
		e := &testEnv{t: t, home: home, store: st, srv: srv}
		e.admin = e.token(pumasi.ScopeAdmin)
		return e, cs
	}
	a, ca = open()
	b, _ = open()
	return a, b, ca
}

func TestListCacheNeverStale(t *testing.T) {
	a, b, ca := twoAPIs(t)
	if r := a.upload("r1", "one.md", []byte("one\n"), nil); r.status != 201 {
		t.Fatalf("upload: %d %s", r.status, r.body)
	}
	first := a.listing("r1")
	reads := ca.lists.Load()
	// The same rev again: served from the cache, no listing read.
	if again := a.listing("r1"); again.Rev != first.Rev || len(again.Files) != 1 {
		t.Fatalf("second listing = rev %d %d files, want rev %d 1 file", again.Rev, len(again.Files), first.Rev)
	}
	etag := listETag(first.Rev)
	if r := a.do("GET", "/rooms/r1/files", a.admin, nil, map[string]string{"If-None-Match": etag}); r.status != 304 {
		t.Fatalf("conditional list = %d, want 304", r.status)
	}
	if got := ca.lists.Load(); got != reads {
		t.Fatalf("listings read for a cached rev and a 304 = %d, want 0", got-reads)
	}

	// A change made by the other store must show at once, cached or not.
	steps := []struct {
		name   string
		change func() response
		files  int
	}{
		{"upload elsewhere", func() response { return b.upload("r1", "two.md", []byte("two\n"), nil) }, 2},
		{"replace elsewhere", func() response { return b.upload("r1", "two.md", []byte("two v2\n"), nil) }, 2},
		{"delete elsewhere", func() response { return b.do("DELETE", "/rooms/r1/files/one.md", b.admin, nil, nil) }, 1},
	}
	prev := first
	for _, st := range steps {
		if r := st.change(); r.status/100 != 2 {
			t.Fatalf("%s: %d %s", st.name, r.status, r.body)
		}
		r := a.do("GET", "/rooms/r1/files", a.admin, nil, map[string]string{"If-None-Match": listETag(prev.Rev)})
		if r.status != 200 {
			t.Fatalf("%s: conditional list with the old ETag = %d, want 200", st.name, r.status)
		}
		var l pumasi.Listing
		if err := json.Unmarshal(r.body, &l); err != nil {
			t.Fatal(err)
		}
		if l.Rev <= prev.Rev || len(l.Files) != st.files || r.header.Get("ETag") != listETag(l.Rev) {
			t.Fatalf("%s: listing rev %d (was %d), %d files, ETag %s; want a newer rev, %d files",
				st.name, l.Rev, prev.Rev, len(l.Files), r.header.Get("ETag"), st.files)
		}
		if want := b.listing("r1"); !sameListing(l, want) {
			t.Fatalf("%s: listing %+v, the other process lists %+v", st.name, l, want)
		}
		prev = l
	}
}

func sameListing(a, b pumasi.Listing) bool {
	if a.Rev != b.Rev || len(a.Files) != len(b.Files) {
		return false
	}
	for i := range a.Files {
		if a.Files[i].Name != b.Files[i].Name || a.Files[i].SHA256 != b.Files[i].SHA256 {
			return false
		}
	}
	return true
}

func TestAssignmentsCacheNeverStale(t *testing.T) {
	a, b, ca := twoAPIs(t)
	m1 := a.token(pumasi.ScopeMachine + "m1")
	if r := a.place(a.admin, "r1", "a1", "m1"); r.status/100 != 2 {
		t.Fatalf("place: %d %s", r.status, r.body)
	}
	a.upload("r1", "spec.md", []byte("# spec\n"), nil)
	get := func(etag string) (response, Assignments) {
		t.Helper()
		r := a.do("GET", "/machines/m1/assignments", m1, nil, map[string]string{"If-None-Match": etag})
		var as Assignments
		if r.status == 200 {
			if err := json.Unmarshal(r.body, &as); err != nil {
				t.Fatal(err)
			}
			if r.header.Get("ETag") != `"`+as.ETag+`"` {
				t.Fatalf("ETag header %s, field %s", r.header.Get("ETag"), as.ETag)
			}
		}
		return r, as
	}
	r, as := get("")
	if r.status != 200 || len(as.Agents) != 1 || len(as.Agents[0].Files) != 1 {
		t.Fatalf("assignments = %d %s", r.status, r.body)
	}
	reads := ca.lists.Load()
	if r, _ := get(`"` + as.ETag + `"`); r.status != 304 {
		t.Fatalf("poll with the current etag = %d, want 304", r.status)
	}
	if r, again := get(""); r.status != 200 || again.ETag != as.ETag {
		t.Fatalf("unconditional again = %d etag %s, want 200 %s", r.status, again.ETag, as.ETag)
	}
	if got := ca.lists.Load(); got != reads {
		t.Fatalf("listings read for a 304 and an unchanged answer = %d, want 0", got-reads)
	}

	steps := []struct {
		name   string
		change func() response
		check  func(Assignments) bool
	}{
		{"upload elsewhere", func() response { return b.upload("r1", "more.md", []byte("more\n"), nil) },
			func(as Assignments) bool { return len(as.Agents) == 1 && len(as.Agents[0].Files) == 2 }},
		{"placement elsewhere", func() response { return b.place(b.admin, "r2", "a2", "m1") },
			func(as Assignments) bool { return len(as.Agents) == 2 && as.Agents[1].RoomID == "r2" }},
		{"move elsewhere", func() response { return b.place(b.admin, "r2", "a1", "m1") },
			func(as Assignments) bool {
				return len(as.Agents) == 2 && as.Agents[0].RoomID == "r2" && len(as.Agents[0].Files) == 0
			}},
	}
	prev := as
	for _, st := range steps {
		if r := st.change(); r.status/100 != 2 {
			t.Fatalf("%s: %d %s", st.name, r.status, r.body)
		}
		r, as := get(`"` + prev.ETag + `"`)
		if r.status != 200 || as.ETag == prev.ETag || !st.check(as) {
			t.Fatalf("%s: poll = %d etag %s (was %s) %s", st.name, r.status, as.ETag, prev.ETag, r.body)
		}
		prev = as
	}
}
