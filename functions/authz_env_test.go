package functions_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
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
	"pumasi/adapters/embed"
	"pumasi/adapters/local"
	"pumasi/adapters/push"
	"pumasi/functions"
	"pumasi/knowledge"
	"pumasi/localdev"
)

// authzEnv is localdev's handler chain (the @connections endpoint in front of
// the API, the WebSocket hub as gateway and pusher) over a real local store
// and knowledge store, seeded with two rooms.
type authzEnv struct {
	t      *testing.T
	store  *local.Store
	know   *knowledge.Engine
	srv    *httptest.Server
	hub    *push.Hub
	tokens map[string]string
	entry  string
	conn   string
}

func newAuthzEnv(t *testing.T, withConn bool) *authzEnv {
	t.Helper()
	tmpl, entry := seededAuthzHome(t)
	home := t.TempDir()
	if err := os.CopyFS(home, os.DirFS(tmpl)); err != nil {
		t.Fatalf("copy the seeded home: %v", err)
	}
	e := openAuthzEnv(t, home)
	e.entry = entry
	if withConn {
		ws := e.dialWS("/machines/m1/ws", e.tokens["machine:m1"], 101)
		t.Cleanup(func() { ws.Close() })
		deadline := time.Now().Add(5 * time.Second)
		for len(e.hub.Connections("m1")) == 0 {
			if time.Now().After(deadline) {
				t.Fatal("the hub never registered m1's connection")
			}
			time.Sleep(5 * time.Millisecond)
		}
		e.conn = e.hub.Connections("m1")[0]
	}
	return e
}

// authzSeed is the home every authzEnv starts from, seeded once through the
// API (migrations, two files, two placements, one entry) and closed, so that
// a cell copies a few files instead of migrating and seeding its own: the
// matrix's 472 cells each did, three fsynced migrations and five seeding
// writes, most of functions' wall time under -race. The copy is the same
// database and the same blobs, so every cell still starts from exactly this
// state; the seeding requests are checked here once.
var authzSeed struct {
	once  sync.Once
	ok    bool
	dir   string
	entry string
}

// seededAuthzHome returns the seeded home's folder and entry id, making it
// on the first call (with that caller's t for its failures).
func seededAuthzHome(t *testing.T) (dir, entry string) {
	t.Helper()
	authzSeed.once.Do(func() {
		dir, err := os.MkdirTemp("", "authz-seed-")
		if err != nil {
			t.Fatal(err)
		}
		authzSeed.dir = dir
		functions.AfterTests = append(functions.AfterTests, func() { os.RemoveAll(dir) })
		home := filepath.Join(dir, "home")
		e, closeEnv := openAuthzEnvUntil(t, home)
		seed := func(method, path, body string, header map[string]string, want int) []byte {
			t.Helper()
			status, b, _ := e.do(method, path, "admin", body, header)
			if status != want {
				t.Fatalf("seed %s %s = %d %s", method, path, status, b)
			}
			return b
		}
		seed("POST", "/rooms/r1/files?name=spec.md", "# spec\n", nil, 201)
		seed("POST", "/rooms/r2/files?name=plan.md", "# plan\n", nil, 201)
		seed("PUT", "/rooms/r1/agents/a1", `{"machine_id":"m1"}`, nil, 200)
		seed("PUT", "/rooms/r2/agents/a2", `{"machine_id":"m2"}`, nil, 200)
		var res struct {
			Data struct {
				Entry knowledge.Entry `json:"entry"`
			} `json:"data"`
		}
		if err := json.Unmarshal(seed("POST", "/knowledge/contribute", findingB, map[string]string{functions.HeaderAgent: "seeder"}, 201), &res); err != nil || res.Data.Entry.ID == "" {
			t.Fatalf("seed entry: %v", err)
		}
		if err := closeEnv(); err != nil {
			t.Fatalf("close the seeded home: %v", err)
		}
		authzSeed.entry = res.Data.Entry.ID
		authzSeed.ok = true
	})
	if !authzSeed.ok {
		t.Fatal("the seeded home could not be made (the first test to ask says why)")
	}
	return filepath.Join(authzSeed.dir, "home"), authzSeed.entry
}

// openAuthzEnv opens the handler chain over the store at home, closed when
// the test ends.
func openAuthzEnv(t *testing.T, home string) *authzEnv {
	t.Helper()
	e, closeEnv := openAuthzEnvUntil(t, home)
	t.Cleanup(func() { closeEnv() })
	return e
}

