package s3_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"pumasi"
	s3store "pumasi/adapters/s3"
)

// TestConcurrentMovesConverge moves one agent between four rooms and three
// machines from 24 goroutines over two Stores at once. Whatever order the
// moves land in, the agent must end in exactly one room manifest and one
// machine index, both matching the same move.
func TestConcurrentMovesConverge(t *testing.T) {
	e := newEnv(t)
	stores := []*s3store.Store{e.open(t, s3store.Options{}), e.open(t, s3store.Options{})}
	ctx := context.Background()
	rooms := []string{"r0", "r1", "r2", "r3"}
	machines := []string{"m0", "m1", "m2"}
	const n = 24
	var wg sync.WaitGroup
	start := make(chan struct{})
	errs := make([]error, n)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			_, _, errs[i] = stores[i%2].PlaceAgent(ctx, rooms[i%4], "roamer", machines[i%3])
		}()
	}
	close(start)
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("move %d: %v", i, err)
		}
	}

	where := func() (room, machine string) {
		t.Helper()
		var inRooms, inMachines []pumasi.Placement
		for _, r := range rooms {
			ps, err := stores[0].RoomAgents(ctx, r)
			if err != nil {
				t.Fatal(err)
			}
			inRooms = append(inRooms, ps...)
		}
		for _, m := range machines {
			ps, err := stores[1].MachineAgents(ctx, m)
			if err != nil {
				t.Fatal(err)
			}
			inMachines = append(inMachines, ps...)
		}
		if len(inRooms) != 1 || len(inMachines) != 1 {
			t.Fatalf("agent listed in %d rooms and %d machines, want 1 and 1: %+v / %+v", len(inRooms), len(inMachines), inRooms, inMachines)
		}
		a, b := inRooms[0], inMachines[0]
		if a.RoomID != b.RoomID || a.MachineID != b.MachineID || !a.PlacedAt.Equal(b.PlacedAt) {
			t.Fatalf("room says %+v, machine index says %+v", a, b)
		}
		return a.RoomID, a.MachineID
	}
	room, machine := where()

	// The store's own answer agrees: placing it there again changes nothing.
	prev, changed, err := stores[1].PlaceAgent(ctx, room, "roamer", machine)
	if err != nil || changed || prev == nil || prev.RoomID != room || prev.MachineID != machine {
		t.Fatalf("re-place at the converged spot = %+v, %v, %v; want unchanged", prev, changed, err)
	}
	// A final move from the other store lands cleanly.
	next := "r-final"
	if _, changed, err := stores[0].PlaceAgent(ctx, next, "roamer", "m9"); err != nil || !changed {
		t.Fatalf("final move = %v, %v", changed, err)
	}
	rooms, machines = append(rooms, next), append(machines, "m9")
	if r, m := where(); r != next || m != "m9" {
		t.Fatalf("after final move agent is in %s on %s, want %s on m9", r, m, next)
	}
	t.Logf("24 concurrent moves over 2 stores: %d + %d compare-and-swap conflicts retried", stores[0].Conflicts(), stores[1].Conflicts())
}

