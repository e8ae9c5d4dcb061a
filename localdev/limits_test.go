package localdev_test

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"pumasi"
	"pumasi/adapters/push"
	"pumasi/localdev"
)

// runLocaldev runs localdev.Run in process on a free loopback port, without
// its in-process daemon, and returns its base URL. It stops it at cleanup.
func runLocaldev(t *testing.T, cfg localdev.Config) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	cfg.Home = t.TempDir()
	cfg.Addr = "127.0.0.1:0"
	cfg.Secret = ldSecret
	cfg.NoMachine = true
	cfg.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
	done := make(chan error, 1)
	go func() { done <- localdev.Run(ctx, cfg) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("Run: %v", err)
			}
		case <-time.After(15 * time.Second):
			t.Error("localdev did not stop")
		}
	})
	var base string
	waitFor(t, "localdev writes its address", func() bool {
		b, err := os.ReadFile(filepath.Join(cfg.Home, "localdev.addr"))
		base = string(bytes.TrimSpace(b))
		return err == nil && base != ""
	})
	return base
}

// hostOf is the Host header for base: localdev answers only the hosts it
// serves.
func hostOf(base string) string { return strings.TrimPrefix(base, "http://") }

func ldToken(t *testing.T, scope string) string {
	t.Helper()
	tok, err := pumasi.SignToken(ldSecret, "limits", []string{scope}, time.Hour, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// rawConn dials base's host over plain TCP, for clients no http.Client
// would be: slow, silent or idle.
func rawConn(t *testing.T, base string) net.Conn {
	t.Helper()
	c, err := net.DialTimeout("tcp", strings.TrimPrefix(base, "http://"), 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// closedWithin reads from c until the server closes it, failing unless that
// happens after at least min and within max. It returns what was read.
func closedWithin(t *testing.T, c net.Conn, min, max time.Duration, start time.Time) []byte {
	t.Helper()
	_ = c.SetReadDeadline(start.Add(max))
	got, err := io.ReadAll(c)
	took := time.Since(start)
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		t.Fatalf("server kept the connection open for %v (limit %v); read %q", took, max, got)
	}
	if took < min {
		t.Fatalf("server closed the connection after %v, before %v: %q, %v", took, min, got, err)
	}
	return got
}

// TestHeaderSizeLimit: a header block beyond localdev's MaxHeaderBytes is
// answered 431 before any handler runs; one a little under it is served.
func TestHeaderSizeLimit(t *testing.T) {
	base := runLocaldev(t, localdev.Config{})
	do := func(size int) int {
		req, _ := http.NewRequest("GET", base+"/healthz", nil)
		req.Header.Set("X-Padding", strings.Repeat("p", size))
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("GET with a %d-byte header: %v", size, err)
		}
		res.Body.Close()
		return res.StatusCode
	}
	if got := do(localdev.MaxHeaderBytes - 1024); got != 200 {
		t.Fatalf("header just under the limit = %d, want 200", got)
	}
	// net/http allows 4096 bytes of slack past MaxHeaderBytes.
	if got := do(localdev.MaxHeaderBytes + 8192); got != http.StatusRequestHeaderFieldsTooLarge {
		t.Fatalf("header over the limit = %d, want 431", got)
	}
	if got := do(1 << 20); got != http.StatusRequestHeaderFieldsTooLarge {
		t.Fatalf("1 MiB header = %d, want 431", got)
	}
}

// TestSlowHeadersCut: a client that sends half a request line and then
// nothing, and one that trickles header bytes (slowloris), are both cut at
// ReadHeaderTimeout; trickling does not extend it.
func TestSlowHeadersCut(t *testing.T) {
	const timeout = 400 * time.Millisecond
	base := runLocaldev(t, localdev.Config{ReadHeaderTimeout: timeout})

	silent := rawConn(t, base)
	start := time.Now()
	if _, err := io.WriteString(silent, "GET /healthz HTTP/1.1\r\nHost: "+hostOf(base)+"\r\n"); err != nil {
		t.Fatal(err)
	}
	closedWithin(t, silent, timeout-50*time.Millisecond, timeout+3*time.Second, start)

	trickle := rawConn(t, base)
	start = time.Now()
	stop := make(chan struct{})
	go func() {
		io.WriteString(trickle, "GET /healthz HTTP/1.1\r\nHost: "+hostOf(base)+"\r\nX-Slow: ")
		tk := time.NewTicker(50 * time.Millisecond)
		defer tk.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tk.C:
				if _, err := trickle.Write([]byte("a")); err != nil {
					return
				}
			}
		}
	}()
	got := closedWithin(t, trickle, timeout-50*time.Millisecond, timeout+3*time.Second, start)
	close(stop)
	if bytes.Contains(got, []byte("200 OK")) {
		t.Fatalf("a request whose headers never ended was served: %q", got)
	}
}

