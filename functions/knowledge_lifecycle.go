package functions

import (
	"net/http"

	"pumasi"
)

// Undoing a merge (DESIGN.md §6, Lifecycle), an admin's, served in AWS by
// the knowledge-moderate function beside moderation's routes and the
// history, which lists merges too (Engine.History).
func init() {
	addRoute("POST", "/knowledge/{id}/unmerge", "knowledge-moderate", moderated(true, unmergeKnowledge))
}

// unmergeKnowledge answers POST /knowledge/{id}/unmerge (admin): the
// absorbed entry restored with its own contributions and counts; on an
// entry that is live already, the entry unchanged.
func unmergeKnowledge(a *API, w http.ResponseWriter, r *http.Request, p params, _ moderator, admin *pumasi.Principal) error {
	e, err := a.Knowledge.Unmerge(r.Context(), p["id"], adminName(admin))
	if err != nil {
		return err
	}
	writeHive(w, http.StatusOK, e)
	return nil
}
