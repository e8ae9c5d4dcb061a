package local

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"pumasi"
)

// PlaceAgent places agent on machine in room, moving it out of any other
// room. Placing it again identically changes nothing; otherwise the rev of
// each room involved grows by one. Returns invalid_request for bad ids.
func (s *Store) PlaceAgent(ctx context.Context, room, agent, machine string) (*pumasi.Placement, bool, error) {
	return s.Place(ctx, pumasi.PlaceInput{Room: room, Agent: agent, Machine: machine})
}

// Place is PlaceAgent with in.Reach checked against the agent's current
// room inside the write transaction (pumasi.PlanPlace). Returns forbidden
// when the agent is placed in a room Reach refuses.
func (s *Store) Place(ctx context.Context, in pumasi.PlaceInput) (*pumasi.Placement, bool, error) {
	room, agent, machine := in.Room, in.Agent, in.Machine
	if err := checkIDs("room", room, "agent", agent, "machine", machine); err != nil {
		return nil, false, err
	}
	var prev *pumasi.Placement
	var changed bool
	err := s.writeTx(ctx, func(tx *sql.Tx) error {
		prev, changed = nil, false
		p, found, err := placementOf(ctx, tx, agent)
		if err != nil {
			return err
		}
		if found {
			prev = &p
		}
		if ok, err := pumasi.PlanPlace(prev, in); err != nil || !ok {
			return err
		}
		now := s.now().UTC()
		if _, err := tx.ExecContext(ctx, `INSERT INTO placements (agent_id, room_id, machine_id, placed_at)
			VALUES (?, ?, ?, ?) ON CONFLICT (agent_id) DO UPDATE SET
			room_id = excluded.room_id, machine_id = excluded.machine_id, placed_at = excluded.placed_at`,
			agent, room, machine, formatTime(now)); err != nil {
			return fmt.Errorf("write placement: %w", err)
		}
		rev, err := bumpRev(ctx, tx, room)
		if err != nil {
			return err
		}
		c := pumasi.Change{Rev: rev, Kind: pumasi.ChangePlace, Agent: agent, Machine: machine, By: in.By, At: now}
		if found {
			c.Kind = pumasi.ChangeMove
			if p.RoomID != room {
				c.FromRoom = p.RoomID
			}
			if p.MachineID != machine {
				c.FromMachine = p.MachineID
			}
		}
		if err := s.record(ctx, tx, room, c); err != nil {
			return err
		}
		if found && p.RoomID != room {
			rev, err := bumpRev(ctx, tx, p.RoomID)
			if err != nil {
				return err
			}
			if err := s.record(ctx, tx, p.RoomID, pumasi.Change{Rev: rev, Kind: pumasi.ChangeMove, Agent: agent,
				Machine: machine, FromMachine: p.MachineID, ToRoom: room, By: in.By, At: now}); err != nil {
				return err
			}
		}
		changed = true
		return nil
	})
	if err != nil {
		return nil, false, wrapInternal("place agent", err)
	}
	return prev, changed, nil
}

// UnplaceAgent removes agent from room and bumps the room's rev. Returns
// not_found when the agent is not placed in that room.
func (s *Store) UnplaceAgent(ctx context.Context, room, agent string) (pumasi.Placement, error) {
	return s.Unplace(ctx, pumasi.UnplaceInput{Room: room, Agent: agent})
}

