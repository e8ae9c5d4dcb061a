package s3_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"pumasi"
	s3store "pumasi/adapters/s3"
)

// TestHistorySegments writes more changes than a manifest keeps inline,
// from two stores, and checks that the manifest stays small, the history
// reads back whole across segments from a cold store, and that a sweep
// under a smaller retention compacts the segments and reaps the blobs of
// what fell out.
func TestHistorySegments(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	a := e.open(t, s3store.Options{})
	b := e.open(t, s3store.Options{})
	const edits = 120
	for i := 1; i <= edits; i++ {
		st := a
		if i%2 == 0 {
			st = b
		}
		if _, err := st.PutFile(ctx, pumasi.PutFileInput{Room: "seg", Name: "a.md", Body: []byte(fmt.Sprintf("edit %d\n", i)), UploadedBy: fmt.Sprintf("w%d", i%2)}); err != nil {
			t.Fatal(err)
		}
	}
	var raw struct {
		Changes []json.RawMessage `json:"changes"`
		Segs    []string          `json:"segs"`
	}
	if err := json.Unmarshal(e.getRaw(t, "rooms/seg/manifest.json"), &raw); err != nil {
		t.Fatal(err)
	}
	if len(raw.Changes) > 33 || len(raw.Segs) < 3 {
		t.Fatalf("manifest keeps %d changes inline and %d segments, want at most 33 and several", len(raw.Changes), len(raw.Segs))
	}
	cold := e.open(t, s3store.Options{})
	vs, err := cold.FileVersions(ctx, "seg", "a.md")
	if err != nil {
		t.Fatal(err)
	}
	if len(vs) != edits || vs[0].Version != edits || vs[edits-1].Version != 1 {
		t.Fatalf("versions before any sweep = %d (newest %d), want all %d", len(vs), vs[0].Version, edits)
	}
	if _, body, err := cold.ReadVersion(ctx, "seg", "a.md", 1); err != nil || string(body) != "edit 1\n" {
		t.Fatalf("ReadVersion(1) = %q, %v", body, err)
	}
	// The log pages across segments in rev order.
	var revs []int64
	for since := int64(0); ; {
		l, err := cold.RoomLog(ctx, "seg", since, 25)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range l.Changes {
			revs = append(revs, c.Rev)
		}
		if !l.More {
			break
		}
		since = l.Changes[len(l.Changes)-1].Rev
	}
	for i, r := range revs {
		if r != int64(i+1) {
			t.Fatalf("log revs %v, want 1..%d", revs, edits)
		}
	}
	if len(revs) != edits {
		t.Fatalf("log lists %d changes, want %d", len(revs), edits)
	}

	small := e.open(t, s3store.Options{History: pumasi.Retention{Versions: 10}})
	rep, err := small.Sweep(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	vs, err = e.open(t, s3store.Options{}).FileVersions(ctx, "seg", "a.md")
	if err != nil {
		t.Fatal(err)
	}
	if len(vs) != 10 || vs[9].Version != edits-9 || rep.Versions != edits-10 || rep.Blobs != edits-10 {
		t.Fatalf("after the sweep %d versions (oldest %d), report %+v; want 10 from %d, %d dropped and reaped", len(vs), vs[len(vs)-1].Version, rep, edits-9, edits-10)
	}
	raw.Segs, raw.Changes = nil, nil
	if err := json.Unmarshal(e.getRaw(t, "rooms/seg/manifest.json"), &raw); err != nil {
		t.Fatal(err)
	}
	if len(raw.Segs) > 1 {
		t.Fatalf("after compaction the manifest names %d segments, want at most 1", len(raw.Segs))
	}
	if n := len(e.blobs(t, "seg")); n != 10 {
		t.Fatalf("%d blobs after the sweep, want the 10 kept versions'", n)
	}
	// A new version after compaction numbers on.
	r, err := a.PutFile(ctx, pumasi.PutFileInput{Room: "seg", Name: "a.md", Body: []byte("after\n")})
	if err != nil || r.File.Version != edits+1 {
		t.Fatalf("put after compaction = %+v, %v", r.File, err)
	}
}

// TestManifestWithoutHistoryLoads: a bucket written before history (a
// manifest with no changes, segments or deleted names) lists, lists its
// files' current versions, and takes new versions on top.
func TestManifestWithoutHistoryLoads(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	st := e.open(t, s3store.Options{})
	body := []byte("written before history\n")
	e.putRaw(t, "rooms/old/blobs/"+sum(body), body)
	old := fmt.Sprintf(`{"_cas":{"seq":3,"ids":["a","b","c"]},"rev":3,"files":[{"id":"f-1","room_id":"old","name":"a.md","sha256":%q,"size":%d,"content_type":"text/markdown; charset=utf-8","version":3,"uploaded_by":"room:old","created_at":"2026-01-01T00:00:00Z","updated_at":"2026-01-02T00:00:00Z"}],"placements":[]}`,
		sum(body), len(body))
	e.putRaw(t, "rooms/old/manifest.json", []byte(old))
	l, err := st.ListFiles(ctx, "old")
	if err != nil || len(l.Files) != 1 || l.Rev != 3 {
		t.Fatalf("ListFiles of an old manifest = %+v, %v", l, err)
	}
	vs, err := st.FileVersions(ctx, "old", "a.md")
	if err != nil || len(vs) != 1 || vs[0].Version != 3 || !vs[0].Current || vs[0].UploadedBy != "room:old" {
		t.Fatalf("FileVersions of an old manifest = %+v, %v", vs, err)
	}
	r, err := st.PutFile(ctx, pumasi.PutFileInput{Room: "old", Name: "a.md", Body: []byte("new\n"), UploadedBy: "alice"})
	if err != nil || r.File.Version != 4 || r.Rev != 4 {
		t.Fatalf("PutFile on an old manifest = %+v, %v", r, err)
	}
	vs, err = st.FileVersions(ctx, "old", "a.md")
	if err != nil || len(vs) != 1 || vs[0].Version != 4 {
		t.Fatalf("after the first recorded change versions = %+v, %v; want 4 (version 3 was never recorded)", vs, err)
	}
	if _, err := st.Sweep(ctx, 0); err != nil {
		t.Fatal(err)
	}
	if _, b, err := st.ReadVersion(ctx, "old", "a.md", 4); err != nil || string(b) != "new\n" {
		t.Fatalf("ReadVersion(4) = %q, %v", b, err)
	}
}
