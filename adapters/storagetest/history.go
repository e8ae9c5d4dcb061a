package storagetest

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
	"testing"

	"pumasi"
)

// historyTests are the cases of room file history: versions, restore, the
// room log and retention. Run runs them with the others.
var historyTests = []struct {
	name string
	fn   func(t *testing.T, h Harness)
}{
	{"HistoryVersions", testHistoryVersions},
	{"HistoryDelete", testHistoryDelete},
	{"HistoryRestore", testHistoryRestore},
	{"HistoryRestoreQuota", testHistoryRestoreQuota},
	{"HistoryLog", testHistoryLog},
	{"HistoryRetainCount", testHistoryRetainCount},
	{"HistoryRetainBudget", testHistoryRetainBudget},
	{"HistoryRetainAge", testHistoryRetainAge},
	{"HistoryOff", testHistoryOff},
	{"HistoryConcurrentEdits", testHistoryConcurrentEdits},
}

// keptSet returns, sorted, the sha256 of every blob the store must keep for
// room: the listed files' and every kept version's, deleted names included.
func keptSet(t *testing.T, s pumasi.Store, room string) []string {
	t.Helper()
	ctx := context.Background()
	seen := map[string]bool{}
	for _, sum := range shaSet(list(t, s, room)) {
		seen[sum] = true
	}
	var names []string
	for _, f := range list(t, s, room).Files {
		names = append(names, f.Name)
	}
	del, err := s.DeletedFiles(ctx, room)
	if err != nil {
		t.Fatalf("DeletedFiles(%s) error: %v", room, err)
	}
	for _, d := range del {
		names = append(names, d.Name)
	}
	for _, n := range names {
		for _, v := range versions(t, s, room, n) {
			if !v.Deleted {
				seen[v.SHA256] = true
			}
		}
	}
	out := []string{}
	for sum := range seen {
		out = append(out, sum)
	}
	sort.Strings(out)
	return out
}

func versions(t *testing.T, s pumasi.Store, room, name string) []pumasi.FileVersion {
	t.Helper()
	vs, err := s.FileVersions(context.Background(), room, name)
	if err != nil {
		t.Fatalf("FileVersions(%s, %q) error: %v", room, name, err)
	}
	return vs
}

func putBy(t *testing.T, s pumasi.Store, room, name, body, by string) pumasi.PutFileResult {
	t.Helper()
	r, err := s.PutFile(context.Background(), pumasi.PutFileInput{
		Room: room, Name: name, Body: []byte(body), ContentType: md, UploadedBy: by,
	})
	if err != nil {
		t.Fatalf("PutFile(%s, %q) error: %v", room, name, err)
	}
	return r
}

func readVersion(t *testing.T, s pumasi.Store, room, name string, v int) string {
	t.Helper()
	fv, b, err := s.ReadVersion(context.Background(), room, name, v)
	if err != nil {
		t.Fatalf("ReadVersion(%s, %q, %d) error: %v", room, name, v, err)
	}
	if fv.Version != v || fv.SHA256 != sum(string(b)) || fv.Size != int64(len(b)) {
		t.Fatalf("ReadVersion(%q, %d) = %+v with %d bytes hashing to %s", name, v, fv, len(b), sum(string(b)))
	}
	return string(b)
}

func restore(t *testing.T, s pumasi.Store, in pumasi.RestoreInput) (pumasi.PutFileResult, string) {
	t.Helper()
	r, b, err := s.RestoreFile(context.Background(), in)
	if err != nil {
		t.Fatalf("RestoreFile(%+v) error: %v", in, err)
	}
	return r, string(b)
}

