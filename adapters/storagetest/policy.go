package storagetest

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"pumasi"
)

// The cases of the one file and placement policy (pumasi.PlanPut,
// PlanDelete, PlanPlace): every backend must decide them alike.

// testLoweredQuota: a room filled under generous limits and reopened under
// lower ones may still shrink, replace a file with one no larger, re-upload
// identical content and delete; it may not grow or add a file.
func testLoweredQuota(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.New(t, Limits{MaxRoomFiles: 10, MaxRoomBytes: 1000})
	const room = "lowered"
	b := func(n int, c byte) string { return strings.Repeat(string(c), n) }
	for i := 1; i <= 4; i++ {
		put(t, s, room, fmt.Sprintf("f%d.md", i), b(50, byte('0'+i))) // 4 files, 200 bytes
	}
	s = h.Reopen(t, s, Limits{MaxRoomFiles: 3, MaxRoomBytes: 100})
	try := func(name, body string) (pumasi.PutFileResult, error) {
		return s.PutFile(ctx, pumasi.PutFileInput{Room: room, Name: name, Body: []byte(body), ContentType: md})
	}
	rev := list(t, s, room).Rev

	_, err := try("f5.md", "x")
	wantCode(t, "a new file in a room over both limits", err, pumasi.EQuotaExceeded)
	_, err = try("f1.md", b(51, '1'))
	wantCode(t, "a growing replacement over the byte limit", err, pumasi.EQuotaExceeded)
	if got := list(t, s, room).Rev; got != rev {
		t.Fatalf("refused writes moved rev %d -> %d", rev, got)
	}
	if r, err := try("f1.md", b(50, '1')); err != nil || r.Changed {
		t.Fatalf("identical re-upload over quota = %+v, %v; want unchanged", r, err)
	}
	if r, err := try("f1.md", b(50, 'a')); err != nil || !r.Changed || r.File.Version != 2 {
		t.Fatalf("same-size replacement over quota = %+v, %v; want changed to version 2", r, err)
	}
	if r, err := try("f2.md", b(10, '2')); err != nil || !r.Changed {
		t.Fatalf("shrinking replacement over quota = %+v, %v; want changed", r, err)
	}
	if _, _, err := s.DeleteFile(ctx, room, "f3.md", ""); err != nil {
		t.Fatalf("delete over quota: %v", err)
	}
	if _, _, err := s.DeleteFile(ctx, room, "f4.md", ""); err != nil {
		t.Fatalf("delete over quota: %v", err)
	}
	// Now 2 files, 60 bytes: under both limits again.
	if r, err := try("f5.md", b(40, '5')); err != nil || !r.Changed {
		t.Fatalf("new file once under the limits = %+v, %v", r, err)
	}
	_, err = try("f6.md", "x")
	wantCode(t, "a fourth file under a limit of 3", err, pumasi.EQuotaExceeded)
	if l := blobsMatchListing(t, h, s, room); fmt.Sprint(names(l)) != "[f1.md f2.md f5.md]" {
		t.Fatalf("room holds %v, want [f1.md f2.md f5.md]", names(l))
	}
}

// testWeakTag: RFC 9110 If-Match uses strong comparison, so W/"<sha256>"
// never matches, not even the current content, on upload or delete.
func testWeakTag(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.New(t, Limits{})
	const room = "weak"
	put(t, s, room, "w.md", "one")
	weak := `W/"` + sum("one") + `"`
	_, err := s.PutFile(ctx, pumasi.PutFileInput{Room: room, Name: "w.md", Body: []byte("two"), ContentType: md, IfMatch: weak})
	wantCode(t, "upload with a weak If-Match", err, pumasi.EPreconditionFailed)
	_, _, err = s.DeleteFile(ctx, room, "w.md", weak)
	wantCode(t, "delete with a weak If-Match", err, pumasi.EPreconditionFailed)
	if _, b := read(t, s, room, "w.md"); b != "one" {
		t.Fatalf("w.md after weak-tag writes = %q, want one", b)
	}
	// A list holds when one strong tag matches, whatever the weak ones say.
	list := `W/"` + sum("one") + `", "` + sum("one") + `"`
	if r, err := s.PutFile(ctx, pumasi.PutFileInput{Room: room, Name: "w.md", Body: []byte("two"), ContentType: md, IfMatch: list}); err != nil || !r.Changed {
		t.Fatalf("upload with a list holding the strong tag = %+v, %v; want changed", r, err)
	}
}

