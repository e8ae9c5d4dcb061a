package storagetest

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"pumasi"
)

// testHistoryRetainCount: past the version limit the sweep drops the
// oldest versions and reaps their blobs; the current one always stays.
func testHistoryRetainCount(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.New(t, Limits{History: pumasi.Retention{Versions: 3}})
	const room = "histcount"
	for i := 1; i <= 6; i++ {
		putBy(t, s, room, "a.md", fmt.Sprintf("edit %d\n", i), "w")
	}
	if n := len(versions(t, s, room, "a.md")); n != 6 {
		t.Fatalf("before the sweep %d versions are kept, want all 6", n)
	}
	rep := sweep(t, s, 0)
	vs := versions(t, s, room, "a.md")
	if len(vs) != 3 || vs[0].Version != 6 || vs[2].Version != 4 || rep.Versions != 3 {
		t.Fatalf("after the sweep versions = %+v (report %+v), want 6, 5, 4 and 3 dropped", vs, rep)
	}
	_, _, err := s.ReadVersion(ctx, room, "a.md", 3)
	wantCode(t, "ReadVersion of a dropped version", err, pumasi.ENotFound)
	_, _, err = s.RestoreFile(ctx, pumasi.RestoreInput{Room: room, Name: "a.md", Version: 1})
	wantCode(t, "RestoreFile of a dropped version", err, pumasi.ENotFound)
	if got := readVersion(t, s, room, "a.md", 4); got != "edit 4\n" {
		t.Fatalf("ReadVersion(4) = %q", got)
	}
	if got, want := blobSet(t, h, s, room), keptSet(t, s, room); !equalStrings(got, want) || len(got) != 3 {
		t.Fatalf("blobs after the sweep = %v, want the 3 kept versions' %v", got, want)
	}
	if rep := sweep(t, s, 0); rep.Versions != 0 || rep.Blobs != 0 {
		t.Fatalf("a second sweep = %+v, want nothing more to drop", rep)
	}
}

// testHistoryRetainBudget: past the room's history budget the sweep drops
// the longest-superseded versions first; live files never count.
func testHistoryRetainBudget(t *testing.T, h Harness) {
	s := h.New(t, Limits{History: pumasi.Retention{Bytes: 250}})
	const room = "histbudget"
	big := strings.Repeat("L", 1000)
	putBy(t, s, room, "live.md", big, "w") // over the budget alone, and live
	for i := 1; i <= 4; i++ {
		putBy(t, s, room, "a.md", fmt.Sprintf("%d%s", i, strings.Repeat("v", 99)), "w") // 100 bytes each
	}
	sweep(t, s, 0)
	vs := versions(t, s, room, "a.md")
	if len(vs) != 3 || vs[0].Version != 4 || vs[2].Version != 2 {
		t.Fatalf("versions after the sweep = %+v, want 4 (live) over 3 and 2 (200 bytes of 250)", vs)
	}
	if _, b := read(t, s, room, "live.md"); b != big {
		t.Fatalf("live file larger than the budget was touched")
	}
	if got, want := blobSet(t, h, s, room), keptSet(t, s, room); !equalStrings(got, want) || len(got) != 4 {
		t.Fatalf("blobs after the sweep = %v, want live.md's and 3 versions' %v", got, want)
	}
	// A revert to old content costs the history nothing: the blob is live.
	putBy(t, s, room, "a.md", fmt.Sprintf("%d%s", 2, strings.Repeat("v", 99)), "w")
	sweep(t, s, 0)
	if vs := versions(t, s, room, "a.md"); len(vs) != 4 {
		t.Fatalf("after a revert versions = %+v, want 5 (live), 4, 3, 2", vs)
	}
}

// testHistoryRetainAge: a version superseded longer ago than the age limit
// goes; a deleted name whose versions all went leaves no trace, and the
// placement log ages out too.
func testHistoryRetainAge(t *testing.T, h Harness) {
	ctx := context.Background()
	var clock atomic.Int64
	clock.Store(time.Now().UnixNano())
	now := func() time.Time { return time.Unix(0, clock.Load()) }
	s := h.New(t, Limits{History: pumasi.Retention{MaxAge: 24 * time.Hour}, Now: now})
	const room = "histage"
	putBy(t, s, room, "a.md", "old\n", "w")
	putBy(t, s, room, "a.md", "new\n", "w")
	putBy(t, s, room, "gone.md", "bye\n", "w")
	if _, _, err := s.Delete(ctx, pumasi.DeleteInput{Room: room, Name: "gone.md", By: "w"}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Place(ctx, pumasi.PlaceInput{Room: room, Agent: "ag", Machine: "m", By: "w"}); err != nil {
		t.Fatal(err)
	}
	clock.Add(int64(23 * time.Hour))
	sweep(t, s, 0)
	if n := len(versions(t, s, room, "a.md")); n != 2 {
		t.Fatalf("after 23h %d versions of a.md, want 2", n)
	}
	clock.Add(int64(2 * time.Hour))
	putBy(t, s, room, "a.md", "newest\n", "w") // supersedes "new" now: it stays
	sweep(t, s, 0)
	vs := versions(t, s, room, "a.md")
	if len(vs) != 2 || vs[0].Version != 3 || vs[1].Version != 2 {
		t.Fatalf("after 25h versions of a.md = %+v, want 3 and 2 (version 1 superseded 25h ago)", vs)
	}
	_, err := s.FileVersions(ctx, room, "gone.md")
	wantCode(t, "FileVersions of a deleted name past the age", err, pumasi.ENotFound)
	if del, err := s.DeletedFiles(ctx, room); err != nil || len(del) != 0 {
		t.Fatalf("DeletedFiles past the age = %+v, %v; want none", del, err)
	}
	l, err := s.RoomLog(ctx, room, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range l.Changes {
		if c.Kind == pumasi.ChangePlace || c.Name == "gone.md" || (c.Name == "a.md" && c.Version == 1) {
			t.Fatalf("log past the age still has %+v", c)
		}
	}
	if got, want := blobSet(t, h, s, room), keptSet(t, s, room); !equalStrings(got, want) || len(got) != 2 {
		t.Fatalf("blobs after the sweep = %v, want a.md's 2 kept versions' %v", got, want)
	}
}

// testHistoryOff: with history off nothing past is kept and a replaced or
// deleted blob is reaped as before.
func testHistoryOff(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.New(t, Limits{History: pumasi.Retention{Off: true}})
	const room = "histoff"
	putBy(t, s, room, "a.md", "one\n", "w")
	putBy(t, s, room, "a.md", "two\n", "w")
	putBy(t, s, room, "b.md", "bee\n", "w")
	if _, _, err := s.DeleteFile(ctx, room, "b.md", ""); err != nil {
		t.Fatal(err)
	}
	vs := versions(t, s, room, "a.md")
	if len(vs) != 1 || vs[0].Version != 2 || !vs[0].Current {
		t.Fatalf("versions with history off = %+v, want the current one only", vs)
	}
	_, _, err := s.RestoreFile(ctx, pumasi.RestoreInput{Room: room, Name: "a.md", Version: 1})
	wantCode(t, "RestoreFile with history off", err, pumasi.ENotFound)
	if l, err := s.RoomLog(ctx, room, 0, 0); err != nil || len(l.Changes) != 0 {
		t.Fatalf("RoomLog with history off = %+v, %v; want empty", l, err)
	}
	sweep(t, s, 0)
	l := blobsMatchListing(t, h, s, room)
	if got, want := blobSet(t, h, s, room), shaSet(l); !equalStrings(got, want) {
		t.Fatalf("blobs after sweep with history off = %v, want the listed %v", got, want)
	}
}
