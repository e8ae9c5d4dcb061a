package storagetest

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"

	"pumasi"
)

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
