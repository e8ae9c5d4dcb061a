package functions_test

import (
	"context"
	"io"
	"log/slog"
	"testing"

	"github.com/aws/aws-lambda-go/events"

	"pumasi/functions"
)

// TestWSConnectMatrix is the matrix of the AWS WebSocket API's $connect
// (functions.API.WSConnect), which guards the same daemons as
// GET /machines/{machine}/ws: a refused connect records no connection.
func TestWSConnectMatrix(t *testing.T) {
	for _, tt := range []struct {
		machine string
		want    [8]int
	}{
		{"m1", machine1(200)},
		{"m2", machine2(200)},
	} {
		for i, cred := range creds {
			e := newAuthzEnv(t, false)
			api := &functions.API{Store: e.store, Secret: authzSecret, Log: slog.New(slog.NewTextHandler(io.Discard, nil))}
			ev := events.APIGatewayWebsocketProxyRequest{
				Headers:               map[string]string{},
				QueryStringParameters: map[string]string{"machine": tt.machine},
				RequestContext:        events.APIGatewayWebsocketProxyRequestContext{ConnectionID: "conn-" + tt.machine + "=", RouteKey: "$connect"},
			}
			if tok := e.tokens[cred]; tok != "" {
				ev.Headers["Authorization"] = "Bearer " + tok
			}
			res, err := api.WSConnect(context.Background(), ev)
			if err != nil {
				t.Fatal(err)
			}
			if res.StatusCode != tt.want[i] {
				t.Errorf("$connect to %s with %s = %d, want %d (%s)", tt.machine, cred, res.StatusCode, tt.want[i], res.Body)
			}
			conns, err := e.store.MachineConnections(context.Background(), tt.machine)
			if err != nil {
				t.Fatal(err)
			}
			if wantConns := map[bool]int{true: 1, false: 0}[tt.want[i] == 200]; len(conns) != wantConns {
				t.Errorf("$connect to %s with %s left %d recorded connections, want %d", tt.machine, cred, len(conns), wantConns)
			}
		}
	}
}
