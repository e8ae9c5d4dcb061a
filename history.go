package pumasi

import (
	"context"
	"slices"
	"time"
)

// The kinds of a room's changes, as the room log lists them.
const (
	ChangeUpload  = "upload"
	ChangeDelete  = "delete"
	ChangeRestore = "restore"
	ChangePlace   = "place"
	ChangeUnplace = "unplace"
	ChangeMove    = "move"
)

// Change is one effective change to a room, recorded at the rev it made: a
// file change (upload, delete, restore) is also a version of its name, and
// its ToSHA256 blob stays referenced while the change is kept; a placement
// change (place, unplace, move) names the agent. A move is recorded in both
// rooms it touches: FromRoom in the room the agent came to, ToRoom in the
// room it left (both empty for a move between machines within one room).
type Change struct {
	Rev         int64  `json:"rev"`
	Kind        string `json:"kind"`
	Name        string `json:"name,omitempty"`
	FileID      string `json:"file_id,omitempty"`
	Version     int    `json:"version,omitempty"`
	FromSHA256  string `json:"from_sha256,omitempty"`
	ToSHA256    string `json:"to_sha256,omitempty"`
	Size        int64  `json:"size,omitempty"`
	ContentType string `json:"content_type,omitempty"`
	// RestoredFrom is the version a restore brought back.
	RestoredFrom int       `json:"restored_from,omitempty"`
	Agent        string    `json:"agent_id,omitempty"`
	Machine      string    `json:"machine_id,omitempty"`
	FromMachine  string    `json:"from_machine,omitempty"`
	FromRoom     string    `json:"from_room,omitempty"`
	ToRoom       string    `json:"to_room,omitempty"`
	By           string    `json:"by"`
	At           time.Time `json:"at"`
}

// IsFileChange reports whether c is a version of a name.
func (c Change) IsFileChange() bool {
	return c.Kind == ChangeUpload || c.Kind == ChangeDelete || c.Kind == ChangeRestore
}

// RoomLog is a page of a room's changes in rev order.
type RoomLog struct {
	RoomID string `json:"room_id"`
	// Rev is the room's rev when the page was read.
	Rev     int64    `json:"rev"`
	Changes []Change `json:"changes"`
	// More is true when changes past the page's last rev exist: ask again
	// with since set to it.
	More bool `json:"more"`
}

// FileVersion is one version of a name, as GET …/versions lists it.
type FileVersion struct {
	Version     int       `json:"version"`
	SHA256      string    `json:"sha256"`
	Size        int64     `json:"size"`
	ContentType string    `json:"content_type,omitempty"`
	UploadedBy  string    `json:"uploaded_by"`
	CreatedAt   time.Time `json:"created_at"`
	// Deleted marks the version that deleted the name; it has no content.
	Deleted      bool  `json:"deleted"`
	RestoredFrom int   `json:"restored_from,omitempty"`
	Current      bool  `json:"current"`
	Rev          int64 `json:"rev,omitempty"`
}

// DeletedFile is a deleted name that still has a version to restore.
type DeletedFile struct {
	Name      string    `json:"name"`
	Version   int       `json:"version"` // the delete's version
	DeletedBy string    `json:"deleted_by"`
	DeletedAt time.Time `json:"deleted_at"`
	// LastVersion is the newest version with content: what a restore of
	// the name would most likely bring back.
	LastVersion int    `json:"last_version"`
	SHA256      string `json:"sha256"`
	Size        int64  `json:"size"`
}

// RestoreInput asks to make a past version of a name current again.
type RestoreInput struct {
	Room    string
	Name    string
	Version int
	By      string
	// IfMatch and IfNoneMatch are the write's preconditions, as for PutFileInput.
	IfMatch     string
	IfNoneMatch bool
}

