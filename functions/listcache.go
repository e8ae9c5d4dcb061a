package functions

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"sync"

	"pumasi"
)

// roomRever is what a store offers when it can tell a room's rev without
// reading its listing (local: one row; s3: the manifest's head). With it,
// a poll that holds the current rev costs that one read, and a listing at a
// rev already encoded is served from memory.
type roomRever interface {
	// RoomRev returns a room's revision, 0 for a room never changed.
	RoomRev(ctx context.Context, room string) (int64, error)
}

// maxListCacheBytes bounds the encoded listings kept in memory by one API.
const maxListCacheBytes = 64 << 20

// listCache keeps the encoded listing of each room at one rev. The rev is
// the key and is always read from the store first, so an entry is served
// only while the room is still at that rev, whichever process changed it:
// a rev names one listing forever (it grows with every effective change).
type listCache struct {
	mu    sync.Mutex
	rooms map[string]cachedList
	bytes int
}

type cachedList struct {
	rev  int64
	body []byte
}

// get returns the encoded listing of room at rev, if held.
func (c *listCache) get(room string, rev int64) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.rooms[room]
	if !ok || e.rev != rev {
		return nil, false
	}
	return e.body, true
}

// put keeps body as room's listing at rev unless a newer rev is held.
func (c *listCache) put(room string, rev int64, body []byte) {
	if len(body) > maxListCacheBytes/4 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.rooms == nil {
		c.rooms = map[string]cachedList{}
	}
	if e, ok := c.rooms[room]; ok {
		if e.rev > rev {
			return
		}
		c.bytes -= len(e.body)
	}
	// Past the budget, drop entries at random (map order): a dropped
	// room costs one store read on its next listing, nothing more.
	for r, e := range c.rooms {
		if c.bytes+len(body) <= maxListCacheBytes {
			break
		}
		if r != room {
			c.bytes -= len(e.body)
			delete(c.rooms, r)
		}
	}
	c.rooms[room] = cachedList{rev: rev, body: body}
	c.bytes += len(body)
}

// listETag is a listing's ETag: "r<rev>".
func listETag(rev int64) string { return `"r` + strconv.FormatInt(rev, 10) + `"` }

// list answers GET /rooms/{room}/files. With a store that tells the rev
// cheaply, a matching If-None-Match costs one rev read and a listing at a
// rev already encoded costs one rev read and a copy.
func (a *API) list(w http.ResponseWriter, r *http.Request, p params) {
	room := p["room"]
	if _, err := a.authRoomRead(r, room); err != nil {
		a.fail(w, r, err)
		return
	}
	if d := r.URL.Query().Get("deleted"); d == "1" || d == "true" {
		a.listDeleted(w, r, room)
		return
	}
	ctx := r.Context()
	if rs, ok := a.Store.(roomRever); ok {
		if err := pumasi.CheckID("room", room); err != nil {
			a.fail(w, r, err)
			return
		}
		rev, err := rs.RoomRev(ctx, room)
		if err != nil {
			a.fail(w, r, err)
			return
		}
		if notModified(w, r, listETag(rev)) {
			return
		}
		if body, ok := a.lists.get(room, rev); ok {
			writeEncoded(w, body)
			return
		}
	}
	l, err := a.Store.ListFiles(ctx, room)
	if err != nil {
		a.fail(w, r, err)
		return
	}
	if notModified(w, r, listETag(l.Rev)) {
		return
	}
	if l.Files == nil {
		l.Files = []pumasi.File{}
	}
	body, err := encodeJSON(l)
	if err != nil {
		a.fail(w, r, err)
		return
	}
	a.lists.put(room, l.Rev, body)
	writeEncoded(w, body)
}

// encodeJSON encodes v the way writeJSON does.
func encodeJSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// writeEncoded sends an encoded JSON body with 200.
func writeEncoded(w http.ResponseWriter, body []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(body)
}
