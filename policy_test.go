package pumasi

import (
	"strings"
	"testing"
)

const (
	shaA = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	shaB = "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
)

func TestIfMatchHolds(t *testing.T) {
	cur := &File{Name: "a.md", SHA256: shaA}
	tests := []struct {
		cond string
		cur  *File
		want bool
	}{
		{"", nil, true},
		{"", cur, true},
		{"*", cur, true},
		{" * ", cur, true},
		{"*", nil, false},
		{`"` + shaA + `"`, cur, true},
		{shaA, cur, true},
		{`"` + strings.ToUpper(shaA) + `"`, cur, true},
		{`"` + shaB + `"`, cur, false},
		{`"` + shaA + `"`, nil, false},
		{`W/"` + shaA + `"`, cur, false}, // weak tags never match
		{`"` + shaB + `", "` + shaA + `"`, cur, true},
		{`W/"` + shaA + `", "` + shaB + `"`, cur, false},
	}
	for _, tt := range tests {
		if got := IfMatchHolds(tt.cond, tt.cur); got != tt.want {
			t.Errorf("IfMatchHolds(%q, exists=%v) = %v, want %v", tt.cond, tt.cur != nil, got, tt.want)
		}
	}
}

func TestCheckIfMatch(t *testing.T) {
	for _, ok := range []string{"", "*", `"` + shaA + `"`, shaA, `W/"` + shaA + `"`, `"` + shaA + `", W/"` + shaB + `"`} {
		if err := CheckIfMatch(ok); err != nil {
			t.Errorf("CheckIfMatch(%q) = %v, want nil", ok, err)
		}
	}
	for _, bad := range []string{`"abc"`, "**", `"` + shaA + `",`, `W/`, `"r12"`} {
		if err := CheckIfMatch(bad); ErrorCode(err) != EInvalidRequest {
			t.Errorf("CheckIfMatch(%q) = %v, want invalid_request", bad, err)
		}
	}
}

func TestPlanPut(t *testing.T) {
	cur := &File{Name: "a.md", SHA256: shaA, Size: 40}
	lim := func(files int, bytes int64) RoomUsage {
		return RoomUsage{Files: files, Bytes: bytes, MaxFiles: 3, MaxBytes: 100}
	}
	in := func(name string, size int) PutFileInput {
		return PutFileInput{Room: "r", Name: name, Body: []byte(strings.Repeat("x", size))}
	}
	with := func(p PutFileInput, f func(*PutFileInput)) PutFileInput { f(&p); return p }
	tests := []struct {
		what string
		cur  *File
		use  RoomUsage
		in   PutFileInput
		sum  string
		want PutPlan
		code string
	}{
		{"new name", nil, lim(1, 40), in("b.md", 10), shaB, PutCreate, ""},
		{"replace", cur, lim(1, 40), in("a.md", 10), shaB, PutReplace, ""},
		{"identical", cur, lim(1, 40), in("a.md", 40), shaA, PutUnchanged, ""},
		{"case clash", cur, lim(1, 40), in("A.md", 10), shaB, 0, ENameConflict},
		{"case clash, identical bytes", cur, lim(1, 40), in("A.md", 40), shaA, 0, ENameConflict},
		{"too large", nil, lim(0, 0), in("b.md", MaxFileSize+1), shaB, 0, ETooLarge},
		{"If-None-Match on existing", cur, lim(1, 40), with(in("a.md", 40), func(p *PutFileInput) { p.IfNoneMatch = true }), shaA, 0, EPreconditionFailed},
		{"If-None-Match on new", nil, lim(1, 40), with(in("b.md", 4), func(p *PutFileInput) { p.IfNoneMatch = true }), shaB, PutCreate, ""},
		{"If-Match * on existing", cur, lim(1, 40), with(in("a.md", 4), func(p *PutFileInput) { p.IfMatch = "*" }), shaB, PutReplace, ""},
		{"If-Match * on absent", nil, lim(1, 40), with(in("b.md", 4), func(p *PutFileInput) { p.IfMatch = "*" }), shaB, 0, EPreconditionFailed},
		{"If-Match weak", cur, lim(1, 40), with(in("a.md", 4), func(p *PutFileInput) { p.IfMatch = `W/"` + shaA + `"` }), shaB, 0, EPreconditionFailed},
		{"If-Match strong", cur, lim(1, 40), with(in("a.md", 4), func(p *PutFileInput) { p.IfMatch = `"` + shaA + `"` }), shaB, PutReplace, ""},
		{"fourth file", nil, lim(3, 40), in("d.md", 1), shaB, 0, EQuotaExceeded},
		{"to the byte limit", nil, lim(2, 90), in("d.md", 10), shaB, PutCreate, ""},
		{"past the byte limit", nil, lim(2, 90), in("d.md", 11), shaB, 0, EQuotaExceeded},
		// A room over a lowered quota (5 files, 200 bytes against 3, 100):
		{"lowered: shrink", cur, lim(5, 200), in("a.md", 10), shaB, PutReplace, ""},
		{"lowered: same size", cur, lim(5, 200), in("a.md", 40), shaB, PutReplace, ""},
		{"lowered: grow", cur, lim(5, 200), in("a.md", 41), shaB, 0, EQuotaExceeded},
		{"lowered: new file", nil, lim(5, 200), in("e.md", 0), shaB, 0, EQuotaExceeded},
		{"lowered: identical", cur, lim(5, 200), in("a.md", 40), shaA, PutUnchanged, ""},
	}
	for _, tt := range tests {
		got, err := PlanPut(tt.cur, tt.use, tt.in, tt.sum)
		if ErrorCode(err) != tt.code || (err == nil && got != tt.want) {
			t.Errorf("%s: PlanPut = %v, %v; want %v, code %q", tt.what, got, err, tt.want, tt.code)
		}
	}
}

