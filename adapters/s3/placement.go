package s3

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"

	"pumasi"
)

// placement is a Placement as the S3 objects keep it. Gen is new on every
// write of the agent's record, so a projection entry can be matched to the
// exact record it was copied from.
type placement struct {
	pumasi.Placement
	Gen string `json:"gen"`
	// ChangedAt is when the record was last changed: the sweep leaves the
	// projections of a record younger than its grace to the placement call
	// still reconciling them, instead of racing it.
	ChangedAt time.Time `json:"changed_at,omitzero"`
	// By is who made the record and From the room the agent was in before
	// it, for the room logs its projections write.
	By   string `json:"by,omitempty"`
	From string `json:"from,omitempty"`
}

func (p placement) placed() bool { return p.RoomID != "" }

// same reports whether p and q are copies of one record.
func (p placement) same(q placement) bool {
	return p.Gen == q.Gen && p.RoomID == q.RoomID && p.MachineID == q.MachineID && p.PlacedAt.Equal(q.PlacedAt)
}

// machineIndex is machines/<machine>.json: the placements on one machine.
type machineIndex struct {
	Placements []placement `json:"placements"` // sorted by agent id
}

// reconcileRounds bounds how often a placement change re-reads the agent's
// record when other writers keep moving the same agent.
const reconcileRounds = 20

// PlaceAgent places agent on machine in room, moving it out of any other room.
//
// The agent's own record, agents/<agent>.json, is the commit point and the
// truth: it is changed first, by compare-and-swap, so two concurrent moves
// of one agent are ordered there. The room manifests and machine indexes are
// projections of that record, brought in line afterwards by reconcile, which
// re-reads the record until it stays the same across a full pass. A writer
// that raced and lost thus undoes its own stale projection writes, and every
// projection ends as the last record says. A crash between the record and its
// projections leaves them behind until the next placement call for that agent.
func (s *Store) PlaceAgent(ctx context.Context, room, agent, machine string) (*pumasi.Placement, bool, error) {
	return s.Place(ctx, pumasi.PlaceInput{Room: room, Agent: agent, Machine: machine})
}

// Place is PlaceAgent with in.Reach checked against the agent's record in
// the same compare-and-swap that changes it (pumasi.PlanPlace), so a move
// that lands between reading and writing the record is never overridden by
// a caller who does not reach the agent's new room. Returns forbidden then.
func (s *Store) Place(ctx context.Context, in pumasi.PlaceInput) (*pumasi.Placement, bool, error) {
	room, agent, machine := in.Room, in.Agent, in.Machine
	for _, c := range [][2]string{{"room", room}, {"agent", agent}, {"machine", machine}} {
		if err := pumasi.CheckID(c[0], c[1]); err != nil {
			return nil, false, err
		}
	}
	// Drawn once: the closure may run again after a lost answer.
	gen, now := uuid.NewString(), s.now().UTC()
	var prev placement
	var changed bool
	_, err := update(ctx, s, s.agentKey(agent), func(rec *placement, _ bool) (bool, error) {
		prev, changed = *rec, false
		var cur *pumasi.Placement
		if rec.placed() {
			cur = &rec.Placement
		}
		var err error
		if changed, err = pumasi.PlanPlace(cur, in); err != nil || !changed {
			return false, err
		}
		*rec = placement{
			Placement: pumasi.Placement{RoomID: room, AgentID: agent, MachineID: machine, PlacedAt: now},
			Gen:       gen,
			ChangedAt: now,
			By:        in.By,
			From:      prev.RoomID,
		}
		return true, nil
	})
	if err != nil {
		if pumasi.ErrorCode(err) != pumasi.EInternal {
			return nil, false, err
		}
		return nil, false, fmt.Errorf("place agent %s: %w", agent, err)
	}
	rooms, machines := []string{room}, []string{machine}
	if prev.placed() {
		rooms = append(rooms, prev.RoomID)
		machines = append(machines, prev.MachineID)
	}
	if _, err := s.reconcile(ctx, agent, rooms, machines); err != nil {
		return nil, false, fmt.Errorf("place agent %s: %w", agent, err)
	}
	if !prev.placed() {
		return nil, changed, nil
	}
	p := prev.Placement
	return &p, changed, nil
}

