package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"testing"
	"time"

	"pumasi"
)

// server is a running localdev.
type server struct {
	t     testing.TB
	home  string
	port  int
	url   string
	proc  *proc
	admin string
	hc    *http.Client
	env   []string // extra environment, e.g. PUMASI_STORAGE
	args  []string // extra localdev flags, e.g. --gateway-push
}

// startLocaldev starts localdev without its in-process daemon, with env
// added to its environment (e.g. a backend's PUMASI_STORAGE).
func startLocaldev(t testing.TB, env ...string) *server {
	t.Helper()
	s := &server{t: t, home: t.TempDir(), port: freePort(t), hc: newClient(), env: env}
	s.url = fmt.Sprintf("http://127.0.0.1:%d", s.port)
	s.admin = signToken(t, pumasi.ScopeAdmin)
	s.start()
	return s
}

// start (re)starts the localdev process on the same port and home.
func (s *server) start() {
	s.t.Helper()
	s.proc = startProc(s.t, fmt.Sprintf("localdev-%d", time.Now().UnixNano()), s.env,
		append([]string{"localdev", "--home", s.home, "--addr", fmt.Sprintf("127.0.0.1:%d", s.port), "--no-machine"}, s.args...)...)
	s.waitUp()
}

func (s *server) waitUp() {
	s.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if s.proc.exited() {
			s.t.Fatalf("localdev exited during start")
		}
		resp, err := s.hc.Get(s.url + "/healthz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	s.t.Fatalf("localdev did not answer /healthz within 20s")
}

func newClient() *http.Client { return &http.Client{Timeout: 30 * time.Second} }

func signToken(t testing.TB, scopes ...string) string {
	t.Helper()
	tok, err := pumasi.SignToken([]byte(secret), "e2e", scopes, time.Hour, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

type response struct {
	status int
	header http.Header
	body   []byte
}

func (s *server) doAs(token, method, path string, body []byte) response {
	s.t.Helper()
	req, err := http.NewRequest(method, s.url+path, bytes.NewReader(body))
	if err != nil {
		s.t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := s.hc.Do(req)
	if err != nil {
		s.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return response{resp.StatusCode, resp.Header, b}
}

func (s *server) do(method, path string, body []byte) response {
	s.t.Helper()
	return s.doAs(s.admin, method, path, body)
}

func (s *server) place(room, agent, machine string) {
	s.t.Helper()
	if r := s.do("PUT", "/rooms/"+room+"/agents/"+agent, []byte(`{"machine_id":"`+machine+`"}`)); r.status != 200 {
		s.t.Fatalf("place %s in %s on %s: %d %s", agent, room, machine, r.status, r.body)
	}
}

func (s *server) upload(room, name string, body []byte) {
	s.t.Helper()
	r := s.do("POST", "/rooms/"+room+"/files?name="+url.QueryEscape(name), body)
	if r.status != 201 && r.status != 200 {
		s.t.Fatalf("upload %s/%s: %d %s", room, name, r.status, r.body)
	}
}

func (s *server) remove(room, name string) {
	s.t.Helper()
	if r := s.do("DELETE", "/rooms/"+room+"/files/"+url.PathEscape(name), nil); r.status != 204 {
		s.t.Fatalf("delete %s/%s: %d %s", room, name, r.status, r.body)
	}
}

type delivery struct {
	AgentID   string     `json:"agent_id"`
	MachineID string     `json:"machine_id"`
	Synced    bool       `json:"synced"`
	Missing   []string   `json:"missing"`
	LastSeen  *time.Time `json:"last_seen"`
}

func (s *server) agents(room string) map[string]delivery {
	s.t.Helper()
	r := s.do("GET", "/rooms/"+room+"/agents", nil)
	if r.status != 200 {
		s.t.Fatalf("agents of %s: %d %s", room, r.status, r.body)
	}
	var out struct {
		Agents []delivery `json:"agents"`
	}
	if err := json.Unmarshal(r.body, &out); err != nil {
		s.t.Fatal(err)
	}
	m := map[string]delivery{}
	for _, a := range out.Agents {
		m[a.AgentID] = a
	}
	return m
}
