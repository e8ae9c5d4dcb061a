package push_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/gorilla/websocket"

	"pumasi"
	"pumasi/adapters/local"
	"pumasi/adapters/push"
	"pumasi/functions"
	"pumasi/localdev"
)

var gwSecret = []byte("gateway-test-secret-0123456789abcdef")

func gwToken(t *testing.T, scope string) string {
	t.Helper()
	tok, err := pumasi.SignToken(gwSecret, "t", []string{scope}, time.Hour, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// bearer signs management calls the way localdev's endpoint wants.
type bearer string

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+string(b))
	return http.DefaultTransport.RoundTrip(r)
}

// gwEnv is an API whose pusher is the API Gateway adapter, posting to
// localdev's @connections endpoint in front of a hub, with the connection
// registry in a real local store: the AWS arrangement, offline.
type gwEnv struct {
	t     *testing.T
	store *local.Store
	hub   *push.Hub
	srv   *httptest.Server
	admin string
}

func newGwEnv(t *testing.T) *gwEnv {
	t.Helper()
	ctx := context.Background()
	st, err := local.Open(ctx, t.TempDir(), local.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	hub := push.NewHub(nil)
	api := &functions.API{Store: st, Secret: gwSecret, Socket: hub}
	srv := httptest.NewServer(localdev.ConnectionsHandler(hub, gwSecret, api.Handler()))
	t.Cleanup(func() { hub.Close(); srv.Close() })
	e := &gwEnv{t: t, store: st, hub: hub, srv: srv, admin: gwToken(t, pumasi.ScopeAdmin)}
	gw, err := push.NewGateway(ctx, srv.URL, st, push.GatewayOptions{
		Region:      "us-east-1",
		Credentials: aws.AnonymousCredentials{},
		HTTPClient:  &http.Client{Transport: bearer(e.admin), Timeout: 10 * time.Second},
	})
	if err != nil {
		t.Fatal(err)
	}
	api.Pusher = gw
	return e
}

func (e *gwEnv) do(method, path string, body []byte) int {
	e.t.Helper()
	req, _ := http.NewRequest(method, e.srv.URL+path, bytes.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+e.admin)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	res.Body.Close()
	return res.StatusCode
}

// dial connects a WebSocket client as machine and returns it with the id
// the hub gave it.
func (e *gwEnv) dial(machine string) (*websocket.Conn, string) {
	e.t.Helper()
	h := http.Header{}
	h.Set("Authorization", "Bearer "+gwToken(e.t, "machine:"+machine))
	ws, _, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(e.srv.URL, "http")+"/machines/"+machine+"/ws", h)
	if err != nil {
		e.t.Fatal(err)
	}
	e.t.Cleanup(func() { ws.Close() })
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		if ids := e.hub.Connections(machine); len(ids) == 1 {
			return ws, ids[0]
		}
		time.Sleep(10 * time.Millisecond)
	}
	e.t.Fatalf("hub never registered the connection of %s", machine)
	return nil, ""
}

func readFrame(t *testing.T, ws *websocket.Conn) (pumasi.Frame, int) {
	t.Helper()
	ws.SetReadDeadline(time.Now().Add(5 * time.Second))
	_, msg, err := ws.ReadMessage()
	if err != nil {
		t.Fatalf("read frame: %v", err)
	}
	var f pumasi.Frame
	if err := json.Unmarshal(msg, &f); err != nil {
		t.Fatalf("frame %q: %v", msg, err)
	}
	return f, len(msg)
}

func connIDs(t *testing.T, st pumasi.ConnectionStore, machine string) string {
	t.Helper()
	cs, err := st.MachineConnections(context.Background(), machine)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, c := range cs {
		ids = append(ids, c.ID)
	}
	return fmt.Sprint(ids)
}

