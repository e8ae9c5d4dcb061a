// Package e2e runs pumasi as real processes: localdev and machine daemons
// built from ./cmd/pumasi, on free loopback ports, writing real directories.
package e2e

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"pumasi"
)

// binary is the pumasi CLI built once for the whole run.
var binary string

// secret is PUMASI_SECRET for every process of a test deployment.
const secret = "e2e-secret-0123456789abcdef-0123456789"

func TestMain(m *testing.M) {
	flag.Parse()
	if testing.Short() {
		fmt.Println("e2e: skipped in -short mode (it builds pumasi and runs real processes)")
		os.Exit(0)
	}
	dir, err := os.MkdirTemp("", "pumasi-e2e-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary = filepath.Join(dir, "pumasi")
	build := exec.Command("go", "build", "-o", binary, "../cmd/pumasi")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "build pumasi:", err)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// proc is one running pumasi process; its output goes to a log file that is
// shown when the test fails.
type proc struct {
	name string
	cmd  *exec.Cmd
	log  string
	done chan struct{}
	once sync.Once
}

func startProc(t testing.TB, name string, env []string, args ...string) *proc {
	t.Helper()
	logPath := filepath.Join(t.TempDir(), name+".log")
	f, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(binary, args...)
	cmd.Env = append(os.Environ(), append([]string{"PUMASI_SECRET=" + secret}, env...)...)
	cmd.Stdout, cmd.Stderr = f, f
	if err := cmd.Start(); err != nil {
		f.Close()
		t.Fatalf("start %s: %v", name, err)
	}
	p := &proc{name: name, cmd: cmd, log: logPath, done: make(chan struct{})}
	go func() {
		cmd.Wait()
		f.Close()
		close(p.done)
	}()
	t.Cleanup(func() {
		p.stop(t)
		if t.Failed() {
			b, _ := os.ReadFile(logPath)
			if len(b) > 6000 {
				b = b[len(b)-6000:]
			}
			t.Logf("--- %s log (tail) ---\n%s", name, b)
		}
	})
	return p
}

// stop sends SIGTERM and waits up to 10s, then kills.
func (p *proc) stop(t testing.TB) {
	p.once.Do(func() {
		_ = p.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-p.done:
		case <-time.After(10 * time.Second):
			t.Errorf("%s did not stop on SIGTERM within 10s; killing it", p.name)
			_ = p.cmd.Process.Kill()
			<-p.done
		}
	})
}

// kill sends SIGKILL and waits for the process to be gone.
func (p *proc) kill(t testing.TB) {
	p.once.Do(func() {
		_ = p.cmd.Process.Kill()
		select {
		case <-p.done:
		case <-time.After(10 * time.Second):
			t.Errorf("%s survived SIGKILL for 10s", p.name)
		}
	})
}

func (p *proc) exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// freePort returns a loopback port nobody listens on right now.
func freePort(t testing.TB) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

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

// daemon is a running `pumasi machine run`.
type daemon struct {
	id, home, server string
	poll             time.Duration
	proc             *proc
}

func startDaemon(t testing.TB, id, home, server string, poll time.Duration) *daemon {
	t.Helper()
	d := &daemon{id: id, home: home, server: server, poll: poll}
	d.start(t)
	return d
}

func (d *daemon) start(t testing.TB) {
	t.Helper()
	d.proc = startProc(t, fmt.Sprintf("machine-%s-%d", d.id, time.Now().UnixNano()), nil,
		"machine", "run", "--server", d.server, "--machine", d.id,
		"--token", signToken(t, pumasi.ScopeMachine+d.id), "--home", d.home, "--poll", d.poll.String())
}

func sharedDir(home, agent string) string {
	return filepath.Join(home, "agents", agent, "memory", "shared")
}

// readShared reads an agent's shared directory as name -> content,
// skipping dot files (temp files are not part of an agent's view).
func readShared(home, agent string) map[string]string {
	out := map[string]string{}
	dir := sharedDir(home, agent)
	ents, err := os.ReadDir(dir)
	if err != nil {
		return out
	}
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), ".") {
			continue
		}
		if b, err := os.ReadFile(filepath.Join(dir, e.Name())); err == nil {
			out[e.Name()] = string(b)
		}
	}
	return out
}

func describe(m map[string]string) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		v := m[k]
		if len(v) > 24 {
			v = v[:24] + "…"
		}
		fmt.Fprintf(&b, "%s=%q ", k, v)
	}
	return "{" + b.String() + "}"
}

func equalFiles(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// waitShared waits until agent's shared directory holds exactly want.
func waitShared(t testing.TB, within time.Duration, home, agent string, want map[string]string) {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		got := readShared(home, agent)
		if equalFiles(got, want) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("after %v agent %s holds %s, want %s", within, agent, describe(got), describe(want))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// waitFor polls cond until it holds or within passes.
func waitFor(t testing.TB, within time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %v waiting for %s", within, what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func sum(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// proxy is a TCP proxy in front of localdev that can refuse WebSocket
// upgrades and cut live WebSocket connections, to lose frames on purpose.
type proxy struct {
	ln     net.Listener
	target string
	url    string

	mu      sync.Mutex
	blockWS bool
	ws      map[net.Conn]bool
	all     map[net.Conn]bool
}

func startProxy(t testing.TB, target string) *proxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &proxy{ln: ln, target: target, url: "http://" + ln.Addr().String(), ws: map[net.Conn]bool{}, all: map[net.Conn]bool{}}
	go p.serve()
	t.Cleanup(p.close)
	return p
}

func (p *proxy) serve() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		go p.handle(c)
	}
}

func (p *proxy) track(cs ...net.Conn) {
	p.mu.Lock()
	for _, c := range cs {
		p.all[c] = true
	}
	p.mu.Unlock()
}

func (p *proxy) handle(c net.Conn) {
	p.track(c)
	br := bufio.NewReader(c)
	_ = c.SetReadDeadline(time.Now().Add(30 * time.Second))
	line, err := br.ReadString('\n')
	_ = c.SetReadDeadline(time.Time{})
	if err != nil {
		c.Close()
		return
	}
	isWS := strings.Contains(line, "/ws ")
	p.mu.Lock()
	blocked := isWS && p.blockWS
	p.mu.Unlock()
	if blocked {
		c.Close()
		return
	}
	b, err := net.DialTimeout("tcp", p.target, 5*time.Second)
	if err != nil {
		c.Close()
		return
	}
	p.track(b)
	if isWS {
		p.mu.Lock()
		p.ws[c], p.ws[b] = true, true
		p.mu.Unlock()
	}
	if _, err := io.WriteString(b, line); err != nil {
		c.Close()
		b.Close()
		return
	}
	go func() { io.Copy(b, br); b.Close() }()
	io.Copy(c, b)
	c.Close()
	p.mu.Lock()
	delete(p.ws, c)
	delete(p.ws, b)
	delete(p.all, c)
	delete(p.all, b)
	p.mu.Unlock()
}

// cutWS closes every live WebSocket connection through the proxy and, with
// block, refuses new ones.
func (p *proxy) cutWS(block bool) int {
	p.mu.Lock()
	p.blockWS = block
	n := 0
	for c := range p.ws {
		c.Close()
		n++
	}
	p.mu.Unlock()
	return n / 2
}

func (p *proxy) wsCount() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.ws) / 2
}

func (p *proxy) close() {
	p.ln.Close()
	p.mu.Lock()
	for c := range p.all {
		c.Close()
	}
	p.mu.Unlock()
}
