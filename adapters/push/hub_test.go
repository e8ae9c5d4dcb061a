package push

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"pumasi"
	"pumasi/adapters/local"
	"pumasi/functions"
)

var secret = []byte("hub-test-secret-0123456789abcdef")

type env struct {
	t   *testing.T
	hub *Hub
	srv *httptest.Server
}

func newEnv(t *testing.T) *env {
	t.Helper()
	st, err := local.Open(context.Background(), t.TempDir(), local.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	hub := NewHub(nil)
	api := &functions.API{Store: st, Secret: secret, Pusher: hub, Socket: hub}
	srv := httptest.NewServer(api.Handler())
	t.Cleanup(func() { hub.Close(); srv.Close() })
	return &env{t: t, hub: hub, srv: srv}
}

func (e *env) token(scope string) string {
	tok, err := pumasi.SignToken(secret, "t", []string{scope}, time.Hour, time.Now())
	if err != nil {
		e.t.Fatal(err)
	}
	return tok
}

func (e *env) dial(machine, token string) (*websocket.Conn, *http.Response, error) {
	h := http.Header{}
	h.Set("Authorization", "Bearer "+token)
	u := "ws" + strings.TrimPrefix(e.srv.URL, "http") + "/machines/" + machine + "/ws"
	return websocket.DefaultDialer.Dial(u, h)
}

func (e *env) mustDial(machine string) *websocket.Conn {
	e.t.Helper()
	c, _, err := e.dial(machine, e.token("machine:"+machine))
	if err != nil {
		e.t.Fatalf("dial %s: %v", machine, err)
	}
	e.t.Cleanup(func() { c.Close() })
	e.waitConns(machine, -1)
	return c
}

// waitConns waits until machine has n live connections (n < 0: at least one more than zero).
func (e *env) waitConns(machine string, n int) {
	e.t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		got := len(e.hub.Connections(machine))
		if (n < 0 && got > 0) || got == n {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	e.t.Fatalf("machine %s has %d connections, want %d", machine, len(e.hub.Connections(machine)), n)
}

func readFrame(t *testing.T, c *websocket.Conn) pumasi.Frame {
	t.Helper()
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	typ, msg, err := c.ReadMessage()
	if err != nil {
		t.Fatalf("read: %v", err)
	}
	if typ != websocket.TextMessage {
		t.Fatalf("message type %d, want text", typ)
	}
	var f pumasi.Frame
	if err := json.Unmarshal(msg, &f); err != nil {
		t.Fatalf("frame %q: %v", msg, err)
	}
	return f
}

func TestPushReachesOnlyThatMachine(t *testing.T) {
	e := newEnv(t)
	a := e.mustDial("m1")
	b, _, err := e.dial("m1", e.token("admin"))
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	e.waitConns("m1", 2)
	other := e.mustDial("m2")

	ctx := context.Background()
	frames := []pumasi.Frame{
		{Type: pumasi.FrameWrite, AgentID: "a1", RoomID: "r1", StorageName: "x.md", ContentSHA256: strings.Repeat("a", 64)},
		{Type: pumasi.FrameDelete, AgentID: "a1", RoomID: "r1", StorageName: "y.md", ContentSHA256: strings.Repeat("b", 64)},
	}
	if err := e.hub.Push(ctx, "m1", frames); err != nil {
		t.Fatal(err)
	}
	for _, c := range []*websocket.Conn{a, b} {
		for i, want := range frames {
			if got := readFrame(t, c); got.Type != want.Type || got.StorageName != want.StorageName {
				t.Fatalf("frame %d = %+v, want %+v", i, got, want)
			}
		}
	}
	// m2 got nothing of m1's: the first frame it reads is its own.
	e.hub.Push(ctx, "m2", []pumasi.Frame{{Type: pumasi.FrameAssignmentsChanged, MachineID: "m2"}})
	if got := readFrame(t, other); got.Type != pumasi.FrameAssignmentsChanged || got.MachineID != "m2" {
		t.Fatalf("m2 read %+v, want its own assignments frame", got)
	}
	// Nobody connected is not an error.
	if err := e.hub.Push(ctx, "m9", frames); err != nil {
		t.Fatalf("push to an absent machine: %v", err)
	}
}

func TestUploadFansOutThroughAPI(t *testing.T) {
	e := newEnv(t)
	admin := e.token("admin")
	do := func(method, path, body string) int {
		req, _ := http.NewRequest(method, e.srv.URL+path, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+admin)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	c := e.mustDial("m1")
	if s := do("PUT", "/rooms/r1/agents/a1", `{"machine_id":"m1"}`); s != 200 {
		t.Fatalf("place: %d", s)
	}
	if f := readFrame(t, c); f.Type != pumasi.FrameAssignmentsChanged || f.MachineID != "m1" {
		t.Fatalf("after place: %+v", f)
	}
	if s := do("POST", "/rooms/r1/files?name=n.md", "hello\n"); s != 201 {
		t.Fatalf("upload: %d", s)
	}
	f := readFrame(t, c)
	if f.Type != pumasi.FrameWrite || f.AgentID != "a1" || f.StorageName != "n.md" || f.Content == nil || *f.Content != "hello\n" {
		t.Fatalf("after upload: %+v", f)
	}
}

func TestSocketAuth(t *testing.T) {
	e := newEnv(t)
	_, resp, err := e.dial("m2", e.token("machine:m1"))
	if err == nil || resp == nil || resp.StatusCode != 403 {
		t.Fatalf("m1 token on m2: err %v resp %v, want 403", err, resp)
	}
	_, resp, err = e.dial("m1", e.token("room:r1"))
	if err == nil || resp == nil || resp.StatusCode != 403 {
		t.Fatalf("room token: err %v, want 403", err)
	}
	if n := len(e.hub.Connections("m2")); n != 0 {
		t.Fatalf("m2 has %d connections after refusals", n)
	}
}

func TestDeadAndOversizedConnectionsDropped(t *testing.T) {
	e := newEnv(t)
	c1 := e.mustDial("m1")
	c2, _, err := e.dial("m1", e.token("machine:m1"))
	if err != nil {
		t.Fatal(err)
	}
	e.waitConns("m1", 2)
	c1.Close()
	e.waitConns("m1", 1)
	// A message beyond the read limit closes the connection.
	if err := c2.WriteMessage(websocket.TextMessage, make([]byte, DefaultReadLimit+1)); err != nil {
		t.Fatal(err)
	}
	e.waitConns("m1", 0)
	c2.Close()
}

func TestHubPingsAndClose(t *testing.T) {
	e := newEnv(t)
	e.hub.PingInterval = 20 * time.Millisecond
	c := e.mustDial("m1")
	var pings atomic.Int32
	c.SetPingHandler(func(string) error { pings.Add(1); return nil })
	done := make(chan error, 1)
	go func() {
		for {
			if _, _, err := c.ReadMessage(); err != nil {
				done <- err
				return
			}
		}
	}()
	deadline := time.Now().Add(5 * time.Second)
	for pings.Load() < 3 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := pings.Load(); n < 3 {
		t.Fatalf("got %d pings, want at least 3", n)
	}
	e.hub.Close()
	select {
	case err := <-done:
		if !websocket.IsCloseError(err, websocket.CloseGoingAway) {
			t.Logf("closed with %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("connection still open after Close")
	}
	if _, resp, err := e.dial("m1", e.token("machine:m1")); err == nil || resp == nil || resp.StatusCode != 503 {
		t.Fatalf("dial after Close: %v, want 503", err)
	}
	// @connections operations answer Gone for what is not live.
	if err := e.hub.PostToConnection(context.Background(), "nope", []byte("x")); err != ErrGone {
		t.Fatalf("post to unknown connection: %v, want ErrGone", err)
	}
}

func TestSlowConnectionDropped(t *testing.T) {
	e := newEnv(t)
	e.hub.SendQueue = 1
	c := e.mustDial("m1") // never reads
	_ = c
	big := strings.Repeat("x", 100<<10)
	frames := []pumasi.Frame{{Type: pumasi.FrameWrite, AgentID: "a1", RoomID: "r1", StorageName: "x.md", ContentSHA256: strings.Repeat("a", 64), Content: &big}}
	deadline := time.Now().Add(10 * time.Second)
	for len(e.hub.Connections("m1")) > 0 && time.Now().Before(deadline) {
		e.hub.Push(context.Background(), "m1", frames)
	}
	if n := len(e.hub.Connections("m1")); n != 0 {
		t.Fatalf("a connection that never reads is still live (%d)", n)
	}
}
