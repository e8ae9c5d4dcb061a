package pumasi

import (
	"context"
	"time"
)

// MaxConnectionIDBytes bounds a gateway connection id. API Gateway's ids are
// short base64 strings ("L0SM9cOFvHcCIhw="); localdev's are UUIDs.
const MaxConnectionIDBytes = 128

// Connection is one WebSocket connection of a machine daemon, under the id
// the gateway gave it.
type Connection struct {
	ID          string    `json:"id"`
	MachineID   string    `json:"machine_id"`
	ConnectedAt time.Time `json:"connected_at"`
}

// ValidConnectionID reports whether id may name a gateway connection: 1 to
// MaxConnectionIDBytes of ASCII letters, digits and `+/=_-.`, the alphabet
// of API Gateway's base64 ids and of UUIDs.
func ValidConnectionID(id string) bool {
	if id == "" || len(id) > MaxConnectionIDBytes {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case c == '+', c == '/', c == '=', c == '_', c == '-', c == '.':
		default:
			return false
		}
	}
	return true
}

// CheckConnectionID returns invalid_request unless id is a valid connection id.
func CheckConnectionID(id string) error {
	if !ValidConnectionID(id) {
		return Errorf(EInvalidRequest, "connection id is not valid")
	}
	return nil
}

// ConnectionStore records which gateway connections belong to which machine,
// so that a stateless function can push to a machine: API Gateway's
// $connect records, $disconnect drops, and a push drops ids the gateway
// answers 410 Gone for (a $disconnect is best effort).
type ConnectionStore interface {
	// SaveConnection records id as a live connection of machine, stamped
	// with the store's clock; saving an id again moves it to machine.
	// Returns invalid_request for a bad machine or connection id.
	SaveConnection(ctx context.Context, machine, id string) error
	// DropConnection forgets id and returns what it was. Returns not_found
	// when id is not recorded.
	DropConnection(ctx context.Context, id string) (Connection, error)
	// LookupConnection returns the connection recorded under id. Returns
	// not_found when id is not recorded.
	LookupConnection(ctx context.Context, id string) (Connection, error)
	// MachineConnections lists machine's recorded connections sorted by id;
	// a machine with none lists empty.
	MachineConnections(ctx context.Context, machine string) ([]Connection, error)
}
