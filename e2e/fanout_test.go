package e2e

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"pumasi"
)

// TestFanOutToTwoMachines is done-criteria 1, 4 (access), 5 and 6 of issue 3:
// localdev plus two daemon processes with separate homes, on every storage
// backend (issue 5, criterion 4: the s3 one on a real MinIO).
func TestFanOutToTwoMachines(t *testing.T) { forEachBackend(t, testFanOut) }

func testFanOut(t *testing.T, b *backend) {
	s := startLocaldev(t, b.env...)
	home1, home2 := t.TempDir(), t.TempDir()
	s.place("r1", "a1", "m1")
	s.place("r1", "a2", "m1")
	s.place("r1", "a3", "m2")
	s.place("r2", "a4", "m2")

	// Every agent keeps private notes that pumasi must never touch.
	notes := map[string]string{}
	for agent, home := range map[string]string{"a1": home1, "a2": home1, "a3": home2, "a4": home2} {
		p := filepath.Join(home, "agents", agent, "memory", "notes.md")
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte("private notes of "+agent+"\n"), 0o600)
		old := time.Now().Add(-time.Hour).Truncate(time.Second)
		os.Chtimes(p, old, old)
		notes[p] = "private notes of " + agent + "\n"
	}
	noteTimes := map[string]time.Time{}
	for p := range notes {
		fi, _ := os.Stat(p)
		noteTimes[p] = fi.ModTime()
	}

	m1 := startDaemon(t, "m1", home1, s.url, 30*time.Second)
	m2 := startDaemon(t, "m2", home2, s.url, 30*time.Second)
	// Both daemons are connected once each has reported status once.
	waitFor(t, 20*time.Second, "both daemons to report", func() bool {
		ag := s.agents("r1")
		return ag["a1"].LastSeen != nil && ag["a3"].LastSeen != nil
	})

	v1 := []byte("# Spec\n\n스펙 v1 — shared with the room.\n")
	start := time.Now()
	s.upload("r1", "spec.md", v1)
	want := map[string]string{"spec.md": string(v1)}
	for _, c := range []struct{ home, agent string }{{home1, "a1"}, {home1, "a2"}, {home2, "a3"}} {
		waitShared(t, 10*time.Second, c.home, c.agent, want)
	}
	t.Logf("%s: upload to a1, a2, a3 on two machines in %v", b.name, time.Since(start).Round(time.Millisecond))
	if got := readShared(home2, "a4"); len(got) != 0 {
		t.Fatalf("a4 (room r2) holds %s, want nothing", describe(got))
	}

	// Criterion 6: synced turns true for every agent after convergence.
	waitFor(t, 10*time.Second, "r1 agents synced", func() bool {
		ag := s.agents("r1")
		return ag["a1"].Synced && ag["a2"].Synced && ag["a3"].Synced && len(ag["a3"].Missing) == 0
	})
	if ag := s.agents("r2"); !waitSyncedOnce(s, "r2", "a4") {
		t.Fatalf("a4 in an empty room r2 not synced: %+v", ag["a4"])
	}

	// An update replaces the file everywhere.
	v2 := []byte("# Spec\n\n스펙 v2 — updated.\n")
	s.upload("r1", "spec.md", v2)
	want["spec.md"] = string(v2)
	for _, c := range []struct{ home, agent string }{{home1, "a1"}, {home1, "a2"}, {home2, "a3"}} {
		waitShared(t, 10*time.Second, c.home, c.agent, want)
	}

	waitFor(t, 10*time.Second, "r1 agents synced with v2", func() bool {
		ag := s.agents("r1")
		return ag["a1"].Synced && ag["a2"].Synced && ag["a3"].Synced
	})

	// Criterion 6 with a daemon down: its agent stays unsynced and lists
	// what it misses; the others turn synced; it catches up on restart.
	m2.proc.stop(t)
	s.upload("r1", "plan.md", []byte("plan\n"))
	want["plan.md"] = "plan\n"
	waitShared(t, 10*time.Second, home1, "a1", want)
	waitFor(t, 10*time.Second, "a1 and a2 synced with plan.md", func() bool {
		ag := s.agents("r1")
		return ag["a1"].Synced && ag["a2"].Synced
	})
	if a3 := s.agents("r1")["a3"]; a3.Synced || len(a3.Missing) != 1 || a3.Missing[0] != "plan.md" {
		t.Fatalf("a3 while m2 is down = %+v, want missing [plan.md]", a3)
	}
	m2.start(t)
	waitShared(t, 15*time.Second, home2, "a3", want)
	waitFor(t, 15*time.Second, "a3 synced after restart", func() bool { return s.agents("r1")["a3"].Synced })

	// Criterion 5: re-delivery does not rewrite. Age the copies, then make
	// the daemons see the same content again: a restart (full backfill), an
	// identical re-upload and an identical re-placement.
	old := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
	copyPath := filepath.Join(sharedDir(home1, "a1"), "spec.md")
	os.Chtimes(copyPath, old, old)
	before, _ := os.Stat(copyPath)
	m1.proc.stop(t)
	m1.start(t)
	s.upload("r1", "spec.md", v2)
	s.place("r1", "a1", "m1")
	s.upload("r1", "marker.md", []byte("marker\n"))
	want["marker.md"] = "marker\n"
	waitShared(t, 15*time.Second, home1, "a1", want)
	waitFor(t, 10*time.Second, "a1 synced after restart", func() bool { return s.agents("r1")["a1"].Synced })
	after, _ := os.Stat(copyPath)
	if !after.ModTime().Equal(old) || !os.SameFile(before, after) {
		t.Fatalf("spec.md was rewritten on re-delivery: mtime %v (was %v), same file %v", after.ModTime(), old, os.SameFile(before, after))
	}

	// A delete removes it everywhere.
	s.remove("r1", "spec.md")
	delete(want, "spec.md")
	for _, c := range []struct{ home, agent string }{{home1, "a1"}, {home1, "a2"}, {home2, "a3"}} {
		waitShared(t, 10*time.Second, c.home, c.agent, want)
	}

	// Criterion 4, access: a token for m1 cannot open m2's socket, read m2's
	// assignments or fetch files of a room where m1 has no agent.
	s.upload("r2", "r2only.md", []byte("r2\n"))
	waitShared(t, 10*time.Second, home2, "a4", map[string]string{"r2only.md": "r2\n"})
	tok1 := signToken(t, pumasi.ScopeMachine+"m1")
	h := http.Header{}
	h.Set("Authorization", "Bearer "+tok1)
	wsURL := "ws" + strings.TrimPrefix(s.url, "http") + "/machines/m2/ws"
	if c, resp, err := websocket.DefaultDialer.Dial(wsURL, h); err == nil || resp == nil || resp.StatusCode != 403 {
		if c != nil {
			c.Close()
		}
		t.Fatalf("m1 token on m2's socket: %v, want 403", err)
	}
	if c, _, err := websocket.DefaultDialer.Dial(strings.Replace(wsURL, "/m2/", "/m1/", 1), h); err != nil {
		t.Fatalf("m1 token on its own socket: %v", err)
	} else {
		c.Close()
	}
	for _, tc := range []struct {
		path   string
		status int
	}{
		{"/machines/m2/assignments", 403},
		{"/machines/m2/status", 403},
		{"/rooms/r2/files/r2only.md", 403},
		{"/rooms/r2/files", 403},
		{"/machines/m1/assignments", 200},
		{"/rooms/r1/files/plan.md", 200},
	} {
		method := "GET"
		var body []byte
		if strings.HasSuffix(tc.path, "/status") {
			method, body = "POST", []byte(`{"agents":[]}`)
		}
		if r := s.doAs(tok1, method, tc.path, body); r.status != tc.status {
			t.Errorf("m1 token %s %s: %d, want %d", method, tc.path, r.status, tc.status)
		}
	}

	for p, content := range notes {
		b, err := os.ReadFile(p)
		fi, _ := os.Stat(p)
		if err != nil || string(b) != content || !fi.ModTime().Equal(noteTimes[p]) {
			t.Errorf("%s = %q (mtime %v), want untouched", p, b, fi.ModTime())
		}
	}
}

func waitSyncedOnce(s *server, room, agent string) bool {
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if s.agents(room)[agent].Synced {
			return true
		}
		time.Sleep(50 * time.Millisecond)
	}
	return false
}
