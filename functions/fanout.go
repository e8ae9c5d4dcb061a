package functions

import (
	"context"
	"encoding/json"

	"pumasi"
)

// fanOut sends one frame per agent placed in room, grouped by machine. Push
// failures are logged, not returned: the upload is committed and daemons
// converge from their assignments anyway.
func (a *API) fanOut(ctx context.Context, room string, frame func(pl pumasi.Placement) pumasi.Frame) {
	placements, err := a.Store.RoomAgents(ctx, room)
	if err != nil {
		a.log().Error("fan-out: list agents", "room", room, "err", err)
		return
	}
	byMachine := map[string][]pumasi.Frame{}
	var order []string
	for _, pl := range placements {
		if _, seen := byMachine[pl.MachineID]; !seen {
			order = append(order, pl.MachineID)
		}
		byMachine[pl.MachineID] = append(byMachine[pl.MachineID], frame(pl))
	}
	for _, m := range order {
		if err := a.pusher().Push(ctx, m, byMachine[m]); err != nil {
			a.log().Warn("fan-out: push", "machine", m, "err", err)
		}
	}
}

// writeFrame builds the write frame for one agent, with the content inline
// only when the encoded frame fits the gateway's message cap.
func writeFrame(pl pumasi.Placement, f pumasi.File, body []byte) pumasi.Frame {
	fr := pumasi.Frame{
		Type:          pumasi.FrameWrite,
		AgentID:       pl.AgentID,
		RoomID:        pl.RoomID,
		StorageName:   f.Name,
		ContentSHA256: f.SHA256,
	}
	content := string(body)
	fr.Content = &content
	if b, err := json.Marshal(fr); err != nil || len(b) > pumasi.MaxInlineFrame {
		fr.Content = nil
	}
	return fr
}

// deleteFrame builds the delete frame for one agent.
func deleteFrame(pl pumasi.Placement, f pumasi.File) pumasi.Frame {
	return pumasi.Frame{
		Type:          pumasi.FrameDelete,
		AgentID:       pl.AgentID,
		RoomID:        pl.RoomID,
		StorageName:   f.Name,
		ContentSHA256: f.SHA256,
	}
}

// assignmentsChanged tells machines to re-read their assignments.
func (a *API) assignmentsChanged(ctx context.Context, machines ...string) {
	seen := map[string]bool{}
	for _, m := range machines {
		if m == "" || seen[m] {
			continue
		}
		seen[m] = true
		f := pumasi.Frame{Type: pumasi.FrameAssignmentsChanged, MachineID: m}
		if err := a.pusher().Push(ctx, m, []pumasi.Frame{f}); err != nil {
			a.log().Warn("push assignments changed", "machine", m, "err", err)
		}
	}
}
