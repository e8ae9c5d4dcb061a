package functions

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"pumasi"
	"pumasi/adapters/local"
)

// recordingPusher keeps what was pushed to each machine. The real hub is
// tested in adapters/push; here it shows which machines a handler told.
type recordingPusher struct {
	mu     sync.Mutex
	frames map[string][]pumasi.Frame
}

func (p *recordingPusher) Push(_ context.Context, machine string, frames []pumasi.Frame) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.frames == nil {
		p.frames = map[string][]pumasi.Frame{}
	}
	p.frames[machine] = append(p.frames[machine], frames...)
	return nil
}

// take returns and forgets the frame types pushed to each machine.
func (p *recordingPusher) take() map[string][]string {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := map[string][]string{}
	for m, fs := range p.frames {
		for _, f := range fs {
			out[m] = append(out[m], f.Type)
		}
	}
	p.frames = nil
	return out
}

func newPushEnv(t *testing.T) (*testEnv, *recordingPusher) {
	t.Helper()
	home := t.TempDir()
	st, err := local.Open(context.Background(), home, local.Options{})
	if err != nil {
		t.Fatalf("open store: %v", err)
	}
	t.Cleanup(func() { st.Close() })
	rec := &recordingPusher{}
	api := &API{Store: st, Secret: testSecret, Pusher: rec}
	srv := httptest.NewServer(api.Handler())
	t.Cleanup(srv.Close)
	e := &testEnv{t: t, home: home, store: st, srv: srv}
	e.admin = e.token(pumasi.ScopeAdmin)
	return e, rec
}

func (e *testEnv) place(token, room, agent, machine string) response {
	e.t.Helper()
	return e.do("PUT", "/rooms/"+room+"/agents/"+agent, token, strings.NewReader(`{"machine_id":"`+machine+`"}`), nil)
}

func TestPlacementLifecycle(t *testing.T) {
	e, rec := newPushEnv(t)
	r := e.place(e.admin, "r1", "a1", "m1")
	if r.status != 200 {
		t.Fatalf("place: status %d %s", r.status, r.body)
	}
	var pl placementResponse
	if err := json.Unmarshal(r.body, &pl); err != nil {
		t.Fatal(err)
	}
	if pl.RoomID != "r1" || pl.AgentID != "a1" || pl.MachineID != "m1" || !pl.Changed || pl.PlacedAt.IsZero() {
		t.Fatalf("place answered %+v", pl)
	}
	if got, want := rec.take(), map[string][]string{"m1": {pumasi.FrameAssignmentsChanged}}; !equalPushes(got, want) {
		t.Fatalf("pushes = %v, want %v", got, want)
	}

	// Placing identically changes nothing and tells nobody.
	r = e.place(e.admin, "r1", "a1", "m1")
	if err := json.Unmarshal(r.body, &pl); err != nil || r.status != 200 || pl.Changed {
		t.Fatalf("re-place: status %d changed %v", r.status, pl.Changed)
	}
	if got := rec.take(); len(got) != 0 {
		t.Fatalf("re-place pushed %v, want nothing", got)
	}

	// A move tells both the new and the old machine.
	r = e.place(e.admin, "r2", "a1", "m2")
	if err := json.Unmarshal(r.body, &pl); err != nil || r.status != 200 || !pl.Changed || pl.Previous == nil || pl.Previous.RoomID != "r1" {
		t.Fatalf("move: status %d %s", r.status, r.body)
	}
	want := map[string][]string{"m1": {pumasi.FrameAssignmentsChanged}, "m2": {pumasi.FrameAssignmentsChanged}}
	if got := rec.take(); !equalPushes(got, want) {
		t.Fatalf("move pushes = %v, want %v", got, want)
	}
	if ag := e.roomAgents("r1"); len(ag.Agents) != 0 {
		t.Fatalf("r1 still lists %v after the move", ag.Agents)
	}
	if ag := e.roomAgents("r2"); len(ag.Agents) != 1 || ag.Agents[0].MachineID != "m2" {
		t.Fatalf("r2 lists %+v", ag.Agents)
	}

	// Unplacing from the wrong room is not found; from the right one, 204.
	if r := e.do("DELETE", "/rooms/r1/agents/a1", e.admin, nil, nil); r.status != 404 || r.code() != pumasi.ENotFound {
		t.Fatalf("unplace from wrong room: %d %s", r.status, r.body)
	}
	if r := e.do("DELETE", "/rooms/r2/agents/a1", e.admin, nil, nil); r.status != 204 {
		t.Fatalf("unplace: %d %s", r.status, r.body)
	}
	if got, want := rec.take(), map[string][]string{"m2": {pumasi.FrameAssignmentsChanged}}; !equalPushes(got, want) {
		t.Fatalf("unplace pushes = %v, want %v", got, want)
	}
}

