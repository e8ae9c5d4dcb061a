package functions

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"

	"github.com/aws/aws-lambda-go/events"

	"pumasi"
)

// The WebSocket API's route handlers (AWS API Gateway): $connect
// authenticates a machine daemon and records its connection id, so a
// stateless function can later push to it; $disconnect forgets it; $default
// answers the daemon's ping and status messages. The daemon connects to the
// stage URL with ?machine=<id> and its machine token in the Authorization
// header (or ?token=, for clients that cannot set headers).

// WSResponse is what a WebSocket route answers: the status decides whether
// $connect is accepted, and on $default a body is sent back to the daemon.
type WSResponse = events.APIGatewayProxyResponse

// WSConnect serves $connect. It answers 200 and records the connection, or
// the contract's error status (401, 403, 400) and refuses it.
func (a *API) WSConnect(ctx context.Context, ev events.APIGatewayWebsocketProxyRequest) (WSResponse, error) {
	id := ev.RequestContext.ConnectionID
	if !pumasi.ValidConnectionID(id) {
		return a.wsError(pumasi.Errorf(pumasi.EInvalidRequest, "connection id is not valid")), nil
	}
	tok := wsToken(ev)
	if tok == "" {
		return a.wsError(pumasi.Errorf(pumasi.EUnauthorized, "missing bearer token")), nil
	}
	p, err := pumasi.ParseToken(a.Secret, tok, a.now())
	if err != nil {
		return a.wsError(err), nil
	}
	machine := wsQuery(ev, "machine")
	if machine == "" {
		// A machine token names its machine; admit it without ?machine=.
		if len(p.Machines) != 1 || p.Admin {
			return a.wsError(pumasi.Errorf(pumasi.EInvalidRequest, "missing ?machine=<id>")), nil
		}
		for m := range p.Machines {
			machine = m
		}
	}
	if err := pumasi.CheckID("machine", machine); err != nil {
		return a.wsError(err), nil
	}
	if !p.CanMachine(machine) {
		return a.wsError(pumasi.Errorf(pumasi.EForbidden, "token does not grant access to machine %s", machine)), nil
	}
	if err := a.Store.SaveConnection(ctx, machine, id); err != nil {
		return a.wsFail(err, "record connection"), nil
	}
	a.log().Info("machine connected", "machine", machine, "conn", id)
	return WSResponse{StatusCode: http.StatusOK}, nil
}

// WSDisconnect serves $disconnect: it forgets the connection. API Gateway
// delivers it best effort; ids it never delivers are dropped on 410 Gone.
func (a *API) WSDisconnect(ctx context.Context, ev events.APIGatewayWebsocketProxyRequest) (WSResponse, error) {
	c, err := a.Store.DropConnection(ctx, ev.RequestContext.ConnectionID)
	if err != nil && pumasi.ErrorCode(err) != pumasi.ENotFound {
		return a.wsFail(err, "drop connection"), nil
	}
	if err == nil {
		a.log().Info("machine disconnected", "machine", c.MachineID, "conn", c.ID)
	}
	return WSResponse{StatusCode: http.StatusOK}, nil
}

// wsMessage is what a daemon may send: {"action": "ping"} or {"action":
// "status"}; a bare "ping" text works too.
type wsMessage struct {
	Action string `json:"action"`
}

// WSAgent is one agent of the machine in a status answer.
type WSAgent struct {
	AgentID string `json:"agent_id"`
	RoomID  string `json:"room_id"`
}

// WSStatus is the answer to {"action": "status"}.
type WSStatus struct {
	Type         string    `json:"type"`
	MachineID    string    `json:"machine_id"`
	ConnectionID string    `json:"connection_id"`
	Agents       []WSAgent `json:"agents"`
}

