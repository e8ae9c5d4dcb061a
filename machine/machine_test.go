package machine

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"pumasi"
)

func TestConvergeUpdateDeleteAndRelease(t *testing.T) {
	s := newServer(t)
	home := t.TempDir()
	s.place("r1", "a1", "m1")
	s.place("r1", "a2", "m1")
	s.place("r2", "a4", "m1")
	s.place("r1", "a3", "m2")
	s.upload("r1", "spec.md", "# spec v1\n")
	s.upload("r1", "회의록 2026.md", "한국어 메모\n")
	s.upload("r2", "other.md", "r2 only\n")
	notes := filepath.Join(home, "agents", "a1", "memory", "notes.md")
	os.MkdirAll(filepath.Dir(notes), 0o755)
	os.WriteFile(notes, []byte("private\n"), 0o644)

	// A long poll: everything below arrives through frames or reconnects.
	s.daemon(t, "m1", home, time.Hour)
	r1 := map[string]string{"spec.md": "# spec v1\n", "회의록 2026.md": "한국어 메모\n"}
	waitDir(t, home, "a1", r1)
	waitDir(t, home, "a2", r1)
	waitDir(t, home, "a4", map[string]string{"other.md": "r2 only\n"})
	if _, err := os.Stat(filepath.Join(home, "agents", "a3")); err == nil {
		t.Fatal("m1 wrote a3, which is placed on m2")
	}

	s.upload("r1", "spec.md", "# spec v2\n")
	r1["spec.md"] = "# spec v2\n"
	waitDir(t, home, "a1", r1)
	waitDir(t, home, "a2", r1)

	s.remove("r1", "회의록 2026.md")
	delete(r1, "회의록 2026.md")
	waitDir(t, home, "a1", r1)
	waitDir(t, home, "a2", r1)

	// A file too big to ride inline in a frame is fetched.
	big := strings.Repeat("0123456789abcdef", 12<<10)
	s.upload("r1", "big.txt", big)
	r1["big.txt"] = big
	waitDir(t, home, "a1", r1)

	// Moving a1 to r2 leaves it with exactly r2's files.
	s.place("r2", "a1", "m1")
	waitDir(t, home, "a1", map[string]string{"other.md": "r2 only\n"})

	// Moving a2 to another machine empties its copy here.
	s.place("r1", "a2", "m2")
	waitDir(t, home, "a2", map[string]string{})
	// Unplacing empties too.
	if st := s.do("DELETE", "/rooms/r2/agents/a4", nil); st != 204 {
		t.Fatalf("unplace: %d", st)
	}
	waitDir(t, home, "a4", map[string]string{})

	if b, err := os.ReadFile(notes); err != nil || string(b) != "private\n" {
		t.Fatalf("notes.md = %q, %v; want untouched", b, err)
	}
}

// TestStatusMakesSynced checks that status reports reach the server and
// GET /rooms/{room}/agents turns synced.
func TestStatusMakesSynced(t *testing.T) {
	s := newServer(t)
	home := t.TempDir()
	s.place("r1", "a1", "m1")
	s.upload("r1", "a.md", "A\n")
	s.daemon(t, "m1", home, time.Hour)
	waitDir(t, home, "a1", map[string]string{"a.md": "A\n"})
	waitSynced(t, s, "r1", "a1")
	// A frame-delivered upload reports status too, without a poll.
	s.upload("r1", "b.md", "B\n")
	waitSynced(t, s, "r1", "a1")
}

func waitSynced(t *testing.T, s *server, room, agent string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	var last string
	for time.Now().Before(deadline) {
		req, _ := http.NewRequest("GET", s.srv.URL+"/rooms/"+room+"/agents", nil)
		req.Header.Set("Authorization", "Bearer "+s.admin)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var out struct {
			Agents []struct {
				AgentID string   `json:"agent_id"`
				Synced  bool     `json:"synced"`
				Missing []string `json:"missing"`
			} `json:"agents"`
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		json.Unmarshal(b, &out)
		last = string(b)
		for _, a := range out.Agents {
			if a.AgentID == agent && a.Synced && len(a.Missing) == 0 {
				return
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("agent %s never synced: %s", agent, last)
}

// TestPollFallback checks convergence with no WebSocket at all: frames
// never arrive, the poll catches up.
func TestPollFallback(t *testing.T) {
	s := newServer(t)
	// A front that refuses WebSocket upgrades, like a gateway without one.
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/ws") {
			http.Error(w, "no sockets", http.StatusServiceUnavailable)
			return
		}
		s.srv.Config.Handler.ServeHTTP(w, r)
	}))
	defer front.Close()
	home := t.TempDir()
	s.place("r1", "a1", "m1")
	startDaemon(t, Config{Server: front.URL, Machine: "m1", Token: s.token("machine:m1"), Home: home, Poll: 100 * time.Millisecond, Log: quietLog()})
	s.upload("r1", "x.md", "x\n")
	waitDir(t, home, "a1", map[string]string{"x.md": "x\n"})
	s.upload("r1", "x.md", "x2\n")
	s.upload("r1", "y.md", "y\n")
	waitDir(t, home, "a1", map[string]string{"x.md": "x2\n", "y.md": "y\n"})
}

