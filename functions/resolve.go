package functions

import (
	"net/http"

	"pumasi"
	"pumasi/prompt"
)

// maxReferences bounds the explicit references of one resolve request.
const maxReferences = 256

func init() {
	addRoute("POST", "/rooms/{room}/resolve", "resolve", (*API).resolve)
}

type resolveRequest struct {
	Text       string   `json:"text"`
	References []string `json:"references"`
}

// resolve canonicalises $references in a message against the room's files and
// returns the <referenced-files> hint; names of other rooms never resolve.
func (a *API) resolve(w http.ResponseWriter, r *http.Request, p params) {
	room := p["room"]
	if _, err := a.authRoom(r, room); err != nil {
		a.fail(w, r, err)
		return
	}
	var req resolveRequest
	if err := decodeJSON(r, &req); err != nil {
		a.fail(w, r, err)
		return
	}
	if len(req.References) > maxReferences {
		a.fail(w, r, pumasi.Errorf(pumasi.EInvalidRequest, "at most %d references", maxReferences))
		return
	}
	l, err := a.Store.ListFiles(r.Context(), room)
	if err != nil {
		a.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, prompt.Resolve(req.Text, req.References, l.Files))
}
