package functions

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"

	"pumasi"
	"pumasi/adapters/local"
)

var wsSecret = []byte("ws-test-secret-0123456789abcdef-01234")

func wsAPI(t *testing.T) (*API, *local.Store) {
	t.Helper()
	st, err := local.Open(context.Background(), t.TempDir(), local.Options{})
	if err != nil {
		t.Fatalf("open store: %v", err)
	}
	t.Cleanup(func() { st.Close() })
	return &API{Store: st, Secret: wsSecret}, st
}

func wsTok(t *testing.T, scopes ...string) string {
	t.Helper()
	tok, err := pumasi.SignToken(wsSecret, "tester", scopes, time.Hour, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

func wsEvent(conn string, headers, query map[string]string, body string) events.APIGatewayWebsocketProxyRequest {
	return events.APIGatewayWebsocketProxyRequest{
		Headers:               headers,
		QueryStringParameters: query,
		Body:                  body,
		RequestContext:        events.APIGatewayWebsocketProxyRequestContext{ConnectionID: conn, RouteKey: "$connect"},
	}
}

func wsConns(t *testing.T, st *local.Store, machine string) string {
	t.Helper()
	cs, err := st.MachineConnections(context.Background(), machine)
	if err != nil {
		t.Fatal(err)
	}
	ids := []string{}
	for _, c := range cs {
		ids = append(ids, c.ID)
	}
	return fmt.Sprint(ids)
}

func TestWSConnect(t *testing.T) {
	ctx := context.Background()
	a, st := wsAPI(t)
	m1 := wsTok(t, "machine:m1")
	expired, _ := pumasi.SignToken(wsSecret, "x", []string{"machine:m1"}, time.Second, time.Now().Add(-time.Hour))
	tests := []struct {
		name    string
		conn    string
		headers map[string]string
		query   map[string]string
		status  int
		code    string
		machine string
	}{
		{"header token", "c1=", map[string]string{"authorization": "Bearer " + m1}, map[string]string{"machine": "m1"}, 200, "", "m1"},
		{"query token", "c2=", nil, map[string]string{"machine": "m1", "token": m1}, 200, "", "m1"},
		{"machine from token", "c3=", map[string]string{"Authorization": "Bearer " + m1}, nil, 200, "", "m1"},
		{"admin any machine", "c4=", map[string]string{"Authorization": "Bearer " + wsTok(t, "admin")}, map[string]string{"machine": "m2"}, 200, "", "m2"},
		{"admin without machine", "c5=", map[string]string{"Authorization": "Bearer " + wsTok(t, "admin")}, nil, 400, pumasi.EInvalidRequest, ""},
		{"no token", "c6=", nil, map[string]string{"machine": "m1"}, 401, pumasi.EUnauthorized, ""},
		{"forged token", "c7=", map[string]string{"Authorization": "Bearer " + m1 + "x"}, map[string]string{"machine": "m1"}, 401, pumasi.EUnauthorized, ""},
		{"expired token", "c8=", map[string]string{"Authorization": "Bearer " + expired}, map[string]string{"machine": "m1"}, 401, pumasi.EUnauthorized, ""},
		{"other machine", "c9=", map[string]string{"Authorization": "Bearer " + m1}, map[string]string{"machine": "m2"}, 403, pumasi.EForbidden, ""},
		{"room token", "c10=", map[string]string{"Authorization": "Bearer " + wsTok(t, "room:r1")}, map[string]string{"machine": "m1"}, 403, pumasi.EForbidden, ""},
		{"bad machine id", "c11=", map[string]string{"Authorization": "Bearer " + wsTok(t, "admin")}, map[string]string{"machine": "../m"}, 400, "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := a.WSConnect(ctx, wsEvent(tc.conn, tc.headers, tc.query, ""))
			if err != nil {
				t.Fatal(err)
			}
			if res.StatusCode != tc.status {
				t.Fatalf("status = %d, want %d (body %s)", res.StatusCode, tc.status, res.Body)
			}
			c, lerr := st.LookupConnection(ctx, tc.conn)
			if tc.status == 200 {
				if lerr != nil || c.MachineID != tc.machine {
					t.Fatalf("recorded = %+v, %v; want machine %s", c, lerr, tc.machine)
				}
				return
			}
			if pumasi.ErrorCode(lerr) != pumasi.ENotFound {
				t.Fatalf("refused connection was recorded: %+v", c)
			}
			var body errorBody
			if err := json.Unmarshal([]byte(res.Body), &body); err != nil {
				t.Fatalf("body %q: %v", res.Body, err)
			}
			if tc.code != "" && body.Error.Code != tc.code {
				t.Fatalf("code = %q, want %q", body.Error.Code, tc.code)
			}
		})
	}
	if got := wsConns(t, st, "m1"); got != "[c1= c2= c3=]" {
		t.Fatalf("m1 connections = %s, want [c1= c2= c3=]", got)
	}
}

func TestWSDisconnect(t *testing.T) {
	ctx := context.Background()
	a, st := wsAPI(t)
	hdr := map[string]string{"Authorization": "Bearer " + wsTok(t, "machine:m1")}
	for _, id := range []string{"a=", "b="} {
		if res, _ := a.WSConnect(ctx, wsEvent(id, hdr, nil, "")); res.StatusCode != 200 {
			t.Fatalf("connect %s = %d", id, res.StatusCode)
		}
	}
	res, err := a.WSDisconnect(ctx, wsEvent("a=", nil, nil, ""))
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("disconnect = %d, %v", res.StatusCode, err)
	}
	if got := wsConns(t, st, "m1"); got != "[b=]" {
		t.Fatalf("after disconnect = %s, want [b=]", got)
	}
	// A repeated or unknown $disconnect is not an error: delivery is best effort.
	if res, _ := a.WSDisconnect(ctx, wsEvent("a=", nil, nil, "")); res.StatusCode != 200 {
		t.Fatalf("second disconnect = %d, want 200", res.StatusCode)
	}
}