// openAuthzEnvUntil opens the handler chain over the store at home and
// returns it with the function that closes it.
func openAuthzEnvUntil(t *testing.T, home string) (*authzEnv, func() error) {
	t.Helper()
	ctx := context.Background()
	st, err := local.Open(ctx, home, local.Options{})
	if err != nil {
		t.Fatalf("open store: %v", err)
	}
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	hub := push.NewHub(quiet)
	know := local.NewKnowledge(st)
	api := &functions.API{Store: st, Secret: authzSecret, Pusher: hub, Socket: hub, Log: quiet,
		Knowledge: know, Embedder: embed.NewHashed(0), Metrics: functions.NewMetrics()}
	srv := httptest.NewServer(localdev.ConnectionsHandler(hub, authzSecret, api.MetricsHandler(api.Handler())))
	e := &authzEnv{t: t, store: st, know: know, srv: srv, hub: hub, tokens: map[string]string{}}

	now := time.Now()
	sign := func(secret []byte, scope string, issued time.Time) string {
		tok, err := pumasi.SignToken(secret, "matrix", []string{scope}, time.Hour, issued)
		if err != nil {
			t.Fatalf("sign %s: %v", scope, err)
		}
		return tok
	}
	e.tokens["forged"] = sign(forgedSecret, pumasi.ScopeAdmin, now)
	e.tokens["expired"] = sign(authzSecret, pumasi.ScopeAdmin, now.Add(-2*time.Hour))
	for _, c := range creds[3:] {
		e.tokens[c] = sign(authzSecret, c, now)
	}
	return e, func() error { hub.Close(); srv.Close(); return st.Close() }
}

// do sends one request with credential cred and returns status, body and
// headers.
func (e *authzEnv) do(method, path, cred, body string, header map[string]string) (int, []byte, http.Header) {
	e.t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, e.srv.URL+path, rd)
	if err != nil {
		e.t.Fatalf("new request: %v", err)
	}
	if tok := e.tokens[cred]; tok != "" {
		req.Header.Set("Authorization", "Bearer "+tok)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, b, res.Header
}

// dialWS opens a real WebSocket with token and checks the handshake status.
// It returns the connection when the upgrade succeeded.
func (e *authzEnv) dialWS(path, token string, want int) *websocket.Conn {
	e.t.Helper()
	status, ws, body := e.tryWS(path, token)
	if status != want {
		e.t.Fatalf("websocket %s = %d %s, want %d", path, status, body, want)
	}
	return ws
}

func (e *authzEnv) tryWS(path, token string) (int, *websocket.Conn, []byte) {
	e.t.Helper()
	h := http.Header{}
	if token != "" {
		h.Set("Authorization", "Bearer "+token)
	}
	d := websocket.Dialer{HandshakeTimeout: 5 * time.Second}
	ws, res, err := d.Dial("ws"+strings.TrimPrefix(e.srv.URL, "http")+path, h)
	if res == nil {
		e.t.Fatalf("websocket %s: no response: %v", path, err)
	}
	var body []byte
	if res.Body != nil {
		body, _ = io.ReadAll(res.Body)
		res.Body.Close()
	}
	return res.StatusCode, ws, body
}

// fingerprint is what a refused request must leave unchanged: both rooms'
// revisions and files, every placement, the machines' statuses and the
// seeded entry's counters.
func (e *authzEnv) fingerprint() string {
	e.t.Helper()
	ctx := context.Background()
	var b strings.Builder
	for _, room := range []string{"r1", "r2"} {
		l, err := e.store.ListFiles(ctx, room)
		if err != nil {
			e.t.Fatal(err)
		}
		fmt.Fprintf(&b, "%s@%d:", room, l.Rev)
		for _, f := range l.Files {
			fmt.Fprintf(&b, " %s=%s", f.Name, f.SHA256)
		}
		b.WriteString("\n")
	}
	for _, agent := range []string{"a1", "a2", "a9"} {
		p, err := e.store.AgentPlacement(ctx, agent)
		fmt.Fprintf(&b, "%s in %s on %s (%s)\n", agent, p.RoomID, p.MachineID, pumasi.ErrorCode(err))
	}
	sts, err := e.store.AgentStatuses(ctx, []string{"a1", "a2"})
	if err != nil {
		e.t.Fatal(err)
	}
	fmt.Fprintf(&b, "statuses %d\n", len(sts))
	ent, err := e.know.GetEntry(ctx, e.entry)
	if err != nil {
		e.t.Fatal(err)
	}
	fmt.Fprintf(&b, "entry %d/%d/%d\n", ent.ContributionCount, ent.CitationCount, ent.EndorsementCount)
	hits, err := e.know.Query(ctx, knowledge.QueryInput{Hive: knowledge.DefaultHive, Model: embed.NewHashed(0).Model(), Vector: mustEmbed(e.t, "Redis SET NX PX lock"), Limit: knowledge.MaxQueryLimit})
	if err != nil {
		e.t.Fatal(err)
	}
	fmt.Fprintf(&b, "entries %d\n", len(hits))
	return b.String()
}

func mustEmbed(t *testing.T, text string) []float32 {
	t.Helper()
	v, err := embed.NewHashed(0).Embed(context.Background(), []string{text})
	if err != nil || len(v) != 1 {
		t.Fatalf("embed: %v", err)
	}
	return v[0]
}
