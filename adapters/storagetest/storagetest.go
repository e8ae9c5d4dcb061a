// Package storagetest is the one conformance suite every pumasi.Store backend
// passes. A backend runs it with a Harness from its own test:
//
//	func TestConformance(t *testing.T) { storagetest.Run(t, harness()) }
//
// The suite talks to the store only through pumasi.Store, except for the
// blob listing and orphan planting the Harness provides, which let it check
// that listings and blobs agree.
package storagetest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/text/unicode/norm"

	"pumasi"
)

// Limits are the room quotas a store under test is built with; zero values
// mean the backend's defaults.
type Limits struct {
	MaxRoomFiles int
	MaxRoomBytes int64
	// History is the store's retention; the zero value keeps the defaults.
	History pumasi.Retention
	// Now, when set, is the store's clock (history ages by it).
	Now func() time.Time
}

// Harness builds and inspects stores of one backend.
type Harness struct {
	// New returns a fresh, empty store with the given room limits. It must
	// close the store itself, with t.Cleanup.
	New func(t *testing.T, lim Limits) pumasi.Store
	// Blobs returns every content-addressed blob the backend holds for room,
	// keyed by sha256, with its bytes.
	Blobs func(t *testing.T, s pumasi.Store, room string) map[string][]byte
	// PutOrphan stores body as a blob of room that no file references, as an
	// upload that crashed before its commit leaves it, with a fresh
	// modification time.
	PutOrphan func(t *testing.T, s pumasi.Store, room string, body []byte)
	// Reopen returns a store on the same data as s with other room limits,
	// as a deployment restarted with a lowered quota sees it; it must close
	// the store itself, with t.Cleanup.
	Reopen func(t *testing.T, s pumasi.Store, lim Limits) pumasi.Store
}

// Run runs the whole suite against h.
func Run(t *testing.T, h Harness) {
	if h.New == nil || h.Blobs == nil || h.PutOrphan == nil || h.Reopen == nil {
		t.Fatal("storagetest: Harness needs New, Blobs, PutOrphan and Reopen")
	}
	tests := []struct {
		name string
		fn   func(t *testing.T, h Harness)
	}{
		{"RoundTrip", testRoundTrip},
		{"UnknownRoom", testUnknownRoom},
		{"InvalidIDs", testInvalidIDs},
		{"RoomsAreSeparate", testRoomsAreSeparate},
		{"SortOrder", testSortOrder},
		{"Reupload", testReupload},
		{"RecreateAfterDelete", testRecreateAfterDelete},
		{"Preconditions", testPreconditions},
		{"Names", testNames},
		{"Lookalikes", testLookalikes},
		{"Quotas", testQuotas},
		{"LoweredQuota", testLoweredQuota},
		{"WeakTag", testWeakTag},
		{"IfMatchAny", testIfMatchAny},
		{"ConcurrentMove", testConcurrentMove},
		{"ConcurrentUploads", testConcurrentUploads},
		{"PutDeleteRace", testPutDeleteRace},
		{"Placements", testPlacements},
		{"AgentPlacement", testAgentPlacement},
		{"Status", testStatus},
		{"Sweep", testSweep},
		{"ListRooms", testListRooms},
	}
	tests = append(tests, historyTests...)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.fn(t, h) })
	}
}

const md = "text/markdown; charset=utf-8"

func sum(b string) string {
	h := sha256.Sum256([]byte(b))
	return hex.EncodeToString(h[:])
}

func put(t *testing.T, s pumasi.Store, room, name, body string) pumasi.PutFileResult {
	t.Helper()
	r, err := s.PutFile(context.Background(), pumasi.PutFileInput{
		Room: room, Name: name, Body: []byte(body), ContentType: md, UploadedBy: "tester",
	})
	if err != nil {
		t.Fatalf("PutFile(%s, %q) error: %v", room, name, err)
	}
	return r
}

func wantCode(t *testing.T, what string, err error, code string) {
	t.Helper()
	if got := pumasi.ErrorCode(err); got != code {
		t.Fatalf("%s: error code = %q (%v), want %q", what, got, err, code)
	}
}

func list(t *testing.T, s pumasi.Store, room string) pumasi.Listing {
	t.Helper()
	l, err := s.ListFiles(context.Background(), room)
	if err != nil {
		t.Fatalf("ListFiles(%s) error: %v", room, err)
	}
	if l.Files == nil {
		t.Fatalf("ListFiles(%s).Files is nil, want a non-nil slice", room)
	}
	if l.RoomID != room {
		t.Fatalf("ListFiles(%s).RoomID = %q", room, l.RoomID)
	}
	return l
}

func names(l pumasi.Listing) []string {
	out := make([]string, len(l.Files))
	for i, f := range l.Files {
		out[i] = f.Name
	}
	return out
}

func read(t *testing.T, s pumasi.Store, room, name string) (pumasi.File, string) {
	t.Helper()
	f, b, err := s.ReadFile(context.Background(), room, name)
	if err != nil {
		t.Fatalf("ReadFile(%s, %q) error: %v", room, name, err)
	}
	return f, string(b)
}

func sameFile(t *testing.T, what string, got, want pumasi.File) {
	t.Helper()
	if got.ID != want.ID || got.RoomID != want.RoomID || got.Name != want.Name || got.SHA256 != want.SHA256 ||
		got.Size != want.Size || got.ContentType != want.ContentType || got.Version != want.Version ||
		got.UploadedBy != want.UploadedBy || !got.CreatedAt.Equal(want.CreatedAt) || !got.UpdatedAt.Equal(want.UpdatedAt) {
		t.Fatalf("%s = %+v, want %+v", what, got, want)
	}
}