// testHistoryVersions: every content change keeps the version before it,
// listed newest first with who made it, and each reads back byte-exact.
func testHistoryVersions(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.New(t, Limits{})
	const room = "hist"
	bodies := []string{"first\n", "second, longer\n", "third\n"}
	for i, b := range bodies {
		putBy(t, s, room, "a.md", b, fmt.Sprintf("agent-%d", i+1))
	}
	putBy(t, s, room, "a.md", "third\n", "agent-9") // identical: no new version
	vs := versions(t, s, room, "a.md")
	if len(vs) != 3 {
		t.Fatalf("FileVersions = %d versions %+v, want 3", len(vs), vs)
	}
	for i, v := range vs {
		n := 3 - i
		if v.Version != n || v.SHA256 != sum(bodies[n-1]) || v.Size != int64(len(bodies[n-1])) ||
			v.UploadedBy != fmt.Sprintf("agent-%d", n) || v.Deleted || v.Current != (i == 0) || v.CreatedAt.IsZero() {
			t.Fatalf("version %d = %+v, want version %d of %q by agent-%d (current %v)", i, v, n, bodies[n-1], n, i == 0)
		}
		if got := readVersion(t, s, room, "a.md", n); got != bodies[n-1] {
			t.Fatalf("ReadVersion(%d) = %q, want %q", n, got, bodies[n-1])
		}
	}
	_, _, err := s.ReadVersion(ctx, room, "a.md", 4)
	wantCode(t, "ReadVersion of a version never made", err, pumasi.ENotFound)
	_, err = s.FileVersions(ctx, room, "never.md")
	wantCode(t, "FileVersions of a name never used", err, pumasi.ENotFound)
	_, err = s.FileVersions(ctx, room, "../x")
	wantCode(t, "FileVersions of a bad name", err, pumasi.EInvalidName)
	if f, b := read(t, s, room, "a.md"); f.Version != 3 || b != "third\n" {
		t.Fatalf("current = version %d %q, want 3 %q", f.Version, b, "third\n")
	}
	sweep(t, s, 0) // Keeps every version: they are within retention.
	for n, b := range bodies {
		if got := readVersion(t, s, room, "a.md", n+1); got != b {
			t.Fatalf("after sweep ReadVersion(%d) = %q, want %q", n+1, got, b)
		}
	}
	if got, want := blobSet(t, h, s, room), keptSet(t, s, room); !equalStrings(got, want) || len(got) != 3 {
		t.Fatalf("blobs after sweep = %v, want the 3 versions' %v", got, want)
	}
}

// testHistoryDelete: a delete is a version of its own, the deleted name
// keeps its versions and lists among the deleted names until restored.
func testHistoryDelete(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.New(t, Limits{})
	const room = "histdel"
	putBy(t, s, room, "keep.md", "stays\n", "p")
	putBy(t, s, room, "gone.md", "one\n", "p")
	two := putBy(t, s, room, "gone.md", "two\n", "p")
	if _, _, err := s.Delete(ctx, pumasi.DeleteInput{Room: room, Name: "gone.md", By: "deleter"}); err != nil {
		t.Fatalf("Delete error: %v", err)
	}
	vs := versions(t, s, room, "gone.md")
	if len(vs) != 3 || !vs[0].Deleted || vs[0].Version != 3 || vs[0].UploadedBy != "deleter" || !vs[0].Current ||
		vs[1].Version != 2 || vs[1].SHA256 != two.File.SHA256 || vs[1].Current {
		t.Fatalf("versions of a deleted name = %+v, want the delete (3) over 2 and 1", vs)
	}
	_, _, err := s.ReadVersion(ctx, room, "gone.md", 3)
	wantCode(t, "ReadVersion of a delete", err, pumasi.EGone)
	if got := readVersion(t, s, room, "gone.md", 1); got != "one\n" {
		t.Fatalf("ReadVersion(1) of a deleted name = %q", got)
	}
	del, err := s.DeletedFiles(ctx, room)
	if err != nil {
		t.Fatal(err)
	}
	if len(del) != 1 || del[0].Name != "gone.md" || del[0].Version != 3 || del[0].LastVersion != 2 ||
		del[0].SHA256 != two.File.SHA256 || del[0].DeletedBy != "deleter" || del[0].DeletedAt.IsZero() {
		t.Fatalf("DeletedFiles = %+v, want gone.md deleted at version 3 after version 2", del)
	}
	if l := list(t, s, room); len(l.Files) != 1 || l.Files[0].Name != "keep.md" {
		t.Fatalf("listing after delete = %v, want only keep.md", names(l))
	}
	if d, err := s.DeletedFiles(ctx, "nothing-here"); err != nil || len(d) != 0 {
		t.Fatalf("DeletedFiles of an unknown room = %v, %v; want none", d, err)
	}
	sweep(t, s, 0)
	if got := readVersion(t, s, room, "gone.md", 2); got != "two\n" {
		t.Fatalf("after sweep ReadVersion(2) of a deleted name = %q", got)
	}
}

