package functions_test

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"pumasi"
	"pumasi/adapters/local"
	"pumasi/adapters/push"
	"pumasi/functions"
)

// lockedBuffer is a log sink the hub and the API write to concurrently.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestSocketTokenInQuery: a browser cannot set headers on a WebSocket, so
// localdev takes the machine token as ?token= (docs/frames.md): it
// authenticates like the header (forged 401, another machine's 403), the
// connection gets its frames, a header wins over the query, and the token
// appears in no log line, at debug level, whatever happened.
func TestSocketTokenInQuery(t *testing.T) {
	st, err := local.Open(context.Background(), t.TempDir(), local.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	logs := &lockedBuffer{}
	log := slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	hub := push.NewHub(log)
	api := &functions.API{Store: st, Secret: authzSecret, Pusher: hub, Socket: hub, Log: log}
	srv := httptest.NewServer(api.Handler())
	t.Cleanup(func() { hub.Close(); srv.Close() })
	sign := func(secret []byte, scope string) string {
		tok, err := pumasi.SignToken(secret, "browser", []string{scope}, time.Hour, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		return tok
	}
	admin, m1, m2, forged := sign(authzSecret, pumasi.ScopeAdmin), sign(authzSecret, "machine:m1"), sign(authzSecret, "machine:m2"), sign(forgedSecret, "machine:m1")
	e := &authzEnv{t: t, srv: srv, tokens: map[string]string{"admin": admin}}
	if status, b, _ := e.do("PUT", "/rooms/r1/agents/a1", "admin", `{"machine_id":"m1"}`, nil); status != 200 {
		t.Fatalf("place = %d %s", status, b)
	}
	for _, tc := range []struct {
		name, query string
		want        int
	}{
		{"forged", forged, 401},
		{"other machine", m2, 403},
		{"empty", "", 401},
	} {
		if status, _, body := e.tryWS("/machines/m1/ws?token="+tc.query, ""); status != tc.want {
			t.Errorf("?token= %s = %d %s, want %d", tc.name, status, body, tc.want)
		}
	}
	// A valid header is not overridden by a bad query token.
	e.dialWS("/machines/m1/ws?token="+forged, m1, 101).Close()

	ws := e.dialWS("/machines/m1/ws?token="+m1, "", 101)
	defer ws.Close()
	deadline := time.Now().Add(5 * time.Second)
	for len(hub.Connections("m1")) < 1 {
		if time.Now().After(deadline) {
			t.Fatal("the hub never registered the ?token= connection")
		}
		time.Sleep(5 * time.Millisecond)
	}
	if status, b, _ := e.do("POST", "/rooms/r1/files?name=spec.md", "admin", "# spec\n", nil); status != 201 {
		t.Fatalf("upload = %d %s", status, b)
	}
	ws.SetReadDeadline(time.Now().Add(5 * time.Second))
	var frame pumasi.Frame
	for frame.StorageName != "spec.md" {
		_, msg, err := ws.ReadMessage()
		if err != nil {
			t.Fatalf("no frame on the ?token= socket: %v", err)
		}
		if err := json.Unmarshal(msg, &frame); err != nil {
			t.Fatalf("frame %s: %v", msg, err)
		}
	}
	ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseNormalClosure, ""), time.Now().Add(time.Second))
	for _, tok := range []string{m1, m2, forged} {
		if strings.Contains(logs.String(), tok) || strings.Contains(logs.String(), tok[len(tok)-20:]) {
			t.Fatalf("a token reached the logs:\n%s", logs.String())
		}
	}
	if !strings.Contains(logs.String(), "machine connected") {
		t.Fatalf("the logs were not captured (no connection line):\n%s", logs.String())
	}
}