func sweep(t *testing.T, s pumasi.Store, grace time.Duration) pumasi.SweepReport {
	t.Helper()
	rep, err := s.Sweep(context.Background(), grace)
	if err != nil {
		t.Fatalf("Sweep(%v) error: %v", grace, err)
	}
	return rep
}

// blobsMatchListing checks that every listed file reads back with its sha256
// and that the backend holds its blob with exactly those bytes.
func blobsMatchListing(t *testing.T, h Harness, s pumasi.Store, room string) pumasi.Listing {
	t.Helper()
	l := list(t, s, room)
	blobs := h.Blobs(t, s, room)
	for _, f := range l.Files {
		b, ok := blobs[f.SHA256]
		if !ok {
			t.Fatalf("listed file %q has no blob %s", f.Name, f.SHA256)
		}
		if got := sum(string(b)); got != f.SHA256 {
			t.Fatalf("blob %s holds bytes hashing to %s", f.SHA256, got)
		}
		if int64(len(b)) != f.Size {
			t.Fatalf("file %q size = %d, blob has %d bytes", f.Name, f.Size, len(b))
		}
		_, body := read(t, s, room, f.Name)
		if sum(body) != f.SHA256 {
			t.Fatalf("ReadFile(%q) bytes hash to %s, want %s", f.Name, sum(body), f.SHA256)
		}
	}
	return l
}