func TestWSDefault(t *testing.T) {
	ctx := context.Background()
	a, st := wsAPI(t)
	hdr := map[string]string{"Authorization": "Bearer " + wsTok(t, "machine:m1")}
	if res, _ := a.WSConnect(ctx, wsEvent("c=", hdr, nil, "")); res.StatusCode != 200 {
		t.Fatalf("connect = %d", res.StatusCode)
	}
	if _, _, err := st.PlaceAgent(ctx, "r1", "a1", "m1"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := st.PlaceAgent(ctx, "r2", "a2", "m2"); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		conn, body, want string
	}{
		{"c=", `{"action":"ping"}`, `{"type":"pong"}`},
		{"c=", `ping`, `{"type":"pong"}`},
		{"c=", `{"action":"status"}`, `{"type":"status","machine_id":"m1","connection_id":"c=","agents":[{"agent_id":"a1","room_id":"r1"}]}`},
		{"gone=", `{"action":"status"}`, `{"error":{"code":"not_found","message":"connection not found"},"type":"error"}`},
		{"c=", `{"action":"dance"}`, `{"error":{"code":"invalid_request","message":"unknown action \"dance\""},"type":"error"}`},
		{"c=", `not json`, `{"error":{"code":"invalid_request","message":"message is not {\"action\": \"ping\"|\"status\"}"},"type":"error"}`},
	}
	for _, tc := range tests {
		res, err := a.WSDefault(ctx, wsEvent(tc.conn, nil, nil, tc.body))
		if err != nil || res.StatusCode != 200 {
			t.Fatalf("WSDefault(%s) = %d, %v", tc.body, res.StatusCode, err)
		}
		if res.Body != tc.want {
			t.Errorf("WSDefault(%s) body = %s, want %s", tc.body, res.Body, tc.want)
		}
	}
}
