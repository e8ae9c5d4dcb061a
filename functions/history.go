package functions

import (
	"bytes"
	"io"
	"mime"
	"net/http"
	"strconv"

	"pumasi"
)

// The history routes (registered in file.go's init): a name's versions, one
// version's bytes (GET …/{name}?version=N), a restore, the deleted names
// (GET …/files?deleted=1) and the room log. They need a room or admin
// token: a machine's daemon mirrors the present, not the past.

type versionList struct {
	RoomID   string               `json:"room_id"`
	Name     string               `json:"name"`
	Versions []pumasi.FileVersion `json:"versions"`
}

func (a *API) versions(w http.ResponseWriter, r *http.Request, p params) {
	room := p["room"]
	if _, err := a.authRoom(r, room); err != nil {
		a.fail(w, r, err)
		return
	}
	name, err := pumasi.NormalizeName(p["name"])
	if err != nil {
		a.fail(w, r, err)
		return
	}
	vs, err := a.Store.FileVersions(r.Context(), room, name)
	if err != nil {
		a.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, versionList{RoomID: room, Name: name, Versions: vs})
}

// getVersion answers GET …/{name}?version=N: that version's bytes, or its
// metadata with meta=1; a version's content never changes, so its ETag
// (the sha256) answers If-None-Match with 304 like the current file's.
func (a *API) getVersion(w http.ResponseWriter, r *http.Request, room, name string) {
	if _, err := a.authRoom(r, room); err != nil {
		a.fail(w, r, err)
		return
	}
	v, err := strconv.Atoi(r.URL.Query().Get("version"))
	if err != nil || v < 1 {
		a.fail(w, r, pumasi.Errorf(pumasi.EInvalidRequest, "version must be a whole number of at least 1"))
		return
	}
	fv, body, err := a.Store.ReadVersion(r.Context(), room, name, v)
	if err != nil {
		a.fail(w, r, err)
		return
	}
	if notModified(w, r, strconv.Quote(fv.SHA256)) {
		return
	}
	if meta := r.URL.Query().Get("meta"); meta == "1" || meta == "true" {
		writeJSON(w, http.StatusOK, fv)
		return
	}
	ctype := fv.ContentType
	if ctype == "" {
		ctype = pumasi.DetectContentType(name, body)
	}
	w.Header().Set("Content-Type", ctype)
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("X-Pumasi-Version", strconv.Itoa(fv.Version))
	w.Header().Set("Content-Disposition", mime.FormatMediaType("inline", map[string]string{"filename": name}))
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		_, _ = io.Copy(w, bytes.NewReader(body))
	}
}

type restoreRequest struct {
	Version int `json:"version"`
}

// restore makes a kept version current again as a new version and fans it
// out like an upload; If-Match and If-None-Match are honoured as on upload.
func (a *API) restore(w http.ResponseWriter, r *http.Request, p params) {
	room := p["room"]
	who, err := a.authRoom(r, room)
	if err != nil {
		a.fail(w, r, err)
		return
	}
	name, err := pumasi.NormalizeName(p["name"])
	if err != nil {
		a.fail(w, r, err)
		return
	}
	var req restoreRequest
	if err := decodeJSON(r, &req); err != nil {
		a.fail(w, r, err)
		return
	}
	if req.Version < 1 {
		a.fail(w, r, pumasi.Errorf(pumasi.EInvalidRequest, `body must be {"version": N} with N at least 1`))
		return
	}
	in := pumasi.RestoreInput{Room: room, Name: name, Version: req.Version, By: who.Who()}
	if in.IfMatch, in.IfNoneMatch, err = preconditions(r); err != nil {
		a.fail(w, r, err)
		return
	}
	res, body, err := a.Store.RestoreFile(r.Context(), in)
	if err != nil {
		a.failWrite(w, r, room, name, err)
		return
	}
	status := http.StatusOK
	if res.Changed {
		status = http.StatusCreated
		a.fanOut(r.Context(), room, func(pl pumasi.Placement) pumasi.Frame { return writeFrame(pl, res.File, body) })
	}
	w.Header().Set("ETag", strconv.Quote(res.File.SHA256))
	writeJSON(w, status, fileChanged{res.File, res.Changed})
}

// failWrite is fail for a write: a 412 carries the name's current sha256
// as its ETag, so a client whose edit was stale learns what it now edits
// against without another request.
func (a *API) failWrite(w http.ResponseWriter, r *http.Request, room, name string, err error) {
	if pumasi.ErrorCode(err) == pumasi.EPreconditionFailed {
		if f, serr := a.Store.StatFile(r.Context(), room, name); serr == nil {
			w.Header().Set("ETag", strconv.Quote(f.SHA256))
		}
	}
	a.fail(w, r, err)
}

type deletedList struct {
	RoomID string               `json:"room_id"`
	Files  []pumasi.DeletedFile `json:"files"`
}

func (a *API) listDeleted(w http.ResponseWriter, r *http.Request, room string) {
	if _, err := a.authRoom(r, room); err != nil {
		a.fail(w, r, err)
		return
	}
	del, err := a.Store.DeletedFiles(r.Context(), room)
	if err != nil {
		a.fail(w, r, err)
		return
	}
	if del == nil {
		del = []pumasi.DeletedFile{}
	}
	writeJSON(w, http.StatusOK, deletedList{RoomID: room, Files: del})
}

// roomLog answers GET /rooms/{room}/log?since=REV&limit=N.
func (a *API) roomLog(w http.ResponseWriter, r *http.Request, p params) {
	room := p["room"]
	if _, err := a.authRoom(r, room); err != nil {
		a.fail(w, r, err)
		return
	}
	q := r.URL.Query()
	var since int64
	if v := q.Get("since"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 {
			a.fail(w, r, pumasi.Errorf(pumasi.EInvalidRequest, "since must be a rev, a whole number of at least 0"))
			return
		}
		since = n
	}
	limit := 0
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > pumasi.MaxLogLimit {
			a.fail(w, r, pumasi.Errorf(pumasi.EInvalidRequest, "limit must be between 1 and %d", pumasi.MaxLogLimit))
			return
		}
		limit = n
	}
	l, err := a.Store.RoomLog(r.Context(), room, since, limit)
	if err != nil {
		a.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, l)
}
