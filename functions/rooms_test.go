package functions_test

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"pumasi"
)

// TestListRoomsReach: GET /rooms shows admin every room with its rev, file
// count, bytes and agents; a room token its own room (at rev 0 when nothing
// changed it yet); a machine token the rooms of its agents.
func TestListRoomsReach(t *testing.T) {
	e := newAuthzEnv(t, false)
	r1 := pumasi.RoomSummary{RoomID: "r1", Rev: 2, Files: 1, Bytes: 7, Agents: []string{"a1"}, Offline: []string{}}
	r2 := pumasi.RoomSummary{RoomID: "r2", Rev: 2, Files: 1, Bytes: 7, Agents: []string{"a2"}, Offline: []string{}}
	cases := map[string][]pumasi.RoomSummary{
		"admin":      {r1, r2},
		"room:r1":    {r1},
		"room:r2":    {r2},
		"machine:m1": {r1},
		"machine:m2": {r2},
	}
	for cred, want := range cases {
		status, body, _ := e.do("GET", "/rooms", cred, "", nil)
		var got struct {
			Rooms []pumasi.RoomSummary `json:"rooms"`
		}
		if err := json.Unmarshal(body, &got); status != 200 || err != nil {
			t.Fatalf("%s: GET /rooms = %d %s (%v)", cred, status, body, err)
		}
		if !reflect.DeepEqual(got.Rooms, want) {
			t.Errorf("%s: rooms =\n%+v\nwant\n%+v", cred, got.Rooms, want)
		}
	}
	// A room token for a room nothing changed yet still sees it, empty.
	tok, err := pumasi.SignToken(authzSecret, "matrix", []string{"room:fresh"}, time.Hour, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	e.tokens["room:fresh"] = tok
	_, body, _ := e.do("GET", "/rooms", "room:fresh", "", nil)
	if want := `{"rooms":[{"room_id":"fresh","rev":0,"files":0,"bytes":0,"agents":[],"offline":[]}]}`; string(body) != want+"\n" && string(body) != want {
		t.Errorf("room:fresh: GET /rooms = %s, want %s", body, want)
	}
}
