package storagetest

import (
	"context"
	"strings"
	"testing"

	"pumasi"
)

func testPlacements(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.New(t, Limits{})
	rev := func(room string) int64 { t.Helper(); return list(t, s, room).Rev }
	agentsOf := func(ps []pumasi.Placement, err error) string {
		t.Helper()
		if err != nil {
			t.Fatalf("placements error: %v", err)
		}
		var parts []string
		for _, p := range ps {
			if p.PlacedAt.IsZero() {
				t.Fatalf("placement %+v has no placed_at", p)
			}
			parts = append(parts, p.AgentID+"@"+p.RoomID+"/"+p.MachineID)
		}
		return strings.Join(parts, " ")
	}
	place := func(room, agent, machine string) (*pumasi.Placement, bool) {
		t.Helper()
		prev, changed, err := s.PlaceAgent(ctx, room, agent, machine)
		if err != nil {
			t.Fatalf("PlaceAgent(%s, %s, %s) error: %v", room, agent, machine, err)
		}
		return prev, changed
	}

	if prev, changed := place("room-a", "agent-1", "m1"); prev != nil || !changed {
		t.Fatalf("first placement: prev %+v changed %v, want nil true", prev, changed)
	}
	if r := rev("room-a"); r != 1 {
		t.Fatalf("room-a rev = %d after a placement, want 1", r)
	}
	prev, changed := place("room-a", "agent-1", "m1")
	if changed || prev == nil || prev.RoomID != "room-a" || prev.MachineID != "m1" {
		t.Fatalf("identical re-placement: prev %+v changed %v, want the same placement, false", prev, changed)
	}
	if r := rev("room-a"); r != 1 {
		t.Fatalf("identical re-placement moved rev to %d", r)
	}
	place("room-a", "agent-2", "m2")
	if got := agentsOf(s.RoomAgents(ctx, "room-a")); got != "agent-1@room-a/m1 agent-2@room-a/m2" {
		t.Fatalf("RoomAgents(room-a) = %q", got)
	}

	prev, changed = place("room-b", "agent-1", "m1")
	if !changed || prev == nil || prev.RoomID != "room-a" {
		t.Fatalf("move: prev %+v changed %v, want room-a, true", prev, changed)
	}
	if a, b := rev("room-a"), rev("room-b"); a != 3 || b != 1 {
		t.Fatalf("after move: rev room-a %d room-b %d, want 3 and 1", a, b)
	}
	if got := agentsOf(s.RoomAgents(ctx, "room-a")); got != "agent-2@room-a/m2" {
		t.Fatalf("RoomAgents(room-a) after move = %q", got)
	}
	if got := agentsOf(s.RoomAgents(ctx, "room-b")); got != "agent-1@room-b/m1" {
		t.Fatalf("RoomAgents(room-b) after move = %q", got)
	}

	prev, changed = place("room-b", "agent-1", "m3") // Same room, another machine.
	if !changed || prev == nil || prev.MachineID != "m1" || rev("room-b") != 2 || rev("room-a") != 3 {
		t.Fatalf("machine change: prev %+v changed %v revs %d/%d", prev, changed, rev("room-a"), rev("room-b"))
	}
	place("room-c", "agent-9", "m2")
	place("room-c", "agent-0", "m2")
	if got := agentsOf(s.MachineAgents(ctx, "m2")); got != "agent-0@room-c/m2 agent-2@room-a/m2 agent-9@room-c/m2" {
		t.Fatalf("MachineAgents(m2) = %q", got)
	}
	if got := agentsOf(s.MachineAgents(ctx, "m1")); got != "" {
		t.Fatalf("MachineAgents(m1) = %q, want none", got)
	}
	if got := agentsOf(s.MachineAgents(ctx, "m3")); got != "agent-1@room-b/m3" {
		t.Fatalf("MachineAgents(m3) = %q", got)
	}

	_, err := s.UnplaceAgent(ctx, "room-a", "agent-1")
	wantCode(t, "UnplaceAgent from a room it left", err, pumasi.ENotFound)
	if r := rev("room-a"); r != 3 {
		t.Fatalf("refused unplace moved room-a rev to %d", r)
	}
	p, err := s.UnplaceAgent(ctx, "room-b", "agent-1")
	if err != nil || p.AgentID != "agent-1" || p.RoomID != "room-b" || p.MachineID != "m3" {
		t.Fatalf("UnplaceAgent = %+v, %v", p, err)
	}
	if r := rev("room-b"); r != 3 {
		t.Fatalf("room-b rev after unplace = %d, want 3", r)
	}
	if got := agentsOf(s.RoomAgents(ctx, "room-b")); got != "" {
		t.Fatalf("RoomAgents(room-b) after unplace = %q", got)
	}
	_, err = s.UnplaceAgent(ctx, "room-b", "agent-1")
	wantCode(t, "second UnplaceAgent", err, pumasi.ENotFound)
	_, err = s.UnplaceAgent(ctx, "room-b", "never-placed")
	wantCode(t, "UnplaceAgent of an unknown agent", err, pumasi.ENotFound)

	// Placements and files share one rev.
	r := put(t, s, "room-c", "f.md", "x")
	if r.Rev != 3 {
		t.Fatalf("upload into room-c with two placements: rev %d, want 3", r.Rev)
	}
}

