package e2e

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/aws"

	"pumasi"
	"pumasi/adapters/local"
	"pumasi/adapters/push"
	"pumasi/functions"
	"pumasi/localdev"
)

// wsStage is the stage of the loopback WebSocket API.
const wsStage = "prod"

// wsFront stands in for API Gateway's WebSocket API on a loopback port,
// running the real route functions of functions/ws.go: an upgrade to
// /<stage> runs $connect (API.WSConnect, with the request's headers and
// query) before it is answered, under an id in API Gateway's format; every
// data message runs $default and its body goes back on the connection;
// every close runs $disconnect. POST/DELETE /<stage>/@connections/{id} is
// localdev's management endpoint over the same hub. Like API Gateway it
// never pings, closes a connection idle for MaxIdle and every connection at
// MaxLifetime (10 minutes and 2 hours in AWS, scaled down here).
type wsFront struct {
	api   *functions.API
	store pumasi.ConnectionStore
	hub   *push.Hub
	srv   *httptest.Server
	url   string // ws://127.0.0.1:port/<stage>

	refuse atomic.Bool // answer upgrades 503, as a gateway that is down

	connects, disconnects, pings, pongs atomic.Int64
	posts                               atomic.Int64 // @connections POSTs answered 200

	mu       sync.Mutex
	accepted []time.Time  // when each $connect was accepted
	queries  []url.Values // the query of each $connect
	bearer   []bool       // whether each $connect had an Authorization header
}

func startWSFront(t *testing.T, api *functions.API, store pumasi.ConnectionStore, maxIdle, maxLifetime time.Duration) *wsFront {
	t.Helper()
	f := &wsFront{api: api, store: store, hub: push.NewHub(quietLog())}
	f.hub.PingInterval = 24 * time.Hour // API Gateway does not ping clients
	f.hub.ReadLimit = pumasi.MaxInlineFrame
	f.hub.MaxIdle, f.hub.MaxLifetime = maxIdle, maxLifetime
	f.hub.OnMessage = func(ctx context.Context, machine, id string, msg []byte) []byte {
		res, err := api.WSDefault(ctx, wsEvent(nil, id, "$default", "MESSAGE", string(msg)))
		if err != nil || res.Body == "" {
			return nil
		}
		if strings.Contains(string(msg), `"ping"`) {
			f.pings.Add(1)
			if res.Body == `{"type":"pong"}` {
				f.pongs.Add(1)
			}
		}
		return []byte(res.Body)
	}
	f.hub.OnDisconnect = func(ctx context.Context, machine, id string) {
		if _, err := api.WSDisconnect(ctx, wsEvent(nil, id, "$disconnect", "DISCONNECT", "")); err == nil {
			f.disconnects.Add(1)
		}
	}
	mgmt := localdev.ConnectionsHandler(f.hub, api.Secret, http.HandlerFunc(f.upgrade))
	counted := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || !strings.HasPrefix(r.URL.Path, "/@connections/") {
			mgmt.ServeHTTP(w, r) // the upgrade needs the server's Hijacker
			return
		}
		rec := &statusRecorder{ResponseWriter: w, status: 200}
		mgmt.ServeHTTP(rec, r)
		if rec.status == 200 {
			f.posts.Add(1)
		}
	})
	f.srv = httptest.NewServer(http.StripPrefix("/"+wsStage, counted))
	t.Cleanup(func() { f.hub.Close(); f.srv.Close() })
	f.url = "ws" + strings.TrimPrefix(f.srv.URL, "http") + "/" + wsStage
	return f
}

// statusRecorder remembers the status a handler wrote.
type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (r *statusRecorder) WriteHeader(code int) { r.status = code; r.ResponseWriter.WriteHeader(code) }

// upgrade serves the stage root: $connect decides, the hub serves.
func (f *wsFront) upgrade(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/" && r.URL.Path != "" {
		http.NotFound(w, r)
		return
	}
	if f.refuse.Load() {
		http.Error(w, "gateway unavailable", http.StatusServiceUnavailable)
		return
	}
	id := gatewayConnID()
	f.hub.ServeConnection(w, r, id, func(ctx context.Context) (string, bool) {
		res, err := f.api.WSConnect(ctx, wsEvent(r, id, "$connect", "CONNECT", ""))
		if err != nil || res.StatusCode != http.StatusOK {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(res.StatusCode)
			_, _ = w.Write([]byte(res.Body))
			return "", false
		}
		c, err := f.store.LookupConnection(ctx, id)
		if err != nil {
			http.Error(w, "connect recorded nothing", http.StatusInternalServerError)
			return "", false
		}
		f.mu.Lock()
		f.accepted = append(f.accepted, time.Now())
		f.queries = append(f.queries, r.URL.Query())
		f.bearer = append(f.bearer, strings.HasPrefix(r.Header.Get("Authorization"), "Bearer "))
		f.mu.Unlock()
		f.connects.Add(1)
		return c.MachineID, true
	})
}

func (f *wsFront) acceptedAt(i int) time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.accepted[i]
}