func TestPlanDelete(t *testing.T) {
	cur := &File{Name: "a.md", SHA256: shaA}
	tests := []struct {
		cur     *File
		ifMatch string
		code    string
	}{
		{cur, "", ""},
		{cur, "*", ""},
		{cur, `"` + shaA + `"`, ""},
		{cur, `W/"` + shaA + `"`, EPreconditionFailed},
		{cur, shaB, EPreconditionFailed},
		{nil, "", ENotFound},
		{nil, "*", ENotFound},
		{nil, shaA, ENotFound},
	}
	for _, tt := range tests {
		if err := PlanDelete(tt.cur, "r", "a.md", tt.ifMatch); ErrorCode(err) != tt.code {
			t.Errorf("PlanDelete(exists=%v, %q) = %v, want code %q", tt.cur != nil, tt.ifMatch, err, tt.code)
		}
	}
}

func TestPlanPlace(t *testing.T) {
	in := func(room, machine string, reach ...string) PlaceInput {
		p := PlaceInput{Room: room, Agent: "a1", Machine: machine}
		if reach != nil {
			p.Reach = func(r string) bool {
				for _, x := range reach {
					if x == r {
						return true
					}
				}
				return false
			}
		}
		return p
	}
	at := &Placement{RoomID: "r1", AgentID: "a1", MachineID: "m1"}
	tests := []struct {
		what    string
		cur     *Placement
		in      PlaceInput
		changed bool
		code    string
	}{
		{"first placement", nil, in("r1", "m1", "r1"), true, ""},
		{"again", at, in("r1", "m1", "r1"), false, ""},
		{"other machine", at, in("r1", "m2", "r1"), true, ""},
		{"move, reaching both", at, in("r2", "m1", "r1", "r2"), true, ""},
		{"move out of a room the caller does not reach", at, in("r2", "m1", "r2"), false, EForbidden},
		{"admin move", at, in("r2", "m1"), true, ""},
	}
	for _, tt := range tests {
		changed, err := PlanPlace(tt.cur, tt.in)
		if ErrorCode(err) != tt.code || changed != tt.changed {
			t.Errorf("%s: PlanPlace = %v, %v; want %v, code %q", tt.what, changed, err, tt.changed, tt.code)
		}
	}
	if err := PlanUnplace(at, "a1", "r2"); ErrorCode(err) != ENotFound {
		t.Errorf("PlanUnplace(other room) = %v, want not_found", err)
	}
	if err := PlanUnplace(nil, "a1", "r1"); ErrorCode(err) != ENotFound {
		t.Errorf("PlanUnplace(not placed) = %v, want not_found", err)
	}
	if err := PlanUnplace(at, "a1", "r1"); err != nil {
		t.Errorf("PlanUnplace(its room) = %v, want nil", err)
	}
}
