package localdev_test

import (
	"bufio"
	"bytes"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"pumasi"
	"pumasi/adapters/push"
	"pumasi/localdev"
)

// headOfSize is a GET request head of exactly n bytes, padded in one header.
func headOfSize(t *testing.T, n int) string {
	t.Helper()
	const start = "GET /livez HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Pad: "
	const end = "\r\n\r\n"
	pad := n - len(start) - len(end)
	if pad < 0 {
		t.Fatalf("%d bytes is too small for a request head", n)
	}
	return start + strings.Repeat("p", pad) + end
}

// TestHeaderLimitExact: a request head of exactly 64 KiB is served, one
// byte more answers 431, on a fresh connection and on a kept-alive one.
func TestHeaderLimitExact(t *testing.T) {
	base := runLocaldev(t, localdev.Config{})
	status := func(r *bufio.Reader) int {
		t.Helper()
		res, err := http.ReadResponse(r, nil)
		if err != nil {
			t.Fatalf("read response: %v", err)
		}
		res.Body.Close()
		return res.StatusCode
	}
	for _, tt := range []struct {
		size, want int
	}{{localdev.MaxHeaderBytes, 200}, {localdev.MaxHeaderBytes + 1, http.StatusRequestHeaderFieldsTooLarge}} {
		c := rawConn(t, base)
		r := bufio.NewReader(c)
		_ = c.SetDeadline(time.Now().Add(10 * time.Second))
		if _, err := c.Write([]byte(headOfSize(t, 100))); err != nil {
			t.Fatal(err)
		}
		if got := status(r); got != 200 {
			t.Fatalf("small request = %d", got)
		}
		// The same kept-alive connection, then a fresh one.
		for _, conn := range []string{"kept-alive", "fresh"} {
			if conn == "fresh" {
				c = rawConn(t, base)
				r = bufio.NewReader(c)
				_ = c.SetDeadline(time.Now().Add(10 * time.Second))
			}
			if _, err := c.Write([]byte(headOfSize(t, tt.size))); err != nil {
				t.Fatal(err)
			}
			if got := status(r); got != tt.want {
				t.Fatalf("%s connection, head of %d bytes = %d, want %d", conn, tt.size, got, tt.want)
			}
		}
	}
}

// TestConnectionsMessageCapEdge: @connections takes a message of exactly
// 128 KiB (the connection is unknown: 410), and refuses one byte more (413).
func TestConnectionsMessageCapEdge(t *testing.T) {
	base := runLocaldev(t, localdev.Config{})
	for _, tt := range []struct{ size, want int }{{128 << 10, http.StatusGone}, {128<<10 + 1, http.StatusRequestEntityTooLarge}} {
		req, _ := http.NewRequest("POST", base+"/@connections/abc123", bytes.NewReader(make([]byte, tt.size)))
		req.Header.Set("Authorization", "Bearer "+ldToken(t, pumasi.ScopeAdmin))
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != tt.want {
			t.Fatalf("@connections message of %d bytes = %d, want %d", tt.size, res.StatusCode, tt.want)
		}
	}
}

// TestWebSocketMessageLimitEdge: a daemon's message of exactly the read
// limit keeps its connection (a ping after it is answered); one byte more
// closes it with 1009.
func TestWebSocketMessageLimitEdge(t *testing.T) {
	base := runLocaldev(t, localdev.Config{})
	ws := dialMachine(t, base)
	pong := make(chan struct{}, 1)
	ws.SetPongHandler(func(string) error { pong <- struct{}{}; return nil })
	readErr := make(chan error, 1)
	go func() {
		for {
			if _, _, err := ws.ReadMessage(); err != nil {
				readErr <- err
				return
			}
		}
	}()
	if err := ws.WriteMessage(websocket.TextMessage, make([]byte, push.DefaultReadLimit)); err != nil {
		t.Fatal(err)
	}
	if err := ws.WriteControl(websocket.PingMessage, []byte("after"), time.Now().Add(2*time.Second)); err != nil {
		t.Fatal(err)
	}
	select {
	case <-pong:
	case err := <-readErr:
		t.Fatalf("a message of exactly %d bytes closed the connection: %v", push.DefaultReadLimit, err)
	case <-time.After(5 * time.Second):
		t.Fatal("no pong within 5 s")
	}
	if err := ws.WriteMessage(websocket.TextMessage, make([]byte, push.DefaultReadLimit+1)); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-readErr:
		if !websocket.IsCloseError(err, websocket.CloseMessageTooBig) {
			t.Fatalf("a message of %d bytes ended the connection with %v, want 1009", push.DefaultReadLimit+1, err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal(fmt.Sprintf("a message of %d bytes left the connection open", push.DefaultReadLimit+1))
	}
}
