package push

import "pumasi/functions"

// The handlers' interfaces, checked here rather than in the package so that
// push, an adapter, does not import the layer above it.
var (
	_ functions.Pusher        = (*Hub)(nil)
	_ functions.MachineSocket = (*Hub)(nil)
	_ functions.Pusher        = (*Gateway)(nil)
)
