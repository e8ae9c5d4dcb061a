package functions

import (
	"context"

	"pumasi"
)

// Pusher delivers frames to a machine's daemon connections: the local hub in
// localdev, the API Gateway management API in AWS. Delivery is best effort;
// daemons reconcile against their assignments, so a lost frame only delays.
type Pusher interface {
	// Push sends frames to every live connection of machine. A machine with no
	// connection is not an error.
	Push(ctx context.Context, machine string, frames []pumasi.Frame) error
}

// NopPusher drops every frame; for deployments where daemons only poll.
type NopPusher struct{}

// Push implements Pusher by doing nothing.
func (NopPusher) Push(context.Context, string, []pumasi.Frame) error { return nil }