// testHistoryRestore: a restore makes an old version current as a new one,
// honours If-Match, brings back a deleted name, and restoring what is
// already there changes nothing.
func testHistoryRestore(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.New(t, Limits{})
	const room = "histrest"
	v1 := putBy(t, s, room, "a.md", "good\n", "writer")
	v2 := putBy(t, s, room, "a.md", "broken by a bad upload\n", "writer")

	_, _, err := s.RestoreFile(ctx, pumasi.RestoreInput{Room: room, Name: "a.md", Version: 1, By: "fixer", IfMatch: `"` + v1.File.SHA256 + `"`})
	wantCode(t, "RestoreFile with a stale If-Match", err, pumasi.EPreconditionFailed)
	if f, _ := read(t, s, room, "a.md"); f.Version != 2 {
		t.Fatalf("a refused restore changed the file to version %d", f.Version)
	}
	r, body := restore(t, s, pumasi.RestoreInput{Room: room, Name: "a.md", Version: 1, By: "fixer", IfMatch: `"` + v2.File.SHA256 + `"`})
	if !r.Changed || r.File.Version != 3 || r.File.SHA256 != v1.File.SHA256 || r.File.ID != v1.File.ID ||
		r.File.UploadedBy != "fixer" || r.Rev != v2.Rev+1 || body != "good\n" {
		t.Fatalf("restore = %+v %q; want version 3 of version 1's content by fixer at rev %d", r, body, v2.Rev+1)
	}
	if f, b := read(t, s, room, "a.md"); f.Version != 3 || b != "good\n" {
		t.Fatalf("after restore the file is version %d %q", f.Version, b)
	}
	vs := versions(t, s, room, "a.md")
	if len(vs) != 3 || vs[0].RestoredFrom != 1 || !vs[0].Current || vs[1].SHA256 != v2.File.SHA256 {
		t.Fatalf("versions after restore = %+v", vs)
	}
	again, body := restore(t, s, pumasi.RestoreInput{Room: room, Name: "a.md", Version: 1, By: "fixer"})
	if again.Changed || again.Rev != r.Rev || again.File.Version != 3 || body != "good\n" {
		t.Fatalf("restoring the current content = %+v, want unchanged at rev %d", again, r.Rev)
	}
	_, _, err = s.RestoreFile(ctx, pumasi.RestoreInput{Room: room, Name: "a.md", Version: 9})
	wantCode(t, "RestoreFile of a version never made", err, pumasi.ENotFound)
	_, _, err = s.RestoreFile(ctx, pumasi.RestoreInput{Room: room, Name: "nope.md", Version: 1})
	wantCode(t, "RestoreFile of a name never used", err, pumasi.ENotFound)

	// A deleted name comes back, under its old id, as a new version.
	if _, _, err := s.Delete(ctx, pumasi.DeleteInput{Room: room, Name: "a.md", By: "oops"}); err != nil {
		t.Fatal(err)
	}
	_, _, err = s.RestoreFile(ctx, pumasi.RestoreInput{Room: room, Name: "a.md", Version: 4})
	wantCode(t, "RestoreFile of the delete's version", err, pumasi.EGone)
	_, _, err = s.RestoreFile(ctx, pumasi.RestoreInput{Room: room, Name: "a.md", Version: 2, IfMatch: "*"})
	wantCode(t, "RestoreFile of a deleted name with If-Match: *", err, pumasi.EPreconditionFailed)
	back, body := restore(t, s, pumasi.RestoreInput{Room: room, Name: "a.md", Version: 2, By: "fixer", IfNoneMatch: true})
	if !back.Changed || back.File.Version != 5 || back.File.SHA256 != v2.File.SHA256 || back.File.ID != v1.File.ID || body != "broken by a bad upload\n" {
		t.Fatalf("restore of a deleted name = %+v %q; want version 5 of version 2 under id %s", back, body, v1.File.ID)
	}
	if l := list(t, s, room); len(l.Files) != 1 || l.Files[0].Version != 5 || l.Rev != back.Rev {
		t.Fatalf("listing after bringing a.md back = %+v", l)
	}
	if del, err := s.DeletedFiles(ctx, room); err != nil || len(del) != 0 {
		t.Fatalf("DeletedFiles after the restore = %+v, %v; want none", del, err)
	}
	// A clash up to case is refused like an upload's.
	putBy(t, s, room, "B.md", "upper\n", "w")
	if _, _, err := s.DeleteFile(ctx, room, "B.md", ""); err != nil {
		t.Fatal(err)
	}
	putBy(t, s, room, "b.md", "lower\n", "w")
	_, _, err = s.RestoreFile(ctx, pumasi.RestoreInput{Room: room, Name: "B.md", Version: 1})
	wantCode(t, "RestoreFile over a name equal up to case", err, pumasi.ENameConflict)
	sweep(t, s, 0)
	blobsMatchListing(t, h, s, room)
}

