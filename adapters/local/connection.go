package local

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"pumasi"
)

var _ pumasi.ConnectionStore = (*Store)(nil)

// SaveConnection records id as a connection of machine; an id saved again
// moves to the new machine.
func (s *Store) SaveConnection(ctx context.Context, machine, id string) error {
	if err := pumasi.CheckID("machine", machine); err != nil {
		return err
	}
	if err := pumasi.CheckConnectionID(id); err != nil {
		return err
	}
	now := formatTime(s.now())
	err := s.writeTxNoSync(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO connections (connection_id, machine_id, connected_at)
			VALUES (?, ?, ?) ON CONFLICT (connection_id) DO UPDATE SET
			machine_id = excluded.machine_id, connected_at = excluded.connected_at`, id, machine, now)
		return err
	})
	if err != nil {
		return wrapInternal("save connection", err)
	}
	return nil
}

// DropConnection forgets id. Returns not_found when it is not recorded.
func (s *Store) DropConnection(ctx context.Context, id string) (pumasi.Connection, error) {
	if !pumasi.ValidConnectionID(id) {
		return pumasi.Connection{}, pumasi.Errorf(pumasi.ENotFound, "connection not found")
	}
	var c pumasi.Connection
	err := s.writeTxNoSync(ctx, func(tx *sql.Tx) error {
		var at string
		err := tx.QueryRowContext(ctx, `DELETE FROM connections WHERE connection_id = ?
			RETURNING connection_id, machine_id, connected_at`, id).Scan(&c.ID, &c.MachineID, &at)
		if err != nil {
			return err
		}
		c.ConnectedAt, err = parseTime(at)
		return err
	})
	if errors.Is(err, sql.ErrNoRows) {
		return pumasi.Connection{}, pumasi.Errorf(pumasi.ENotFound, "connection not found")
	}
	if err != nil {
		return pumasi.Connection{}, wrapInternal("drop connection", err)
	}
	return c, nil
}

// LookupConnection returns the connection recorded under id. Returns
// not_found when it is not recorded.
func (s *Store) LookupConnection(ctx context.Context, id string) (pumasi.Connection, error) {
	if !pumasi.ValidConnectionID(id) {
		return pumasi.Connection{}, pumasi.Errorf(pumasi.ENotFound, "connection not found")
	}
	var c pumasi.Connection
	var at string
	err := s.db.QueryRowContext(ctx, `SELECT connection_id, machine_id, connected_at FROM connections
		WHERE connection_id = ?`, id).Scan(&c.ID, &c.MachineID, &at)
	if errors.Is(err, sql.ErrNoRows) {
		return pumasi.Connection{}, pumasi.Errorf(pumasi.ENotFound, "connection not found")
	}
	if err != nil {
		return pumasi.Connection{}, wrapInternal("lookup connection", err)
	}
	if c.ConnectedAt, err = parseTime(at); err != nil {
		return pumasi.Connection{}, wrapInternal("lookup connection", err)
	}
	return c, nil
}

// MachineConnections lists machine's connections sorted by id.
func (s *Store) MachineConnections(ctx context.Context, machine string) ([]pumasi.Connection, error) {
	if err := pumasi.CheckID("machine", machine); err != nil {
		return nil, err
	}
	rows, err := s.db.QueryContext(ctx, `SELECT connection_id, machine_id, connected_at FROM connections
		WHERE machine_id = ? ORDER BY connection_id`, machine)
	if err != nil {
		return nil, wrapInternal("list connections", err)
	}
	defer rows.Close()
	out := []pumasi.Connection{}
	for rows.Next() {
		var c pumasi.Connection
		var at string
		if err := rows.Scan(&c.ID, &c.MachineID, &at); err != nil {
			return nil, wrapInternal("list connections", err)
		}
		if c.ConnectedAt, err = parseTime(at); err != nil {
			return nil, wrapInternal("list connections", err)
		}
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list connections: %w", err)
	}
	return out, nil
}