// TestIdleConnectionClosed: a keep-alive connection left idle after a
// response is closed at IdleTimeout.
func TestIdleConnectionClosed(t *testing.T) {
	const idle = 400 * time.Millisecond
	base := runLocaldev(t, localdev.Config{IdleTimeout: idle})
	c := rawConn(t, base)
	if _, err := io.WriteString(c, "GET /healthz HTTP/1.1\r\nHost: "+hostOf(base)+"\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(c)
	res, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || res.Close {
		t.Fatalf("healthz = %d close=%v, want 200 keep-alive", res.StatusCode, res.Close)
	}
	start := time.Now()
	_ = c.SetReadDeadline(start.Add(idle + 3*time.Second))
	_, err = br.ReadByte()
	took := time.Since(start)
	if !errors.Is(err, io.EOF) {
		t.Fatalf("idle connection: read %v after %v, want EOF", err, took)
	}
	if took < idle-50*time.Millisecond {
		t.Fatalf("idle connection closed after %v, before the %v idle timeout", took, idle)
	}
}

// TestSlowBodyCut: an upload whose body trickles in is cut at ReadTimeout
// and stores nothing.
func TestSlowBodyCut(t *testing.T) {
	const timeout = 600 * time.Millisecond
	base := runLocaldev(t, localdev.Config{ReadTimeout: timeout})
	admin := ldToken(t, pumasi.ScopeAdmin)
	c := rawConn(t, base)
	start := time.Now()
	_, err := io.WriteString(c, "POST /rooms/r1/files?name=slow.md HTTP/1.1\r\nHost: "+hostOf(base)+"\r\nAuthorization: Bearer "+admin+
		"\r\nContent-Type: text/plain\r\nContent-Length: 100000\r\n\r\nstart")
	if err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		tk := time.NewTicker(50 * time.Millisecond)
		defer tk.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tk.C:
				if _, err := c.Write([]byte("b")); err != nil {
					return
				}
			}
		}
	}()
	got := closedWithin(t, c, timeout-50*time.Millisecond, timeout+3*time.Second, start)
	if bytes.HasPrefix(got, []byte("HTTP/1.1 2")) {
		t.Fatalf("a body that never finished was accepted: %q", got)
	}
	req, _ := http.NewRequest("GET", base+"/rooms/r1/files/slow.md", nil)
	req.Header.Set("Authorization", "Bearer "+admin)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 404 {
		t.Fatalf("GET slow.md after the cut = %d, want 404", res.StatusCode)
	}
}

// TestConnectionsMessageCap: @connections refuses a message over API
// Gateway's 128 KiB with 413 PayloadTooLargeException.
func TestConnectionsMessageCap(t *testing.T) {
	base := runLocaldev(t, localdev.Config{})
	req, _ := http.NewRequest("POST", base+"/@connections/abc123", bytes.NewReader(make([]byte, 128<<10+1)))
	req.Header.Set("Authorization", "Bearer "+ldToken(t, pumasi.ScopeAdmin))
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 413 || res.Header.Get("X-Amzn-ErrorType") != "PayloadTooLargeException" {
		t.Fatalf("oversized @connections message = %d %s, want 413 PayloadTooLargeException", res.StatusCode, res.Header.Get("X-Amzn-ErrorType"))
	}
}