// testAgentPlacement: one agent's placement follows places, moves and
// unplaces, and an agent never placed (or unplaced) is not_found.
func testAgentPlacement(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.New(t, Limits{})
	at := func(agent string) pumasi.Placement {
		t.Helper()
		p, err := s.AgentPlacement(ctx, agent)
		if err != nil {
			t.Fatalf("AgentPlacement(%s) error: %v", agent, err)
		}
		if p.AgentID != agent || p.PlacedAt.IsZero() {
			t.Fatalf("AgentPlacement(%s) = %+v", agent, p)
		}
		return p
	}
	_, err := s.AgentPlacement(ctx, "nobody")
	wantCode(t, "AgentPlacement of an agent never placed", err, pumasi.ENotFound)
	_, err = s.AgentPlacement(ctx, "../a")
	wantCode(t, "AgentPlacement of a bad id", err, pumasi.EInvalidRequest)

	if _, _, err := s.PlaceAgent(ctx, "room-a", "agent-1", "m1"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.PlaceAgent(ctx, "room-a", "agent-2", "m2"); err != nil {
		t.Fatal(err)
	}
	if p := at("agent-1"); p.RoomID != "room-a" || p.MachineID != "m1" {
		t.Fatalf("AgentPlacement(agent-1) = %+v, want room-a on m1", p)
	}
	if _, _, err := s.PlaceAgent(ctx, "room-b", "agent-1", "m3"); err != nil {
		t.Fatal(err)
	}
	if p := at("agent-1"); p.RoomID != "room-b" || p.MachineID != "m3" {
		t.Fatalf("AgentPlacement(agent-1) after a move = %+v, want room-b on m3", p)
	}
	if p := at("agent-2"); p.RoomID != "room-a" || p.MachineID != "m2" {
		t.Fatalf("AgentPlacement(agent-2) = %+v, want room-a on m2 (untouched)", p)
	}
	if _, err := s.UnplaceAgent(ctx, "room-b", "agent-1"); err != nil {
		t.Fatal(err)
	}
	_, err = s.AgentPlacement(ctx, "agent-1")
	wantCode(t, "AgentPlacement after unplace", err, pumasi.ENotFound)
}

func testStatus(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.New(t, Limits{})
	got, err := s.AgentStatuses(ctx, nil)
	if err != nil || len(got) != 0 {
		t.Fatalf("AgentStatuses(nil) = %v, %v; want empty", got, err)
	}
	err = s.ReportStatus(ctx, "m2", []pumasi.AgentStatus{
		{AgentID: "agent-2", Files: []pumasi.Holding{{Name: "a.md", SHA256: sum("a")}, {Name: "회의록.md", SHA256: sum("b")}}},
		{AgentID: "agent-0"},
	})
	if err != nil {
		t.Fatalf("ReportStatus error: %v", err)
	}
	got, err = s.AgentStatuses(ctx, []string{"agent-2", "agent-0", "agent-x"})
	if err != nil {
		t.Fatalf("AgentStatuses error: %v", err)
	}
	if len(got) != 2 {
		t.Fatalf("AgentStatuses returned %d agents, want 2 (agent-x never reported)", len(got))
	}
	a2 := got["agent-2"]
	if a2.AgentID != "agent-2" || a2.MachineID != "m2" || a2.ReportedAt.IsZero() || len(a2.Files) != 2 ||
		a2.Files[1].Name != "회의록.md" || a2.Files[1].SHA256 != sum("b") {
		t.Fatalf("agent-2 status = %+v", a2)
	}
	if a0, ok := got["agent-0"]; !ok || len(a0.Files) != 0 || a0.MachineID != "m2" {
		t.Fatalf("agent-0 status = %+v, %v; want present with no files", a0, ok)
	}

	err = s.ReportStatus(ctx, "m2", []pumasi.AgentStatus{{AgentID: "agent-2", Files: []pumasi.Holding{{Name: "c.md", SHA256: sum("c")}}}})
	if err != nil {
		t.Fatalf("second ReportStatus error: %v", err)
	}
	got, err = s.AgentStatuses(ctx, []string{"agent-2"})
	if err != nil || len(got) != 1 || len(got["agent-2"].Files) != 1 || got["agent-2"].Files[0].Name != "c.md" {
		t.Fatalf("agent-2 after second report = %+v, %v; want just c.md", got, err)
	}
	err = s.ReportStatus(ctx, "m2", []pumasi.AgentStatus{{AgentID: "Not An Id"}})
	wantCode(t, "ReportStatus(bad agent id)", err, pumasi.EInvalidRequest)
}
