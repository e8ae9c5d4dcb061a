package functions

import (
	"context"
	"fmt"
	"time"

	"pumasi"
	"pumasi/knowledge"
)

// SweepReport is what one sweep did: the files part and, when the API has a
// knowledge store, the knowledge part.
type SweepReport struct {
	Files     pumasi.SweepReport     `json:"files"`
	Knowledge *knowledge.SweepReport `json:"knowledge,omitempty"`
}

// sweep removes temp leftovers and unreferenced blobs older than grace, then
// collapses racing near-duplicate knowledge entries. The scheduled sweep in
// localdev and in Lambda, and `pumasi sweep` on demand, all run this.
func (a *API) sweep(ctx context.Context, grace time.Duration) (SweepReport, error) {
	var rep SweepReport
	files, err := a.Store.Sweep(ctx, grace)
	if err != nil {
		return rep, fmt.Errorf("sweep files: %w", err)
	}
	rep.Files = files
	if a.Knowledge == nil {
		return rep, nil
	}
	k, err := a.SweepKnowledge(ctx)
	if err != nil {
		return rep, fmt.Errorf("sweep knowledge: %w", err)
	}
	rep.Knowledge = &k
	return rep, nil
}