// WSDefault serves $default: {"action":"ping"} answers {"type":"pong"} (a
// data message resets API Gateway's 10-minute idle timer, which control
// frames may not), {"action":"status"} answers the machine's agents.
// Anything else answers an error message; the connection stays open.
func (a *API) WSDefault(ctx context.Context, ev events.APIGatewayWebsocketProxyRequest) (WSResponse, error) {
	var msg wsMessage
	body := strings.TrimSpace(ev.Body)
	if body == "ping" {
		msg.Action = "ping"
	} else if err := json.Unmarshal([]byte(body), &msg); err != nil {
		return wsReply(http.StatusOK, wsErrorMessage(pumasi.Errorf(pumasi.EInvalidRequest, `message is not {"action": "ping"|"status"}`))), nil
	}
	switch msg.Action {
	case "ping":
		return wsReply(http.StatusOK, map[string]string{"type": "pong"}), nil
	case "status":
		c, err := a.Store.LookupConnection(ctx, ev.RequestContext.ConnectionID)
		if err != nil {
			if pumasi.ErrorCode(err) == pumasi.EInternal {
				a.log().Error("ws status: lookup connection", "err", err)
			}
			return wsReply(http.StatusOK, wsErrorMessage(err)), nil
		}
		pls, err := a.Store.MachineAgents(ctx, c.MachineID)
		if err != nil {
			a.log().Error("ws status: machine agents", "machine", c.MachineID, "err", err)
			return wsReply(http.StatusOK, wsErrorMessage(pumasi.Errorf(pumasi.EInternal, "internal error"))), nil
		}
		st := WSStatus{Type: "status", MachineID: c.MachineID, ConnectionID: c.ID, Agents: []WSAgent{}}
		for _, pl := range pls {
			st.Agents = append(st.Agents, WSAgent{AgentID: pl.AgentID, RoomID: pl.RoomID})
		}
		return wsReply(http.StatusOK, st), nil
	}
	return wsReply(http.StatusOK, wsErrorMessage(pumasi.Errorf(pumasi.EInvalidRequest, "unknown action %q", msg.Action))), nil
}

// wsToken returns the bearer token of a $connect: the Authorization header,
// else the token query parameter.
func wsToken(ev events.APIGatewayWebsocketProxyRequest) string {
	for k, v := range ev.Headers {
		if strings.EqualFold(k, "Authorization") {
			if tok, ok := bearerToken(v); ok {
				return strings.TrimSpace(tok)
			}
		}
	}
	for k, vs := range ev.MultiValueHeaders {
		if strings.EqualFold(k, "Authorization") && len(vs) > 0 {
			if tok, ok := bearerToken(vs[0]); ok {
				return strings.TrimSpace(tok)
			}
		}
	}
	return wsQuery(ev, "token")
}

func wsQuery(ev events.APIGatewayWebsocketProxyRequest, key string) string {
	if v := ev.QueryStringParameters[key]; v != "" {
		return v
	}
	if vs := ev.MultiValueQueryStringParameters[key]; len(vs) > 0 {
		return vs[0]
	}
	return ""
}

func wsErrorMessage(err error) map[string]any {
	code := pumasi.ErrorCode(err)
	return map[string]any{"type": "error", "error": errorDetail{code, pumasi.ErrorMessage(err)}}
}

// wsError answers a refused $connect with the contract's status and body.
func (a *API) wsError(err error) WSResponse {
	code := pumasi.ErrorCode(err)
	return wsReply(pumasi.HTTPStatus(code), errorBody{errorDetail{code, pumasi.ErrorMessage(err)}})
}

// wsFail logs an internal error and answers it.
func (a *API) wsFail(err error, op string) WSResponse {
	if pumasi.ErrorCode(err) == pumasi.EInternal {
		a.log().Error("websocket: "+op, "err", err)
	}
	return a.wsError(err)
}

func wsReply(status int, v any) WSResponse {
	b, _ := json.Marshal(v)
	return WSResponse{StatusCode: status, Headers: map[string]string{"Content-Type": "application/json"}, Body: string(b)}
}