// UnplaceAgent removes agent from room: its record is emptied first, then
// the projections follow (see PlaceAgent). A stale projection entry left by
// a crash is removed too and reported as the placement.
func (s *Store) UnplaceAgent(ctx context.Context, room, agent string) (pumasi.Placement, error) {
	return s.Unplace(ctx, pumasi.UnplaceInput{Room: room, Agent: agent})
}

// Unplace is UnplaceAgent recording in.By in the room log.
func (s *Store) Unplace(ctx context.Context, in pumasi.UnplaceInput) (pumasi.Placement, error) {
	room, agent := in.Room, in.Agent
	if err := pumasi.CheckID("room", room); err != nil {
		return pumasi.Placement{}, err
	}
	if err := pumasi.CheckID("agent", agent); err != nil {
		return pumasi.Placement{}, err
	}
	gen, now := uuid.NewString(), s.now().UTC() // drawn once, as in Place
	var prev placement
	_, err := update(ctx, s, s.agentKey(agent), func(rec *placement, _ bool) (bool, error) {
		prev = *rec
		var cur *pumasi.Placement
		if rec.placed() {
			cur = &rec.Placement
		}
		if pumasi.PlanUnplace(cur, agent, room) != nil {
			return false, nil // A stale projection entry may still be there: reconcile removes it.
		}
		*rec = placement{Placement: pumasi.Placement{AgentID: agent}, Gen: gen, ChangedAt: now, By: in.By, From: rec.RoomID}
		return true, nil
	})
	if err != nil {
		return pumasi.Placement{}, fmt.Errorf("unplace agent %s: %w", agent, err)
	}
	machines := []string{}
	if prev.placed() {
		machines = append(machines, prev.MachineID)
	}
	removed, err := s.reconcile(ctx, agent, []string{room}, machines)
	if err != nil {
		return pumasi.Placement{}, fmt.Errorf("unplace agent %s: %w", agent, err)
	}
	if prev.RoomID == room {
		return prev.Placement, nil
	}
	if r, ok := removed[room]; ok {
		return r.Placement, nil
	}
	return pumasi.Placement{}, pumasi.Errorf(pumasi.ENotFound, "agent %s is not placed in room %s", agent, room)
}

// reconcile makes the agent's entries in the given room manifests and
// machine indexes match its record, repeating with the rooms and machines of
// any newer record until the record holds still. It returns the entries it
// removed from room manifests, by room.
func (s *Store) reconcile(ctx context.Context, agent string, rooms, machines []string) (map[string]placement, error) {
	removed := map[string]placement{}
	var truth placement
	if _, _, err := s.getJSON(ctx, s.agentKey(agent), &truth); err != nil {
		return nil, err
	}
	for round := 0; round < reconcileRounds; round++ {
		if truth.placed() {
			rooms = append(rooms, truth.RoomID)
			machines = append(machines, truth.MachineID)
		}
		for _, room := range uniq(rooms) {
			r, ok, err := s.syncRoomEntry(ctx, room, agent, truth)
			if err != nil {
				return nil, err
			}
			if ok {
				removed[room] = r
			}
		}
		for _, machine := range uniq(machines) {
			if err := s.syncMachineEntry(ctx, machine, agent, truth); err != nil {
				return nil, err
			}
		}
		var again placement
		if _, _, err := s.getJSON(ctx, s.agentKey(agent), &again); err != nil {
			return nil, err
		}
		if again.Gen == truth.Gen {
			return removed, nil
		}
		truth = again
	}
	return nil, fmt.Errorf("reconcile agent %s: %w", agent, errTooBusy)
}

