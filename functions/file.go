package functions

import (
	"bytes"
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"strconv"
	"strings"

	"pumasi"
)

// maxUploadRequest bounds a whole upload request: the file plus multipart
// framing and headers.
const maxUploadRequest = pumasi.MaxFileSize + 64<<10

// maxUploadParts bounds the parts of a multipart upload: a client sends the
// file and perhaps a few form fields, never thousands of parts.
const maxUploadParts = 16

func init() {
	addRoute("POST", "/rooms/{room}/files", "upload", (*API).upload)
	addRoute("GET", "/rooms/{room}/files", "list", (*API).list)
	addRoute("GET", "/rooms/{room}/files/{name}", "get", (*API).get)
	addRoute("DELETE", "/rooms/{room}/files/{name}", "delete", (*API).delete)
	addRoute("GET", "/rooms/{room}/files/{name}/versions", "get", (*API).versions)
	addRoute("POST", "/rooms/{room}/files/{name}/restore", "upload", (*API).restore)
	addRoute("GET", "/rooms/{room}/log", "list", (*API).roomLog)
}

// upload takes a multipart field "file" (its filename is the name) or any
// other body raw with ?name=; ?name= overrides the filename either way.
func (a *API) upload(w http.ResponseWriter, r *http.Request, p params) {
	room := p["room"]
	who, err := a.authRoom(r, room)
	if err != nil {
		a.fail(w, r, err)
		return
	}
	name, body, err := readUpload(r)
	if err != nil {
		a.fail(w, r, err)
		return
	}
	if q := r.URL.Query().Get("name"); q != "" || r.URL.Query().Has("name") {
		name = q
	}
	if name == "" {
		a.fail(w, r, pumasi.Errorf(pumasi.EInvalidName, "a file name is required: a multipart filename or ?name="))
		return
	}
	name, err = pumasi.NormalizeName(name)
	if err != nil {
		a.fail(w, r, err)
		return
	}
	ctype, err := pumasi.CheckContent(name, body)
	if err != nil {
		a.fail(w, r, err)
		return
	}
	in := pumasi.PutFileInput{Room: room, Name: name, Body: body, ContentType: ctype, UploadedBy: who.Who()}
	if in.IfMatch, in.IfNoneMatch, err = preconditions(r); err != nil {
		a.fail(w, r, err)
		return
	}
	res, err := a.Store.PutFile(r.Context(), in)
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

type fileChanged struct {
	pumasi.File
	Changed bool `json:"changed"`
}

// readUpload returns the file name (may be empty) and bytes of an upload.
// The body is read at most one byte past the limit, so an oversize upload is
// refused without buffering it.
func readUpload(r *http.Request) (string, []byte, error) {
	mediaType, mp, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if mediaType != "multipart/form-data" {
		body, err := io.ReadAll(io.LimitReader(r.Body, pumasi.MaxFileSize+1))
		if err != nil {
			return "", nil, pumasi.Errorf(pumasi.EInvalidRequest, "could not read the request body")
		}
		if len(body) > pumasi.MaxFileSize {
			return "", nil, tooLarge()
		}
		return "", body, nil
	}
	if mp["boundary"] == "" {
		return "", nil, pumasi.Errorf(pumasi.EInvalidRequest, "multipart body has no boundary")
	}
	in := &countingReader{r: io.LimitReader(r.Body, maxUploadRequest+1)}
	// malformed tells a request cut off at the size limit (413) from a
	// broken one (400): a huge non-file field ends that way.
	malformed := func() error {
		if in.n > maxUploadRequest {
			return pumasi.Errorf(pumasi.ETooLarge, "upload request is larger than %d bytes", maxUploadRequest)
		}
		return pumasi.Errorf(pumasi.EInvalidRequest, "multipart body is malformed")
	}
	mr := multipart.NewReader(in, mp["boundary"])
	for parts := 1; ; parts++ {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			return "", nil, pumasi.Errorf(pumasi.EInvalidRequest, `multipart body has no "file" field`)
		}
		if err != nil {
			return "", nil, malformed()
		}
		if parts > maxUploadParts {
			return "", nil, pumasi.Errorf(pumasi.ETooLarge, "multipart body has more than %d parts", maxUploadParts)
		}
		if part.FormName() != "file" {
			// Skip other fields, bounded by the request limit.
			if _, err := io.Copy(io.Discard, part); err != nil {
				return "", nil, malformed()
			}
			continue
		}
		body, err := io.ReadAll(io.LimitReader(part, pumasi.MaxFileSize+1))
		if len(body) > pumasi.MaxFileSize {
			return "", nil, tooLarge()
		}
		if err != nil {
			return "", nil, malformed()
		}
		// The part must end cleanly: a truncated body is not an upload.
		if _, err := mr.NextPart(); err != nil && !errors.Is(err, io.EOF) {
			return "", nil, malformed()
		}
		if in.n > maxUploadRequest { // the limit reader let one byte more through
			return "", nil, malformed()
		}
		return partFileName(part), body, nil
	}
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// partFileName returns the raw filename parameter. multipart.Part.FileName
// strips directories, which would turn the hostile "a/b" into the harmless
// "b"; the name rules must see what the client sent.
func partFileName(part *multipart.Part) string {
	_, dp, err := mime.ParseMediaType(part.Header.Get("Content-Disposition"))
	if err != nil {
		return ""
	}
	return dp["filename"]
}

func tooLarge() error {
	return pumasi.Errorf(pumasi.ETooLarge, "file is larger than %d bytes", pumasi.MaxFileSize)
}

// preconditions reads If-Match ("<sha256>", a list of tags, or *) and
// If-None-Match: *. The store decides whether If-Match holds
// (pumasi.IfMatchHolds: strong comparison, * means the name exists).
func preconditions(r *http.Request) (ifMatch string, ifNoneMatch bool, err error) {
	if v := strings.TrimSpace(r.Header.Get("If-None-Match")); v != "" {
		if v != "*" {
			return "", false, pumasi.Errorf(pumasi.EInvalidRequest, "If-None-Match on a file write must be *")
		}
		ifNoneMatch = true
	}
	if v := strings.TrimSpace(r.Header.Get("If-Match")); v != "" {
		if err := pumasi.CheckIfMatch(v); err != nil {
			return "", false, err
		}
		ifMatch = v
	}
	return ifMatch, ifNoneMatch, nil
}

// notModified sets the ETag header and, when the request's If-None-Match
// lists it, answers 304 and reports true: the caller then writes nothing.
func notModified(w http.ResponseWriter, r *http.Request, etag string) bool {
	w.Header().Set("ETag", etag)
	if !etagMatches(r.Header.Get("If-None-Match"), etag) {
		return false
	}
	w.WriteHeader(http.StatusNotModified)
	return true
}

// etagMatches reports whether an If-None-Match header lists etag (or *).
func etagMatches(header, etag string) bool {
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimSpace(t)
		if t == "*" || strings.TrimPrefix(t, "W/") == etag {
			return true
		}
	}
	return false
}