// HistoryStore keeps the past of a room's files and the room's log.
type HistoryStore interface {
	// RoomLog returns the changes of room with rev > since, oldest first,
	// at most limit of them (More tells if there are others).
	RoomLog(ctx context.Context, room string, since int64, limit int) (RoomLog, error)
	// FileVersions lists name's versions, newest first. Returns not_found
	// when the name has neither a file nor a kept version.
	FileVersions(ctx context.Context, room, name string) ([]FileVersion, error)
	// ReadVersion returns one version's metadata and bytes. Returns
	// not_found when the version is not kept, gone for a delete's version.
	ReadVersion(ctx context.Context, room, name string, version int) (FileVersion, []byte, error)
	// DeletedFiles lists the deleted names that still have a version to
	// restore, sorted by name.
	DeletedFiles(ctx context.Context, room string) ([]DeletedFile, error)
	// RestoreFile makes a kept version of a name current again as a new
	// version (bringing back a deleted name), and returns its bytes. It
	// answers like PutFile: Changed is false when the name already holds
	// that content. Returns not_found, gone (the version is a delete),
	// name_conflict, precondition_failed and quota_exceeded.
	RestoreFile(ctx context.Context, in RestoreInput) (PutFileResult, []byte, error)
}

// FileVersionsOf builds the version list of a name from its file changes
// (any order) and its current file (nil when absent), newest first. A
// current file no change records (written before history was kept, or
// with history off) is listed from its metadata.
func FileVersionsOf(changes []Change, cur *File) []FileVersion {
	out := []FileVersion{}
	for _, c := range changes {
		if !c.IsFileChange() {
			continue
		}
		out = append(out, FileVersion{
			Version: c.Version, SHA256: c.ToSHA256, Size: c.Size, ContentType: c.ContentType,
			UploadedBy: c.By, CreatedAt: c.At, Deleted: c.Kind == ChangeDelete,
			RestoredFrom: c.RestoredFrom, Rev: c.Rev,
		})
	}
	slices.SortFunc(out, func(a, b FileVersion) int { return b.Version - a.Version })
	if cur != nil && (len(out) == 0 || out[0].Version != cur.Version) {
		out = slices.Insert(out, 0, FileVersion{
			Version: cur.Version, SHA256: cur.SHA256, Size: cur.Size, ContentType: cur.ContentType,
			UploadedBy: cur.UploadedBy, CreatedAt: cur.UpdatedAt,
		})
	}
	// The newest is the name's present: its live version, or its delete.
	if len(out) > 0 && (cur != nil || out[0].Deleted) {
		out[0].Current = true
	}
	return out
}

// DeletedFilesOf lists, from a room's file changes (any order) and the
// names it holds now, the deleted names that still have a version with
// content, sorted by name.
func DeletedFilesOf(changes []Change, live map[string]bool) []DeletedFile {
	byName := map[string][]Change{}
	for _, c := range changes {
		if c.IsFileChange() && !live[c.Name] {
			byName[c.Name] = append(byName[c.Name], c)
		}
	}
	out := []DeletedFile{}
	for name, cs := range byName {
		slices.SortFunc(cs, func(a, b Change) int { return b.Version - a.Version })
		if cs[0].Kind != ChangeDelete {
			continue
		}
		for _, c := range cs[1:] {
			if c.Kind != ChangeDelete {
				out = append(out, DeletedFile{
					Name: name, Version: cs[0].Version, DeletedBy: cs[0].By, DeletedAt: cs[0].At,
					LastVersion: c.Version, SHA256: c.ToSHA256, Size: c.Size,
				})
				break
			}
		}
	}
	slices.SortFunc(out, func(a, b DeletedFile) int {
		switch {
		case a.Name < b.Name:
			return -1
		case a.Name > b.Name:
			return 1
		}
		return 0
	})
	return out
}

// NextVersion is the version number a new change of a name takes: one past
// both its current file's (cur, nil when absent) and the newest kept
// change's (last, 0 when none), so numbers never repeat while any version
// of the name is kept, across deletes too.
func NextVersion(cur *File, last int) int {
	v := last
	if cur != nil && cur.Version > v {
		v = cur.Version
	}
	return v + 1
}

// FindVersion returns the kept change of name that made version v.
func FindVersion(changes []Change, name string, v int) (Change, bool) {
	for _, c := range changes {
		if c.IsFileChange() && c.Name == name && c.Version == v {
			return c, true
		}
	}
	return Change{}, false
}