// testHistoryRestoreQuota: a room at its live quota can still go back to a
// version no larger, but not grow, nor bring back a name past the file
// limit; history never counts against the live quota.
func testHistoryRestoreQuota(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.New(t, Limits{MaxRoomFiles: 2, MaxRoomBytes: 100})
	const room = "histquota"
	putBy(t, s, room, "a.md", strings.Repeat("s", 30), "w") // v1: 30 bytes
	putBy(t, s, room, "a.md", strings.Repeat("b", 90), "w") // v2: 90 bytes
	putBy(t, s, room, "a.md", strings.Repeat("m", 60), "w") // v3: 60 bytes
	putBy(t, s, room, "b.md", strings.Repeat("x", 40), "w") // room: 100 bytes, full
	_, _, err := s.RestoreFile(ctx, pumasi.RestoreInput{Room: room, Name: "a.md", Version: 2})
	wantCode(t, "RestoreFile growing a full room", err, pumasi.EQuotaExceeded)
	r, _ := restore(t, s, pumasi.RestoreInput{Room: room, Name: "a.md", Version: 1})
	if !r.Changed || r.File.Size != 30 {
		t.Fatalf("restore of a smaller version into a full room = %+v", r)
	}
	if _, _, err := s.DeleteFile(ctx, room, "b.md", ""); err != nil {
		t.Fatal(err)
	}
	putBy(t, s, room, "c.md", "c", "w") // a and c: the file limit
	_, _, err = s.RestoreFile(ctx, pumasi.RestoreInput{Room: room, Name: "b.md", Version: 1})
	wantCode(t, "RestoreFile of a deleted name past the file limit", err, pumasi.EQuotaExceeded)
	if _, _, err := s.DeleteFile(ctx, room, "c.md", ""); err != nil {
		t.Fatal(err)
	}
	if r, body := restore(t, s, pumasi.RestoreInput{Room: room, Name: "b.md", Version: 1}); !r.Changed || body != strings.Repeat("x", 40) {
		t.Fatalf("restore of a deleted name with a free slot = %+v %q", r, body)
	}
}

