package localdev_test

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// agentRow is one agent of GET /rooms/{room}/agents.
type agentRow struct {
	AgentID      string     `json:"agent_id"`
	Synced       bool       `json:"synced"`
	State        string     `json:"state"`
	LastSeen     *time.Time `json:"last_seen"`
	OfflineSince *time.Time `json:"offline_since"`
}

func roomAgents(t *testing.T, base, token, room string) map[string]agentRow {
	t.Helper()
	req, _ := http.NewRequest("GET", base+"/rooms/"+room+"/agents", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var body struct{ Agents []agentRow }
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil || resp.StatusCode != 200 {
		t.Fatalf("GET agents = %d, %v", resp.StatusCode, err)
	}
	out := map[string]agentRow{}
	for _, a := range body.Agents {
		out[a.AgentID] = a
	}
	return out
}

// waitState polls the room's agents, bounded, until agent is in state.
func waitState(t *testing.T, base, token, room, agent, state string) agentRow {
	t.Helper()
	var last agentRow
	for end := time.Now().Add(45 * time.Second); time.Now().Before(end); time.Sleep(100 * time.Millisecond) {
		if last = roomAgents(t, base, token, room)[agent]; last.State == state {
			return last
		}
	}
	t.Fatalf("%s never became %s: last %+v", agent, state, last)
	return last
}

// TestOfflineAgent: a real daemon process for machine m1 mirrors agent-b's
// room and reports it synced; killed with SIGKILL, it reports nothing more,
// and once PUMASI_OFFLINE_AFTER has passed agent-b is offline (synced false,
// offline_since its last report) in GET /rooms/{room}/agents, GET /rooms,
// `pumasi agents` and `pumasi rooms`, while agent-a, on localdev's own live
// daemon, stays synced.
func TestOfflineAgent(t *testing.T) {
	if testing.Short() {
		t.Skip("starts real processes")
	}
	home := t.TempDir()
	p := startLocaldevArgs(t, home, []string{"--poll", "200ms"}, "PUMASI_OFFLINE_AFTER=2s")
	tok, err := os.ReadFile(filepath.Join(home, "admin.token"))
	if err != nil {
		t.Fatal(err)
	}
	token := strings.TrimSpace(string(tok))
	if code, err := upload(context.Background(), p.base, token, "r1", "spec.md", []byte("the spec\n")); err != nil || code != 201 {
		t.Fatalf("upload = %d, %v", code, err)
	}
	for agent, machine := range map[string]string{"agent-a": "local", "agent-b": "m1"} {
		req, _ := http.NewRequest(http.MethodPut, p.base+"/rooms/r1/agents/"+agent, strings.NewReader(`{"machine_id":"`+machine+`"}`))
		req.Header.Set("Authorization", "Bearer "+token)
		res, err := http.DefaultClient.Do(req)
		if err != nil || res.StatusCode != 200 {
			t.Fatalf("place %s: %v %v", agent, res, err)
		}
		res.Body.Close()
	}
	bin, err := buildPumasi()
	if err != nil {
		t.Fatal(err)
	}
	daemon := exec.Command(bin, "machine", "run", "--server", p.base, "--machine", "m1", "--token", token,
		"--home", t.TempDir(), "--poll", "200ms")
	daemon.Env = append(os.Environ(), "PUMASI_TOKEN=")
	if err := daemon.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { daemon.Process.Kill(); daemon.Wait() })
	synced := waitState(t, p.base, token, "r1", "agent-b", "synced")
	if !synced.Synced || synced.OfflineSince != nil || synced.LastSeen == nil {
		t.Fatalf("agent-b synced = %+v, want synced true, a last_seen and no offline_since", synced)
	}

	if err := daemon.Process.Kill(); err != nil { // SIGKILL: no goodbye
		t.Fatal(err)
	}
	daemon.Wait()
	off := waitState(t, p.base, token, "r1", "agent-b", "offline")
	if off.Synced || off.OfflineSince == nil || off.LastSeen == nil || !off.OfflineSince.Equal(*off.LastSeen) {
		t.Fatalf("agent-b offline = %+v, want synced false and offline_since = last_seen", off)
	}
	if a := roomAgents(t, p.base, token, "r1")["agent-a"]; a.State != "synced" || !a.Synced {
		t.Fatalf("agent-a on the live daemon = %+v, want synced", a)
	}

	req, _ := http.NewRequest("GET", p.base+"/rooms", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var rooms struct {
		Rooms []struct {
			RoomID  string   `json:"room_id"`
			Offline []string `json:"offline"`
		}
	}
	err = json.NewDecoder(resp.Body).Decode(&rooms)
	resp.Body.Close()
	if err != nil || len(rooms.Rooms) != 1 || strings.Join(rooms.Rooms[0].Offline, ",") != "agent-b" {
		t.Fatalf("GET /rooms = %+v (%v), want r1 with agent-b offline", rooms, err)
	}

	cli := func(args ...string) string {
		t.Helper()
		c := exec.Command(bin, append(args, "--server", p.base, "--token", token)...)
		c.Env = append(os.Environ(), "PUMASI_TOKEN=", "PUMASI_SERVER=")
		out, err := c.CombinedOutput()
		if err != nil {
			t.Fatalf("pumasi %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	out := cli("agents", "--room", "r1")
	lines := map[string]string{}
	for _, l := range strings.Split(out, "\n") {
		if f := strings.Fields(l); len(f) > 2 {
			lines[f[0]] = f[2]
		}
	}
	if lines["agent-b"] != "offline" || lines["agent-a"] != "synced" {
		t.Fatalf("pumasi agents:\n%s\nwant agent-b offline and agent-a synced", out)
	}
	if out := cli("rooms"); !strings.Contains(out, "agent-a,agent-b (offline)") {
		t.Fatalf("pumasi rooms:\n%s\nwant agent-b marked offline", out)
	}
}
