package functions

import (
	"fmt"
	"net/http"
	"sort"
	"time"

	"pumasi"
)

func init() {
	addRoute("PUT", "/rooms/{room}/agents/{agent}", "placements", (*API).placeAgent)
	addRoute("DELETE", "/rooms/{room}/agents/{agent}", "placements", (*API).unplaceAgent)
	addRoute("GET", "/rooms/{room}/agents", "placements", (*API).roomAgents)
}

type placeRequest struct {
	MachineID string `json:"machine_id"`
}

// placementResponse is a placement plus whether the request changed anything
// and, for a move, where the agent was before.
type placementResponse struct {
	pumasi.Placement
	Changed  bool              `json:"changed"`
	Previous *pumasi.Placement `json:"previous,omitempty"`
}

// placeAgent places (or moves) an agent. Both the new and the previous
// machine are told to re-read their assignments, so the old copy is emptied
// and the new one filled. Moving an agent takes it out of its current room,
// so the token must reach that room too.
func (a *API) placeAgent(w http.ResponseWriter, r *http.Request, p params) {
	room, agent := p["room"], p["agent"]
	who, err := a.authRoom(r, room)
	if err != nil {
		a.fail(w, r, err)
		return
	}
	if err := pumasi.CheckID("agent", agent); err != nil {
		a.fail(w, r, err)
		return
	}
	var req placeRequest
	if err := decodeJSON(r, &req); err != nil {
		a.fail(w, r, err)
		return
	}
	if err := pumasi.CheckID("machine", req.MachineID); err != nil {
		a.fail(w, r, err)
		return
	}
	ctx := r.Context()
	// The store checks the token's reach against the agent's current room
	// inside the write, so a move landing in between is never overridden.
	prev, changed, err := a.Store.Place(ctx, pumasi.PlaceInput{Room: room, Agent: agent, Machine: req.MachineID, Reach: who.CanRoom, By: who.Who()})
	if err != nil {
		a.fail(w, r, err)
		return
	}
	resp := placementResponse{
		Placement: pumasi.Placement{RoomID: room, AgentID: agent, MachineID: req.MachineID},
		Changed:   changed,
	}
	if prev != nil && (prev.RoomID != room || prev.MachineID != req.MachineID) {
		resp.Previous = prev
	}
	if cur, ok := a.findPlacement(r, room, agent); ok {
		resp.PlacedAt = cur.PlacedAt
	}
	if changed {
		prevMachine := ""
		if prev != nil {
			prevMachine = prev.MachineID
		}
		a.assignmentsChanged(ctx, req.MachineID, prevMachine)
	}
	writeJSON(w, http.StatusOK, resp)
}

// findPlacement reads back the stored placement for its placed_at time.
func (a *API) findPlacement(r *http.Request, room, agent string) (pumasi.Placement, bool) {
	pls, err := a.Store.RoomAgents(r.Context(), room)
	if err != nil {
		return pumasi.Placement{}, false
	}
	for _, pl := range pls {
		if pl.AgentID == agent {
			return pl, true
		}
	}
	return pumasi.Placement{}, false
}

// unplaceAgent removes an agent from a room; its machine empties the copy.
func (a *API) unplaceAgent(w http.ResponseWriter, r *http.Request, p params) {
	room, agent := p["room"], p["agent"]
	who, err := a.authRoom(r, room)
	if err != nil {
		a.fail(w, r, err)
		return
	}
	if err := pumasi.CheckID("agent", agent); err != nil {
		a.fail(w, r, err)
		return
	}
	pl, err := a.Store.Unplace(r.Context(), pumasi.UnplaceInput{Room: room, Agent: agent, By: who.Who()})
	if err != nil {
		a.fail(w, r, err)
		return
	}
	a.assignmentsChanged(r.Context(), pl.MachineID)
	w.WriteHeader(http.StatusNoContent)
}

// agentDelivery is one placement with what its daemon last reported.
type agentDelivery struct {
	AgentID   string   `json:"agent_id"`
	MachineID string   `json:"machine_id"`
	Synced    bool     `json:"synced"`
	Missing   []string `json:"missing"`
	Extra     []string `json:"extra,omitempty"`
	// State is AgentSynced, AgentMissing or AgentOffline.
	State    string     `json:"state"`
	LastSeen *time.Time `json:"last_seen"`
	// OfflineSince is when an offline agent's machine last reported.
	OfflineSince *time.Time `json:"offline_since,omitempty"`
}