// syncRoomEntry sets the agent's entry in room's manifest to truth, or
// removes it when truth is elsewhere; it bumps the rev when the agent
// appears, leaves or changes machine. It returns the entry it removed.
func (s *Store) syncRoomEntry(ctx context.Context, room, agent string, truth placement) (placement, bool, error) {
	var removed placement
	var didRemove bool
	now := s.now().UTC() // drawn once: the closure may run again
	_, err := s.updateManifest(ctx, s.manifestKey(room), func(m *manifest, _ bool) (bool, error) {
		removed, didRemove = placement{}, false
		i, found := slices.BinarySearchFunc(m.Placements, agent, byAgent)
		want := truth.placed() && truth.RoomID == room
		c := pumasi.Change{Agent: agent, Machine: truth.MachineID, By: truth.By, At: truth.ChangedAt}
		if c.At.IsZero() {
			c.At = now
		}
		switch {
		case want && found:
			cur := m.Placements[i]
			if cur.same(truth) {
				return false, nil
			}
			if cur.MachineID != truth.MachineID {
				m.Rev++
				c.Rev, c.Kind, c.FromMachine = m.Rev, pumasi.ChangeMove, cur.MachineID
				s.record(m, c)
			}
			m.Placements[i] = truth
		case want:
			m.Placements = slices.Insert(m.Placements, i, truth)
			m.Rev++
			c.Rev, c.Kind = m.Rev, pumasi.ChangePlace
			if truth.From != "" {
				c.Kind = pumasi.ChangeMove
				if truth.From != room {
					c.FromRoom = truth.From
				}
			}
			s.record(m, c)
		case found:
			removed, didRemove = m.Placements[i], true
			m.Placements = slices.Delete(m.Placements, i, i+1)
			m.Rev++
			c.Rev, c.Kind, c.Machine = m.Rev, pumasi.ChangeUnplace, removed.MachineID
			if truth.placed() {
				c.Kind, c.ToRoom, c.Machine, c.FromMachine = pumasi.ChangeMove, truth.RoomID, truth.MachineID, removed.MachineID
			}
			s.record(m, c)
		default:
			return false, nil
		}
		return true, nil
	})
	if err != nil {
		return placement{}, false, fmt.Errorf("room %s: %w", room, err)
	}
	return removed, didRemove, nil
}

// syncMachineEntry sets the agent's entry in machine's index to truth, or
// removes it when truth is on another machine or nowhere.
func (s *Store) syncMachineEntry(ctx context.Context, machine, agent string, truth placement) error {
	_, err := update(ctx, s, s.machineKey(machine), func(ix *machineIndex, _ bool) (bool, error) {
		i, found := slices.BinarySearchFunc(ix.Placements, agent, byAgent)
		want := truth.placed() && truth.MachineID == machine
		switch {
		case want && found:
			if ix.Placements[i].same(truth) {
				return false, nil
			}
			ix.Placements[i] = truth
		case want:
			ix.Placements = slices.Insert(ix.Placements, i, truth)
		case found:
			ix.Placements = slices.Delete(ix.Placements, i, i+1)
		default:
			return false, nil
		}
		return true, nil
	})
	if err != nil {
		return fmt.Errorf("machine %s: %w", machine, err)
	}
	return nil
}

func byAgent(p placement, agent string) int { return strings.Compare(p.AgentID, agent) }

func uniq(ids []string) []string {
	out := slices.Clone(ids)
	slices.Sort(out)
	return slices.Compact(out)
}

func plain(ps []placement) []pumasi.Placement {
	out := make([]pumasi.Placement, len(ps))
	for i, p := range ps {
		out[i] = p.Placement
	}
	return out
}

// RoomAgents lists the placements of a room from its manifest.
func (s *Store) RoomAgents(ctx context.Context, room string) ([]pumasi.Placement, error) {
	if err := pumasi.CheckID("room", room); err != nil {
		return nil, err
	}
	m, err := s.readManifest(ctx, room)
	if err != nil {
		return nil, fmt.Errorf("room agents %s: %w", room, err)
	}
	return plain(m.Placements), nil
}

// AgentPlacement returns agent's current placement from its own record,
// agents/<agent>.json, the truth the projections follow. Returns not_found
// when the agent is not placed.
func (s *Store) AgentPlacement(ctx context.Context, agent string) (pumasi.Placement, error) {
	if err := pumasi.CheckID("agent", agent); err != nil {
		return pumasi.Placement{}, err
	}
	var rec placement
	if _, _, err := s.getJSON(ctx, s.agentKey(agent), &rec); err != nil {
		return pumasi.Placement{}, fmt.Errorf("agent placement %s: %w", agent, err)
	}
	if !rec.placed() {
		return pumasi.Placement{}, pumasi.Errorf(pumasi.ENotFound, "agent %s is not placed", agent)
	}
	return rec.Placement, nil
}

// MachineAgents lists the placements on a machine from its index.
func (s *Store) MachineAgents(ctx context.Context, machine string) ([]pumasi.Placement, error) {
	if err := pumasi.CheckID("machine", machine); err != nil {
		return nil, err
	}
	var ix machineIndex
	if _, _, err := s.getJSON(ctx, s.machineKey(machine), &ix); err != nil {
		return nil, fmt.Errorf("machine agents %s: %w", machine, err)
	}
	return plain(ix.Placements), nil
}
