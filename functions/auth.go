package functions

import (
	"net/http"
	"strings"

	"pumasi"
)

// authenticate verifies the bearer token. Returns unauthorized when it is
// missing, malformed, forged or expired.
func (a *API) authenticate(r *http.Request) (*pumasi.Principal, error) {
	tok, ok := bearerToken(r.Header.Get("Authorization"))
	if !ok || strings.TrimSpace(tok) == "" {
		return nil, pumasi.Errorf(pumasi.EUnauthorized, "missing bearer token")
	}
	return a.tokens.parse(a.Secret, strings.TrimSpace(tok), a.now())
}

// bearerToken returns the credentials of an Authorization header with the
// Bearer scheme, whose name is case-insensitive (RFC 9110 §11.1).
func bearerToken(h string) (string, bool) {
	const scheme = "Bearer "
	if len(h) < len(scheme) || !strings.EqualFold(h[:len(scheme)], scheme) {
		return "", false
	}
	return h[len(scheme):], true
}

// authRoom admits admin and room:<room> tokens. It also validates the room id.
func (a *API) authRoom(r *http.Request, room string) (*pumasi.Principal, error) {
	p, err := a.authenticate(r)
	if err != nil {
		return nil, err
	}
	if err := pumasi.CheckID("room", room); err != nil {
		return nil, err
	}
	if !p.CanRoom(room) {
		return nil, pumasi.Errorf(pumasi.EForbidden, "token does not grant access to room %s", room)
	}
	return p, nil
}

// authRoomRead admits what authRoom admits plus machine tokens of machines
// that have an agent in room: daemons fetch the files they mirror.
func (a *API) authRoomRead(r *http.Request, room string) (*pumasi.Principal, error) {
	p, err := a.authenticate(r)
	if err != nil {
		return nil, err
	}
	if err := pumasi.CheckID("room", room); err != nil {
		return nil, err
	}
	if p.CanRoom(room) {
		return p, nil
	}
	for m := range p.Machines {
		agents, err := a.Store.MachineAgents(r.Context(), m)
		if err != nil {
			return nil, err
		}
		for _, pl := range agents {
			if pl.RoomID == room {
				return p, nil
			}
		}
	}
	return nil, pumasi.Errorf(pumasi.EForbidden, "token does not grant access to room %s", room)
}

// authMachine admits admin and machine:<machine> tokens.
func (a *API) authMachine(r *http.Request, machine string) (*pumasi.Principal, error) {
	p, err := a.authenticate(r)
	if err != nil {
		return nil, err
	}
	if err := pumasi.CheckID("machine", machine); err != nil {
		return nil, err
	}
	if !p.CanMachine(machine) {
		return nil, pumasi.Errorf(pumasi.EForbidden, "token does not grant access to machine %s", machine)
	}
	return p, nil
}