func equalPushes(a, b map[string][]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if !slices.Equal(v, b[k]) {
			return false
		}
	}
	return true
}

func (e *testEnv) roomAgents(room string) roomAgentsResponse {
	e.t.Helper()
	r := e.do("GET", "/rooms/"+room+"/agents", e.admin, nil, nil)
	if r.status != 200 {
		e.t.Fatalf("room agents %s: %d %s", room, r.status, r.body)
	}
	var out roomAgentsResponse
	if err := json.Unmarshal(r.body, &out); err != nil {
		e.t.Fatal(err)
	}
	return out
}

func TestPlacementAuthAndValidation(t *testing.T) {
	e, _ := newPushEnv(t)
	r1 := e.token(pumasi.ScopeRoom + "r1")
	m1 := e.token(pumasi.ScopeMachine + "m1")
	tests := []struct {
		name, token, room, agent, body string
		status                         int
		code                           string
	}{
		{"room token in its room", r1, "r1", "a1", `{"machine_id":"m1"}`, 200, ""},
		{"room token elsewhere", r1, "r2", "a2", `{"machine_id":"m1"}`, 403, pumasi.EForbidden},
		{"machine token", m1, "r1", "a3", `{"machine_id":"m1"}`, 403, pumasi.EForbidden},
		{"no token", "", "r1", "a4", `{"machine_id":"m1"}`, 401, pumasi.EUnauthorized},
		{"bad machine id", e.admin, "r1", "a5", `{"machine_id":"../m"}`, 400, pumasi.EInvalidRequest},
		{"missing machine id", e.admin, "r1", "a5", `{}`, 400, pumasi.EInvalidRequest},
		{"bad agent id", e.admin, "r1", "A..", `{"machine_id":"m1"}`, 400, pumasi.EInvalidRequest},
		{"not json", e.admin, "r1", "a6", `machine`, 400, pumasi.EInvalidRequest},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := e.do("PUT", "/rooms/"+tt.room+"/agents/"+tt.agent, tt.token, strings.NewReader(tt.body), nil)
			if r.status != tt.status || r.code() != tt.code {
				t.Fatalf("status %d code %q, want %d %q (%s)", r.status, r.code(), tt.status, tt.code, r.body)
			}
		})
	}
	if r := e.do("GET", "/rooms/r1/agents", m1, nil, nil); r.status != 403 {
		t.Fatalf("machine token listing placements: %d, want 403", r.status)
	}
	if r := e.do("GET", "/rooms/r1/agents", r1, nil, nil); r.status != 200 {
		t.Fatalf("room token listing placements: %d, want 200", r.status)
	}
	if r := e.do("DELETE", "/rooms/r1/agents/a1", e.token(pumasi.ScopeRoom+"r2"), nil, nil); r.status != 403 {
		t.Fatalf("other room's token unplacing: %d, want 403", r.status)
	}
}