// testHistoryLog: the room log lists every effective change in rev order
// with who made it and what it turned into what; a move shows in both rooms.
func testHistoryLog(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.New(t, Limits{})
	const room = "histlog"
	r1 := putBy(t, s, room, "a.md", "one\n", "alice")
	r2 := putBy(t, s, room, "a.md", "two\n", "bob")
	putBy(t, s, room, "a.md", "two\n", "bob") // unchanged: not logged
	if _, _, err := s.Delete(ctx, pumasi.DeleteInput{Room: room, Name: "a.md", By: "carol"}); err != nil {
		t.Fatal(err)
	}
	restore(t, s, pumasi.RestoreInput{Room: room, Name: "a.md", Version: 1, By: "dave"})
	if _, _, err := s.Place(ctx, pumasi.PlaceInput{Room: room, Agent: "ag-1", Machine: "m1", By: "erin"}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Place(ctx, pumasi.PlaceInput{Room: room, Agent: "ag-1", Machine: "m2", By: "erin"}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Place(ctx, pumasi.PlaceInput{Room: "histlog2", Agent: "ag-1", Machine: "m2", By: "frank"}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Place(ctx, pumasi.PlaceInput{Room: room, Agent: "ag-2", Machine: "m1", By: "gina"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Unplace(ctx, pumasi.UnplaceInput{Room: room, Agent: "ag-2", By: "hank"}); err != nil {
		t.Fatal(err)
	}
	l, err := s.RoomLog(ctx, room, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	type row struct{ kind, by, name, from, to string }
	one, two := sum("one\n"), sum("two\n")
	want := []row{
		{pumasi.ChangeUpload, "alice", "a.md", "", one},
		{pumasi.ChangeUpload, "bob", "a.md", one, two},
		{pumasi.ChangeDelete, "carol", "a.md", two, ""},
		{pumasi.ChangeRestore, "dave", "a.md", "", one},
		{pumasi.ChangePlace, "erin", "", "", ""},
		{pumasi.ChangeMove, "erin", "", "", ""},
		{pumasi.ChangeMove, "frank", "", "", ""},
		{pumasi.ChangePlace, "gina", "", "", ""},
		{pumasi.ChangeUnplace, "hank", "", "", ""},
	}
	if len(l.Changes) != len(want) || l.More || l.Rev != l.Changes[len(l.Changes)-1].Rev {
		t.Fatalf("RoomLog = %d changes (more %v, rev %d): %+v; want %d", len(l.Changes), l.More, l.Rev, l.Changes, len(want))
	}
	for i, c := range l.Changes {
		w := want[i]
		if c.Kind != w.kind || c.By != w.by || c.Name != w.name || c.FromSHA256 != w.from || c.ToSHA256 != w.to || c.At.IsZero() {
			t.Fatalf("change %d = %+v, want %+v", i, c, w)
		}
		if i > 0 && c.Rev <= l.Changes[i-1].Rev {
			t.Fatalf("changes out of rev order: %d after %d", c.Rev, l.Changes[i-1].Rev)
		}
	}
	if c := l.Changes[0]; c.Rev != r1.Rev || c.Version != 1 || c.Size != 4 {
		t.Fatalf("first change = %+v, want rev %d version 1 size 4", c, r1.Rev)
	}
	if c := l.Changes[3]; c.RestoredFrom != 1 || c.Version != 4 {
		t.Fatalf("restore change = %+v, want version 4 restored from 1", c)
	}
	if c := l.Changes[4]; c.Agent != "ag-1" || c.Machine != "m1" {
		t.Fatalf("place change = %+v", c)
	}
	if c := l.Changes[5]; c.Agent != "ag-1" || c.Machine != "m2" || c.FromMachine != "m1" || c.FromRoom != "" {
		t.Fatalf("move between machines = %+v, want ag-1 from m1 to m2", c)
	}
	if c := l.Changes[6]; c.Agent != "ag-1" || c.ToRoom != "histlog2" {
		t.Fatalf("move out of the room = %+v, want ag-1 to histlog2", c)
	}
	other, err := s.RoomLog(ctx, "histlog2", 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(other.Changes) != 1 || other.Changes[0].Kind != pumasi.ChangeMove || other.Changes[0].FromRoom != room || other.Changes[0].By != "frank" {
		t.Fatalf("log of the room moved into = %+v, want one move from %s", other.Changes, room)
	}
	page, err := s.RoomLog(ctx, room, r2.Rev, 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Changes) != 2 || !page.More || page.Changes[0].Kind != pumasi.ChangeDelete {
		t.Fatalf("RoomLog(since %d, limit 2) = %+v more %v; want the delete and the restore, more", r2.Rev, page.Changes, page.More)
	}
	if l, err := s.RoomLog(ctx, "no-such-room", 0, 0); err != nil || len(l.Changes) != 0 || l.Rev != 0 {
		t.Fatalf("RoomLog of an unknown room = %+v, %v", l, err)
	}
	_, err = s.RoomLog(ctx, "../x", 0, 0)
	wantCode(t, "RoomLog of a bad room id", err, pumasi.EInvalidRequest)
}

// testHistoryConcurrentEdits: two writers edit one file from the same
// version with If-Match on its sha256: exactly one wins, the other is told
// (precondition_failed), its retry on the new version lands, and both
// edits are in the history.
func testHistoryConcurrentEdits(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.New(t, Limits{})
	const room = "histedit"
	base := putBy(t, s, room, "plan.md", "# plan\n", "lead")
	edits := []string{"# plan\n- agent a's step\n", "# plan\n- agent b's step\n"}
	errs := make([]error, 2)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i, body := range edits {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			_, errs[i] = s.PutFile(ctx, pumasi.PutFileInput{Room: room, Name: "plan.md", Body: []byte(body),
				ContentType: md, UploadedBy: fmt.Sprintf("agent-%c", 'a'+i), IfMatch: `"` + base.File.SHA256 + `"`})
		}()
	}
	close(start)
	wg.Wait()
	winner, loser := -1, -1
	for i, err := range errs {
		switch pumasi.ErrorCode(err) {
		case "":
			winner = i
		case pumasi.EPreconditionFailed:
			loser = i
		default:
			t.Fatalf("edit %d: %v", i, err)
		}
	}
	if winner < 0 || loser < 0 {
		t.Fatalf("edits from one version: errors %v, want one winner and one precondition_failed", errs)
	}
	cur, b := read(t, s, room, "plan.md")
	if b != edits[winner] {
		t.Fatalf("current = %q, want the winner's %q", b, edits[winner])
	}
	merged := edits[winner] + strings.TrimPrefix(edits[loser], "# plan\n")
	r, err := s.PutFile(ctx, pumasi.PutFileInput{Room: room, Name: "plan.md", Body: []byte(merged), ContentType: md,
		UploadedBy: fmt.Sprintf("agent-%c", 'a'+loser), IfMatch: `"` + cur.SHA256 + `"`})
	if err != nil || !r.Changed || r.File.Version != 3 {
		t.Fatalf("the retry on the new version = %+v, %v; want version 3", r, err)
	}
	vs := versions(t, s, room, "plan.md")
	if len(vs) != 3 || vs[1].SHA256 != sum(edits[winner]) || vs[0].SHA256 != sum(merged) ||
		vs[0].UploadedBy != fmt.Sprintf("agent-%c", 'a'+loser) || vs[1].UploadedBy != fmt.Sprintf("agent-%c", 'a'+winner) {
		t.Fatalf("history = %+v, want the winner's edit (2) under the loser's retry (3)", vs)
	}
}
