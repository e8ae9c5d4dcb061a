package machine

// The test harness: a real API over a real local store and hub, daemons
// started and stopped, and the waits that replace sleeps.

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"pumasi"
	"pumasi/adapters/local"
	"pumasi/adapters/push"
	"pumasi/functions"
)

var testSecret = []byte("machine-test-secret-0123456789abcdef")

// server is a real API over a real local store with the real hub.
type server struct {
	t     *testing.T
	store *local.Store
	hub   *push.Hub
	srv   *httptest.Server
	admin string

	// seen logs "METHOD path" of every request, in order, so that a test
	// can wait for a whole reconcile instead of sleeping.
	mu   sync.Mutex
	seen []string
}

func newServer(t *testing.T) *server {
	t.Helper()
	st, err := local.Open(context.Background(), t.TempDir(), local.Options{})
	if err != nil {
		t.Fatal(err)
	}
	hub := push.NewHub(quietLog())
	api := &functions.API{Store: st, Secret: testSecret, Pusher: hub, Socket: hub, Log: quietLog()}
	s := &server{t: t, store: st, hub: hub}
	h := api.Handler()
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.seen = append(s.seen, r.Method+" "+r.URL.Path)
		s.mu.Unlock()
		h.ServeHTTP(w, r)
	}))
	srv := s.srv
	t.Cleanup(func() { hub.Close(); srv.Close(); st.Close() })
	s.admin = s.token(pumasi.ScopeAdmin)
	return s
}

// mark is the number of requests the server has seen, for waitSync.
func (s *server) mark() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.seen)
}

// waitSync waits until machine's daemon ran a whole reconcile after the
// mark since: it fetched its assignments and then posted its status (the
// last step of a reconcile), both after the mark. A negative check made
// after it cannot pass only because the daemon had not got to it yet.
func (s *server) waitSync(t *testing.T, machine string, since int) {
	t.Helper()
	get, post := "GET /machines/"+machine+"/assignments", "POST /machines/"+machine+"/status"
	deadline := time.Now().Add(10 * time.Second)
	for {
		s.mu.Lock()
		fetched, done := false, false
		for _, r := range s.seen[min(since, len(s.seen)):] {
			fetched = fetched || r == get
			done = done || fetched && r == post
		}
		s.mu.Unlock()
		if done {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("daemon %s ran no whole reconcile within 10 s", machine)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func quietLog() *slog.Logger {
	if os.Getenv("PUMASI_TEST_LOG") != "" {
		return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	return slog.New(slog.NewTextHandler(io.Discard, nil))
}

func (s *server) token(scope string) string {
	s.t.Helper()
	tok, err := pumasi.SignToken(testSecret, "t", []string{scope}, time.Hour, time.Now())
	if err != nil {
		s.t.Fatal(err)
	}
	return tok
}

func (s *server) do(method, path string, body []byte) int {
	s.t.Helper()
	req, err := http.NewRequest(method, s.srv.URL+path, bytes.NewReader(body))
	if err != nil {
		s.t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+s.admin)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		s.t.Fatalf("%s %s: %v", method, path, err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}

func (s *server) place(room, agent, machine string) {
	s.t.Helper()
	if st := s.do("PUT", "/rooms/"+room+"/agents/"+agent, []byte(`{"machine_id":"`+machine+`"}`)); st != 200 {
		s.t.Fatalf("place %s/%s on %s: %d", room, agent, machine, st)
	}
}

func (s *server) upload(room, name, body string) {
	s.t.Helper()
	if st := s.do("POST", "/rooms/"+room+"/files?name="+urlq(name), []byte(body)); st != 201 && st != 200 {
		s.t.Fatalf("upload %s/%s: %d", room, name, st)
	}
}

func (s *server) remove(room, name string) {
	s.t.Helper()
	if st := s.do("DELETE", "/rooms/"+room+"/files/"+urlq(name), nil); st != 204 {
		s.t.Fatalf("delete %s/%s: %d", room, name, st)
	}
}

func urlq(s string) string {
	r := strings.NewReplacer(" ", "%20", "#", "%23", "?", "%3F", "%", "%25")
	return r.Replace(s)
}

// daemon runs Run in the background and stops it at cleanup.
type runningDaemon struct {
	home   string
	cancel context.CancelFunc
	done   chan error
	once   sync.Once
}

func startDaemon(t *testing.T, cfg Config) *runningDaemon {
	t.Helper()
	if cfg.Log == nil {
		cfg.Log = quietLog()
	}
	ctx, cancel := context.WithCancel(context.Background())
	d := &runningDaemon{home: cfg.Home, cancel: cancel, done: make(chan error, 1)}
	go func() { d.done <- Run(ctx, cfg) }()
	t.Cleanup(func() { d.stop(t) })
	return d
}

func (d *runningDaemon) stop(t *testing.T) {
	d.once.Do(func() {
		d.cancel()
		select {
		case err := <-d.done:
			if err != nil {
				t.Errorf("Run returned %v after cancel, want nil", err)
			}
		case <-time.After(10 * time.Second):
			t.Errorf("daemon did not stop within 10s")
		}
	})
}

func (s *server) daemon(t *testing.T, machine, home string, poll time.Duration) *runningDaemon {
	return startDaemon(t, Config{
		Server: s.srv.URL, Machine: machine, Token: s.token(pumasi.ScopeMachine + machine),
		Home: home, Poll: poll,
	})
}

// dirFiles reads an agent's shared directory as name -> content.
func dirFiles(t *testing.T, home, agent string) map[string]string {
	t.Helper()
	dir := filepath.Join(home, "agents", agent, "memory", "shared")
	ents, err := os.ReadDir(dir)
	out := map[string]string{}
	if err != nil {
		return out
	}
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err == nil {
			out[e.Name()] = string(b)
		}
	}
	return out
}

func show(m map[string]string) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, "%s=%q ", k, m[k])
	}
	return b.String()
}

func sameFiles(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if bv, ok := b[k]; !ok || bv != v {
			return false
		}
	}
	return true
}

// waitDir waits until agent's shared dir holds exactly want.
func waitDir(t *testing.T, home, agent string, want map[string]string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		got := dirFiles(t, home, agent)
		if sameFiles(got, want) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("agent %s holds %s, want %s", agent, show(got), show(want))
		}
		time.Sleep(10 * time.Millisecond)
	}
}
