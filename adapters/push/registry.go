package push

import (
	"context"
	"sort"

	"pumasi"
)

// HubConnections is a Hub's live connections seen as a connection registry:
// localdev hands it to a Gateway, so that frames go through the
// @connections endpoint the way they do in AWS while the hub, not the
// store, knows the ids (it mints them as daemons connect).
type HubConnections struct{ Hub *Hub }

var _ Connections = HubConnections{}

// MachineConnections lists machine's live connections sorted by id.
func (c HubConnections) MachineConnections(ctx context.Context, machine string) ([]pumasi.Connection, error) {
	ids := c.Hub.Connections(machine)
	sort.Strings(ids)
	out := make([]pumasi.Connection, 0, len(ids))
	for _, id := range ids {
		out = append(out, pumasi.Connection{ID: id, MachineID: machine})
	}
	return out, nil
}

// DropConnection closes a live connection. Returns not_found when it is not
// live.
func (c HubConnections) DropConnection(ctx context.Context, id string) (pumasi.Connection, error) {
	machine, ok := c.Hub.Lookup(id)
	if !ok || c.Hub.DeleteConnection(ctx, id) != nil {
		return pumasi.Connection{}, pumasi.Errorf(pumasi.ENotFound, "connection not found")
	}
	return pumasi.Connection{ID: id, MachineID: machine}, nil
}

// Lookup returns the machine of a live connection.
func (h *Hub) Lookup(id string) (machine string, ok bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	c := h.byID[id]
	if c == nil {
		return "", false
	}
	return c.machine, true
}