// TestRedeliveryDoesNotRewrite checks that a frame or a reconcile for
// content already on disk leaves the file (and its mtime) alone.
func TestRedeliveryDoesNotRewrite(t *testing.T) {
	s := newServer(t)
	home := t.TempDir()
	s.place("r1", "a1", "m1")
	s.upload("r1", "same.md", "same\n")
	s.daemon(t, "m1", home, time.Hour)
	waitDir(t, home, "a1", map[string]string{"same.md": "same\n"})
	path := filepath.Join(home, "agents", "a1", "memory", "shared", "same.md")
	old := time.Date(2001, 2, 3, 4, 5, 6, 0, time.UTC)
	if err := os.Chtimes(path, old, old); err != nil {
		t.Fatal(err)
	}
	before, _ := os.Stat(path)

	ctx := context.Background()
	content := "same\n"
	sum := sumHex([]byte(content))
	for i := 0; i < 5; i++ {
		s.hub.Push(ctx, "m1", []pumasi.Frame{
			{Type: pumasi.FrameWrite, AgentID: "a1", RoomID: "r1", StorageName: "same.md", ContentSHA256: sum, Content: &content},
			{Type: pumasi.FrameWrite, AgentID: "a1", RoomID: "r1", StorageName: "same.md", ContentSHA256: sum},
			{Type: pumasi.FrameAssignmentsChanged, MachineID: "m1"},
		})
	}
	// Same content uploaded again answers 200 and fans out nothing; a
	// placement repeated changes nothing either.
	s.upload("r1", "same.md", "same\n")
	s.place("r1", "a1", "m1")
	// A later file on the same agent proves the frames before it were
	// applied, and a whole reconcile after it (the one assignments_changed
	// asks for, or a later one) that the reconcile rewrote nothing either.
	m := s.mark()
	s.upload("r1", "later.md", "later\n")
	waitDir(t, home, "a1", map[string]string{"same.md": "same\n", "later.md": "later\n"})
	s.place("r1", "a1", "m1")
	s.hub.Push(context.Background(), "m1", []pumasi.Frame{{Type: pumasi.FrameAssignmentsChanged, MachineID: "m1"}})
	s.waitSync(t, "m1", m)
	after, _ := os.Stat(path)
	if !after.ModTime().Equal(before.ModTime()) || !after.ModTime().Equal(old) {
		t.Fatalf("mtime moved from %v to %v: the file was rewritten", before.ModTime(), after.ModTime())
	}
	if os.SameFile(before, after) == false {
		t.Fatal("the file was replaced (different inode)")
	}
}