// gatewayConnID returns an id shaped like API Gateway's ("L0SM9cOFvHcCIhw="):
// base64 of 11 random bytes, so it may hold '+', '/' and '='.
func gatewayConnID() string {
	b := make([]byte, 11)
	_, _ = rand.Read(b)
	return base64.StdEncoding.EncodeToString(b)
}

// wsEvent builds the event API Gateway gives a WebSocket route function;
// only $connect carries the request's headers and query.
func wsEvent(r *http.Request, id, route, kind, body string) events.APIGatewayWebsocketProxyRequest {
	ev := events.APIGatewayWebsocketProxyRequest{Body: body}
	ev.RequestContext.ConnectionID = id
	ev.RequestContext.RouteKey = route
	ev.RequestContext.EventType = kind
	ev.RequestContext.Stage = wsStage
	if r != nil {
		ev.Headers = map[string]string{}
		ev.MultiValueHeaders = map[string][]string{}
		for k, vs := range r.Header {
			ev.Headers[k] = vs[0]
			ev.MultiValueHeaders[k] = vs
		}
		ev.QueryStringParameters = map[string]string{}
		ev.MultiValueQueryStringParameters = map[string][]string{}
		for k, vs := range r.URL.Query() {
			ev.QueryStringParameters[k] = vs[0]
			ev.MultiValueQueryStringParameters[k] = vs
		}
	}
	return ev
}

// quietLog logs warnings and errors only, to the test's stderr.
func quietLog() *slog.Logger {
	return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
}

// bearerTransport signs @connections calls the way localdev's endpoint
// wants (an admin token where AWS wants SigV4).
type bearerTransport string

func (b bearerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+string(b))
	return http.DefaultTransport.RoundTrip(r)
}

