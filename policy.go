package pumasi

import (
	"fmt"
	"strings"
)

// The file and placement policy: name conflicts, preconditions, quotas and
// who may move an agent are decided here, once, by pure functions. A backend
// reads the current state inside its transaction (local) or compare-and-swap
// (S3), asks for a plan, and applies it there; so no two backends can
// disagree, and no decision rests on a read taken before the write.

// IfMatchAny is the If-Match field value "*": the name must exist.
const IfMatchAny = "*"

// CheckIfMatch validates an If-Match field value as a client sent it: "*", or
// a comma-separated list of entity tags, each "<sha256>" or W/"<sha256>" (a
// bare sha256 is taken as a strong tag). Returns invalid_request.
func CheckIfMatch(v string) error {
	v = strings.TrimSpace(v)
	if v == "" || v == IfMatchAny {
		return nil
	}
	for _, t := range strings.Split(v, ",") {
		_, tag := splitTag(t)
		if !isSHA256(tag) {
			return Errorf(EInvalidRequest, `If-Match must be * or "<sha256>"`)
		}
	}
	return nil
}

// IfMatchHolds reports whether the If-Match value cond holds for cur, the
// file the name holds (nil when absent), under RFC 9110 §13.1.1: "" always
// holds; "*" holds when the name exists; a list of tags holds when one of
// them is strong and equals cur's sha256. A weak tag never matches (strong
// comparison). Hex case is ignored, as the sha256 is case-insensitive.
func IfMatchHolds(cond string, cur *File) bool {
	cond = strings.TrimSpace(cond)
	switch {
	case cond == "":
		return true
	case cond == IfMatchAny:
		return cur != nil
	case cur == nil:
		return false
	}
	for _, t := range strings.Split(cond, ",") {
		if weak, tag := splitTag(t); !weak && strings.ToLower(tag) == cur.SHA256 {
			return true
		}
	}
	return false
}

// splitTag parses one entity tag: W/"x" is weak, "x" and bare x are strong.
func splitTag(t string) (weak bool, tag string) {
	t = strings.TrimSpace(t)
	if rest, ok := strings.CutPrefix(t, "W/"); ok {
		weak, t = true, rest
	}
	if len(t) >= 2 && t[0] == '"' && t[len(t)-1] == '"' {
		t = t[1 : len(t)-1]
	}
	return weak, t
}