func TestAssignmentsETag(t *testing.T) {
	e, _ := newPushEnv(t)
	for _, p := range [][3]string{{"r1", "a1", "m1"}, {"r1", "a2", "m1"}, {"r1", "a3", "m2"}, {"r2", "a4", "m1"}} {
		if r := e.place(e.admin, p[0], p[1], p[2]); r.status != 200 {
			t.Fatalf("place %v: %d", p, r.status)
		}
	}
	if r := e.upload("r1", "spec.md", []byte("# spec\n"), nil); r.status != 201 {
		t.Fatalf("upload: %d %s", r.status, r.body)
	}
	m1 := e.token(pumasi.ScopeMachine + "m1")
	r := e.do("GET", "/machines/m1/assignments", m1, nil, nil)
	if r.status != 200 {
		t.Fatalf("assignments: %d %s", r.status, r.body)
	}
	var as Assignments
	if err := json.Unmarshal(r.body, &as); err != nil {
		t.Fatal(err)
	}
	if got := r.header.Get("ETag"); got != `"`+as.ETag+`"` || as.ETag == "" {
		t.Fatalf("ETag header %q, etag field %q", got, as.ETag)
	}
	var got []string
	for _, a := range as.Agents {
		got = append(got, a.AgentID+"@"+a.RoomID+":"+itoa(len(a.Files)))
	}
	if want := []string{"a1@r1:1", "a2@r1:1", "a4@r2:0"}; !slices.Equal(got, want) || as.MachineID != "m1" {
		t.Fatalf("assignments = %v for %s, want %v", got, as.MachineID, want)
	}
	f := as.Agents[0].Files[0]
	if f.Name != "spec.md" || f.Size != 7 || f.SHA256 != sha("# spec\n") || as.Agents[0].Rev == 0 {
		t.Fatalf("file = %+v rev %d", f, as.Agents[0].Rev)
	}

	etag := r.header.Get("ETag")
	if r := e.do("GET", "/machines/m1/assignments", m1, nil, map[string]string{"If-None-Match": etag}); r.status != 304 {
		t.Fatalf("matching If-None-Match: %d, want 304", r.status)
	}
	// A change in another machine's room content does not move m1's etag
	// unless m1 serves that room; r1 is served by m1, so it must move.
	e.upload("r1", "more.md", []byte("more\n"), nil)
	r = e.do("GET", "/machines/m1/assignments", m1, nil, map[string]string{"If-None-Match": etag})
	if r.status != 200 || r.header.Get("ETag") == etag {
		t.Fatalf("after an upload: %d etag %s (was %s)", r.status, r.header.Get("ETag"), etag)
	}

	for _, tt := range []struct {
		token  string
		status int
	}{
		{m1, 200},
		{e.token(pumasi.ScopeMachine + "m2"), 403},
		{e.token(pumasi.ScopeRoom + "r1"), 403},
		{"", 401},
		{e.admin, 200},
	} {
		if r := e.do("GET", "/machines/m1/assignments", tt.token, nil, nil); r.status != tt.status {
			t.Errorf("assignments with token %.12s: %d, want %d", tt.token, r.status, tt.status)
		}
	}
	if r := e.do("GET", "/machines/m3/assignments", e.admin, nil, nil); r.status != 200 || !strings.Contains(string(r.body), `"agents":[]`) {
		t.Fatalf("unknown machine: %d %s, want 200 with no agents", r.status, r.body)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

func sha(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

func TestStatusAndDelivery(t *testing.T) {
	e, _ := newPushEnv(t)
	for _, p := range [][3]string{{"r1", "a1", "m1"}, {"r1", "a2", "m1"}, {"r1", "a3", "m2"}, {"r1", "a5", "m1"}} {
		e.place(e.admin, p[0], p[1], p[2])
	}
	e.upload("r1", "a.md", []byte("A\n"), nil)
	e.upload("r1", "b.md", []byte("B\n"), nil)
	m1 := e.token(pumasi.ScopeMachine + "m1")
	body := `{"agents":[
		{"agent_id":"a1","files":[{"name":"a.md","sha256":"` + sha("A\n") + `"},{"name":"b.md","sha256":"` + sha("B\n") + `"}]},
		{"agent_id":"a2","files":[{"name":"a.md","sha256":"` + sha("old\n") + `"}]},
		{"agent_id":"a3","files":[{"name":"a.md","sha256":"` + sha("A\n") + `"},{"name":"b.md","sha256":"` + sha("B\n") + `"}]}]}`
	if r := e.do("POST", "/machines/m1/status", m1, strings.NewReader(body), nil); r.status != 204 {
		t.Fatalf("status: %d %s", r.status, r.body)
	}
	if r := e.do("POST", "/machines/m2/status", m1, strings.NewReader(body), nil); r.status != 403 {
		t.Fatalf("status for another machine: %d, want 403", r.status)
	}
	if r := e.do("POST", "/machines/m1/status", m1, strings.NewReader("{"), nil); r.status != 400 {
		t.Fatalf("bad status body: %d, want 400", r.status)
	}
	got := map[string]agentDelivery{}
	for _, a := range e.roomAgents("r1").Agents {
		got[a.AgentID] = a
	}
	if a := got["a1"]; !a.Synced || len(a.Missing) != 0 || a.LastSeen == nil {
		t.Errorf("a1 = %+v, want synced", a)
	}
	if a := got["a2"]; a.Synced || !slices.Equal(a.Missing, []string{"a.md", "b.md"}) || a.LastSeen == nil {
		t.Errorf("a2 = %+v, want missing a.md (other sha) and b.md", a)
	}
	// a3 runs on m2: m1's report about it was not recorded.
	if a := got["a3"]; a.Synced || len(a.Missing) != 2 || a.LastSeen != nil {
		t.Errorf("a3 = %+v, want never seen", a)
	}
	if a := got["a5"]; a.Synced || a.LastSeen != nil {
		t.Errorf("a5 = %+v, want never seen", a)
	}
	r := e.do("GET", "/rooms/r1/agents", e.admin, nil, nil)
	if !strings.Contains(string(r.body), `"last_seen":null`) || !strings.Contains(string(r.body), `"missing":[]`) {
		t.Errorf("listing body lacks null last_seen or empty missing: %s", r.body)
	}

	// A new upload makes the synced agent unsynced until it reports again.
	e.upload("r1", "c.md", []byte("C\n"), nil)
	for _, a := range e.roomAgents("r1").Agents {
		if a.AgentID == "a1" && (a.Synced || !slices.Equal(a.Missing, []string{"c.md"})) {
			t.Errorf("a1 after upload = %+v, want missing c.md", a)
		}
	}
	// An extra file held is not synced either.
	extra := `{"agents":[{"agent_id":"a1","files":[{"name":"a.md","sha256":"` + sha("A\n") + `"},{"name":"b.md","sha256":"` + sha("B\n") + `"},{"name":"c.md","sha256":"` + sha("C\n") + `"},{"name":"gone.md","sha256":"` + sha("x") + `"}]}]}`
	e.do("POST", "/machines/m1/status", m1, strings.NewReader(extra), nil)
	for _, a := range e.roomAgents("r1").Agents {
		if a.AgentID == "a1" && (a.Synced || len(a.Missing) != 0 || !slices.Equal(a.Extra, []string{"gone.md"})) {
			t.Errorf("a1 with an extra file = %+v, want not synced, extra gone.md", a)
		}
	}
}

func TestSocketRoute(t *testing.T) {
	e, _ := newPushEnv(t)
	m1 := e.token(pumasi.ScopeMachine + "m1")
	if r := e.do("GET", "/machines/m2/ws", m1, nil, nil); r.status != 403 {
		t.Fatalf("m1 token on m2's socket: %d, want 403", r.status)
	}
	if r := e.do("GET", "/machines/m1/ws", "", nil, nil); r.status != 401 {
		t.Fatalf("no token: %d, want 401", r.status)
	}
	if r := e.do("GET", "/machines/m1/ws", m1, nil, nil); r.status != 404 {
		t.Fatalf("no gateway: %d, want 404", r.status)
	}
}
