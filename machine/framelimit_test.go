package machine

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"pumasi"
)

// frameOfSize returns a write frame of a1's name carrying body inline,
// padded with an unknown field to exactly n bytes.
func frameOfSize(t *testing.T, name, body string, n int) []byte {
	t.Helper()
	f := pumasi.Frame{Type: pumasi.FrameWrite, AgentID: "a1", RoomID: "r1", StorageName: name, ContentSHA256: sumHex([]byte(body)), Content: &body}
	b, _ := json.Marshal(f)
	pad := n - len(b) - len(`,"pad":""`)
	if pad < 0 {
		t.Fatalf("%d bytes is too small for this frame", n)
	}
	out := append(b[:len(b)-1], []byte(`,"pad":"`+strings.Repeat("p", pad)+`"}`)...)
	if len(out) != n {
		t.Fatalf("built %d bytes, want %d", len(out), n)
	}
	return out
}

// TestFrameLimitEdge: the daemon takes a frame of exactly maxFrame bytes
// (its inline content is written), and a frame one byte larger closes the
// connection with 1009 and writes nothing; the daemon reconnects.
func TestFrameLimitEdge(t *testing.T) {
	home := t.TempDir()
	edge, over := "edge\n", "over\n"
	doc := assignmentsDoc{MachineID: "m1", ETag: "e1", Agents: []assignment{{AgentID: "a1", RoomID: "r1", Rev: 1, Files: []assignedFile{
		{Name: "edge.md", SHA256: sumHex([]byte(edge)), Size: int64(len(edge))},
		{Name: "over.md", SHA256: sumHex([]byte(over)), Size: int64(len(over))},
	}}}}
	var mu sync.Mutex
	conns := 0
	closed := make(chan error, 4)
	dropFirst := make(chan struct{})
	reported := make(chan struct{}, 16)
	up := websocket.Upgrader{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/machines/m1/assignments":
			json.NewEncoder(w).Encode(doc)
		case "/machines/m1/status":
			select {
			case reported <- struct{}{}:
			default:
			}
			w.WriteHeader(204)
		case "/machines/m1/ws":
			c, err := up.Upgrade(w, r, nil)
			if err != nil {
				return
			}
			defer c.Close()
			mu.Lock()
			conns++
			n := conns
			mu.Unlock()
			if n == 1 {
				<-reported // the daemon knows a1 now
			}
			switch n {
			case 1:
				c.WriteMessage(websocket.TextMessage, frameOfSize(t, "edge.md", edge, maxFrame))
				<-dropFirst // then the server drops it, so that the daemon reconnects
				return
			case 2:
				c.WriteMessage(websocket.TextMessage, frameOfSize(t, "over.md", over, maxFrame+1))
			}
			for {
				if _, _, err := c.ReadMessage(); err != nil {
					if n == 2 {
						closed <- err
					}
					return
				}
			}
		default:
			http.NotFound(w, r) // file bytes come inline only
		}
	}))
	defer srv.Close()
	startDaemon(t, Config{Server: srv.URL, Machine: "m1", Token: "anything", Home: home, Poll: time.Hour})
	shared := filepath.Join(home, "agents", "a1", "memory", "shared")
	deadline := time.Now().Add(10 * time.Second)
	for {
		if b, err := os.ReadFile(filepath.Join(shared, "edge.md")); err == nil && string(b) == edge {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("a frame of exactly maxFrame bytes was not applied")
		}
		time.Sleep(20 * time.Millisecond)
	}
	close(dropFirst)
	select {
	case err := <-closed:
		// 1009, or a reset when the daemon closes with the frame unread.
		var ce *websocket.CloseError
		if errors.As(err, &ce) && ce.Code != websocket.CloseMessageTooBig {
			t.Fatalf("oversized frame: daemon closed with %d, want 1009", ce.Code)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("the daemon did not close the connection that sent an oversized frame")
	}
	for start := time.Now(); ; time.Sleep(20 * time.Millisecond) {
		mu.Lock()
		n := conns
		mu.Unlock()
		if n >= 3 {
			break
		}
		if time.Since(start) > 15*time.Second {
			t.Fatalf("the daemon did not reconnect after the oversized frame (%d connections)", n)
		}
	}
	if _, err := os.Stat(filepath.Join(shared, "over.md")); err == nil {
		t.Fatal("an oversized frame was applied")
	}
}