// dialMachine opens machine m1's WebSocket on a running localdev.
func dialMachine(t *testing.T, base string) *websocket.Conn {
	t.Helper()
	h := http.Header{}
	h.Set("Authorization", "Bearer "+ldToken(t, "machine:m1"))
	ws, _, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(base, "http")+"/machines/m1/ws", h)
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	t.Cleanup(func() { ws.Close() })
	return ws
}

// closeCode reads until the server closes ws and returns the close code it
// sent, failing if it does not close within wait.
func closeCode(t *testing.T, ws *websocket.Conn, wait time.Duration) int {
	t.Helper()
	_ = ws.SetReadDeadline(time.Now().Add(wait))
	for {
		_, _, err := ws.ReadMessage()
		if err == nil {
			continue
		}
		var ce *websocket.CloseError
		if errors.As(err, &ce) {
			return ce.Code
		}
		t.Fatalf("connection ended without a close frame: %v", err)
	}
}

// TestWebSocketMessageLimits: on localdev's gateway a daemon's message over
// the hub's read limit closes its connection with 1009, and a flood of
// messages with 1008; a daemon pinging at a sane pace stays connected.
func TestWebSocketMessageLimits(t *testing.T) {
	base := runLocaldev(t, localdev.Config{})

	t.Run("oversized message", func(t *testing.T) {
		ws := dialMachine(t, base)
		if err := ws.WriteMessage(websocket.TextMessage, make([]byte, push.DefaultReadLimit+1)); err != nil {
			t.Fatal(err)
		}
		if code := closeCode(t, ws, 5*time.Second); code != websocket.CloseMessageTooBig {
			t.Fatalf("close code %d, want %d", code, websocket.CloseMessageTooBig)
		}
	})

	t.Run("message flood", func(t *testing.T) {
		ws := dialMachine(t, base)
		sent := 0
		for ; sent < 5000; sent++ {
			_ = ws.SetWriteDeadline(time.Now().Add(2 * time.Second))
			if err := ws.WriteMessage(websocket.TextMessage, []byte(`{"action":"ping"}`)); err != nil {
				break // The server has closed on us.
			}
		}
		if code := closeCode(t, ws, 5*time.Second); code != websocket.ClosePolicyViolation {
			t.Fatalf("after %d messages: close code %d, want %d", sent, code, websocket.ClosePolicyViolation)
		}
	})

	t.Run("ping flood", func(t *testing.T) {
		ws := dialMachine(t, base)
		for i := 0; i < 5000; i++ {
			if err := ws.WriteControl(websocket.PingMessage, nil, time.Now().Add(2*time.Second)); err != nil {
				break
			}
		}
		if code := closeCode(t, ws, 5*time.Second); code != websocket.ClosePolicyViolation {
			t.Fatalf("close code %d, want %d", code, websocket.ClosePolicyViolation)
		}
	})

	t.Run("sane pace stays open", func(t *testing.T) {
		ws := dialMachine(t, base)
		pongs := make(chan struct{}, 1)
		ws.SetPongHandler(func(string) error {
			select {
			case pongs <- struct{}{}:
			default:
			}
			return nil
		})
		readErr := make(chan error, 1)
		go func() {
			for {
				if _, _, err := ws.ReadMessage(); err != nil {
					readErr <- err
					return
				}
			}
		}()
		// Half the burst, then a ping that must still be answered.
		for i := 0; i < push.DefaultReadBurst/2; i++ {
			if err := ws.WriteMessage(websocket.TextMessage, []byte(`{"action":"ping"}`)); err != nil {
				t.Fatalf("message %d: %v", i, err)
			}
		}
		if err := ws.WriteControl(websocket.PingMessage, []byte("still there?"), time.Now().Add(2*time.Second)); err != nil {
			t.Fatal(err)
		}
		select {
		case <-pongs:
		case err := <-readErr:
			t.Fatalf("connection closed under the limit: %v", err)
		case <-time.After(5 * time.Second):
			t.Fatal("no pong within 5 s")
		}
	})
}
