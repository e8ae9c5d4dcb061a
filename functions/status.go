package functions

import (
	"encoding/json"
	"io"
	"net/http"

	"pumasi"
)

// MaxStatusBody is the largest status report accepted: a machine reports
// every file of every agent it serves, which outgrows MaxJSONBody.
const MaxStatusBody = 4 << 20

func init() {
	addRoute("POST", "/machines/{machine}/status", "status", (*API).status)
}

// StatusReport is what a daemon POSTs after a reconcile.
type StatusReport struct {
	Agents []AgentHolding `json:"agents"`
}

// AgentHolding is what one agent holds in memory/shared/.
type AgentHolding struct {
	AgentID string           `json:"agent_id"`
	Files   []pumasi.Holding `json:"files"`
}

// status records what a machine's agents hold. Only agents placed on that
// machine are recorded, so a machine cannot speak for another's agents.
func (a *API) status(w http.ResponseWriter, r *http.Request, p params) {
	machine := p["machine"]
	if _, err := a.authMachine(r, machine); err != nil {
		a.fail(w, r, err)
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, MaxStatusBody+1))
	if err != nil {
		a.fail(w, r, pumasi.Errorf(pumasi.EInvalidRequest, "could not read the request body"))
		return
	}
	if len(body) > MaxStatusBody {
		a.fail(w, r, pumasi.Errorf(pumasi.ETooLarge, "status report is larger than %d bytes", MaxStatusBody))
		return
	}
	var rep StatusReport
	if err := json.Unmarshal(body, &rep); err != nil {
		a.fail(w, r, pumasi.Errorf(pumasi.EInvalidRequest, "body is not a valid status report"))
		return
	}
	ctx := r.Context()
	pls, err := a.Store.MachineAgents(ctx, machine)
	if err != nil {
		a.fail(w, r, err)
		return
	}
	placed := make(map[string]bool, len(pls))
	for _, pl := range pls {
		placed[pl.AgentID] = true
	}
	seen := map[string]bool{}
	var sts []pumasi.AgentStatus
	for _, ag := range rep.Agents {
		if !placed[ag.AgentID] || seen[ag.AgentID] {
			continue
		}
		seen[ag.AgentID] = true
		files := make([]pumasi.Holding, 0, len(ag.Files))
		for _, f := range ag.Files {
			if len(f.Name) > 4*pumasi.MaxNameBytes || len(f.SHA256) > 64 {
				continue
			}
			files = append(files, f)
		}
		sts = append(sts, pumasi.AgentStatus{AgentID: ag.AgentID, MachineID: machine, Files: files, ReportedAt: a.now()})
	}
	if len(sts) > 0 {
		if err := a.Store.ReportStatus(ctx, machine, sts); err != nil {
			a.fail(w, r, err)
			return
		}
	}
	w.WriteHeader(http.StatusNoContent)
}
