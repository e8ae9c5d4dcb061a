package storagetest

import (
	"context"
	"reflect"
	"testing"

	"pumasi"
)

// testListRooms: ListRooms names every room anything changed, sorted, with
// its rev, file count, bytes and agents; an emptied room still lists.
func testListRooms(t *testing.T, h Harness) {
	s := h.New(t, Limits{})
	ctx := context.Background()
	rooms, err := s.ListRooms(ctx)
	if err != nil || len(rooms) != 0 {
		t.Fatalf("ListRooms on an empty store = %v, %v; want none", rooms, err)
	}
	put(t, s, "r2", "spec.md", "# spec\n")   // 7 bytes
	put(t, s, "r2", "plan.md", "plan one\n") // 9 bytes
	put(t, s, "r1", "gone.md", "bye\n")
	if _, _, err := s.DeleteFile(ctx, "r1", "gone.md", ""); err != nil {
		t.Fatal(err)
	}
	for _, a := range []string{"b-agent", "a-agent"} {
		if _, _, err := s.PlaceAgent(ctx, "r2", a, "m1"); err != nil {
			t.Fatal(err)
		}
	}
	// A room only an agent was ever placed in exists too.
	if _, _, err := s.PlaceAgent(ctx, "r3", "c-agent", "m2"); err != nil {
		t.Fatal(err)
	}
	rooms, err = s.ListRooms(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := []pumasi.RoomSummary{
		{RoomID: "r1", Rev: 2, Files: 0, Bytes: 0, Agents: []string{}},
		{RoomID: "r2", Rev: 4, Files: 2, Bytes: 16, Agents: []string{"a-agent", "b-agent"}},
		{RoomID: "r3", Rev: 1, Files: 0, Bytes: 0, Agents: []string{"c-agent"}},
	}
	if !reflect.DeepEqual(rooms, want) {
		t.Fatalf("ListRooms =\n%+v\nwant\n%+v", rooms, want)
	}
	// Moving an agent moves it between the rooms' lists.
	if _, _, err := s.PlaceAgent(ctx, "r3", "a-agent", "m2"); err != nil {
		t.Fatal(err)
	}
	rooms, err = s.ListRooms(ctx)
	if err != nil || len(rooms) != 3 {
		t.Fatalf("ListRooms after a move = %v, %v", rooms, err)
	}
	if got := rooms[1].Agents; !reflect.DeepEqual(got, []string{"b-agent"}) {
		t.Errorf("r2's agents after the move = %v, want [b-agent]", got)
	}
	if got := rooms[2].Agents; !reflect.DeepEqual(got, []string{"a-agent", "c-agent"}) {
		t.Errorf("r3's agents after the move = %v, want [a-agent c-agent]", got)
	}
}
