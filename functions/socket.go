package functions

import (
	"net/http"

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
	a.Socket.ServeMachine(w, r, machine)
}