// TestCrashLeftoversAndLocalDamage checks that temp files from a crash are
// removed at start and that a file damaged or deleted on disk is repaired
// by the next reconcile.
func TestCrashLeftoversAndLocalDamage(t *testing.T) {
	s := newServer(t)
	home := t.TempDir()
	s.place("r1", "a1", "m1")
	s.upload("r1", "a.md", "A\n")
	s.upload("r1", "b.md", "B\n")
	dir := filepath.Join(home, "agents", "a1", "memory", "shared")
	os.MkdirAll(dir, 0o755)
	os.WriteFile(filepath.Join(dir, tmpPrefix+"123"), []byte("half"), 0o644)
	os.WriteFile(filepath.Join(dir, ".b.md.tmp-456"), []byte("half"), 0o644) // atomicfile's temp name
	os.WriteFile(filepath.Join(dir, "a.md"), []byte("corrupt"), 0o644)
	os.WriteFile(filepath.Join(dir, "stale.md"), []byte("stale"), 0o644)
	os.WriteFile(filepath.Join(dir, ".user-hidden"), []byte("not ours"), 0o644)
	os.Mkdir(filepath.Join(dir, "subdir"), 0o755)

	s.daemon(t, "m1", home, 100*time.Millisecond)
	want := map[string]string{"a.md": "A\n", "b.md": "B\n", ".user-hidden": "not ours"}
	waitDir(t, home, "a1", want)
	if _, err := os.Stat(filepath.Join(dir, "subdir")); err != nil {
		t.Fatalf("a directory the daemon did not make was removed: %v", err)
	}
	// Local damage: the poll (304 from the server) still checks the disk.
	os.Remove(filepath.Join(dir, "b.md"))
	os.WriteFile(filepath.Join(dir, "a.md"), []byte("edited by hand"), 0o644)
	waitDir(t, home, "a1", want)
}

// TestReleaseWhileDown checks that an agent unplaced while the daemon was
// stopped is emptied when it starts again, from its local state.
func TestReleaseWhileDown(t *testing.T) {
	s := newServer(t)
	home := t.TempDir()
	s.place("r1", "a1", "m1")
	s.upload("r1", "a.md", "A\n")
	d := s.daemon(t, "m1", home, time.Hour)
	waitDir(t, home, "a1", map[string]string{"a.md": "A\n"})
	d.stop(t)
	if st := s.do("DELETE", "/rooms/r1/agents/a1", nil); st != 204 {
		t.Fatal(st)
	}
	// A directory of an agent this daemon never served is not touched.
	foreign := filepath.Join(home, "agents", "zz", "memory", "shared")
	os.MkdirAll(foreign, 0o755)
	os.WriteFile(filepath.Join(foreign, "keep.md"), []byte("keep"), 0o644)

	// Another agent stays on m1, so the reconcile ends with a status post:
	// after it, the release has run.
	s.place("r2", "a2", "m1")
	m := s.mark()
	s.daemon(t, "m1", home, time.Hour)
	s.waitSync(t, "m1", m)
	waitDir(t, home, "a1", map[string]string{})
	if got := dirFiles(t, home, "zz"); got["keep.md"] != "keep" {
		t.Fatalf("foreign agent dir = %v, want keep.md untouched", got)
	}
}

// TestServerDownThenUp checks backoff and recovery: a daemon started while
// the server is down converges once it comes up, without a poll.
func TestServerDownThenUp(t *testing.T) {
	s := newServer(t)
	s.place("r1", "a1", "m1")
	s.upload("r1", "a.md", "A\n")
	// A front that is down until switched on.
	var up atomicBool
	var refused atomic.Int64
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !up.get() {
			refused.Add(1)
			http.Error(w, "down", http.StatusBadGateway)
			return
		}
		s.srv.Config.Handler.ServeHTTP(w, r)
	}))
	defer front.Close()
	home := t.TempDir()
	startDaemon(t, Config{Server: front.URL, Machine: "m1", Token: s.token("machine:m1"), Home: home, Poll: time.Hour, Log: quietLog()})
	// The daemon tried (and was refused) a few times: it backs off, and
	// nothing came from a server that answered nothing.
	for deadline := time.Now().Add(15 * time.Second); refused.Load() < 3; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the daemon tried %d times in 15 s, want 3", refused.Load())
		}
	}
	if got := dirFiles(t, home, "a1"); len(got) != 0 {
		t.Fatalf("files while down: %v", got)
	}
	up.set(true)
	waitDir(t, home, "a1", map[string]string{"a.md": "A\n"})
}