func (a *API) get(w http.ResponseWriter, r *http.Request, p params) {
	room := p["room"]
	if _, err := a.authRoomRead(r, room); err != nil {
		a.fail(w, r, err)
		return
	}
	name, err := pumasi.NormalizeName(p["name"])
	if err != nil {
		a.fail(w, r, err)
		return
	}
	if r.URL.Query().Has("version") {
		a.getVersion(w, r, room, name)
		return
	}
	meta := r.URL.Query().Get("meta")
	if meta == "1" || meta == "true" {
		f, err := a.Store.StatFile(r.Context(), room, name)
		if err != nil {
			a.fail(w, r, err)
			return
		}
		if notModified(w, r, strconv.Quote(f.SHA256)) {
			return
		}
		writeJSON(w, http.StatusOK, f)
		return
	}
	// A client that holds the current version costs one row read: the 304
	// check comes before the blob is read.
	if r.Header.Get("If-None-Match") != "" {
		f, err := a.Store.StatFile(r.Context(), room, name)
		if err != nil {
			a.fail(w, r, err)
			return
		}
		if notModified(w, r, strconv.Quote(f.SHA256)) {
			return
		}
	}
	f, body, err := a.Store.ReadFile(r.Context(), room, name)
	if err != nil {
		a.fail(w, r, err)
		return
	}
	if notModified(w, r, strconv.Quote(f.SHA256)) { // Changed since the stat.
		return
	}
	w.Header().Set("Content-Type", f.ContentType)
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Content-Disposition", mime.FormatMediaType("inline", map[string]string{"filename": f.Name}))
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		_, _ = io.Copy(w, bytes.NewReader(body))
	}
}

func (a *API) delete(w http.ResponseWriter, r *http.Request, p params) {
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
	ifMatch, ifNoneMatch, err := preconditions(r)
	if err != nil {
		a.fail(w, r, err)
		return
	}
	if ifNoneMatch {
		// If-None-Match: * holds only when the name does not exist, and then
		// there is nothing to delete: never delete, answer 412 or 404.
		if _, err := a.Store.StatFile(r.Context(), room, name); err != nil {
			a.fail(w, r, err)
			return
		}
		a.fail(w, r, pumasi.Errorf(pumasi.EPreconditionFailed, "%q already exists", name))
		return
	}
	f, _, err := a.Store.Delete(r.Context(), pumasi.DeleteInput{Room: room, Name: name, IfMatch: ifMatch, By: who.Who()})
	if err != nil {
		a.failWrite(w, r, room, name, err)
		return
	}
	a.fanOut(r.Context(), room, func(pl pumasi.Placement) pumasi.Frame { return deleteFrame(pl, f) })
	w.WriteHeader(http.StatusNoContent)
}
