package functions

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"pumasi"
)

func init() {
	addRoute("GET", "/machines/{machine}/assignments", "assignments", (*API).assignments)
}

// AssignedFile is one file an assigned agent must hold.
type AssignedFile struct {
	Name   string `json:"name"`
	SHA256 string `json:"sha256"`
	Size   int64  `json:"size"`
}

// Assignment is one agent a machine serves, with its room's files at rev.
type Assignment struct {
	AgentID string         `json:"agent_id"`
	RoomID  string         `json:"room_id"`
	Rev     int64          `json:"rev"`
	Files   []AssignedFile `json:"files"`
}

// Assignments is a machine's desired state: GET /machines/{machine}/assignments.
type Assignments struct {
	MachineID string       `json:"machine_id"`
	ETag      string       `json:"etag"`
	Agents    []Assignment `json:"agents"`
}

// assignments answers a machine's desired state. Its etag is a hash of what
// determines the answer: the machine's agents, their rooms and each room's
// rev (a rev names one listing forever). With a store that tells revs
// cheaply, a daemon's poll that holds the current etag costs one key read
// (local: one statement), and an unchanged answer is sent from memory; no
// listing is read.
func (a *API) assignments(w http.ResponseWriter, r *http.Request, p params) {
	machine := p["machine"]
	if _, err := a.authMachine(r, machine); err != nil {
		a.fail(w, r, err)
		return
	}
	ctx := r.Context()
	w.Header().Set("Cache-Control", "no-cache")
	key, keyed, err := a.assignmentKey(ctx, machine)
	if err != nil {
		a.fail(w, r, err)
		return
	}
	if keyed {
		etag := hashKey(machine, key)
		if notModified(w, r, `"`+etag+`"`) {
			return
		}
		if body, ok := a.assigned.get(machine, etag); ok {
			writeEncoded(w, body)
			return
		}
	}
	pls, err := a.Store.MachineAgents(ctx, machine)
	if err != nil {
		a.fail(w, r, err)
		return
	}
	rooms := map[string]pumasi.Listing{}
	revs := map[string]int64{}
	out := Assignments{MachineID: machine, Agents: make([]Assignment, 0, len(pls))}
	for _, pl := range pls {
		l, ok := rooms[pl.RoomID]
		if !ok {
			if l, err = a.Store.ListFiles(ctx, pl.RoomID); err != nil {
				a.fail(w, r, err)
				return
			}
			rooms[pl.RoomID], revs[pl.RoomID] = l, l.Rev
		}
		as := Assignment{AgentID: pl.AgentID, RoomID: pl.RoomID, Rev: l.Rev, Files: make([]AssignedFile, 0, len(l.Files))}
		for _, f := range l.Files {
			as.Files = append(as.Files, AssignedFile{Name: f.Name, SHA256: f.SHA256, Size: f.Size})
		}
		out.Agents = append(out.Agents, as)
	}
	// The etag is the key read before the listings: the answer is at least
	// that new, so a client never holds an etag newer than its answer.
	if !keyed {
		key = revKey(pls, revs)
	}
	out.ETag = hashKey(machine, key)
	if notModified(w, r, `"`+out.ETag+`"`) {
		return
	}
	body, err := encodeJSON(out)
	if err != nil {
		a.fail(w, r, err)
		return
	}
	// Kept for others only when nothing changed while it was built.
	if keyed {
		if k, ok, err := a.assignmentKey(ctx, machine); err == nil && ok && k == key {
			a.assigned.put(machine, out.ETag, body)
		}
	}
	writeEncoded(w, body)
}

// assignmentKeyer is a store that names a machine's placements and their
// rooms' revs in one cheap read (local: one prepared statement).
type assignmentKeyer interface {
	// AssignmentKey returns a string that changes whenever the machine's
	// agents, their rooms or those rooms' revs do.
	AssignmentKey(ctx context.Context, machine string) (string, error)
}

// assignmentKey returns the store's key for machine's assignments: from an
// assignmentKeyer, else from the placements and one rev read per room;
// keyed is false when the store tells revs only through listings.
func (a *API) assignmentKey(ctx context.Context, machine string) (key string, keyed bool, err error) {
	if k, ok := a.Store.(assignmentKeyer); ok {
		key, err := k.AssignmentKey(ctx, machine)
		return "s" + key, err == nil, err
	}
	rs, ok := a.Store.(roomRever)
	if !ok {
		return "", false, nil
	}
	pls, err := a.Store.MachineAgents(ctx, machine)
	if err != nil {
		return "", false, err
	}
	revs := map[string]int64{}
	for _, pl := range pls {
		if _, ok := revs[pl.RoomID]; ok {
			continue
		}
		if revs[pl.RoomID], err = rs.RoomRev(ctx, pl.RoomID); err != nil {
			return "", false, err
		}
	}
	return revKey(pls, revs), true, nil
}

// revKey names placements with their rooms' revs.
func revKey(pls []pumasi.Placement, revs map[string]int64) string {
	var b strings.Builder
	for _, pl := range pls {
		b.WriteString(pl.AgentID + "\t" + pl.RoomID + "\t" + strconv.FormatInt(revs[pl.RoomID], 10) + "\n")
	}
	return b.String()
}

// hashKey turns a machine's assignment key into its etag.
func hashKey(machine, key string) string {
	sum := sha256.Sum256([]byte(machine + "\n" + key))
	return "a" + hex.EncodeToString(sum[:16])
}

// assignedCache keeps each machine's last encoded answer under its etag.
type assignedCache struct {
	mu       sync.Mutex
	machines map[string]cachedAnswer
}

type cachedAnswer struct {
	etag string
	body []byte
}

// maxAssignedMachines bounds the answers kept; past it one is dropped.
const maxAssignedMachines = 4096

func (c *assignedCache) get(machine, etag string) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.machines[machine]
	return e.body, ok && e.etag == etag
}

func (c *assignedCache) put(machine, etag string, body []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.machines == nil {
		c.machines = map[string]cachedAnswer{}
	}
	if _, ok := c.machines[machine]; !ok && len(c.machines) >= maxAssignedMachines {
		for m := range c.machines {
			delete(c.machines, m)
			break
		}
	}
	c.machines[machine] = cachedAnswer{etag: etag, body: body}
}
