package pumasi

// Frame types of the machine protocol (DESIGN.md §5).
const (
	FrameWrite              = "agent_memory.shared_file.write"
	FrameDelete             = "agent_memory.shared_file.delete"
	FrameAssignmentsChanged = "machine.assignments.changed"
)

// MaxInlineFrame is the largest frame that carries content inline: API
// Gateway's WebSocket message cap is 128 KB, so bigger files are fetched.
const MaxInlineFrame = 128 << 10

// Frame is one JSON text message sent to a machine daemon. A frame is a hint:
// the daemon's truth is its assignments, so a lost frame delays, never breaks.
type Frame struct {
	Type          string  `json:"type"`
	AgentID       string  `json:"agent_id,omitempty"`
	RoomID        string  `json:"room_id,omitempty"`
	StorageName   string  `json:"storage_name,omitempty"`
	ContentSHA256 string  `json:"content_sha256,omitempty"`
	Content       *string `json:"content,omitempty"`
	MachineID     string  `json:"machine_id,omitempty"`
}
