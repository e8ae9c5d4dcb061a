package local

import (
	"context"
	"database/sql"
	"fmt"

	"pumasi"
)

// ListRooms lists every room row with its file count, bytes and agents, in
// one read transaction so the three agree.
func (s *Store) ListRooms(ctx context.Context) ([]pumasi.RoomSummary, error) {
	out := []pumasi.RoomSummary{}
	err := s.readTx(ctx, func(tx *sql.Tx) error {
		out = out[:0]
		rows, err := tx.QueryContext(ctx, `SELECT room_id, rev, files, bytes FROM rooms ORDER BY room_id`)
		if err != nil {
			return err
		}
		index := map[string]int{}
		for rows.Next() {
			r := pumasi.RoomSummary{Agents: []string{}}
			if err := rows.Scan(&r.RoomID, &r.Rev, &r.Files, &r.Bytes); err != nil {
				rows.Close()
				return err
			}
			index[r.RoomID] = len(out)
			out = append(out, r)
		}
		if err := rows.Close(); err != nil {
			return err
		}
		prows, err := tx.QueryContext(ctx, `SELECT room_id, agent_id FROM placements ORDER BY room_id, agent_id`)
		if err != nil {
			return err
		}
		defer prows.Close()
		for prows.Next() {
			var room, agent string
			if err := prows.Scan(&room, &agent); err != nil {
				return err
			}
			// Every placement bumped its room's rev, so the row exists.
			if i, ok := index[room]; ok {
				out[i].Agents = append(out[i].Agents, agent)
			}
		}
		return prows.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("list rooms: %w", err)
	}
	return out, nil
}
