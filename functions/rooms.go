package functions

import (
	"context"
	"net/http"
	"slices"

	"pumasi"
)

func init() {
	// The list function reads rooms already (s3:GetObject, s3:ListBucket).
	addRoute("GET", "/rooms", "list", (*API).listRooms)
}

type roomsResponse struct {
	Rooms []pumasi.RoomSummary `json:"rooms"`
}

// listRooms lists the rooms the credential reaches: every room for admin;
// for room tokens their rooms (at rev 0 when nothing changed them yet, since
// the token names them); for machine tokens the rooms their agents are in.
// Only admin reads the whole store; the others read room by room.
func (a *API) listRooms(w http.ResponseWriter, r *http.Request, _ params) {
	p, err := a.authenticate(r)
	if err != nil {
		a.fail(w, r, err)
		return
	}
	ctx := r.Context()
	if p.Admin {
		rooms, err := a.Store.ListRooms(ctx)
		if err != nil {
			a.fail(w, r, err)
			return
		}
		if err := a.markOffline(ctx, rooms); err != nil {
			a.fail(w, r, err)
			return
		}
		writeJSON(w, http.StatusOK, roomsResponse{Rooms: rooms})
		return
	}
	var ids []string
	for room := range p.Rooms {
		ids = append(ids, room)
	}
	for m := range p.Machines {
		pls, err := a.Store.MachineAgents(ctx, m)
		if err != nil {
			a.fail(w, r, err)
			return
		}
		for _, pl := range pls {
			ids = append(ids, pl.RoomID)
		}
	}
	slices.Sort(ids)
	ids = slices.Compact(ids)
	resp := roomsResponse{Rooms: make([]pumasi.RoomSummary, 0, len(ids))}
	for _, room := range ids {
		s, err := a.roomSummary(r, room)
		if err != nil {
			a.fail(w, r, err)
			return
		}
		resp.Rooms = append(resp.Rooms, s)
	}
	if err := a.markOffline(ctx, resp.Rooms); err != nil {
		a.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, resp)
}

// roomSummary builds one room's summary from its listing and placements.
func (a *API) roomSummary(r *http.Request, room string) (pumasi.RoomSummary, error) {
	l, err := a.Store.ListFiles(r.Context(), room)
	if err != nil {
		return pumasi.RoomSummary{}, err
	}
	pls, err := a.Store.RoomAgents(r.Context(), room)
	if err != nil {
		return pumasi.RoomSummary{}, err
	}
	s := pumasi.RoomSummary{RoomID: room, Rev: l.Rev, Files: len(l.Files), Agents: make([]string, 0, len(pls))}
	for _, f := range l.Files {
		s.Bytes += f.Size
	}
	for _, pl := range pls {
		s.Agents = append(s.Agents, pl.AgentID)
	}
	return s, nil
}

// markOffline fills each room's Offline: its agents whose last report is
// older than the offline interval. A stale report may be from a machine the
// agent has since moved away from, so those few are checked against the
// agent's current placement.
func (a *API) markOffline(ctx context.Context, rooms []pumasi.RoomSummary) error {
	var ids []string
	for i := range rooms {
		rooms[i].Offline = []string{}
		ids = append(ids, rooms[i].Agents...)
	}
	if len(ids) == 0 {
		return nil
	}
	sts, err := a.Store.AgentStatuses(ctx, ids)
	if err != nil {
		return err
	}
	cutoff := a.now().Add(-a.offlineAfter())
	for i := range rooms {
		for _, agent := range rooms[i].Agents {
			st, ok := sts[agent]
			if !ok || !st.ReportedAt.Before(cutoff) {
				continue
			}
			pl, err := a.Store.AgentPlacement(ctx, agent)
			if pumasi.ErrorCode(err) == pumasi.ENotFound {
				continue
			}
			if err != nil {
				return err
			}
			if offline(st, true, pl.MachineID, cutoff) {
				rooms[i].Offline = append(rooms[i].Offline, agent)
			}
		}
	}
	return nil
}
