package s3

import (
	"context"
	"slices"

	"pumasi"
)

// ListRooms lists the rooms/ prefixes and reads each room's manifest: one
// LIST page per 1,000 rooms plus one GET per room. That is an admin's
// overview, not a hot path; a room whose manifest is gone (only blobs left
// for the sweep) lists at rev 0 with nothing in it.
func (s *Store) ListRooms(ctx context.Context) ([]pumasi.RoomSummary, error) {
	ids, err := s.listRooms(ctx)
	if err != nil {
		return nil, err
	}
	slices.Sort(ids)
	out := make([]pumasi.RoomSummary, 0, len(ids))
	for _, id := range ids {
		m, err := s.readManifest(ctx, id)
		if err != nil {
			return nil, err
		}
		files, bytes := m.usage()
		r := pumasi.RoomSummary{RoomID: id, Rev: m.Rev, Files: files, Bytes: bytes, Agents: make([]string, 0, len(m.Placements))}
		for _, p := range m.Placements {
			r.Agents = append(r.Agents, p.AgentID)
		}
		slices.Sort(r.Agents)
		out = append(out, r)
	}
	return out, nil
}
