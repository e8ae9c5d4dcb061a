package functions

import (
	"net/http"

	"github.com/gorilla/websocket"

	"pumasi"
)

func init() {
	addRoute("GET", "/machines/{machine}/ws", "ws-connect", (*API).socket)
}

// socket authenticates a machine daemon and hands the connection to the
// gateway. Without a gateway (in AWS the WebSocket API is its own endpoint)
// the path does not exist here.
func (a *API) socket(w http.ResponseWriter, r *http.Request, p params) {
	machine := p["machine"]
	if _, err := a.authMachine(r, machine); err != nil {
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
	a.Socket.ServeMachine(w, r, machine)
}