func TestGatewayPush(t *testing.T) {
	ctx := context.Background()
	e := newGwEnv(t)
	ws, live := e.dial("m1")
	// The registry knows the live connection and one whose daemon is long
	// gone without a $disconnect; another machine's connection must not
	// receive m1's frames.
	if err := e.store.SaveConnection(ctx, "m1", live); err != nil {
		t.Fatal(err)
	}
	if err := e.store.SaveConnection(ctx, "m1", "stale="); err != nil {
		t.Fatal(err)
	}
	other, otherID := e.dial("m2")
	if err := e.store.SaveConnection(ctx, "m2", otherID); err != nil {
		t.Fatal(err)
	}

	if got := e.do("PUT", "/rooms/r1/agents/a1", []byte(`{"machine_id":"m1"}`)); got != 200 {
		t.Fatalf("place = %d, want 200", got)
	}
	f, _ := readFrame(t, ws)
	if f.Type != pumasi.FrameAssignmentsChanged || f.MachineID != "m1" {
		t.Fatalf("first frame = %+v, want assignments changed for m1", f)
	}
	// The 410 for the stale id removed its record; the live one stays.
	if got, want := connIDs(t, e.store, "m1"), fmt.Sprint([]string{live}); got != want {
		t.Fatalf("m1 connections after push = %s, want %s", got, want)
	}

	small := []byte("# notes\nsmall enough to ride inline\n")
	if got := e.do("POST", "/rooms/r1/files?name=small.md", small); got != 201 {
		t.Fatalf("upload small = %d, want 201", got)
	}
	f, _ = readFrame(t, ws)
	if f.Type != pumasi.FrameWrite || f.StorageName != "small.md" || f.Content == nil || *f.Content != string(small) {
		t.Fatalf("small frame = %+v, want write of small.md with its content", f)
	}

	big := bytes.Repeat([]byte("0123456789abcdef"), 200<<10/16) // 200 KiB of text
	if got := e.do("POST", "/rooms/r1/files?name=big.md", big); got != 201 {
		t.Fatalf("upload big = %d, want 201", got)
	}
	f, n := readFrame(t, ws)
	sum := sha256.Sum256(big)
	if f.Type != pumasi.FrameWrite || f.StorageName != "big.md" || f.ContentSHA256 != hex.EncodeToString(sum[:]) {
		t.Fatalf("big frame = %+v, want write of big.md with its sha256", f)
	}
	if f.Content != nil {
		t.Fatalf("big frame carries %d bytes inline, want none", len(*f.Content))
	}
	if n > pumasi.MaxInlineFrame {
		t.Fatalf("big frame is %d bytes, over the %d cap", n, pumasi.MaxInlineFrame)
	}

	if got := e.do("DELETE", "/rooms/r1/files/small.md", nil); got != 204 {
		t.Fatalf("delete = %d, want 204", got)
	}
	f, _ = readFrame(t, ws)
	if f.Type != pumasi.FrameDelete || f.StorageName != "small.md" {
		t.Fatalf("delete frame = %+v, want delete of small.md", f)
	}

	// m2 got nothing of m1's.
	other.SetReadDeadline(time.Now().Add(200 * time.Millisecond))
	if _, msg, err := other.ReadMessage(); err == nil {
		t.Fatalf("m2 received %s, want nothing", msg)
	}

	// A daemon that goes away is dropped on the next push.
	ws.Close()
	deadline := time.Now().Add(5 * time.Second)
	for len(e.hub.Connections("m1")) > 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if got := e.do("POST", "/rooms/r1/files?name=after.md", []byte("after\n")); got != 201 {
		t.Fatalf("upload after close = %d, want 201", got)
	}
	if got := connIDs(t, e.store, "m1"); got != "[]" {
		t.Fatalf("m1 connections after its socket closed = %s, want []", got)
	}
	if got := connIDs(t, e.store, "m2"); got != fmt.Sprint([]string{otherID}) {
		t.Fatalf("m2 connections = %s, want [%s]", got, otherID)
	}
}

func TestEncodeFrame(t *testing.T) {
	for _, tc := range []struct {
		size   int
		inline bool
	}{{0, true}, {1024, true}, {pumasi.MaxInlineFrame - 300, true}, {pumasi.MaxInlineFrame, false}, {200 << 10, false}} {
		content := strings.Repeat("x", tc.size)
		f := pumasi.Frame{Type: pumasi.FrameWrite, AgentID: "a1", RoomID: "r1", StorageName: "n.md", ContentSHA256: strings.Repeat("0", 64), Content: &content}
		b, err := push.EncodeFrame(f)
		if err != nil {
			t.Fatal(err)
		}
		var got pumasi.Frame
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatal(err)
		}
		if (got.Content != nil) != tc.inline || len(b) > pumasi.MaxInlineFrame {
			t.Errorf("size %d: inline = %v (%d bytes), want inline %v within %d", tc.size, got.Content != nil, len(b), tc.inline, pumasi.MaxInlineFrame)
		}
	}
}

func TestConnectionsEndpoint(t *testing.T) {
	e := newGwEnv(t)
	ws, id := e.dial("m1")
	call := func(method, id, token string, body string) int {
		req, _ := http.NewRequest(method, e.srv.URL+"/@connections/"+id, strings.NewReader(body))
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode
	}
	if got := call("POST", id, "", "x"); got != 403 {
		t.Fatalf("POST without token = %d, want 403", got)
	}
	if got := call("POST", id, gwToken(t, "machine:m1"), "x"); got != 403 {
		t.Fatalf("POST with a machine token = %d, want 403", got)
	}
	if got := call("GET", id, e.admin, ""); got != 200 {
		t.Fatalf("GET live = %d, want 200", got)
	}
	if got := call("POST", id, e.admin, `{"type":"hello"}`); got != 200 {
		t.Fatalf("POST live = %d, want 200", got)
	}
	ws.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, msg, err := ws.ReadMessage(); err != nil || string(msg) != `{"type":"hello"}` {
		t.Fatalf("client read %q, %v; want the posted message", msg, err)
	}
	if got := call("POST", id, e.admin, strings.Repeat("x", 128<<10+1)); got != 413 {
		t.Fatalf("POST over 128 KiB = %d, want 413", got)
	}
	for _, m := range []string{"GET", "POST", "DELETE"} {
		if got := call(m, "nobody", e.admin, "x"); got != 410 {
			t.Fatalf("%s unknown id = %d, want 410", m, got)
		}
	}
	if got := call("DELETE", id, e.admin, ""); got != 204 {
		t.Fatalf("DELETE live = %d, want 204", got)
	}
	ws.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, _, err := ws.ReadMessage(); err == nil {
		t.Fatalf("connection still open after DELETE")
	}
	if got := call("GET", id, e.admin, ""); got != 410 {
		t.Fatalf("GET after DELETE = %d, want 410", got)
	}
}