// TestDaemonOnWebSocketAPI runs a real `pumasi machine run --ws` against
// the AWS arrangement, offline: the HTTP API (functions' handler, no
// WebSocket route, as in AWS) on one port, the WebSocket API (functions/
// ws.go behind wsFront) on another, pushes by the API Gateway adapter
// through @connections to the ids $connect recorded. It shows the daemon
// dials ?machine=, keeps an idle connection alive with pings answered by
// $default, receives pushed frames, and takes the lifetime close and a
// server-side close as plain reconnects with backfill.
func TestDaemonOnWebSocketAPI(t *testing.T) {
	const (
		maxIdle     = time.Second
		maxLifetime = 8 * time.Second
		wsPing      = 200 * time.Millisecond
	)
	ctx := context.Background()
	st, err := local.Open(ctx, t.TempDir(), local.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	api := &functions.API{Store: st, Secret: []byte(secret), Log: quietLog()}
	front := startWSFront(t, api, st, maxIdle, maxLifetime)
	admin := signToken(t, pumasi.ScopeAdmin)
	gw, err := push.NewGateway(ctx, front.srv.URL+"/"+wsStage, st, push.GatewayOptions{
		Region:      "us-east-1",
		Credentials: aws.AnonymousCredentials{},
		HTTPClient:  &http.Client{Transport: bearerTransport(admin), Timeout: 10 * time.Second},
	})
	if err != nil {
		t.Fatal(err)
	}
	api.Pusher = gw
	httpAPI := httptest.NewServer(api.Handler())
	t.Cleanup(httpAPI.Close)
	s := &server{t: t, url: httpAPI.URL, admin: admin, hc: newClient()}

	// In AWS the HTTP API has no WebSocket route.
	if r := s.doAs(signToken(t, pumasi.ScopeMachine+"m1"), "GET", "/machines/m1/ws", nil); r.status != 404 {
		t.Fatalf("GET /machines/m1/ws on the HTTP API = %d, want 404", r.status)
	}

	s.place("r1", "a1", "m1")
	want := map[string]string{"before.md": "there before the daemon\n"}
	s.upload("r1", "before.md", []byte(want["before.md"]))
	home := t.TempDir()
	d := startProc(t, "machine-m1-ws", nil, "machine", "run", "-v",
		"--server", httpAPI.URL, "--ws", front.url, "--ws-ping", wsPing.String(),
		"--machine", "m1", "--token", signToken(t, pumasi.ScopeMachine+"m1"), "--home", home, "--poll", "1h")
	waitShared(t, 20*time.Second, home, "a1", want)
	waitFor(t, 10*time.Second, "the first $connect", func() bool { return front.connects.Load() == 1 })
	first := front.acceptedAt(0)
	connID := func() string {
		cs, err := st.MachineConnections(ctx, "m1")
		if err != nil || len(cs) != 1 {
			t.Fatalf("m1 connections = %v, %v; want exactly one", cs, err)
		}
		return cs[0].ID
	}
	id1 := connID()

	// Idle: three idle timeouts pass; the daemon's pings, answered by
	// $default, keep the one connection open.
	time.Sleep(time.Until(first.Add(3 * maxIdle)))
	if n := front.connects.Load(); n != 1 {
		t.Fatalf("$connect ran %d times in %v, want 1: the idle close fired despite pings", n, 3*maxIdle)
	}
	pings, pongs := front.pings.Load(), front.pongs.Load()
	if pings < 8 || pongs != pings {
		t.Fatalf("in %v: %d pings, %d pongs; want at least 8, each answered", 3*maxIdle, pings, pongs)
	}

	// Push: a small file rides inline, a 200 KiB one is announced and
	// fetched; both arrive over the same connection (poll is hourly).
	postsBefore := front.posts.Load()
	small := "pushed inline through @connections\n"
	big := strings.Repeat("a line of a big file, fetched not inlined\n", 200<<10/42+1)
	start := time.Now()
	s.upload("r1", "small.md", []byte(small))
	s.upload("r1", "big.md", []byte(big))
	want["small.md"], want["big.md"] = small, big
	waitShared(t, 3*time.Second, home, "a1", want)
	t.Logf("two uploads to the daemon's disk through the WebSocket API in %v", time.Since(start).Round(time.Millisecond))
	if n := front.connects.Load(); n != 1 || connID() != id1 {
		t.Fatalf("$connect ran %d times during the push; want the files over the first connection", n)
	}
	if n := front.posts.Load() - postsBefore; n < 2 {
		t.Fatalf("@connections POSTs = %d, want at least 2", n)
	}

	// Lifetime: the gateway closes the connection at maxLifetime; the
	// daemon reconnects, and $disconnect dropped the old record.
	waitFor(t, maxLifetime+5*time.Second, "a reconnect after the lifetime close", func() bool { return front.connects.Load() == 2 })
	if lived := front.acceptedAt(1).Sub(first); lived < maxLifetime-500*time.Millisecond {
		t.Fatalf("first connection lived %v, want about %v (closed by the lifetime limit)", lived, maxLifetime)
	}
	waitFor(t, 5*time.Second, "the old record dropped", func() bool {
		cs, _ := st.MachineConnections(ctx, "m1")
		return len(cs) == 1 && cs[0].ID != id1
	})
	id2 := connID()
	s.upload("r1", "after-lifetime.md", []byte("after the lifetime close\n"))
	want["after-lifetime.md"] = "after the lifetime close\n"
	waitShared(t, 3*time.Second, home, "a1", want)

	// Server-side close while the gateway refuses new connections: the
	// upload made meanwhile reaches nobody; once the daemon gets back in,
	// its backfill brings it. (First let the daemon's confirming reconcile,
	// a second after the last frame, pass.)
	time.Sleep(1500 * time.Millisecond)
	front.refuse.Store(true)
	if r := deleteConnection(t, front, admin, id2); r != http.StatusNoContent {
		t.Fatalf("DELETE @connections/%s = %d, want 204", id2, r)
	}
	waitFor(t, 5*time.Second, "the closed connection's record dropped", func() bool {
		cs, _ := st.MachineConnections(ctx, "m1")
		return len(cs) == 0
	})
	s.upload("r1", "while-away.md", []byte("uploaded while the daemon was away\n"))
	time.Sleep(1500 * time.Millisecond)
	if got := readShared(home, "a1"); got["while-away.md"] != "" {
		t.Fatalf("while-away.md arrived with no connection and an hourly poll")
	}
	front.refuse.Store(false)
	want["while-away.md"] = "uploaded while the daemon was away\n"
	waitShared(t, 15*time.Second, home, "a1", want)
	if n := front.connects.Load(); n != 3 {
		t.Fatalf("$connect ran %d times, want 3", n)
	}

	d.stop(t)
	waitFor(t, 5*time.Second, "no record after the daemon stopped", func() bool {
		cs, _ := st.MachineConnections(ctx, "m1")
		return len(cs) == 0
	})
	// The daemon took every pong as an answer, not as a frame to complain
	// about.
	log, _ := os.ReadFile(d.log)
	if strings.Contains(string(log), "unknown type") || strings.Contains(string(log), "not JSON") {
		t.Fatalf("daemon log complains about the pongs:\n%s", log)
	}
	// Every $connect named the machine in the query and carried the token
	// in the Authorization header, not in the URL.
	front.mu.Lock()
	for i, q := range front.queries {
		if q.Get("machine") != "m1" || q.Has("token") || !front.bearer[i] {
			t.Errorf("$connect %d: query %v, bearer header %v; want machine=m1, no token, a bearer header", i+1, q, front.bearer[i])
		}
	}
	front.mu.Unlock()
	t.Logf("$connect %d, $disconnect %d, pings %d (all answered), @connections POSTs %d",
		front.connects.Load(), front.disconnects.Load(), front.pings.Load(), front.posts.Load())
}

func deleteConnection(t *testing.T, f *wsFront, admin, id string) int {
	t.Helper()
	req, _ := http.NewRequest("DELETE", f.srv.URL+"/"+wsStage+"/@connections/"+url.PathEscape(id), nil)
	req.Header.Set("Authorization", "Bearer "+admin)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res.StatusCode
}
