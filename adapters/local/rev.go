package local

import (
	"context"
	"database/sql"
	"fmt"

	"pumasi"
)

// assignmentKeyQuery names the rooms a machine's agents are in with their
// revs, in one row from one prepared statement. That is enough to name the
// agents too: every effective placement change bumps the rev of each room
// involved (pumasi.PlacementStore), and revs only grow, so no agent can come
// or go, or move, without changing a (room, rev) pair in this set.
const assignmentKeyQuery = `SELECT COALESCE(group_concat(room_id || ' ' || rev, ','), '') FROM rooms
	WHERE room_id IN (SELECT room_id FROM placements WHERE machine_id = ?)`

// AssignmentKey returns a string that names what a machine must hold: the
// rooms of its agents and their revs, read in one statement. Equal keys mean
// equal assignments, since a rev names one room state (files and
// placements) forever.
func (s *Store) AssignmentKey(ctx context.Context, machine string) (string, error) {
	if err := pumasi.CheckID("machine", machine); err != nil {
		return "", err
	}
	var key sql.NullString
	if err := s.reads.QueryRowContext(ctx, assignmentKeyQuery, machine).Scan(&key); err != nil {
		return "", fmt.Errorf("assignment key %s: %w", machine, err)
	}
	return key.String, nil
}
