package lambda_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"pumasi"
	s3store "pumasi/adapters/s3"
	"pumasi/internal/rie"
	"pumasi/internal/testpeer"
)

func invokeWS(t *testing.T, em *rie.Emulator, ev events.APIGatewayWebsocketProxyRequest) events.APIGatewayProxyResponse {
	t.Helper()
	b, _ := json.Marshal(ev)
	// Invoke waits rie.AnswerWithin, past the emulator's own timeout.
	raw, err := em.Invoke(context.Background(), b)
	if err != nil {
		t.Fatalf("invoke %s: %v", ev.RequestContext.RouteKey, err)
	}
	var res events.APIGatewayProxyResponse
	if err := json.Unmarshal(raw, &res); err != nil {
		t.Fatalf("response %q: %v", raw, err)
	}
	return res
}

func wsEvent(route, conn string, headers, query map[string]string, body string) events.APIGatewayWebsocketProxyRequest {
	return events.APIGatewayWebsocketProxyRequest{
		Headers:               headers,
		QueryStringParameters: query,
		Body:                  body,
		RequestContext: events.APIGatewayWebsocketProxyRequestContext{
			RouteKey: route, EventType: map[string]string{"$connect": "CONNECT", "$disconnect": "DISCONNECT"}[route],
			ConnectionID: conn, Stage: "prod", DomainName: "ws.example.test", APIID: "abc123",
		},
	}
}

// TestWebSocketFunctionsUnderEmulator runs $connect, $default and
// $disconnect through their bootstraps and checks the connection registry
// they keep in MinIO.
func TestWebSocketFunctionsUnderEmulator(t *testing.T) {
	ctx := context.Background()
	srv := testpeer.MinIO(t)
	bucket := srv.NewBucket(t)
	storage := srv.URL(bucket, "ws")
	env := append(srv.Env(), "PUMASI_STORAGE="+storage, "PUMASI_SECRET="+secret)
	ems := emulators(t, env, "ws-connect", "ws-default", "ws-disconnect")
	st, err := s3store.Open(ctx, storage, s3store.Options{Credentials: srv.Credentials()})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := st.PlaceAgent(ctx, "r1", "a1", "m1"); err != nil {
		t.Fatal(err)
	}
	mtok, _ := pumasi.SignToken([]byte(secret), "e2e", []string{"machine:m1"}, time.Hour, time.Now())
	other, _ := pumasi.SignToken([]byte(secret), "e2e", []string{"machine:m2"}, time.Hour, time.Now())

	if res := invokeWS(t, ems["ws-connect"], wsEvent("$connect", "Abc+/1=", map[string]string{"Authorization": "Bearer " + mtok}, map[string]string{"machine": "m1"}, "")); res.StatusCode != 200 {
		t.Fatalf("$connect = %d %s, want 200", res.StatusCode, res.Body)
	}
	if res := invokeWS(t, ems["ws-connect"], wsEvent("$connect", "Xyz=", nil, map[string]string{"machine": "m1", "token": other}, "")); res.StatusCode != 403 {
		t.Fatalf("$connect with m2's token = %d, want 403", res.StatusCode)
	}
	cs, err := st.MachineConnections(ctx, "m1")
	if err != nil || len(cs) != 1 || cs[0].ID != "Abc+/1=" {
		t.Fatalf("m1 connections = %+v, %v; want [Abc+/1=]", cs, err)
	}
	res := invokeWS(t, ems["ws-default"], wsEvent("$default", "Abc+/1=", nil, nil, `{"action":"status"}`))
	if want := `{"type":"status","machine_id":"m1","connection_id":"Abc+/1=","agents":[{"agent_id":"a1","room_id":"r1"}]}`; res.StatusCode != 200 || res.Body != want {
		t.Fatalf("$default status = %d %s, want %s", res.StatusCode, res.Body, want)
	}
	if res := invokeWS(t, ems["ws-default"], wsEvent("$default", "Abc+/1=", nil, nil, `{"action":"ping"}`)); res.Body != `{"type":"pong"}` {
		t.Fatalf("$default ping = %s, want pong", res.Body)
	}
	if res := invokeWS(t, ems["ws-disconnect"], wsEvent("$disconnect", "Abc+/1=", nil, nil, "")); res.StatusCode != 200 {
		t.Fatalf("$disconnect = %d, want 200", res.StatusCode)
	}
	if cs, err := st.MachineConnections(ctx, "m1"); err != nil || len(cs) != 0 {
		t.Fatalf("m1 connections after $disconnect = %+v, %v; want none", cs, err)
	}
}

// TestSweepUnderEmulator invokes the scheduled sweep as EventBridge would
// and checks that it removed an unreferenced blob and kept a referenced one.
func TestSweepUnderEmulator(t *testing.T) {
	ctx := context.Background()
	srv := testpeer.MinIO(t)
	bucket := srv.NewBucket(t)
	storage := srv.URL(bucket, "sweep")
	env := append(srv.Env(), "PUMASI_STORAGE="+storage, "PUMASI_SWEEP_GRACE=0s")
	ems := emulators(t, env, "sweep")
	st, err := s3store.Open(ctx, storage, s3store.Options{Credentials: srv.Credentials()})
	if err != nil {
		t.Fatal(err)
	}
	kept := []byte("kept\n")
	if _, err := st.PutFile(ctx, pumasi.PutFileInput{Room: "r1", Name: "kept.md", Body: kept, ContentType: "text/markdown"}); err != nil {
		t.Fatal(err)
	}
	orphan := []byte("an upload that crashed before its commit\n")
	sum := sha256.Sum256(orphan)
	key := "sweep/rooms/r1/blobs/" + hex.EncodeToString(sum[:])
	if _, err := srv.Client().PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String(bucket), Key: aws.String(key), Body: bytes.NewReader(orphan)}); err != nil {
		t.Fatal(err)
	}
	time.Sleep(1100 * time.Millisecond) // S3 times have one-second resolution.
	ev, _ := json.Marshal(events.EventBridgeEvent{DetailType: "Scheduled Event", Source: "aws.scheduler", Time: time.Now().UTC(), Detail: json.RawMessage(`{}`)})
	raw, err := ems["sweep"].Invoke(ctx, ev)
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Files pumasi.SweepReport `json:"files"`
	}
	if err := json.Unmarshal(raw, &rep); err != nil || rep.Files.Blobs != 1 {
		t.Fatalf("sweep report = %s (%v), want 1 blob removed", raw, err)
	}
	if _, err := srv.Client().HeadObject(ctx, &s3.HeadObjectInput{Bucket: aws.String(bucket), Key: aws.String(key)}); err == nil {
		t.Fatalf("orphan blob %s survived the sweep", key)
	}
	if _, b, err := st.ReadFile(ctx, "r1", "kept.md"); err != nil || !bytes.Equal(b, kept) {
		t.Fatalf("kept.md after sweep = %q, %v", b, err)
	}
}
