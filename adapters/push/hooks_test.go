package push_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"pumasi/adapters/push"
)

// hookServer serves hub.ServeMachine for machine m1 on a loopback server.
func hookServer(t *testing.T, hub *push.Hub) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hub.ServeMachine(w, r, "m1", time.Time{})
	}))
	t.Cleanup(func() { hub.Close(); srv.Close() })
	return "ws" + strings.TrimPrefix(srv.URL, "http")
}

type hookLog struct {
	mu     sync.Mutex
	events []string
}

func (l *hookLog) add(s string) {
	l.mu.Lock()
	l.events = append(l.events, s)
	l.mu.Unlock()
}

func (l *hookLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.events, ",")
}

// TestHubHooks shows the API Gateway lifecycle the hub offers: OnConnect
// runs with the id reserved before the upgrade is answered (a message
// posted to the id from inside it is delivered first), OnMessage answers on
// the same connection, OnDisconnect runs once, and Close waits for it.
func TestHubHooks(t *testing.T) {
	hub := push.NewHub(nil)
	var log hookLog
	var id string
	hub.OnConnect = func(ctx context.Context, machine, cid string) error {
		id = cid
		log.add("connect " + machine)
		if err := hub.PostToConnection(ctx, cid, []byte(`{"type":"hello"}`)); err != nil {
			t.Errorf("post during connect: %v, want it queued", err)
		}
		return nil
	}
	hub.OnMessage = func(ctx context.Context, machine, cid string, msg []byte) []byte {
		if cid != id {
			t.Errorf("message on %s, want %s", cid, id)
		}
		return []byte(`{"echo":` + string(msg) + `}`)
	}
	hub.OnDisconnect = func(ctx context.Context, machine, cid string) {
		time.Sleep(100 * time.Millisecond) // Close must wait for this
		log.add("disconnect " + machine + " " + cid)
	}
	url := hookServer(t, hub)
	ws, _, err := websocket.DefaultDialer.Dial(url, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	ws.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, msg, err := ws.ReadMessage(); err != nil || string(msg) != `{"type":"hello"}` {
		t.Fatalf("first message = %q, %v; want the one posted during connect", msg, err)
	}
	if err := ws.WriteMessage(websocket.TextMessage, []byte(`{"action":"ping"}`)); err != nil {
		t.Fatal(err)
	}
	if _, msg, err := ws.ReadMessage(); err != nil || string(msg) != `{"echo":{"action":"ping"}}` {
		t.Fatalf("answer = %q, %v; want the OnMessage reply", msg, err)
	}
	if got := hub.Connections("m1"); len(got) != 1 || got[0] != id {
		t.Fatalf("connections = %v, want [%s]", got, id)
	}
	hub.Close()
	if got, want := log.String(), "connect m1,disconnect m1 "+id; got != want {
		t.Fatalf("hooks after Close = %q, want %q", got, want)
	}
}

// TestHubOnConnectRefuses shows an OnConnect error refuses the upgrade and
// leaves no connection and no disconnect.
func TestHubOnConnectRefuses(t *testing.T) {
	hub := push.NewHub(nil)
	var disconnects int
	hub.OnConnect = func(context.Context, string, string) error { return errors.New("registry down") }
	hub.OnDisconnect = func(context.Context, string, string) { disconnects++ }
	url := hookServer(t, hub)
	_, resp, err := websocket.DefaultDialer.Dial(url, nil)
	if err == nil || resp == nil || resp.StatusCode != http.StatusInternalServerError {
		t.Fatalf("dial with a failing OnConnect: %v, want 500", err)
	}
	hub.Close()
	if n := len(hub.Connections("m1")); n != 0 || disconnects != 0 {
		t.Fatalf("after a refused connect: %d connections, %d disconnects; want 0, 0", n, disconnects)
	}
}

// TestHubLimits shows API Gateway's two closes: a connection silent for
// MaxIdle is closed while one that keeps sending survives it, and every
// connection is closed at MaxLifetime.
func TestHubLimits(t *testing.T) {
	hub := push.NewHub(nil)
	hub.MaxIdle = 300 * time.Millisecond
	hub.MaxLifetime = 1500 * time.Millisecond
	url := hookServer(t, hub)
	dial := func() (*websocket.Conn, <-chan time.Time) {
		ws, _, err := websocket.DefaultDialer.Dial(url, nil)
		if err != nil {
			t.Fatal(err)
		}
		closed := make(chan time.Time, 1)
		go func() {
			for {
				if _, _, err := ws.ReadMessage(); err != nil {
					closed <- time.Now()
					return
				}
			}
		}()
		return ws, closed
	}
	start := time.Now()
	silent, silentClosed := dial()
	defer silent.Close()
	chatty, chattyClosed := dial()
	defer chatty.Close()
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	var silentAt, chattyAt time.Duration
	for silentAt == 0 || chattyAt == 0 {
		select {
		case at := <-silentClosed:
			silentAt = at.Sub(start)
		case at := <-chattyClosed:
			chattyAt = at.Sub(start)
		case <-tick.C:
			_ = chatty.WriteMessage(websocket.TextMessage, []byte(`{"action":"ping"}`))
		case <-time.After(5 * time.Second):
			t.Fatalf("connections still open after 5s (silent closed at %v, chatty at %v)", silentAt, chattyAt)
		}
	}
	if silentAt < hub.MaxIdle || silentAt > hub.MaxIdle+700*time.Millisecond {
		t.Errorf("silent connection closed after %v, want about MaxIdle %v", silentAt, hub.MaxIdle)
	}
	if chattyAt < hub.MaxLifetime || chattyAt > hub.MaxLifetime+time.Second {
		t.Errorf("chatty connection closed after %v, want about MaxLifetime %v", chattyAt, hub.MaxLifetime)
	}
}
