package functions

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"

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

// assignments answers a machine's desired state. The etag is a hash of the
// whole answer, so any change of placement, name or content changes it and a
// daemon's poll costs a 304 otherwise.
func (a *API) assignments(w http.ResponseWriter, r *http.Request, p params) {
	machine := p["machine"]
	if _, err := a.authMachine(r, machine); err != nil {
		a.fail(w, r, err)
		return
	}
	ctx := r.Context()
	pls, err := a.Store.MachineAgents(ctx, machine)
	if err != nil {
		a.fail(w, r, err)
		return
	}
	rooms := map[string]pumasi.Listing{}
	out := Assignments{MachineID: machine, Agents: make([]Assignment, 0, len(pls))}
	for _, pl := range pls {
		l, ok := rooms[pl.RoomID]
		if !ok {
			if l, err = a.Store.ListFiles(ctx, pl.RoomID); err != nil {
				a.fail(w, r, err)
				return
			}
			rooms[pl.RoomID] = l
		}
		as := Assignment{AgentID: pl.AgentID, RoomID: pl.RoomID, Rev: l.Rev, Files: make([]AssignedFile, 0, len(l.Files))}
		for _, f := range l.Files {
			as.Files = append(as.Files, AssignedFile{Name: f.Name, SHA256: f.SHA256, Size: f.Size})
		}
		out.Agents = append(out.Agents, as)
	}
	body, err := json.Marshal(out.Agents)
	if err != nil {
		a.fail(w, r, err)
		return
	}
	sum := sha256.Sum256(append([]byte(machine+"\n"), body...))
	out.ETag = "a" + hex.EncodeToString(sum[:16])
	quoted := `"` + out.ETag + `"`
	w.Header().Set("Cache-Control", "no-cache")
	if notModified(w, r, quoted) {
		return
	}
	writeJSON(w, http.StatusOK, out)
}
