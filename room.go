package pumasi

import "context"

// RoomSummary is one room as GET /rooms lists it: its revision, how many
// files and bytes it holds and which agents are placed in it.
type RoomSummary struct {
	RoomID string `json:"room_id"`
	Rev    int64  `json:"rev"`
	Files  int    `json:"files"`
	Bytes  int64  `json:"bytes"`
	// Agents are the ids of the agents placed in the room, sorted.
	Agents []string `json:"agents"`
	// Offline are those of Agents whose machine has not reported within
	// the server's offline interval, sorted (filled by the API, not the
	// store).
	Offline []string `json:"offline"`
}

// RoomStore lists rooms. A room exists once anything changed it (an upload,
// a delete or a placement bumped its rev), so a room emptied again still
// lists, with its rev, because caches key on that rev.
type RoomStore interface {
	// ListRooms returns every room, sorted by id.
	ListRooms(ctx context.Context) ([]RoomSummary, error)
}