// testIfMatchAny: If-Match: * means "the name exists".
func testIfMatchAny(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.New(t, Limits{})
	const room = "star"
	in := func(name, body string) pumasi.PutFileInput {
		return pumasi.PutFileInput{Room: room, Name: name, Body: []byte(body), ContentType: md, IfMatch: pumasi.IfMatchAny}
	}
	_, err := s.PutFile(ctx, in("s.md", "one"))
	wantCode(t, "If-Match: * on an absent name", err, pumasi.EPreconditionFailed)
	if _, err := s.StatFile(ctx, room, "s.md"); pumasi.ErrorCode(err) != pumasi.ENotFound {
		t.Fatalf("If-Match: * on an absent name created it: %v", err)
	}
	put(t, s, room, "s.md", "one")
	if r, err := s.PutFile(ctx, in("s.md", "two")); err != nil || !r.Changed || r.File.Version != 2 {
		t.Fatalf("If-Match: * on an existing name = %+v, %v; want changed to version 2", r, err)
	}
	if r, err := s.PutFile(ctx, in("s.md", "two")); err != nil || r.Changed {
		t.Fatalf("If-Match: * with identical content = %+v, %v; want unchanged", r, err)
	}
	if _, _, err := s.DeleteFile(ctx, room, "s.md", pumasi.IfMatchAny); err != nil {
		t.Fatalf("delete with If-Match: * on an existing name: %v", err)
	}
	_, _, err = s.DeleteFile(ctx, room, "s.md", pumasi.IfMatchAny)
	wantCode(t, "delete with If-Match: * on an absent name", err, pumasi.ENotFound)
}

// testConcurrentMove races, round after round, a caller who reaches rooms
// a and b moving an agent from a to b against an admin moving it to c. The
// reach is checked in the same write as the move, so whichever lands first,
// the agent ends in c: the caller either moved it before the admin did or
// was refused (forbidden), never overriding the admin's move.
func testConcurrentMove(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.New(t, Limits{})
	reach := func(room string) bool { return room == "mv-a" || room == "mv-b" }
	const rounds = 12
	var forbidden, first int
	for i := 0; i < rounds; i++ {
		if _, _, err := s.PlaceAgent(ctx, "mv-a", "mover", "m1"); err != nil {
			t.Fatalf("round %d: reset to mv-a: %v", i, err)
		}
		var wg sync.WaitGroup
		var userPrev *pumasi.Placement
		var userErr, adminErr error
		wg.Add(2)
		go func() {
			defer wg.Done()
			userPrev, _, userErr = s.Place(ctx, pumasi.PlaceInput{Room: "mv-b", Agent: "mover", Machine: "m2", Reach: reach})
		}()
		go func() {
			defer wg.Done()
			_, _, adminErr = s.Place(ctx, pumasi.PlaceInput{Room: "mv-c", Agent: "mover", Machine: "m3"})
		}()
		wg.Wait()
		if adminErr != nil {
			t.Fatalf("round %d: admin move: %v", i, adminErr)
		}
		switch {
		case pumasi.ErrorCode(userErr) == pumasi.EForbidden:
			forbidden++
		case userErr != nil:
			t.Fatalf("round %d: caller's move: %v", i, userErr)
		case userPrev == nil || userPrev.RoomID != "mv-a":
			t.Fatalf("round %d: caller's move answered previous %+v, want mv-a (it landed first)", i, userPrev)
		default:
			first++
		}
		p, err := s.AgentPlacement(ctx, "mover")
		if err != nil || p.RoomID != "mv-c" || p.MachineID != "m3" {
			t.Fatalf("round %d: agent is at %+v (%v), want mv-c/m3: the caller overrode the admin's move", i, p, err)
		}
		for _, room := range []string{"mv-a", "mv-b", "mv-c"} {
			ps, err := s.RoomAgents(ctx, room)
			if err != nil {
				t.Fatal(err)
			}
			if want := room == "mv-c"; (len(ps) == 1) != want || len(ps) > 1 {
				t.Fatalf("round %d: room %s lists %+v", i, room, ps)
			}
		}
		for _, m := range []string{"m1", "m2", "m3"} {
			ps, err := s.MachineAgents(ctx, m)
			if err != nil {
				t.Fatal(err)
			}
			if want := m == "m3"; (len(ps) == 1) != want || len(ps) > 1 {
				t.Fatalf("round %d: machine %s lists %+v", i, m, ps)
			}
		}
	}
	// Then a caller who does not reach the agent's room is refused outright.
	_, _, err := s.Place(ctx, pumasi.PlaceInput{Room: "mv-b", Agent: "mover", Machine: "m2", Reach: reach})
	wantCode(t, "moving an agent out of a room the caller does not reach", err, pumasi.EForbidden)
	t.Logf("%d rounds: caller first %d, refused %d", rounds, first, forbidden)
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
