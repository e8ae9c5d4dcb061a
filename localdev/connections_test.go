package localdev_test

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"pumasi"
	"pumasi/adapters/local"
	"pumasi/adapters/push"
	"pumasi/functions"
	"pumasi/localdev"
	"pumasi/machine"
)

var ldSecret = []byte("localdev-gateway-secret-0123456789ab")

// TestGatewayPushToDaemon runs localdev's pieces the way GatewayPush wires
// them (the API Gateway adapter posting to localdev's own @connections
// endpoint) with a real machine daemon polling only hourly, and shows that
// a file uploaded after the daemon connected reaches its disk through
// frames posted to @connections, without a reconnect.
func TestGatewayPushToDaemon(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	home := t.TempDir()
	st, err := local.Open(ctx, filepath.Join(home, "server"), local.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	hub := push.NewHub(log)
	defer hub.Close()
	api := &functions.API{Store: st, Secret: ldSecret, Socket: hub, Log: log}
	var posts atomic.Int64
	// seen logs the daemon's requests in order, so the test waits for the
	// connect's reconcile to end instead of sleeping.
	var mu sync.Mutex
	var seen []string
	count := func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodPost && len(r.URL.Path) > 14 && r.URL.Path[:14] == "/@connections/" {
				posts.Add(1)
			}
			if strings.HasPrefix(r.URL.Path, "/machines/m1/") {
				mu.Lock()
				seen = append(seen, r.Method+" "+r.URL.Path)
				mu.Unlock()
			}
			next.ServeHTTP(w, r)
		})
	}
	// fetches reports whether a reconcile ran whole after the last socket
	// open: an assignments fetch, then a status post.
	fetches := func() bool {
		mu.Lock()
		defer mu.Unlock()
		connected, fetched, done := false, false, false
		for _, r := range seen {
			switch r {
			case "GET /machines/m1/ws":
				connected, fetched, done = true, false, false
			case "GET /machines/m1/assignments":
				fetched = connected
			case "POST /machines/m1/status":
				done = done || fetched
			}
		}
		return done
	}
	srv := httptest.NewServer(count(localdev.ConnectionsHandler(hub, ldSecret, api.Handler())))
	defer srv.Close()
	admin, _ := pumasi.SignToken(ldSecret, "t", []string{pumasi.ScopeAdmin}, time.Hour, time.Now())
	if api.Pusher, err = localdev.GatewayPusher(ctx, srv.URL, push.HubConnections{Hub: hub}, admin, log); err != nil {
		t.Fatal(err)
	}

	do := func(method, path string, body []byte) int {
		req, _ := http.NewRequest(method, srv.URL+path, bytes.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+admin)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode
	}
	if got := do("PUT", "/rooms/r1/agents/a1", []byte(`{"machine_id":"m1"}`)); got != 200 {
		t.Fatalf("place = %d", got)
	}

	mtok, _ := pumasi.SignToken(ldSecret, "t", []string{"machine:m1"}, time.Hour, time.Now())
	dhome := filepath.Join(home, "daemon")
	done := make(chan error, 1)
	go func() {
		done <- machine.Run(ctx, machine.Config{Server: srv.URL, Machine: "m1", Token: mtok, Home: dhome, Poll: time.Hour, Log: log})
	}()
	defer func() {
		cancel()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Error("daemon did not stop")
		}
	}()
	var conn string
	waitFor(t, "daemon connects to the gateway", func() bool {
		ids := hub.Connections("m1")
		if len(ids) == 1 {
			conn = ids[0]
		}
		return conn != ""
	})
	// The reconcile the connect asks for has ended (its status post came
	// after the socket opened): from here on, with hourly polls, only
	// frames can bring a change, which the end checks.
	waitFor(t, "the connect's reconcile ends", fetches)

	shared := filepath.Join(dhome, "agents", "a1", "memory", "shared")
	before := posts.Load()
	for i, body := range []string{"first version\n", "second version, pushed\n"} {
		if got := do("POST", "/rooms/r1/files?name=notes.md", []byte(body)); got != 201 {
			t.Fatalf("upload %d = %d", i, got)
		}
		waitFor(t, "daemon writes notes.md", func() bool {
			b, err := os.ReadFile(filepath.Join(shared, "notes.md"))
			return err == nil && string(b) == body
		})
	}
	big := bytes.Repeat([]byte("pumasi gateway frames, fetched not inlined\n"), 200<<10/43+1)
	if got := do("POST", "/rooms/r1/files?name=big.md", big); got != 201 {
		t.Fatalf("upload big = %d", got)
	}
	waitFor(t, "daemon fetches big.md announced without content", func() bool {
		b, err := os.ReadFile(filepath.Join(shared, "big.md"))
		return err == nil && bytes.Equal(b, big)
	})
	if got := do("DELETE", "/rooms/r1/files/notes.md", nil); got != 204 {
		t.Fatalf("delete = %d", got)
	}
	waitFor(t, "daemon removes notes.md", func() bool {
		_, err := os.Stat(filepath.Join(shared, "notes.md"))
		return os.IsNotExist(err)
	})
	if n := posts.Load() - before; n < 4 {
		t.Fatalf("@connections POSTs = %d, want at least 4 (one per change)", n)
	}
	if ids := hub.Connections("m1"); len(ids) != 1 || ids[0] != conn {
		t.Fatalf("connections = %v, want the same single connection %s (no reconnect)", ids, conn)
	}
}

func waitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting: %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestRunGatewayPush runs localdev itself with GatewayPush and its
// in-process daemon polling hourly: a file uploaded after the daemon
// connected lands in the agent's memory through @connections.
func TestRunGatewayPush(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	home := t.TempDir()
	done := make(chan error, 1)
	go func() {
		done <- localdev.Run(ctx, localdev.Config{Home: home, Addr: "127.0.0.1:0", Secret: ldSecret, GatewayPush: true, Poll: time.Hour,
			Log: slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))})
	}()
	defer func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("Run: %v", err)
			}
		case <-time.After(15 * time.Second):
			t.Error("localdev did not stop")
		}
	}()
	var base string
	waitFor(t, "localdev writes its address", func() bool {
		b, err := os.ReadFile(filepath.Join(home, "localdev.addr"))
		base = string(bytes.TrimSpace(b))
		return err == nil && base != ""
	})
	admin, _ := pumasi.SignToken(ldSecret, "t", []string{pumasi.ScopeAdmin}, time.Hour, time.Now())
	do := func(method, path string, body []byte) int {
		req, _ := http.NewRequest(method, base+path, bytes.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+admin)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode
	}
	if got := do("PUT", "/rooms/r1/agents/a1", []byte(`{"machine_id":"local"}`)); got != 200 {
		t.Fatalf("place = %d", got)
	}
	shared := filepath.Join(home, "agents", "a1", "memory", "shared")
	waitFor(t, "daemon creates the agent's shared folder", func() bool {
		_, err := os.Stat(shared)
		return err == nil
	})
	// The socket is open and the reconcile it asked for has fetched the
	// assignments (the second fetch: the first is the start's): from here
	// on, with hourly polls, only a frame can bring a change (the
	// confirming reconcile after a frame is not asked for without one).
	waitFor(t, "daemon connected and reconciled", func() bool {
		m := requestCounts(t, base, admin)
		return m["connected"] >= 1 && m["GET /machines/{machine}/assignments"] >= 2
	})
	body := []byte("pushed through @connections\n")
	if got := do("POST", "/rooms/r1/files?name=pushed.md", body); got != 201 {
		t.Fatalf("upload = %d", got)
	}
	waitFor(t, "daemon writes pushed.md", func() bool {
		b, err := os.ReadFile(filepath.Join(shared, "pushed.md"))
		return err == nil && bytes.Equal(b, body)
	})
}

// requestCounts reads localdev's /metrics: requests answered by "METHOD
// route", whatever their status, and "connected", the machines connected.
func requestCounts(t *testing.T, base, token string) map[string]int {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, base+"/metrics", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("GET /metrics = %d, %v", res.StatusCode, err)
	}
	out := map[string]int{}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "pumasi_connected_machines "); ok {
			n, _ := strconv.ParseFloat(v, 64)
			out["connected"] = int(n)
		}
		labels, ok := strings.CutPrefix(line, "pumasi_http_requests_total{")
		if !ok {
			continue
		}
		route, method := label(labels, "route"), label(labels, "method")
		v, err := strconv.ParseFloat(line[strings.LastIndexByte(line, ' ')+1:], 64)
		if err != nil {
			t.Fatalf("metric line %q: %v", line, err)
		}
		out[method+" "+route] += int(v)
	}
	return out
}

// label is the value of name in a Prometheus label list (a="x",b="y"}…).
func label(labels, name string) string {
	_, v, ok := strings.Cut(labels, name+`="`)
	if !ok {
		return ""
	}
	v, _, _ = strings.Cut(v, `"`)
	return v
}
