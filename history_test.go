package pumasi

import (
	"slices"
	"strings"
	"testing"
	"time"
)

func sha(c byte) string { return strings.Repeat(string(c), 64) }

// TestPlanRetention pins the one retention policy both backends apply.
func TestPlanRetention(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	day := 24 * time.Hour
	up := func(rev int64, name string, v int, s byte, size int64, at time.Duration) Change {
		return Change{Rev: rev, Kind: ChangeUpload, Name: name, Version: v, ToSHA256: sha(s), Size: size, At: t0.Add(at)}
	}
	del := func(rev int64, name string, v int, at time.Duration) Change {
		return Change{Rev: rev, Kind: ChangeDelete, Name: name, Version: v, At: t0.Add(at)}
	}
	tests := []struct {
		name    string
		changes []Change
		live    map[string]string
		r       Retention
		now     time.Duration
		want    []int64
	}{
		{"within every limit", []Change{up(1, "a", 1, 'a', 10, 0), up(2, "a", 2, 'b', 10, day)},
			map[string]string{"a": sha('b')}, Retention{}, 2 * day, nil},
		{"count: the oldest past the limit go, the current stays", []Change{
			up(1, "a", 1, 'a', 1, 0), up(2, "a", 2, 'b', 1, 1), up(3, "a", 3, 'c', 1, 2), up(4, "a", 4, 'd', 1, 3)},
			map[string]string{"a": sha('d')}, Retention{Versions: 2}, day, []int64{1, 2}},
		{"age counts from when a version was superseded", []Change{
			up(1, "a", 1, 'a', 1, 0), up(2, "a", 2, 'b', 1, 40*day), up(3, "a", 3, 'c', 1, 45*day)},
			map[string]string{"a": sha('c')}, Retention{}, 71 * day, []int64{1}},
		{"a live version is never dropped, however old", []Change{up(1, "a", 1, 'a', 1, 0)},
			map[string]string{"a": sha('a')}, Retention{Versions: 1, MaxAge: time.Hour, Bytes: 1}, 400 * day, nil},
		{"budget: longest superseded first, live blobs cost nothing", []Change{
			up(1, "a", 1, 'a', 100, 0), up(2, "a", 2, 'b', 100, 1*time.Hour), up(3, "a", 3, 'c', 100, 2*time.Hour),
			up(4, "b", 1, 'x', 1000, 0), up(5, "b", 2, 'a', 100, 3*time.Hour)},
			map[string]string{"a": sha('c'), "b": sha('a')}, Retention{Bytes: 150}, day, []int64{2, 4}},
		{"budget: a blob two past versions share is freed with the last", []Change{
			up(1, "a", 1, 'a', 100, 0), up(2, "a", 2, 'b', 100, time.Hour), up(3, "b", 1, 'a', 100, 2*time.Hour), up(4, "b", 2, 'c', 100, 3*time.Hour),
			up(5, "a", 3, 'd', 100, 4*time.Hour)},
			map[string]string{"a": sha('d'), "b": sha('c')}, Retention{Bytes: 100}, day, []int64{1, 3}},
		{"a deleted name keeps its delete while a version is left", []Change{
			up(1, "a", 1, 'a', 1, 0), up(2, "a", 2, 'b', 1, day), del(3, "a", 3, 2*day)},
			map[string]string{}, Retention{Versions: 2}, 3 * day, []int64{1}},
		{"a deleted name with nothing left to restore goes whole", []Change{
			up(1, "a", 1, 'a', 1, 0), del(2, "a", 2, day)},
			map[string]string{}, Retention{}, 40 * day, []int64{1, 2}},
		{"placement changes age out", []Change{
			{Rev: 1, Kind: ChangePlace, Agent: "x", At: t0}, {Rev: 2, Kind: ChangeMove, Agent: "x", At: t0.Add(35 * day)}},
			map[string]string{}, Retention{}, 40 * day, []int64{1}},
		{"off drops everything", []Change{up(1, "a", 1, 'a', 1, 0), {Rev: 2, Kind: ChangePlace, At: t0}},
			map[string]string{"a": sha('a')}, Retention{Off: true}, 0, []int64{1, 2}},
	}
	for _, tt := range tests {
		got := PlanRetention(tt.changes, tt.live, tt.r, t0.Add(tt.now))
		if len(got) == 0 {
			got = nil
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: PlanRetention = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestParseRetention(t *testing.T) {
	r, err := ParseRetention("", "", "", "")
	if err != nil || r != (Retention{Versions: 50, MaxAge: 30 * 24 * time.Hour, Bytes: 64 << 20}) {
		t.Fatalf("defaults = %+v, %v", r, err)
	}
	r, err = ParseRetention("off", "7", "36h", "1000")
	if err != nil || !r.Off || r.Versions != 7 || r.MaxAge != 36*time.Hour || r.Bytes != 1000 {
		t.Fatalf("ParseRetention(off, 7, 36h, 1000) = %+v, %v", r, err)
	}
	if r, err := ParseRetention("on", "", "7d", ""); err != nil || r.MaxAge != 7*24*time.Hour {
		t.Fatalf("7d = %+v, %v", r, err)
	}
	for _, bad := range [][4]string{{"maybe", "", "", ""}, {"", "0", "", ""}, {"", "x", "", ""}, {"", "", "-1h", ""}, {"", "", "soon", ""}, {"", "", "", "-5"}} {
		if _, err := ParseRetention(bad[0], bad[1], bad[2], bad[3]); ErrorCode(err) != EInvalidRequest {
			t.Errorf("ParseRetention(%q) = %v, want invalid_request", bad, err)
		}
	}
}

func TestFileVersionsOf(t *testing.T) {
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	cs := []Change{
		{Rev: 5, Kind: ChangeRestore, Name: "a", Version: 3, ToSHA256: sha('a'), RestoredFrom: 1, By: "c", At: at},
		{Rev: 1, Kind: ChangeUpload, Name: "a", Version: 1, ToSHA256: sha('a'), By: "a", At: at},
		{Rev: 3, Kind: ChangeUpload, Name: "a", Version: 2, ToSHA256: sha('b'), By: "b", At: at},
		{Rev: 4, Kind: ChangePlace, Agent: "x", At: at},
	}
	vs := FileVersionsOf(cs, &File{Version: 3, SHA256: sha('a')})
	if len(vs) != 3 || vs[0].Version != 3 || !vs[0].Current || vs[0].RestoredFrom != 1 || vs[1].Current || vs[2].UploadedBy != "a" {
		t.Fatalf("FileVersionsOf = %+v", vs)
	}
	// A current file no change records (history came later) is listed.
	vs = FileVersionsOf(nil, &File{Version: 7, SHA256: sha('z'), UploadedBy: "old", UpdatedAt: at})
	if len(vs) != 1 || vs[0].Version != 7 || !vs[0].Current || vs[0].UploadedBy != "old" {
		t.Fatalf("FileVersionsOf(no changes) = %+v", vs)
	}
	if vs := FileVersionsOf(nil, nil); len(vs) != 0 {
		t.Fatalf("FileVersionsOf(nothing) = %+v", vs)
	}
	del := append(cs, Change{Rev: 6, Kind: ChangeDelete, Name: "a", Version: 4, By: "d", At: at})
	if vs := FileVersionsOf(del, nil); !vs[0].Deleted || !vs[0].Current {
		t.Fatalf("a deleted name's newest = %+v, want its delete, current", vs[0])
	}
	df := DeletedFilesOf(del, nil)
	if len(df) != 1 || df[0].Version != 4 || df[0].LastVersion != 3 || df[0].DeletedBy != "d" || df[0].SHA256 != sha('a') {
		t.Fatalf("DeletedFilesOf = %+v", df)
	}
	if df := DeletedFilesOf(del, map[string]bool{"a": true}); len(df) != 0 {
		t.Fatalf("DeletedFilesOf with a live name = %+v", df)
	}
	onlyDelete := []Change{{Rev: 1, Kind: ChangeDelete, Name: "b", Version: 2}}
	if df := DeletedFilesOf(onlyDelete, nil); len(df) != 0 {
		t.Fatalf("a delete with nothing to restore is listed: %+v", df)
	}
}

func TestNextVersionAndRestorePlan(t *testing.T) {
	if got := NextVersion(nil, 0); got != 1 {
		t.Fatalf("NextVersion(new) = %d", got)
	}
	if got := NextVersion(nil, 4); got != 5 {
		t.Fatalf("NextVersion(after a delete at 4) = %d", got)
	}
	if got := NextVersion(&File{Version: 6}, 3); got != 7 {
		t.Fatalf("NextVersion(cur 6) = %d", got)
	}
	use := RoomUsage{Files: 1, Bytes: 100, MaxFiles: 1, MaxBytes: 100}
	cur := &File{Name: "a.md", SHA256: sha('c'), Size: 100}
	in := RestoreInput{Room: "r", Name: "a.md"}
	for _, tt := range []struct {
		v    Change
		cur  *File
		in   RestoreInput
		plan PutPlan
		code string
	}{
		{Change{Kind: ChangeUpload, ToSHA256: sha('a'), Size: 50}, cur, in, PutReplace, ""},
		{Change{Kind: ChangeUpload, ToSHA256: sha('a'), Size: 150}, cur, in, 0, EQuotaExceeded},
		{Change{Kind: ChangeUpload, ToSHA256: sha('c'), Size: 100}, cur, in, PutUnchanged, ""},
		{Change{Kind: ChangeDelete}, cur, in, 0, EGone},
		{Change{Kind: ChangeUpload, ToSHA256: sha('a'), Size: 10}, nil, in, 0, EQuotaExceeded},
		{Change{Kind: ChangeUpload, ToSHA256: sha('a'), Size: 10}, cur, RestoreInput{Room: "r", Name: "a.md", IfMatch: `"` + sha('b') + `"`}, 0, EPreconditionFailed},
		{Change{Kind: ChangeUpload, ToSHA256: sha('a'), Size: 10}, &File{Name: "A.md", SHA256: sha('c')}, in, 0, ENameConflict},
	} {
		plan, err := PlanRestore(tt.cur, use, tt.in, tt.v)
		if ErrorCode(err) != tt.code || (err == nil && plan != tt.plan) {
			t.Errorf("PlanRestore(%+v) = %v, %v; want %v, %q", tt.v, plan, err, tt.plan, tt.code)
		}
	}
	// A stale precondition names the current sha256.
	_, err := PlanRestore(cur, use, RestoreInput{Room: "r", Name: "a.md", IfMatch: sha('b')}, Change{Kind: ChangeUpload, ToSHA256: sha('a')})
	if !strings.Contains(ErrorMessage(err), sha('c')) {
		t.Fatalf("stale If-Match message %q does not name the current sha256", ErrorMessage(err))
	}
}

func TestPrincipalWhoAndSubject(t *testing.T) {
	for _, tt := range []struct {
		p    *Principal
		want string
	}{
		{&Principal{Subject: "alice", Admin: true}, "alice"},
		{&Principal{Admin: true}, "admin"},
		{&Principal{Rooms: map[string]bool{"r2": true, "r1": true}}, "room:r1"},
		{&Principal{Machines: map[string]bool{"m1": true}}, "machine:m1"},
		{nil, ""},
	} {
		if got := tt.p.Who(); got != tt.want {
			t.Errorf("Who(%+v) = %q, want %q", tt.p, got, tt.want)
		}
	}
	secret := []byte("0123456789abcdef0123")
	for _, bad := range []string{"a\nb", strings.Repeat("x", MaxSubject+1), "\x00", string([]byte{0xff})} {
		if _, err := SignToken(secret, bad, []string{ScopeAdmin}, time.Hour, time.Now()); ErrorCode(err) != EInvalidRequest {
			t.Errorf("SignToken(subject %q) = %v, want invalid_request", bad, err)
		}
	}
	tok, err := SignToken(secret, "에이전트 7", []string{ScopeRoom + "r1"}, time.Hour, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	p, err := ParseToken(secret, tok, time.Now())
	if err != nil || p.Who() != "에이전트 7" {
		t.Fatalf("round trip subject = %v, %v", p, err)
	}
}
