package functions

import (
	"net/http"
)

// Undoing a merge (DESIGN.md §6, Lifecycle), an admin's, served in AWS by
// the knowledge-moderate function beside moderation's routes and the
// history, which lists merges too (Engine.History).
func init() {
	addRoute("POST", "/knowledge/{id}/unmerge", "knowledge-moderate", (*API).unmergeKnowledge)
}

// unmergeKnowledge answers POST /knowledge/{id}/unmerge (admin): the
// absorbed entry restored with its own contributions and counts; on an
// entry that is live already, the entry unchanged.
func (a *API) unmergeKnowledge(w http.ResponseWriter, r *http.Request, p params) {
	admin, err := a.authAdmin(r)
	if err != nil {
		a.fail(w, r, err)
		return
	}
	if err := a.knowledgeReady(false); err != nil {
		a.fail(w, r, err)
		return
	}
	e, err := a.Knowledge.Unmerge(r.Context(), p["id"], adminName(admin))
	if err != nil {
		a.fail(w, r, err)
		return
	}
	writeHive(w, http.StatusOK, e)
}