func isSHA256(s string) bool {
	if len(s) != 64 {
		return false
	}
	for _, c := range strings.ToLower(s) {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// RoomUsage is what a room holds now, and its limits.
type RoomUsage struct {
	Files    int
	Bytes    int64
	MaxFiles int
	MaxBytes int64
}

// PutPlan is what an upload does to its room.
type PutPlan int

// The outcomes of PlanPut.
const (
	// PutUnchanged: the name already holds this content; write nothing and
	// leave the rev alone.
	PutUnchanged PutPlan = iota
	// PutCreate: a new name.
	PutCreate
	// PutReplace: new content for the existing name, which keeps its id
	// and created_at and grows its version by one.
	PutReplace
)

// PlanPut decides an upload of in (Name in NFC, content sha256 sum) into a
// room whose file with the same name up to case is cur, or failing that the
// file whose LookalikeKey equals the name's (nil when none), and whose
// usage is use. In order: a new name must pass CheckNewName (invalid_name);
// a different name that folds to the same one, or looks like it, is
// name_conflict; an unmet If-None-Match: * or If-Match is
// precondition_failed; identical content is PutUnchanged (even over a quota);
// then the quotas. The quota rule: a write is refused only for a limit it
// makes worse, so a room over a lowered quota may still shrink, or replace a
// file with one no larger; a new file needs a free slot and, like a growing
// replacement, must fit under the byte limit. Returns too_large,
// invalid_name, name_conflict, precondition_failed and quota_exceeded.
func PlanPut(cur *File, use RoomUsage, in PutFileInput, sum string) (PutPlan, error) {
	size := int64(len(in.Body))
	if size > MaxFileSize {
		return 0, Errorf(ETooLarge, "file is %d bytes; the limit is %d", size, MaxFileSize)
	}
	return planWrite(cur, use, writeInput{room: in.Room, name: in.Name, size: size, sum: sum, ifMatch: in.IfMatch, ifNoneMatch: in.IfNoneMatch})
}

// writeInput is what PlanPut and PlanRestore decide on.
type writeInput struct {
	room, name, sum, ifMatch string
	size                     int64
	ifNoneMatch              bool
}

func planWrite(cur *File, use RoomUsage, in writeInput) (PutPlan, error) {
	if cur == nil {
		if err := CheckNewName(in.name); err != nil {
			return 0, err
		}
	}
	if cur != nil && cur.Name != in.name {
		if FoldName(cur.Name) != FoldName(in.name) {
			return 0, Errorf(ENameConflict, "%q looks like existing file %q (names that look alike cannot coexist: Unicode confusables)", in.name, cur.Name)
		}
		return 0, Errorf(ENameConflict, "%q clashes with existing file %q (names differing only in case cannot coexist)", in.name, cur.Name)
	}
	if in.ifNoneMatch && cur != nil {
		return 0, Errorf(EPreconditionFailed, "%q already exists", in.name)
	}
	if !IfMatchHolds(in.ifMatch, cur) {
		if cur == nil {
			return 0, Errorf(EPreconditionFailed, "%q does not exist", in.name)
		}
		return 0, &Error{Code: EPreconditionFailed, Message: fmt.Sprintf("%q does not have the expected content; its current sha256 is %s", in.name, cur.SHA256)}
	}
	if cur != nil && cur.SHA256 == in.sum {
		return PutUnchanged, nil
	}
	total := use.Bytes + in.size
	plan := PutCreate
	if cur != nil {
		total -= cur.Size
		plan = PutReplace
	} else if use.Files+1 > use.MaxFiles {
		return 0, Errorf(EQuotaExceeded, "room %s already has %d files; the limit is %d", in.room, use.Files, use.MaxFiles)
	}
	if total > use.MaxBytes && total > use.Bytes {
		return 0, Errorf(EQuotaExceeded, "room %s would hold %d bytes; the limit is %d", in.room, total, use.MaxBytes)
	}
	return plan, nil
}

// PlanDelete decides a delete of name in room, whose current file is cur (nil when
// absent). A delete needs its target first: an absent name is not_found
// whatever the precondition; an unmet If-Match is precondition_failed.
func PlanDelete(cur *File, room, name, ifMatch string) error {
	if cur == nil {
		return Errorf(ENotFound, "no file %q in room %s", name, room)
	}
	if !IfMatchHolds(ifMatch, cur) {
		return Errorf(EPreconditionFailed, "%q does not have the expected content; its current sha256 is %s", name, cur.SHA256)
	}
	return nil
}

// PlaceInput is one request to place (or move) an agent.
type PlaceInput struct {
	Room, Agent, Machine string
	// Reach reports whether the caller may act on a room; nil means every
	// room (an admin). Moving an agent takes it out of its current room, so
	// the caller must reach that room too.
	Reach func(room string) bool
	// By names who places, for the room log.
	By string
}

// UnplaceInput is one request to take an agent out of a room.
type UnplaceInput struct {
	Room, Agent string
	// By names who unplaces, for the room log.
	By string
}

// PlanPlace decides a placement against the agent's current placement cur
// (nil when not placed); it is decided inside the write, so an admin's move
// that lands between a caller's read and its write is never overridden by a
// caller who does not reach the agent's new room. changed is false when the
// agent is already there. Returns forbidden when the agent is placed in a
// room Reach refuses.
func PlanPlace(cur *Placement, in PlaceInput) (changed bool, err error) {
	if cur == nil {
		return true, nil
	}
	if cur.RoomID != in.Room && in.Reach != nil && !in.Reach(cur.RoomID) {
		// The other room is not named: the caller does not reach it.
		return false, Errorf(EForbidden, "agent %s is placed in a room this token does not reach", in.Agent)
	}
	return cur.RoomID != in.Room || cur.MachineID != in.Machine, nil
}

// PlanUnplace decides removing agent from room against its current
// placement cur (nil when not placed). Returns not_found when it is not
// placed in that room.
func PlanUnplace(cur *Placement, agent, room string) error {
	if cur == nil || cur.RoomID != room {
		return Errorf(ENotFound, "agent %s is not placed in room %s", agent, room)
	}
	return nil
}