// Unplace is UnplaceAgent recording in.By in the room log.
func (s *Store) Unplace(ctx context.Context, in pumasi.UnplaceInput) (pumasi.Placement, error) {
	room, agent := in.Room, in.Agent
	if err := checkIDs("room", room, "agent", agent); err != nil {
		return pumasi.Placement{}, err
	}
	var p pumasi.Placement
	err := s.writeTx(ctx, func(tx *sql.Tx) error {
		cur, found, err := placementOf(ctx, tx, agent)
		if err != nil {
			return err
		}
		var curp *pumasi.Placement
		if found {
			curp = &cur
		}
		if err := pumasi.PlanUnplace(curp, agent, room); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM placements WHERE agent_id = ?`, agent); err != nil {
			return fmt.Errorf("delete placement: %w", err)
		}
		rev, err := bumpRev(ctx, tx, room)
		if err != nil {
			return err
		}
		if err := s.record(ctx, tx, room, pumasi.Change{Rev: rev, Kind: pumasi.ChangeUnplace, Agent: agent,
			Machine: cur.MachineID, By: in.By, At: s.now().UTC()}); err != nil {
			return err
		}
		p = cur
		return nil
	})
	if err != nil {
		return pumasi.Placement{}, wrapInternal("unplace agent", err)
	}
	return p, nil
}

// RoomAgents lists the placements of a room, sorted by agent id.
func (s *Store) RoomAgents(ctx context.Context, room string) ([]pumasi.Placement, error) {
	if err := pumasi.CheckID("room", room); err != nil {
		return nil, err
	}
	return s.placements(ctx, `room_id = ?`, room)
}

// MachineAgents lists the placements on a machine, sorted by agent id.
func (s *Store) MachineAgents(ctx context.Context, machine string) ([]pumasi.Placement, error) {
	if err := pumasi.CheckID("machine", machine); err != nil {
		return nil, err
	}
	return s.placements(ctx, `machine_id = ?`, machine)
}

// AgentPlacement returns agent's current placement. Returns not_found when
// the agent is not placed and invalid_request for a bad id.
func (s *Store) AgentPlacement(ctx context.Context, agent string) (pumasi.Placement, error) {
	if err := pumasi.CheckID("agent", agent); err != nil {
		return pumasi.Placement{}, err
	}
	p, found, err := placementOf(ctx, s.db, agent)
	if err != nil {
		return pumasi.Placement{}, wrapInternal("agent placement", err)
	}
	if !found {
		return pumasi.Placement{}, pumasi.Errorf(pumasi.ENotFound, "agent %s is not placed", agent)
	}
	return p, nil
}

func (s *Store) placements(ctx context.Context, where, arg string) ([]pumasi.Placement, error) {
	rows, err := s.reads.QueryContext(ctx, `SELECT agent_id, room_id, machine_id, placed_at FROM placements
		WHERE `+where+` ORDER BY agent_id`, arg)
	if err != nil {
		return nil, fmt.Errorf("list placements: %w", err)
	}
	defer rows.Close()
	out := []pumasi.Placement{}
	for rows.Next() {
		p, err := scanPlacement(rows)
		if err != nil {
			return nil, fmt.Errorf("list placements: %w", err)
		}
		out = append(out, p)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list placements: %w", err)
	}
	return out, nil
}

// ReportStatus records what the given agents on machine hold, replacing each
// agent's earlier report. The store stamps ReportedAt with its own clock,
// since a daemon's clock may be off. Returns invalid_request for bad ids.
func (s *Store) ReportStatus(ctx context.Context, machine string, agents []pumasi.AgentStatus) error {
	if err := pumasi.CheckStatusReport(machine, agents); err != nil {
		return err
	}
	now := formatTime(s.now())
	// A report lost to a power loss is replaced by the daemon's next one.
	err := s.writeTxNoSync(ctx, func(tx *sql.Tx) error {
		for _, a := range agents {
			files := a.Files
			if files == nil {
				files = []pumasi.Holding{}
			}
			b, err := json.Marshal(files)
			if err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO agent_status (agent_id, machine_id, files, reported_at)
				VALUES (?, ?, ?, ?) ON CONFLICT (agent_id) DO UPDATE SET
				machine_id = excluded.machine_id, files = excluded.files, reported_at = excluded.reported_at`,
				a.AgentID, machine, string(b), now); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return wrapInternal("report status", err)
	}
	return nil
}

// AgentStatuses returns the last reports of the given agents; agents never
// reported are absent from the map.
func (s *Store) AgentStatuses(ctx context.Context, agents []string) (map[string]pumasi.AgentStatus, error) {
	out := make(map[string]pumasi.AgentStatus, len(agents))
	const chunk = 500
	for len(agents) > 0 {
		n := min(chunk, len(agents))
		batch := agents[:n]
		agents = agents[n:]
		args := make([]any, len(batch))
		for i, a := range batch {
			args[i] = a
		}
		q := `SELECT agent_id, machine_id, files, reported_at FROM agent_status WHERE agent_id IN (?` +
			strings.Repeat(", ?", len(batch)-1) + `)`
		rows, err := s.db.QueryContext(ctx, q, args...)
		if err != nil {
			return nil, fmt.Errorf("agent statuses: %w", err)
		}
		for rows.Next() {
			var st pumasi.AgentStatus
			var files, reported string
			if err := rows.Scan(&st.AgentID, &st.MachineID, &files, &reported); err != nil {
				rows.Close()
				return nil, fmt.Errorf("agent statuses: %w", err)
			}
			if err := json.Unmarshal([]byte(files), &st.Files); err != nil {
				rows.Close()
				return nil, fmt.Errorf("agent statuses %s: %w", st.AgentID, err)
			}
			if st.Files == nil {
				st.Files = []pumasi.Holding{}
			}
			if st.ReportedAt, err = parseTime(reported); err != nil {
				rows.Close()
				return nil, fmt.Errorf("agent statuses: %w", err)
			}
			out[st.AgentID] = st
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return nil, fmt.Errorf("agent statuses: %w", err)
		}
	}
	return out, nil
}

func placementOf(ctx context.Context, q querier, agent string) (pumasi.Placement, bool, error) {
	p, err := scanPlacement(q.QueryRowContext(ctx, `SELECT agent_id, room_id, machine_id, placed_at
		FROM placements WHERE agent_id = ?`, agent))
	if errors.Is(err, sql.ErrNoRows) {
		return p, false, nil
	}
	if err != nil {
		return p, false, fmt.Errorf("select placement: %w", err)
	}
	return p, true, nil
}

func scanPlacement(r scanner) (pumasi.Placement, error) {
	var p pumasi.Placement
	var placed string
	if err := r.Scan(&p.AgentID, &p.RoomID, &p.MachineID, &placed); err != nil {
		return p, err
	}
	t, err := parseTime(placed)
	p.PlacedAt = t
	return p, err
}

// checkIDs validates kind/id pairs, returning invalid_request for the first bad one.
func checkIDs(pairs ...string) error {
	for i := 0; i+1 < len(pairs); i += 2 {
		if err := pumasi.CheckID(pairs[i], pairs[i+1]); err != nil {
			return err
		}
	}
	return nil
}