func blobSet(t *testing.T, h Harness, s pumasi.Store, room string) []string {
	t.Helper()
	var out []string
	for k := range h.Blobs(t, s, room) {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func shaSet(l pumasi.Listing) []string {
	seen := map[string]bool{}
	var out []string
	for _, f := range l.Files {
		if !seen[f.SHA256] {
			seen[f.SHA256] = true
			out = append(out, f.SHA256)
		}
	}
	sort.Strings(out)
	return out
}

func equalStrings(a, b []string) bool {
	return strings.Join(a, "\x00") == strings.Join(b, "\x00") && len(a) == len(b)
}

func testRoundTrip(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.New(t, Limits{})
	const room, name, body = "round", "notes.md", "# Notes\n\nhello\n"

	r := put(t, s, room, name, body)
	if !r.Changed || r.Rev != 1 {
		t.Fatalf("first put: Changed=%v Rev=%d, want true 1", r.Changed, r.Rev)
	}
	f := r.File
	if f.ID == "" || f.RoomID != room || f.Name != name || f.SHA256 != sum(body) || f.Size != int64(len(body)) ||
		f.ContentType != md || f.Version != 1 || f.UploadedBy != "tester" {
		t.Fatalf("put file = %+v", f)
	}
	if f.CreatedAt.IsZero() || !f.CreatedAt.Equal(f.UpdatedAt) {
		t.Fatalf("put times: created %v updated %v, want equal and set", f.CreatedAt, f.UpdatedAt)
	}

	st, err := s.StatFile(ctx, room, name)
	if err != nil {
		t.Fatalf("StatFile error: %v", err)
	}
	sameFile(t, "StatFile", st, f)
	got, b := read(t, s, room, name)
	sameFile(t, "ReadFile", got, f)
	if b != body {
		t.Fatalf("ReadFile bytes = %q, want %q", b, body)
	}
	l := list(t, s, room)
	if l.Rev != 1 || len(l.Files) != 1 {
		t.Fatalf("list = rev %d, %d files; want rev 1, 1 file", l.Rev, len(l.Files))
	}
	sameFile(t, "listed file", l.Files[0], f)
	blobs := h.Blobs(t, s, room)
	if len(blobs) != 1 || string(blobs[f.SHA256]) != body {
		t.Fatalf("blobs = %d entries (%q under sha), want just the body", len(blobs), blobs[f.SHA256])
	}

	del, rev, err := s.DeleteFile(ctx, room, name, "")
	if err != nil {
		t.Fatalf("DeleteFile error: %v", err)
	}
	if del.ID != f.ID || del.SHA256 != f.SHA256 || rev != 2 {
		t.Fatalf("DeleteFile = %+v rev %d, want id %s rev 2", del, rev, f.ID)
	}
	_, err = s.StatFile(ctx, room, name)
	wantCode(t, "StatFile after delete", err, pumasi.ENotFound)
	_, _, err = s.ReadFile(ctx, room, name)
	wantCode(t, "ReadFile after delete", err, pumasi.ENotFound)
	_, _, err = s.DeleteFile(ctx, room, name, "")
	wantCode(t, "second DeleteFile", err, pumasi.ENotFound)
	l = list(t, s, room)
	if l.Rev != 2 || len(l.Files) != 0 {
		t.Fatalf("list after delete = rev %d, %d files; want rev 2, none", l.Rev, len(l.Files))
	}
	sweep(t, s, 0)
	// The deleted content stays as a version of the name (history.go).
	if got, want := blobSet(t, h, s, room), keptSet(t, s, room); !equalStrings(got, want) || len(got) != 1 {
		t.Fatalf("blobs after delete and sweep = %v, want the deleted version's %v", got, want)
	}
}

func testUnknownRoom(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.New(t, Limits{})
	l := list(t, s, "nobody-here")
	if l.Rev != 0 || len(l.Files) != 0 {
		t.Fatalf("unknown room lists rev %d, %d files; want 0, 0", l.Rev, len(l.Files))
	}
	_, err := s.StatFile(ctx, "nobody-here", "a.md")
	wantCode(t, "StatFile in unknown room", err, pumasi.ENotFound)
	_, _, err = s.ReadFile(ctx, "nobody-here", "a.md")
	wantCode(t, "ReadFile in unknown room", err, pumasi.ENotFound)
	_, _, err = s.DeleteFile(ctx, "nobody-here", "a.md", "")
	wantCode(t, "DeleteFile in unknown room", err, pumasi.ENotFound)
	agents, err := s.RoomAgents(ctx, "nobody-here")
	if err != nil || len(agents) != 0 {
		t.Fatalf("RoomAgents(unknown) = %v, %v; want none", agents, err)
	}
	if l := list(t, s, "nobody-here"); l.Rev != 0 {
		t.Fatalf("reads changed an unknown room's rev to %d", l.Rev)
	}
}

func testInvalidIDs(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.New(t, Limits{})
	for _, room := range []string{"", "Upper", "a/b", "..", "-lead", "has space"} {
		_, err := s.PutFile(ctx, pumasi.PutFileInput{Room: room, Name: "a.md", Body: []byte("x"), ContentType: md})
		wantCode(t, fmt.Sprintf("PutFile(room %q)", room), err, pumasi.EInvalidRequest)
		_, err = s.ListFiles(ctx, room)
		wantCode(t, fmt.Sprintf("ListFiles(room %q)", room), err, pumasi.EInvalidRequest)
	}
	_, _, err := s.PlaceAgent(ctx, "ok-room", "Bad Agent", "m1")
	wantCode(t, "PlaceAgent(bad agent)", err, pumasi.EInvalidRequest)
	_, _, err = s.PlaceAgent(ctx, "ok-room", "a1", "../m")
	wantCode(t, "PlaceAgent(bad machine)", err, pumasi.EInvalidRequest)
	if l := list(t, s, "ok-room"); l.Rev != 0 {
		t.Fatalf("refused placements moved rev to %d", l.Rev)
	}
}

func testRoomsAreSeparate(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.New(t, Limits{})
	put(t, s, "east", "plan.md", "east plan")
	put(t, s, "west", "plan.md", "west plan")
	put(t, s, "east", "common.md", "same in both rooms")
	put(t, s, "west", "common.md", "same in both rooms")
	if _, b := read(t, s, "west", "plan.md"); b != "west plan" {
		t.Fatalf("west plan.md = %q", b)
	}
	if _, err := s.StatFile(ctx, "north", "plan.md"); pumasi.ErrorCode(err) != pumasi.ENotFound {
		t.Fatalf("StatFile in a third room: %v, want not_found", err)
	}
	if _, _, err := s.DeleteFile(ctx, "east", "common.md", ""); err != nil {
		t.Fatalf("DeleteFile error: %v", err)
	}
	if _, _, err := s.DeleteFile(ctx, "east", "plan.md", ""); err != nil {
		t.Fatalf("DeleteFile error: %v", err)
	}
	sweep(t, s, 0)
	if _, b := read(t, s, "west", "common.md"); b != "same in both rooms" {
		t.Fatalf("deleting in east changed west's common.md to %q", b)
	}
	if _, b := read(t, s, "west", "plan.md"); b != "west plan" {
		t.Fatalf("west plan.md after east deletes = %q", b)
	}
	east, west := list(t, s, "east"), blobsMatchListing(t, h, s, "west")
	if east.Rev != 4 || len(east.Files) != 0 || west.Rev != 2 || len(west.Files) != 2 {
		t.Fatalf("east rev %d files %d, west rev %d files %d; want 4 0 2 2", east.Rev, len(east.Files), west.Rev, len(west.Files))
	}
	if got, want := blobSet(t, h, s, "east"), keptSet(t, s, "east"); !equalStrings(got, want) {
		t.Fatalf("east holds blobs %v after deleting everything and a sweep, want its kept versions' %v", got, want)
	}
}

func testSortOrder(t *testing.T, h Harness) {
	s := h.New(t, Limits{})
	in := []string{"b.md", "회의록.md", "A.md", "a b.md", "Z.md", "café.md", "_x.md", "0.md", "b-2.md", "Ω.txt"}
	for _, n := range in {
		put(t, s, "sorted", n, "body of "+n)
	}
	want := append([]string(nil), in...)
	sort.Strings(want) // Byte order of the NFC names.
	if got := names(list(t, s, "sorted")); !equalStrings(got, want) {
		t.Fatalf("listed names = %q, want %q", got, want)
	}
}

func testReupload(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.New(t, Limits{})
	const room = "reup"
	put(t, s, room, "other.md", "unrelated")
	r1 := put(t, s, room, "a.md", "version one")
	if r1.Rev != 2 || r1.File.Version != 1 {
		t.Fatalf("first put: rev %d version %d, want 2 1", r1.Rev, r1.File.Version)
	}

	r2 := put(t, s, room, "a.md", "version one")
	if r2.Changed || r2.Rev != r1.Rev || r2.File.Version != 1 || r2.File.ID != r1.File.ID || r2.File.SHA256 != r1.File.SHA256 {
		t.Fatalf("identical re-upload = changed %v rev %d version %d id %s; want false %d 1 %s",
			r2.Changed, r2.Rev, r2.File.Version, r2.File.ID, r1.Rev, r1.File.ID)
	}
	if l := list(t, s, room); l.Rev != r1.Rev {
		t.Fatalf("rev after identical re-upload = %d, want %d", l.Rev, r1.Rev)
	}

	r3 := put(t, s, room, "a.md", "version two")
	if !r3.Changed || r3.Rev != r1.Rev+1 || r3.File.Version != 2 || r3.File.ID != r1.File.ID {
		t.Fatalf("changed upload = changed %v rev %d version %d id %s; want true %d 2 %s",
			r3.Changed, r3.Rev, r3.File.Version, r3.File.ID, r1.Rev+1, r1.File.ID)
	}
	if !r3.File.CreatedAt.Equal(r1.File.CreatedAt) {
		t.Fatalf("created_at moved on update: %v -> %v", r1.File.CreatedAt, r3.File.CreatedAt)
	}
	if _, b := read(t, s, room, "a.md"); b != "version two" {
		t.Fatalf("read after update = %q", b)
	}

	r4 := put(t, s, room, "a.md", "version one")
	if !r4.Changed || r4.File.Version != 3 || r4.Rev != r3.Rev+1 {
		t.Fatalf("revert upload = changed %v version %d rev %d; want true 3 %d", r4.Changed, r4.File.Version, r4.Rev, r3.Rev+1)
	}
	st, err := s.StatFile(ctx, room, "a.md")
	if err != nil || st.Version != 3 || st.SHA256 != sum("version one") {
		t.Fatalf("StatFile = %+v, %v; want version 3 of 'version one'", st, err)
	}

	sweep(t, s, 0)
	l := blobsMatchListing(t, h, s, room)
	if got, want := blobSet(t, h, s, room), keptSet(t, s, room); !equalStrings(got, want) {
		t.Fatalf("blobs after sweep = %v, want listed and kept shas %v", got, want)
	}
	if len(l.Files) != 2 || l.Rev != 4 {
		t.Fatalf("final listing: %d files rev %d, want 2 files rev 4", len(l.Files), l.Rev)
	}
}

func testRecreateAfterDelete(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.New(t, Limits{})
	r1 := put(t, s, "again", "a.md", "first life")
	put(t, s, "again", "a.md", "first life, edited")
	if _, _, err := s.DeleteFile(ctx, "again", "a.md", ""); err != nil {
		t.Fatalf("DeleteFile error: %v", err)
	}
	r2 := put(t, s, "again", "a.md", "first life")
	// Versions go on across the delete (3), so each number names one version.
	if !r2.Changed || r2.File.Version != 4 || r2.File.ID == r1.File.ID || r2.Rev != 4 {
		t.Fatalf("re-created file = changed %v version %d id %s rev %d; want true, 4, a new id, rev 4",
			r2.Changed, r2.File.Version, r2.File.ID, r2.Rev)
	}
	if _, b := read(t, s, "again", "a.md"); b != "first life" {
		t.Fatalf("read = %q", b)
	}
}

func testPreconditions(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.New(t, Limits{})
	const room = "pre"
	putWith := func(in pumasi.PutFileInput) (pumasi.PutFileResult, error) {
		in.Room, in.ContentType = room, md
		return s.PutFile(ctx, in)
	}
	state := func() (int64, string) {
		l := list(t, s, room)
		var parts []string
		for _, f := range l.Files {
			parts = append(parts, f.Name+"="+f.SHA256[:8])
		}
		return l.Rev, strings.Join(parts, ",")
	}
	refused := func(what string, err error) {
		t.Helper()
		wantCode(t, what, err, pumasi.EPreconditionFailed)
	}

	put(t, s, room, "p.md", "one")

	r, err := putWith(pumasi.PutFileInput{Name: "p.md", Body: []byte("two"), IfMatch: sum("one")})
	if err != nil || !r.Changed || r.File.Version != 2 {
		t.Fatalf("IfMatch right = %+v, %v; want changed to version 2", r, err)
	}
	r, err = putWith(pumasi.PutFileInput{Name: "p.md", Body: []byte("three"), IfMatch: `"` + strings.ToUpper(sum("two")) + `"`})
	if err != nil || !r.Changed || r.File.Version != 3 {
		t.Fatalf("IfMatch right (quoted, upper case) = %+v, %v; want changed to version 3", r, err)
	}

	rev, before := state()
	_, err = putWith(pumasi.PutFileInput{Name: "p.md", Body: []byte("four"), IfMatch: sum("one")})
	refused("IfMatch wrong", err)
	_, err = putWith(pumasi.PutFileInput{Name: "absent.md", Body: []byte("x"), IfMatch: sum("x")})
	refused("IfMatch on absent name", err)
	_, err = putWith(pumasi.PutFileInput{Name: "p.md", Body: []byte("three"), IfNoneMatch: true})
	refused("IfNoneMatch on existing name (identical body)", err)
	_, err = putWith(pumasi.PutFileInput{Name: "p.md", Body: []byte("five"), IfNoneMatch: true})
	refused("IfNoneMatch on existing name", err)
	_, _, err = s.DeleteFile(ctx, room, "p.md", sum("one"))
	refused("DeleteFile IfMatch wrong", err)
	if rev2, after := state(); rev2 != rev || after != before {
		t.Fatalf("refused writes changed the room: rev %d -> %d, %s -> %s", rev, rev2, before, after)
	}
	if _, b := read(t, s, room, "p.md"); b != "three" {
		t.Fatalf("content after refused writes = %q, want three", b)
	}
	if _, err := s.StatFile(ctx, room, "absent.md"); pumasi.ErrorCode(err) != pumasi.ENotFound {
		t.Fatalf("absent.md after refused IfMatch: %v, want not_found", err)
	}

	r, err = putWith(pumasi.PutFileInput{Name: "new.md", Body: []byte("fresh"), IfNoneMatch: true})
	if err != nil || !r.Changed || r.Rev != rev+1 {
		t.Fatalf("IfNoneMatch on new name = %+v, %v; want created at rev %d", r, err, rev+1)
	}
	f, rev3, err := s.DeleteFile(ctx, room, "p.md", sum("three"))
	if err != nil || f.Name != "p.md" || rev3 != rev+2 {
		t.Fatalf("DeleteFile IfMatch right = %+v rev %d, %v; want p.md at rev %d", f, rev3, err, rev+2)
	}
	_, _, err = s.DeleteFile(ctx, room, "p.md", sum("three"))
	wantCode(t, "DeleteFile IfMatch on absent", err, pumasi.ENotFound)
}

func testNames(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.New(t, Limits{})
	const room = "names"

	for _, n := range []string{"회의록.md", "my notes.md", "a.md", "b\u00a0c.md"} {
		put(t, s, room, n, "content of "+n)
	}
	for _, n := range []string{"회의록.md", "my notes.md", "a.md", "b\u00a0c.md"} {
		f, b := read(t, s, room, n)
		if f.Name != n || b != "content of "+n {
			t.Fatalf("ReadFile(%q) = name %q body %q", n, f.Name, b)
		}
	}
	// A Cyrillic а looks like the Latin a (Unicode TR39 confusables).
	_, err := s.PutFile(ctx, pumasi.PutFileInput{Room: room, Name: "\u0430.md", Body: []byte("x"), ContentType: md})
	wantCode(t, "PutFile(Cyrillic а.md) beside a.md", err, pumasi.ENameConflict)
	if l := list(t, s, room); len(l.Files) != 4 {
		t.Fatalf("a lookalike was stored; listed %q", names(l))
	}

	for _, base := range []string{"한글.md", "café.md"} {
		nfc, nfd := norm.NFC.String(base), norm.NFD.String(base)
		if nfc == nfd {
			t.Fatalf("test bug: %q has one normal form", base)
		}
		r1 := put(t, s, room, nfc, "same text")
		if r1.File.Name != nfc {
			t.Fatalf("stored name %q, want NFC %q", r1.File.Name, nfc)
		}
		r2 := put(t, s, room, nfd, "same text")
		if r2.Changed || r2.File.ID != r1.File.ID || r2.File.Name != nfc {
			t.Fatalf("NFD re-upload of %q = changed %v id %s name %q; want the same file unchanged", base, r2.Changed, r2.File.ID, r2.File.Name)
		}
		r3 := put(t, s, room, nfd, "new text")
		if !r3.Changed || r3.File.ID != r1.File.ID || r3.File.Version != 2 || r3.File.Name != nfc {
			t.Fatalf("NFD update of %q = %+v; want version 2 of the NFC file", base, r3.File)
		}
		st, err := s.StatFile(ctx, room, nfd)
		if err != nil || st.ID != r1.File.ID {
			t.Fatalf("StatFile(NFD %q) = %+v, %v", base, st, err)
		}
	}
	count := 0
	for _, n := range names(list(t, s, room)) {
		if n == norm.NFD.String("한글.md") || n == norm.NFD.String("café.md") {
			t.Fatalf("an NFD name was stored: %q", n)
		}
		count++
	}
	if count != 6 {
		t.Fatalf("listed %d files, want 6", count)
	}

	put(t, s, room, "Spec.md", "spec")
	rev := list(t, s, room).Rev
	for _, n := range []string{"spec.md", "SPEC.MD", "sPeC.md"} {
		_, err := s.PutFile(ctx, pumasi.PutFileInput{Room: room, Name: n, Body: []byte("other"), ContentType: md})
		wantCode(t, fmt.Sprintf("PutFile(%q) beside Spec.md", n), err, pumasi.ENameConflict)
		if got := pumasi.HTTPStatus(pumasi.ErrorCode(err)); got != 409 {
			t.Fatalf("name conflict status = %d, want 409", got)
		}
		if _, err := s.StatFile(ctx, room, n); pumasi.ErrorCode(err) != pumasi.ENotFound {
			t.Fatalf("StatFile(%q) after conflict: %v, want not_found", n, err)
		}
	}
	l := list(t, s, room)
	if l.Rev != rev || len(l.Files) != 7 {
		t.Fatalf("after conflicts: rev %d files %d, want rev %d files 7", l.Rev, len(l.Files), rev)
	}
	if _, b := read(t, s, room, "Spec.md"); b != "spec" {
		t.Fatalf("Spec.md = %q after conflicts", b)
	}
	if _, _, err := s.DeleteFile(ctx, room, "Spec.md", ""); err != nil {
		t.Fatalf("DeleteFile(Spec.md) error: %v", err)
	}
	put(t, s, room, "spec.md", "lower case now")

	fresh := "refused"
	for _, n := range []string{"..", ".", "a/b", "a\\b", "", ".hidden", " lead.md", "trail.md ", "dot.", "nul\x00.md", "bell\a.md", strings.Repeat("x", 129)} {
		_, err := s.PutFile(ctx, pumasi.PutFileInput{Room: fresh, Name: n, Body: []byte("x"), ContentType: md})
		wantCode(t, fmt.Sprintf("PutFile(%q)", n), err, pumasi.EInvalidName)
	}
	if l := list(t, s, fresh); l.Rev != 0 || len(l.Files) != 0 {
		t.Fatalf("invalid names stored something: rev %d files %q", l.Rev, names(l))
	}
	_, err = s.StatFile(ctx, room, "../names/a.md")
	if c := pumasi.ErrorCode(err); c != pumasi.EInvalidName && c != pumasi.ENotFound {
		t.Fatalf("StatFile(../names/a.md) code = %q, want invalid_name or not_found", c)
	}
}

func testQuotas(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.New(t, Limits{MaxRoomFiles: 3, MaxRoomBytes: 100})
	const room = "quota"
	b := func(n int, c byte) string { return strings.Repeat(string(c), n) }
	over := func(what string, name, body string) {
		t.Helper()
		rev := list(t, s, room).Rev
		_, err := s.PutFile(ctx, pumasi.PutFileInput{Room: room, Name: name, Body: []byte(body), ContentType: md})
		wantCode(t, what, err, pumasi.EQuotaExceeded)
		if got := list(t, s, room).Rev; got != rev {
			t.Fatalf("%s: rev moved %d -> %d", what, rev, got)
		}
	}

	put(t, s, room, "f1.md", b(20, '1'))
	put(t, s, room, "f2.md", b(20, '2'))
	put(t, s, room, "f3.md", b(20, '3'))
	over("fourth file", "f4.md", b(10, '4'))
	if _, err := s.StatFile(ctx, room, "f4.md"); pumasi.ErrorCode(err) != pumasi.ENotFound {
		t.Fatalf("refused f4.md was stored: %v", err)
	}
	put(t, s, "quota-other", "f4.md", b(10, '4')) // Quotas are per room.

	r := put(t, s, room, "f1.md", b(60, '1')) // 60+20+20 = 100: at the limit is allowed.
	if !r.Changed || r.File.Size != 60 {
		t.Fatalf("replacement to the byte limit = %+v", r)
	}
	over("replacement past the byte limit", "f2.md", b(21, '2'))
	if _, got := read(t, s, room, "f2.md"); got != b(20, '2') {
		t.Fatalf("f2.md after refused replacement = %q", got)
	}
	if r := put(t, s, room, "f2.md", b(20, '2')); r.Changed {
		t.Fatalf("identical re-upload at the limit changed: %+v", r)
	}

	if _, _, err := s.DeleteFile(ctx, room, "f3.md", ""); err != nil {
		t.Fatalf("DeleteFile error: %v", err)
	}
	over("new file past the byte limit", "f5.md", b(21, '5'))
	put(t, s, room, "f5.md", b(20, '5'))
	l := blobsMatchListing(t, h, s, room)
	var total int64
	for _, f := range l.Files {
		total += f.Size
	}
	if len(l.Files) != 3 || total != 100 {
		t.Fatalf("room holds %d files, %d bytes; want 3, 100", len(l.Files), total)
	}
}

func testConcurrentUploads(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.New(t, Limits{})
	const room, n = "busy", 100
	results := make([]pumasi.PutFileResult, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := 0; i < n; i++ {
		var name, body string
		switch i % 4 {
		case 0: // Distinct names, distinct content.
			name, body = fmt.Sprintf("own-%02d.md", i), fmt.Sprintf("own content %d\n", i)
		case 1: // Distinct names sharing one blob.
			name, body = fmt.Sprintf("same-%02d.md", i), "identical content shared by many names\n"
		case 2: // Updates to one shared name.
			name, body = "shared.md", fmt.Sprintf("shared version from writer %d\n", i)
		case 3: // Repeated identical content under one name.
			name, body = "twin.md", "twin content\n"
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			results[i], errs[i] = s.PutFile(ctx, pumasi.PutFileInput{
				Room: room, Name: name, Body: []byte(body), ContentType: md, UploadedBy: fmt.Sprintf("w%d", i),
			})
		}()
	}
	close(start)
	wg.Wait()

	changed := 0
	sharedVersions := map[int]bool{}
	for i, err := range errs {
		if err != nil {
			t.Fatalf("upload %d error: %v", i, err)
		}
		if results[i].Changed {
			changed++
		}
		if i%4 == 2 {
			sharedVersions[results[i].File.Version] = true
		}
	}
	if changed != 76 {
		t.Fatalf("%d uploads changed something, want 76 (25 own + 25 same + 25 shared + 1 twin)", changed)
	}
	if len(sharedVersions) != 25 {
		t.Fatalf("shared.md writers saw %d distinct versions, want 25", len(sharedVersions))
	}
	l := blobsMatchListing(t, h, s, room)
	if l.Rev != int64(changed) {
		t.Fatalf("rev = %d, want %d (the number of changed results)", l.Rev, changed)
	}
	if len(l.Files) != 52 {
		t.Fatalf("listed %d files, want 52", len(l.Files))
	}
	for _, f := range l.Files {
		if f.Name == "shared.md" && f.Version != 25 {
			t.Fatalf("shared.md version = %d, want 25", f.Version)
		}
		if f.Name == "twin.md" && f.Version != 1 {
			t.Fatalf("twin.md version = %d, want 1", f.Version)
		}
	}
	sweep(t, s, 0)
	if got, want := blobSet(t, h, s, room), keptSet(t, s, room); !equalStrings(got, want) {
		t.Fatalf("blobs after sweep (%d) differ from listed and kept shas (%d)", len(got), len(want))
	}
	blobsMatchListing(t, h, s, room)
}

func testPutDeleteRace(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.New(t, Limits{})
	const room = "race"
	for round := 0; round < 30; round++ {
		body := []byte(fmt.Sprintf("racing content %d\n", round%3))
		var wg sync.WaitGroup
		errc := make(chan error, 6)
		start := make(chan struct{})
		for _, name := range []string{"x.md", "y.md", "z.md"} {
			wg.Add(2)
			go func() {
				defer wg.Done()
				<-start
				_, err := s.PutFile(ctx, pumasi.PutFileInput{Room: room, Name: name, Body: body, ContentType: md})
				errc <- err
			}()
			go func() {
				defer wg.Done()
				<-start
				_, _, err := s.DeleteFile(ctx, room, name, "")
				if pumasi.ErrorCode(err) == pumasi.ENotFound {
					err = nil
				}
				errc <- err
			}()
		}
		close(start)
		wg.Wait()
		close(errc)
		for err := range errc {
			if err != nil {
				t.Fatalf("round %d: %v", round, err)
			}
		}
		blobsMatchListing(t, h, s, room)
	}
	sweep(t, s, 0)
	blobsMatchListing(t, h, s, room)
	if got, want := blobSet(t, h, s, room), keptSet(t, s, room); !equalStrings(got, want) {
		t.Fatalf("blobs after sweep = %v, want %v", got, want)
	}
}

func testPlacements(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.New(t, Limits{})
	rev := func(room string) int64 { t.Helper(); return list(t, s, room).Rev }
	agentsOf := func(ps []pumasi.Placement, err error) string {
		t.Helper()
		if err != nil {
			t.Fatalf("placements error: %v", err)
		}
		var parts []string
		for _, p := range ps {
			if p.PlacedAt.IsZero() {
				t.Fatalf("placement %+v has no placed_at", p)
			}
			parts = append(parts, p.AgentID+"@"+p.RoomID+"/"+p.MachineID)
		}
		return strings.Join(parts, " ")
	}
	place := func(room, agent, machine string) (*pumasi.Placement, bool) {
		t.Helper()
		prev, changed, err := s.PlaceAgent(ctx, room, agent, machine)
		if err != nil {
			t.Fatalf("PlaceAgent(%s, %s, %s) error: %v", room, agent, machine, err)
		}
		return prev, changed
	}

	if prev, changed := place("room-a", "agent-1", "m1"); prev != nil || !changed {
		t.Fatalf("first placement: prev %+v changed %v, want nil true", prev, changed)
	}
	if r := rev("room-a"); r != 1 {
		t.Fatalf("room-a rev = %d after a placement, want 1", r)
	}
	prev, changed := place("room-a", "agent-1", "m1")
	if changed || prev == nil || prev.RoomID != "room-a" || prev.MachineID != "m1" {
		t.Fatalf("identical re-placement: prev %+v changed %v, want the same placement, false", prev, changed)
	}
	if r := rev("room-a"); r != 1 {
		t.Fatalf("identical re-placement moved rev to %d", r)
	}
	place("room-a", "agent-2", "m2")
	if got := agentsOf(s.RoomAgents(ctx, "room-a")); got != "agent-1@room-a/m1 agent-2@room-a/m2" {
		t.Fatalf("RoomAgents(room-a) = %q", got)
	}

	prev, changed = place("room-b", "agent-1", "m1")
	if !changed || prev == nil || prev.RoomID != "room-a" {
		t.Fatalf("move: prev %+v changed %v, want room-a, true", prev, changed)
	}
	if a, b := rev("room-a"), rev("room-b"); a != 3 || b != 1 {
		t.Fatalf("after move: rev room-a %d room-b %d, want 3 and 1", a, b)
	}
	if got := agentsOf(s.RoomAgents(ctx, "room-a")); got != "agent-2@room-a/m2" {
		t.Fatalf("RoomAgents(room-a) after move = %q", got)
	}
	if got := agentsOf(s.RoomAgents(ctx, "room-b")); got != "agent-1@room-b/m1" {
		t.Fatalf("RoomAgents(room-b) after move = %q", got)
	}

	prev, changed = place("room-b", "agent-1", "m3") // Same room, another machine.
	if !changed || prev == nil || prev.MachineID != "m1" || rev("room-b") != 2 || rev("room-a") != 3 {
		t.Fatalf("machine change: prev %+v changed %v revs %d/%d", prev, changed, rev("room-a"), rev("room-b"))
	}
	place("room-c", "agent-9", "m2")
	place("room-c", "agent-0", "m2")
	if got := agentsOf(s.MachineAgents(ctx, "m2")); got != "agent-0@room-c/m2 agent-2@room-a/m2 agent-9@room-c/m2" {
		t.Fatalf("MachineAgents(m2) = %q", got)
	}
	if got := agentsOf(s.MachineAgents(ctx, "m1")); got != "" {
		t.Fatalf("MachineAgents(m1) = %q, want none", got)
	}
	if got := agentsOf(s.MachineAgents(ctx, "m3")); got != "agent-1@room-b/m3" {
		t.Fatalf("MachineAgents(m3) = %q", got)
	}

	_, err := s.UnplaceAgent(ctx, "room-a", "agent-1")
	wantCode(t, "UnplaceAgent from a room it left", err, pumasi.ENotFound)
	if r := rev("room-a"); r != 3 {
		t.Fatalf("refused unplace moved room-a rev to %d", r)
	}
	p, err := s.UnplaceAgent(ctx, "room-b", "agent-1")
	if err != nil || p.AgentID != "agent-1" || p.RoomID != "room-b" || p.MachineID != "m3" {
		t.Fatalf("UnplaceAgent = %+v, %v", p, err)
	}
	if r := rev("room-b"); r != 3 {
		t.Fatalf("room-b rev after unplace = %d, want 3", r)
	}
	if got := agentsOf(s.RoomAgents(ctx, "room-b")); got != "" {
		t.Fatalf("RoomAgents(room-b) after unplace = %q", got)
	}
	_, err = s.UnplaceAgent(ctx, "room-b", "agent-1")
	wantCode(t, "second UnplaceAgent", err, pumasi.ENotFound)
	_, err = s.UnplaceAgent(ctx, "room-b", "never-placed")
	wantCode(t, "UnplaceAgent of an unknown agent", err, pumasi.ENotFound)

	// Placements and files share one rev.
	r := put(t, s, "room-c", "f.md", "x")
	if r.Rev != 3 {
		t.Fatalf("upload into room-c with two placements: rev %d, want 3", r.Rev)
	}
}

// testAgentPlacement: one agent's placement follows places, moves and
// unplaces, and an agent never placed (or unplaced) is not_found.
func testAgentPlacement(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.New(t, Limits{})
	at := func(agent string) pumasi.Placement {
		t.Helper()
		p, err := s.AgentPlacement(ctx, agent)
		if err != nil {
			t.Fatalf("AgentPlacement(%s) error: %v", agent, err)
		}
		if p.AgentID != agent || p.PlacedAt.IsZero() {
			t.Fatalf("AgentPlacement(%s) = %+v", agent, p)
		}
		return p
	}
	_, err := s.AgentPlacement(ctx, "nobody")
	wantCode(t, "AgentPlacement of an agent never placed", err, pumasi.ENotFound)
	_, err = s.AgentPlacement(ctx, "../a")
	wantCode(t, "AgentPlacement of a bad id", err, pumasi.EInvalidRequest)

	if _, _, err := s.PlaceAgent(ctx, "room-a", "agent-1", "m1"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.PlaceAgent(ctx, "room-a", "agent-2", "m2"); err != nil {
		t.Fatal(err)
	}
	if p := at("agent-1"); p.RoomID != "room-a" || p.MachineID != "m1" {
		t.Fatalf("AgentPlacement(agent-1) = %+v, want room-a on m1", p)
	}
	if _, _, err := s.PlaceAgent(ctx, "room-b", "agent-1", "m3"); err != nil {
		t.Fatal(err)
	}
	if p := at("agent-1"); p.RoomID != "room-b" || p.MachineID != "m3" {
		t.Fatalf("AgentPlacement(agent-1) after a move = %+v, want room-b on m3", p)
	}
	if p := at("agent-2"); p.RoomID != "room-a" || p.MachineID != "m2" {
		t.Fatalf("AgentPlacement(agent-2) = %+v, want room-a on m2 (untouched)", p)
	}
	if _, err := s.UnplaceAgent(ctx, "room-b", "agent-1"); err != nil {
		t.Fatal(err)
	}
	_, err = s.AgentPlacement(ctx, "agent-1")
	wantCode(t, "AgentPlacement after unplace", err, pumasi.ENotFound)
}

func testStatus(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.New(t, Limits{})
	got, err := s.AgentStatuses(ctx, nil)
	if err != nil || len(got) != 0 {
		t.Fatalf("AgentStatuses(nil) = %v, %v; want empty", got, err)
	}
	err = s.ReportStatus(ctx, "m2", []pumasi.AgentStatus{
		{AgentID: "agent-2", Files: []pumasi.Holding{{Name: "a.md", SHA256: sum("a")}, {Name: "회의록.md", SHA256: sum("b")}}},
		{AgentID: "agent-0"},
	})
	if err != nil {
		t.Fatalf("ReportStatus error: %v", err)
	}
	got, err = s.AgentStatuses(ctx, []string{"agent-2", "agent-0", "agent-x"})
	if err != nil {
		t.Fatalf("AgentStatuses error: %v", err)
	}
	if len(got) != 2 {
		t.Fatalf("AgentStatuses returned %d agents, want 2 (agent-x never reported)", len(got))
	}
	a2 := got["agent-2"]
	if a2.AgentID != "agent-2" || a2.MachineID != "m2" || a2.ReportedAt.IsZero() || len(a2.Files) != 2 ||
		a2.Files[1].Name != "회의록.md" || a2.Files[1].SHA256 != sum("b") {
		t.Fatalf("agent-2 status = %+v", a2)
	}
	if a0, ok := got["agent-0"]; !ok || len(a0.Files) != 0 || a0.MachineID != "m2" {
		t.Fatalf("agent-0 status = %+v, %v; want present with no files", a0, ok)
	}

	err = s.ReportStatus(ctx, "m2", []pumasi.AgentStatus{{AgentID: "agent-2", Files: []pumasi.Holding{{Name: "c.md", SHA256: sum("c")}}}})
	if err != nil {
		t.Fatalf("second ReportStatus error: %v", err)
	}
	got, err = s.AgentStatuses(ctx, []string{"agent-2"})
	if err != nil || len(got) != 1 || len(got["agent-2"].Files) != 1 || got["agent-2"].Files[0].Name != "c.md" {
		t.Fatalf("agent-2 after second report = %+v, %v; want just c.md", got, err)
	}
	err = s.ReportStatus(ctx, "m2", []pumasi.AgentStatus{{AgentID: "Not An Id"}})
	wantCode(t, "ReportStatus(bad agent id)", err, pumasi.EInvalidRequest)
}

func testSweep(t *testing.T, h Harness) {
	s := h.New(t, Limits{})
	const room = "sweepy"
	keep := put(t, s, room, "keep.md", "kept content\n")
	put(t, s, room, "twin.md", "kept content\n")
	orphan := "nobody points at me\n"
	h.PutOrphan(t, s, room, []byte(orphan))

	sweep(t, s, time.Hour)
	blobs := h.Blobs(t, s, room)
	if _, ok := blobs[sum(orphan)]; !ok {
		t.Fatalf("Sweep(1h) removed a fresh orphan blob")
	}
	if string(blobs[keep.File.SHA256]) != "kept content\n" {
		t.Fatalf("Sweep(1h) damaged a referenced blob")
	}

	rep := sweep(t, s, 0)
	if rep.Blobs < 1 {
		t.Fatalf("Sweep(0) reported %d blobs removed, want at least 1", rep.Blobs)
	}
	blobs = h.Blobs(t, s, room)
	if _, ok := blobs[sum(orphan)]; ok {
		t.Fatalf("Sweep(0) kept the orphan blob")
	}
	if len(blobs) != 1 || string(blobs[keep.File.SHA256]) != "kept content\n" {
		t.Fatalf("after Sweep(0) blobs = %d, want only the referenced one", len(blobs))
	}
	for _, n := range []string{"keep.md", "twin.md"} {
		if _, b := read(t, s, room, n); b != "kept content\n" {
			t.Fatalf("%s after sweep = %q", n, b)
		}
	}
	if rep := sweep(t, s, 0); rep.Blobs != 0 {
		t.Fatalf("second Sweep(0) removed %d blobs, want 0", rep.Blobs)
	}
}
