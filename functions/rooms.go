package functions

import (
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
