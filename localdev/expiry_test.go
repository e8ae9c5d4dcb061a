package localdev_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"pumasi"
	"pumasi/localdev"
	"pumasi/machine"
)

func shortToken(t *testing.T, scope string, ttl time.Duration) (string, time.Time) {
	t.Helper()
	now := time.Now()
	tok, err := pumasi.SignToken(ldSecret, "expiry", []string{scope}, ttl, now)
	if err != nil {
		t.Fatal(err)
	}
	p, err := pumasi.ParseToken(ldSecret, tok, now)
	if err != nil {
		t.Fatal(err)
	}
	return tok, p.Expires
}

// TestWebSocketClosesWhenTokenExpires: a machine WebSocket stays open while
// its token is valid and receives frames; when the token expires the server
// closes it with 1008 (policy violation) and the reason "token expired",
// and nothing reaches it after the expiry.
func TestWebSocketClosesWhenTokenExpires(t *testing.T) {
	base := runLocaldev(t, localdev.Config{})
	admin := ldToken(t, "admin")
	if a := call(t, "PUT", base+"/rooms/r1/agents/a1", admin, `{"machine_id":"m1"}`, nil); a.status != http.StatusOK {
		t.Fatalf("place = %d %s", a.status, a.body)
	}
	tok, exp := shortToken(t, "machine:m1", 3*time.Second)
	hdr := http.Header{"Authorization": {"Bearer " + tok}}
	ws, res, err := websocket.DefaultDialer.Dial(strings.Replace(base, "http://", "ws://", 1)+"/machines/m1/ws", hdr)
	if err != nil {
		t.Fatalf("dial: %v (%v)", err, res)
	}
	defer ws.Close()
	if a := call(t, "POST", base+"/rooms/r1/files?name=before.md", admin, "before\n", nil); a.status != http.StatusCreated {
		t.Fatalf("upload = %d %s", a.status, a.body)
	}
	_ = ws.SetReadDeadline(time.Now().Add(10 * time.Second))
	_, msg, err := ws.ReadMessage()
	if err != nil || !strings.Contains(string(msg), "before.md") {
		t.Fatalf("first frame = %s, %v; want the write of before.md", msg, err)
	}
	// Frames keep coming until the expiry; then the close.
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			case <-time.After(100 * time.Millisecond):
			}
			req, _ := http.NewRequest("POST", base+"/rooms/r1/files?name=tick.md", strings.NewReader(strings.Repeat("t", i+1)))
			req.Header.Set("Authorization", "Bearer "+admin)
			if res, err := http.DefaultClient.Do(req); err == nil {
				res.Body.Close()
			}
		}
	}()
	_ = ws.SetReadDeadline(exp.Add(10 * time.Second))
	for {
		_, msg, err := ws.ReadMessage()
		now := time.Now()
		if err != nil {
			var ce *websocket.CloseError
			if !errors.As(err, &ce) || ce.Code != websocket.ClosePolicyViolation || ce.Text != "token expired" {
				t.Fatalf("connection ended with %v, want close 1008 \"token expired\"", err)
			}
			if now.Before(exp) {
				t.Fatalf("closed at %v, before the token's expiry %v", now, exp)
			}
			return
		}
		var f pumasi.Frame
		if json.Unmarshal(msg, &f) == nil && now.After(exp.Add(200*time.Millisecond)) {
			t.Fatalf("a frame arrived %v after the token expired: %s", now.Sub(exp), msg)
		}
	}
}

// TestDaemonReconnectsWithCurrentToken: a daemon whose token file is
// refreshed before the old token expires is closed by the server at the
// expiry, reconnects with the token now in the file and resyncs: a file
// uploaded after the expiry reaches the agent, though the daemon polls only
// hourly.
func TestDaemonReconnectsWithCurrentToken(t *testing.T) {
	logs := &syncBuffer{}
	base := runLocaldevAt(t, localdev.Config{Home: t.TempDir(), Log: slog.New(slog.NewTextHandler(logs, nil))})
	admin := ldToken(t, "admin")
	if a := call(t, "PUT", base+"/rooms/r1/agents/a1", admin, `{"machine_id":"m1"}`, nil); a.status != http.StatusOK {
		t.Fatalf("place = %d %s", a.status, a.body)
	}
	dhome := t.TempDir()
	tokFile := filepath.Join(t.TempDir(), "machine.token")
	short, exp := shortToken(t, "machine:m1", 3*time.Second)
	if err := os.WriteFile(tokFile, []byte(short+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	wait, err := machine.Start(ctx, machine.Config{Server: base, Machine: "m1", TokenFile: tokFile, Home: dhome,
		Poll: time.Hour, Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		cancel()
		if err := wait(); err != nil {
			t.Errorf("daemon: %v", err)
		}
	}()
	shared := filepath.Join(dhome, "agents", "a1", "memory", "shared")
	if a := call(t, "POST", base+"/rooms/r1/files?name=before.md", admin, "before\n", nil); a.status != http.StatusCreated {
		t.Fatalf("upload = %d %s", a.status, a.body)
	}
	waitFor(t, "before.md reaches the agent", func() bool {
		b, err := os.ReadFile(filepath.Join(shared, "before.md"))
		return err == nil && string(b) == "before\n"
	})
	// The operator replaces the token before it expires.
	if err := os.WriteFile(tokFile, []byte(ldToken(t, "machine:m1")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for time.Now().Before(exp.Add(500 * time.Millisecond)) {
		time.Sleep(50 * time.Millisecond) // until the old token is past its expiry
	}
	if a := call(t, "POST", base+"/rooms/r1/files?name=after.md", admin, "after\n", nil); a.status != http.StatusCreated {
		t.Fatalf("upload = %d %s", a.status, a.body)
	}
	waitFor(t, "after.md reaches the agent over the new connection", func() bool {
		b, err := os.ReadFile(filepath.Join(shared, "after.md"))
		return err == nil && string(b) == "after\n"
	})
	log := logs.String()
	if !strings.Contains(log, "closing a connection whose token expired") || strings.Count(log, "machine connected") != 2 {
		t.Fatalf("want the first connection closed at its token's expiry and one reconnect; server log:\n%s", log)
	}
}

// syncBuffer is a bytes.Buffer safe for a logger and a test at once.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