func TestBadConfigAndRefusedToken(t *testing.T) {
	s := newServer(t)
	for _, cfg := range []Config{
		{Server: s.srv.URL, Machine: "../m", Token: "x", Home: t.TempDir()},
		{Server: "ftp://x", Machine: "m1", Token: "x", Home: t.TempDir()},
		{Server: s.srv.URL, Machine: "m1", Token: "", Home: t.TempDir()},
		{Server: s.srv.URL, Machine: "m1", Token: "x", Home: ""},
	} {
		if err := Run(context.Background(), cfg); err == nil {
			t.Errorf("Run(%+v) = nil, want a config error", cfg)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	err := Run(ctx, Config{Server: s.srv.URL, Machine: "m2", Token: s.token("machine:m1"), Home: t.TempDir(), Log: quietLog()})
	if err == nil || ctx.Err() != nil || !strings.Contains(err.Error(), "refused") {
		t.Fatalf("Run with another machine's token = %v, want a refusal", err)
	}
}

func TestBackoffBounds(t *testing.T) {
	b := newBackoff()
	prevMax := time.Duration(0)
	for i := 0; i < 30; i++ {
		d := b.next()
		ceil := min(backoffBase<<i, backoffMax)
		if i > 16 {
			ceil = backoffMax
		}
		if d < ceil/2 || d > ceil {
			t.Fatalf("wait %d = %v, want in [%v, %v]", i, d, ceil/2, ceil)
		}
		prevMax = max(prevMax, d)
	}
	if prevMax > backoffMax {
		t.Fatalf("max wait %v beyond %v", prevMax, backoffMax)
	}
	b.reset()
	if d := b.next(); d > backoffBase {
		t.Fatalf("after reset: %v", d)
	}
}

// TestStaleFrameCorrected checks that a frame arriving out of order (as
// concurrent uploads of one name can produce) is corrected by the
// confirming reconcile that follows frames, with no poll.
func TestStaleFrameCorrected(t *testing.T) {
	s := newServer(t)
	home := t.TempDir()
	s.place("r1", "a1", "m1")
	s.daemon(t, "m1", home, time.Hour)
	s.upload("r1", "n.md", "v1\n")
	waitDir(t, home, "a1", map[string]string{"n.md": "v1\n"})
	s.upload("r1", "n.md", "v2\n")
	waitDir(t, home, "a1", map[string]string{"n.md": "v2\n"})
	stale := "v1\n"
	s.hub.Push(context.Background(), "m1", []pumasi.Frame{{Type: pumasi.FrameWrite, AgentID: "a1", RoomID: "r1",
		StorageName: "n.md", ContentSHA256: sumHex([]byte(stale)), Content: &stale}})
	waitDir(t, home, "a1", map[string]string{"n.md": "v1\n"}) // the stale frame lands...
	waitDir(t, home, "a1", map[string]string{"n.md": "v2\n"}) // ...and is corrected
}

// TestStaleDeleteFrameKeepsNewerFile checks that a delete frame naming an
// older version does not remove the newer file on disk, even for the moment
// before the confirming reconcile would restore it.
func TestStaleDeleteFrameKeepsNewerFile(t *testing.T) {
	s := newServer(t)
	home := t.TempDir()
	s.place("r1", "a1", "m1")
	s.daemon(t, "m1", home, time.Hour)
	s.upload("r1", "n.md", "v2\n")
	waitDir(t, home, "a1", map[string]string{"n.md": "v2\n"})
	s.hub.Push(context.Background(), "m1", []pumasi.Frame{{Type: pumasi.FrameDelete, AgentID: "a1", RoomID: "r1",
		StorageName: "n.md", ContentSHA256: sumHex([]byte("v1\n"))}})
	path := filepath.Join(home, "agents", "a1", "memory", "shared", "n.md")
	// A later file's frame comes after the stale delete, so once it is on
	// disk the delete was handled; n.md must read v2 throughout.
	s.upload("r1", "later.md", "later\n")
	later := filepath.Join(filepath.Dir(path), "later.md")
	for end := time.Now().Add(10 * time.Second); ; time.Sleep(2 * time.Millisecond) {
		if b, err := os.ReadFile(path); err != nil || string(b) != "v2\n" {
			t.Fatalf("after a stale delete frame n.md reads %q, %v; want v2 throughout", b, err)
		}
		if _, err := os.Stat(later); err == nil {
			break
		}
		if time.Now().After(end) {
			t.Fatal("the frame after the stale delete was not applied in 10 s")
		}
	}
	// A delete naming the version on disk still deletes.
	s.hub.Push(context.Background(), "m1", []pumasi.Frame{{Type: pumasi.FrameDelete, AgentID: "a1", RoomID: "r1",
		StorageName: "n.md", ContentSHA256: sumHex([]byte("v2\n"))}})
	for end := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if _, err := os.Stat(path); os.IsNotExist(err) {
			break
		}
		if time.Now().After(end) {
			t.Fatal("a delete frame for the version on disk did not delete it")
		}
	}
}