// An agent's delivery state in GET /rooms/{room}/agents.
const (
	// AgentSynced: its machine reported lately and holds exactly the
	// room's files.
	AgentSynced = "synced"
	// AgentMissing: its machine reported lately (or never) and the copy
	// differs from the room: files missing, stale or extra.
	AgentMissing = "missing"
	// AgentOffline: its machine has not reported within OfflineAfter; what
	// it last held says nothing about now.
	AgentOffline = "offline"
)

// DefaultOfflineAfter is how long an agent's machine may stay silent before
// the agent shows offline: three of the daemon's default 30 s polls, each of
// which reports status.
const DefaultOfflineAfter = 90 * time.Second

// EnvOfflineAfter names the variable localdev and the Lambda functions read
// for API.OfflineAfter.
const EnvOfflineAfter = "PUMASI_OFFLINE_AFTER"

// ParseOfflineAfter reads PUMASI_OFFLINE_AFTER: empty for the default, else
// a positive Go duration. The error names the variable.
func ParseOfflineAfter(v string) (time.Duration, error) {
	if v == "" {
		return 0, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("%s=%q: want a positive duration such as 90s or 5m", EnvOfflineAfter, v)
	}
	return d, nil
}

func (a *API) offlineAfter() time.Duration {
	if a.OfflineAfter > 0 {
		return a.OfflineAfter
	}
	return DefaultOfflineAfter
}

type roomAgentsResponse struct {
	RoomID string          `json:"room_id"`
	Rev    int64           `json:"rev"`
	Agents []agentDelivery `json:"agents"`
}

// roomAgents lists a room's placements with delivery status computed from
// the daemons' last reports against the room's current files.
func (a *API) roomAgents(w http.ResponseWriter, r *http.Request, p params) {
	room := p["room"]
	if _, err := a.authRoom(r, room); err != nil {
		a.fail(w, r, err)
		return
	}
	ctx := r.Context()
	pls, err := a.Store.RoomAgents(ctx, room)
	if err != nil {
		a.fail(w, r, err)
		return
	}
	listing, err := a.Store.ListFiles(ctx, room)
	if err != nil {
		a.fail(w, r, err)
		return
	}
	ids := make([]string, len(pls))
	for i, pl := range pls {
		ids[i] = pl.AgentID
	}
	statuses := map[string]pumasi.AgentStatus{}
	if len(ids) > 0 {
		if statuses, err = a.Store.AgentStatuses(ctx, ids); err != nil {
			a.fail(w, r, err)
			return
		}
	}
	resp := roomAgentsResponse{RoomID: room, Rev: listing.Rev, Agents: make([]agentDelivery, 0, len(pls))}
	for _, pl := range pls {
		st, ok := statuses[pl.AgentID]
		// A report from another machine predates a move: it says nothing
		// about the copy the agent's current machine holds.
		if ok && st.MachineID != pl.MachineID {
			ok = false
		}
		resp.Agents = append(resp.Agents, delivery(pl, listing.Files, st, ok, a.now().Add(-a.offlineAfter())))
	}
	writeJSON(w, http.StatusOK, resp)
}

// delivery compares what an agent holds with the room's files: synced means
// a report since cutoff with exactly the same names and sha256; a report
// before cutoff means offline, whatever it held.
func delivery(pl pumasi.Placement, files []pumasi.File, st pumasi.AgentStatus, reported bool, cutoff time.Time) agentDelivery {
	d := agentDelivery{AgentID: pl.AgentID, MachineID: pl.MachineID, Missing: []string{}}
	held := map[string]string{}
	if reported {
		t := st.ReportedAt.UTC()
		d.LastSeen = &t
		for _, h := range st.Files {
			held[h.Name] = h.SHA256
		}
	}
	want := make(map[string]bool, len(files))
	for _, f := range files {
		want[f.Name] = true
		if sum, ok := held[f.Name]; !ok || sum != f.SHA256 {
			d.Missing = append(d.Missing, f.Name)
		}
	}
	if reported {
		for _, h := range st.Files {
			if !want[h.Name] {
				d.Extra = append(d.Extra, h.Name)
			}
		}
	}
	sort.Strings(d.Extra)
	switch {
	case reported && st.ReportedAt.Before(cutoff):
		d.State, d.OfflineSince = AgentOffline, d.LastSeen
	case reported && len(d.Missing) == 0 && len(d.Extra) == 0:
		d.State, d.Synced = AgentSynced, true
	default:
		d.State = AgentMissing
	}
	return d
}

// offline reports whether an agent's last report (if any, from its current
// machine) is older than cutoff.
func offline(st pumasi.AgentStatus, reported bool, machine string, cutoff time.Time) bool {
	return reported && st.MachineID == machine && st.ReportedAt.Before(cutoff)
}
