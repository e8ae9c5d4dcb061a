package main

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"pumasi"
	"pumasi/adapters/local"
	"pumasi/functions"
)

// TestRoomsPlaceAgents drives rooms, place, agents, unplace and ls against a
// real API over a real local store, with an admin token and a room token.
func TestRoomsPlaceAgents(t *testing.T) {
	secret := []byte("rooms-secret-0123456789abcdef-0123456789")
	st, err := local.Open(context.Background(), t.TempDir(), local.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	srv := httptest.NewServer((&functions.API{Store: st, Secret: secret}).Handler())
	defer srv.Close()
	sign := func(scope string) string {
		tok, err := pumasi.SignToken(secret, "tester", []string{scope}, time.Hour, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		return tok
	}
	admin := map[string]string{"PUMASI_SERVER": srv.URL, "PUMASI_TOKEN": sign(pumasi.ScopeAdmin), "PUMASI_HOME": t.TempDir()}
	cli := func(env map[string]string, args ...string) string {
		t.Helper()
		out, errOut, err := runCLI(t, env, args...)
		if err != nil {
			t.Fatalf("pumasi %s: %v (stderr %s)", strings.Join(args, " "), err, errOut)
		}
		return out
	}
	if out := cli(admin, "rooms"); !strings.Contains(out, "(0 rooms)") {
		t.Errorf("rooms on an empty store:\n%s", out)
	}
	if _, err := st.PutFile(context.Background(), pumasi.PutFileInput{Room: "r1", Name: "spec.md", Body: []byte("# spec\n"), ContentType: "text/markdown", UploadedBy: "t"}); err != nil {
		t.Fatal(err)
	}
	if out := cli(admin, "place", "--room", "r1", "--agent", "a1", "--machine", "m1"); out != "placed a1 in r1 on m1\n" {
		t.Errorf("place: %q", out)
	}
	if out := cli(admin, "place", "--room", "r1", "--agent", "a1", "--machine", "m1"); out != "a1 is already in r1 on m1\n" {
		t.Errorf("place again: %q", out)
	}
	if out := cli(admin, "place", "--room", "r2", "--agent", "a1", "--machine", "m2"); out != "moved a1 from r1 on m1 to r2 on m2\n" {
		t.Errorf("move: %q", out)
	}
	cli(admin, "place", "--room", "r1", "--agent", "a2", "--machine", "m1")
	out := cli(admin, "rooms")
	for _, want := range []string{"ROOM  REV  FILES  BYTES  AGENTS", "r1    4    1      7      a2", "r2    1    0      0      a1", "(2 rooms)"} {
		if !strings.Contains(out, want) {
			t.Errorf("rooms lacks %q:\n%s", want, out)
		}
	}
	out = cli(admin, "agents", "--room", "r1")
	if !strings.Contains(out, "a2     m1       never reported") || !strings.Contains(out, "(1 agent in r1, rev 4)") {
		t.Errorf("agents --room r1:\n%s", out)
	}
	if out := cli(admin, "ls", "--room", "r1"); !strings.Contains(out, "(1 file, rev 4)") {
		t.Errorf("ls says:\n%s", out)
	}
	// A room token lists its room only and cannot move an agent out of r2.
	room1 := map[string]string{"PUMASI_SERVER": srv.URL, "PUMASI_TOKEN": sign(pumasi.ScopeRoom + "r1"), "PUMASI_HOME": t.TempDir()}
	if out := cli(room1, "rooms"); !strings.Contains(out, "r1 ") || strings.Contains(out, "r2 ") || !strings.Contains(out, "(1 room)") {
		t.Errorf("rooms with room:r1:\n%s", out)
	}
	if _, _, err := runCLI(t, room1, "place", "--room", "r1", "--agent", "a1", "--machine", "m1"); err == nil || !strings.Contains(err.Error(), "forbidden") {
		t.Errorf("room:r1 moving a1 out of r2: %v, want forbidden", err)
	}
	if out := cli(admin, "unplace", "--room", "r2", "--agent", "a1"); !strings.HasPrefix(out, "unplaced a1 from r2") {
		t.Errorf("unplace: %q", out)
	}
	if _, _, err := runCLI(t, admin, "unplace", "--room", "r2", "--agent", "a1"); err == nil || !strings.Contains(err.Error(), "not_found") {
		t.Errorf("unplace twice: %v, want not_found", err)
	}
	// Missing flags are clear errors before any request.
	for _, args := range [][]string{{"place", "--room", "r1", "--agent", "a1"}, {"place", "--room", "r1", "--machine", "m1"}, {"agents"}} {
		if _, _, err := runCLI(t, admin, args...); err == nil || !strings.Contains(err.Error(), "required") {
			t.Errorf("%v: %v, want a required-flag error", args, err)
		}
	}
}

func TestPlural(t *testing.T) {
	for n, want := range map[int]string{0: "0 files", 1: "1 file", 2: "2 files"} {
		if got := plural(n, "file"); got != want {
			t.Errorf("plural(%d) = %q, want %q", n, got, want)
		}
	}
}