// TestUnplaceRepairsStaleEntry plants a room entry that the agent's record
// does not back (what a crash between the two writes leaves) and checks
// that unplacing the agent from that room removes it.
func TestUnplaceRepairsStaleEntry(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	a, b := e.open(t, s3store.Options{}), e.open(t, s3store.Options{})
	if _, _, err := a.PlaceAgent(ctx, "old-room", "agent-1", "m1"); err != nil {
		t.Fatal(err)
	}
	// Simulate the crash: copy old-room's manifest aside, move the agent,
	// then put the stale manifest back.
	stale := e.getRaw(t, "rooms/old-room/manifest.json")
	if _, _, err := b.PlaceAgent(ctx, "new-room", "agent-1", "m1"); err != nil {
		t.Fatal(err)
	}
	e.putRaw(t, "rooms/old-room/manifest.json", stale)
	if ps, _ := a.RoomAgents(ctx, "old-room"); len(ps) != 1 {
		t.Fatalf("setup: old-room lists %d agents, want the stale 1", len(ps))
	}
	p, err := a.UnplaceAgent(ctx, "old-room", "agent-1")
	if err != nil || p.RoomID != "old-room" {
		t.Fatalf("UnplaceAgent(old-room) = %+v, %v; want the stale placement removed", p, err)
	}
	if ps, _ := a.RoomAgents(ctx, "old-room"); len(ps) != 0 {
		t.Fatalf("old-room still lists %v", ps)
	}
	ps, err := a.RoomAgents(ctx, "new-room")
	if err != nil || len(ps) != 1 || ps[0].MachineID != "m1" {
		t.Fatalf("new-room = %v, %v; want agent-1 still there", ps, err)
	}
}

// TestSweepRepairsPlacements leaves the projections of a move as a crash
// right after the agent's record was written would: the old room still
// lists the agent and the new room and machine do not. The sweep must bring
// every projection in line with the record.
func TestSweepRepairsPlacements(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	st := e.open(t, s3store.Options{})
	other := e.open(t, s3store.Options{})
	if _, _, err := st.PlaceAgent(ctx, "old-room", "agent-1", "m1"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := st.PlaceAgent(ctx, "new-room", "bystander", "m2"); err != nil {
		t.Fatal(err)
	}
	oldRoom := e.getRaw(t, "rooms/old-room/manifest.json")
	newRoom := e.getRaw(t, "rooms/new-room/manifest.json")
	m1 := e.getRaw(t, "machines/m1.json")
	m2 := e.getRaw(t, "machines/m2.json")
	if _, _, err := other.PlaceAgent(ctx, "new-room", "agent-1", "m2"); err != nil {
		t.Fatal(err)
	}
	for key, body := range map[string][]byte{
		"rooms/old-room/manifest.json": oldRoom, "rooms/new-room/manifest.json": newRoom,
		"machines/m1.json": m1, "machines/m2.json": m2,
	} {
		e.putRaw(t, key, body)
	}
	if ps, _ := st.RoomAgents(ctx, "old-room"); len(ps) != 1 {
		t.Fatalf("setup: old-room lists %v, want the stale agent-1", ps)
	}

	// The sweep repairs only records older than its grace (a younger one's
	// placement call may still be reconciling): sweep from two hours on.
	later := e.open(t, s3store.Options{Now: func() time.Time { return time.Now().Add(2 * time.Hour) }})
	if _, err := later.Sweep(ctx, time.Hour); err != nil {
		t.Fatal(err)
	}
	agents := func(ps []pumasi.Placement, err error) string {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, p := range ps {
			out = append(out, p.AgentID+"@"+p.RoomID+"/"+p.MachineID)
		}
		return strings.Join(out, " ")
	}
	for _, c := range []struct{ got, want string }{
		{agents(st.RoomAgents(ctx, "old-room")), ""},
		{agents(st.RoomAgents(ctx, "new-room")), "agent-1@new-room/m2 bystander@new-room/m2"},
		{agents(st.MachineAgents(ctx, "m1")), ""},
		{agents(st.MachineAgents(ctx, "m2")), "agent-1@new-room/m2 bystander@new-room/m2"},
	} {
		if c.got != c.want {
			t.Fatalf("after sweep: %q, want %q", c.got, c.want)
		}
	}
	// The repair counts as room changes: both rooms' revs moved past the
	// stale copies (old-room 1 -> 2, new-room 1 -> 2).
	for room, want := range map[string]int64{"old-room": 2, "new-room": 2} {
		if l, err := st.ListFiles(ctx, room); err != nil || l.Rev != want {
			t.Fatalf("%s rev = %d, %v; want %d", room, l.Rev, err, want)
		}
	}
}
