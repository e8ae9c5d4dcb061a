package functions

import (
	"net/http"
	"strings"

	"github.com/gorilla/websocket"

	"pumasi"
)

func init() {
	addRoute("GET", "/machines/{machine}/ws", "ws-connect", (*API).socket)
}

// socket authenticates a machine daemon and hands the connection to the
// gateway. Without a gateway (in AWS the WebSocket API is its own endpoint)
// the path does not exist here.
func (a *API) socket(w http.ResponseWriter, r *http.Request, ps params) {
	machine := ps["machine"]
	r = tokenFromQuery(r)
	p, err := a.authMachine(r, machine)
	if err != nil {
		a.fail(w, r, err)
		return
	}
	if a.Socket == nil {
		a.fail(w, r, pumasi.Errorf(pumasi.ENotFound, "no WebSocket gateway here"))
		return
	}
	// A plain GET gets the contract's error body, not the WebSocket
	// library's text/plain one.
	if !websocket.IsWebSocketUpgrade(r) {
		a.fail(w, r, pumasi.Errorf(pumasi.EInvalidRequest, "this endpoint needs a WebSocket upgrade"))
		return
	}
	a.Socket.ServeMachine(w, r, machine, p.Expires)
}

// tokenFromQuery lets a browser, which cannot set headers on a WebSocket,
// send its machine token as ?token= (docs/frames.md): the token becomes the
// Authorization header and leaves the URL, so nothing downstream (the
// gateway's logs, an error message) ever sees it in a URL. A request with
// an Authorization header keeps it; only this route reads ?token=. Every
// log line of the API names r.URL.Path, never the query, so the token is
// not logged before this either.
func tokenFromQuery(r *http.Request) *http.Request {
	q := r.URL.Query()
	tok := strings.TrimSpace(q.Get("token"))
	if !q.Has("token") {
		return r
	}
	r = r.Clone(r.Context())
	if tok != "" && r.Header.Get("Authorization") == "" {
		r.Header.Set("Authorization", "Bearer "+tok)
	}
	q.Del("token")
	r.URL.RawQuery = q.Encode()
	r.RequestURI = r.URL.RequestURI()
	return r
}
