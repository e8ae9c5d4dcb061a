package pumasi

import (
	"context"
	"time"
)

// File is the metadata of one room file. Its body lives in the blob store,
// addressed by SHA256; the database never holds it.
type File struct {
	ID          string    `json:"id"`
	RoomID      string    `json:"room_id"`
	Name        string    `json:"name"`
	SHA256      string    `json:"sha256"`
	Size        int64     `json:"size"`
	ContentType string    `json:"content_type"`
	Version     int       `json:"version"`
	UploadedBy  string    `json:"uploaded_by"`
	CreatedAt   time.Time `json:"created_at"`
	UpdatedAt   time.Time `json:"updated_at"`
}

// Listing is a room's files, sorted by name, at revision Rev.
type Listing struct {
	RoomID string `json:"room_id"`
	Rev    int64  `json:"rev"`
	Files  []File `json:"files"`
}

// PutFileInput is one upload. Name must already be normalised by
// NormalizeName and Body checked by CheckContent.
type PutFileInput struct {
	Room        string
	Name        string
	Body        []byte
	ContentType string
	UploadedBy  string
	// IfMatch, when set, is the If-Match condition (see IfMatchHolds): the
	// sha256 the current content must have, as a strong tag or bare; "*" for
	// "the name exists"; a weak tag never matches.
	IfMatch string
	// IfNoneMatch requires that the name does not exist yet.
	IfNoneMatch bool
}

// DeleteInput is one delete: IfMatch as for PutFileInput, By who deletes.
type DeleteInput struct {
	Room, Name, IfMatch, By string
}

// PutFileResult tells what an upload did. Changed is false when identical
// content was already stored under the name; then Rev did not move.
type PutFileResult struct {
	File    File
	Changed bool
	Rev     int64
}

// Placement puts one agent, running on one machine, in one room.
type Placement struct {
	RoomID    string    `json:"room_id"`
	AgentID   string    `json:"agent_id"`
	MachineID string    `json:"machine_id"`
	PlacedAt  time.Time `json:"placed_at"`
}

// Holding is one file an agent holds on disk, as its daemon reported it.
type Holding struct {
	Name   string `json:"name"`
	SHA256 string `json:"sha256"`
}

// AgentStatus is the last report of what an agent holds in memory/shared/.
type AgentStatus struct {
	AgentID    string    `json:"agent_id"`
	MachineID  string    `json:"machine_id"`
	Files      []Holding `json:"files"`
	ReportedAt time.Time `json:"reported_at"`
}

// CheckStatusReport validates the ids of a status report before any backend
// stores it. Returns invalid_request.
func CheckStatusReport(machine string, agents []AgentStatus) error {
	if err := CheckID("machine", machine); err != nil {
		return err
	}
	for _, a := range agents {
		if err := CheckID("agent", a.AgentID); err != nil {
			return err
		}
	}
	return nil
}

// SweepReport counts what a sweep removed.
type SweepReport struct {
	TempFiles int `json:"temp_files"`
	Blobs     int `json:"blobs"`
	// Versions counts the changes that fell out of history retention.
	Versions int `json:"versions"`
}

// FileStore keeps room files: metadata, content-addressed blobs and the room
// revision. Every method is safe for concurrent use by many processes sharing
// one backend.
type FileStore interface {
	// PutFile stores a file. Returns name_conflict when another name in the
	// room equals it case-insensitively, precondition_failed when IfMatch or
	// IfNoneMatch is unmet, and quota_exceeded past the room's limits.
	PutFile(ctx context.Context, in PutFileInput) (PutFileResult, error)
	// StatFile returns a file's metadata. Returns not_found when absent.
	StatFile(ctx context.Context, room, name string) (File, error)
	// ReadFile returns a file's metadata and bytes. Returns not_found when absent.
	ReadFile(ctx context.Context, room, name string) (File, []byte, error)
	// ListFiles lists a room sorted by name; an unknown room lists empty at rev 0.
	ListFiles(ctx context.Context, room string) (Listing, error)
	// DeleteFile removes a file and returns what was removed and the new rev.
	// Returns not_found when absent and precondition_failed when ifMatch is
	// set and differs from the current sha256.
	DeleteFile(ctx context.Context, room, name, ifMatch string) (File, int64, error)
	// Delete is DeleteFile recording in.By in the room log.
	Delete(ctx context.Context, in DeleteInput) (File, int64, error)
	// Sweep removes temp leftovers and blobs no file references that are older
	// than the grace period before now.
	Sweep(ctx context.Context, grace time.Duration) (SweepReport, error)
}

// PlacementStore keeps which agent runs where and what it holds.
type PlacementStore interface {
	// PlaceAgent places agent on machine in room, moving it out of any other
	// room. It returns the previous placement, if any, and whether anything
	// changed; every effective change bumps the rev of each room involved.
	PlaceAgent(ctx context.Context, room, agent, machine string) (prev *Placement, changed bool, err error)
	// Place is PlaceAgent with in.Reach checked against the agent's current
	// room inside the same transaction or compare-and-swap (see PlanPlace).
	// Returns forbidden when the agent is placed in a room Reach refuses.
	Place(ctx context.Context, in PlaceInput) (prev *Placement, changed bool, err error)
	// UnplaceAgent removes agent from room. Returns not_found when the agent
	// is not placed in that room.
	UnplaceAgent(ctx context.Context, room, agent string) (Placement, error)
	// Unplace is UnplaceAgent recording in.By in the room log.
	Unplace(ctx context.Context, in UnplaceInput) (Placement, error)
	// RoomAgents lists the placements of a room, sorted by agent id.
	RoomAgents(ctx context.Context, room string) ([]Placement, error)
	// MachineAgents lists the placements on a machine, sorted by agent id.
	MachineAgents(ctx context.Context, machine string) ([]Placement, error)
	// AgentPlacement returns agent's current placement. Returns not_found
	// when the agent is not placed anywhere.
	AgentPlacement(ctx context.Context, agent string) (Placement, error)
	// ReportStatus records what agents on machine hold, replacing earlier reports.
	ReportStatus(ctx context.Context, machine string, agents []AgentStatus) error
	// AgentStatuses returns the last reports of the given agents; agents never
	// reported are absent from the map.
	AgentStatuses(ctx context.Context, agents []string) (map[string]AgentStatus, error)
}

// Store is everything a deployment keeps. Backends pass the one conformance
// suite in adapters/storagetest.
type Store interface {
	FileStore
	HistoryStore
	PlacementStore
	ConnectionStore
	RoomStore
	Close() error
}
