package machine

import (
	"encoding/json"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"pumasi"
)

// hostileNames are storage names a hostile server might send to escape
// memory/shared/ or to hide files there.
var hostileNames = []string{
	"../../evil", "../evil", "/etc/x", "/tmp/pumasi-hostile-x", "a/b", "a\\b", "a\x00b", "..", ".",
	".hidden", "", "x/../../../evil2", "bad\nname", strings.Repeat("n", 200), "trailing.",
	"spec\u0301.md", // not NFC: decomposed accent
}

// hostileAgents are agent and room ids a hostile server might send.
var hostileAgents = []string{"../a1", "..", ".", "a1/../../x", "A1", "", "/abs", "a1\x00", "-a"}

// TestHostileServerWritesNothingOutsideShared runs the daemon against a fake
// server that sends hostile names and ids in assignments and frames, lies
// about content, and checks that only valid files land, only in
// memory/shared/ of a valid agent.
func TestHostileServerWritesNothingOutsideShared(t *testing.T) {
	root := t.TempDir()
	home := filepath.Join(root, "home")
	os.MkdirAll(home, 0o755)
	for _, p := range []string{"/etc/x", "/tmp/pumasi-hostile-x"} {
		if _, err := os.Lstat(p); err == nil {
			t.Fatalf("%s exists before the test; cannot tell what the daemon did", p)
		}
	}

	okBody := "fine\n"
	sentinel := "sentinel\n"
	sum := func(s string) string { return sumHex([]byte(s)) }

	var files []assignedFile
	for _, n := range hostileNames {
		files = append(files, assignedFile{Name: n, SHA256: sum("evil\n"), Size: 5})
	}
	files = append(files,
		assignedFile{Name: "ok.md", SHA256: sum(okBody), Size: 5},
		assignedFile{Name: "liar.md", SHA256: sum("promised\n"), Size: 9},
		assignedFile{Name: "badsum.md", SHA256: "../../" + strings.Repeat("0", 58), Size: 1},
		// The sentinel is fetched wrong (evil bytes); only its frame's
		// inline content can write it, so its arrival proves the frames
		// before it were handled.
		assignedFile{Name: "sentinel.md", SHA256: sum(sentinel), Size: 9},
	)
	doc := assignmentsDoc{MachineID: "m1", ETag: "e1"}
	for _, a := range hostileAgents {
		doc.Agents = append(doc.Agents, assignment{AgentID: a, RoomID: "r1", Rev: 1, Files: files})
	}
	for _, r := range hostileAgents {
		doc.Agents = append(doc.Agents, assignment{AgentID: "a2", RoomID: r, Rev: 1, Files: files})
	}
	doc.Agents = append(doc.Agents, assignment{AgentID: "a1", RoomID: "r1", Rev: 1, Files: files})

	var frames []pumasi.Frame
	evil := "evil\n"
	for _, n := range hostileNames {
		frames = append(frames,
			pumasi.Frame{Type: pumasi.FrameWrite, AgentID: "a1", RoomID: "r1", StorageName: n, ContentSHA256: sum(evil), Content: &evil},
			pumasi.Frame{Type: pumasi.FrameWrite, AgentID: "a1", RoomID: "r1", StorageName: n, ContentSHA256: sum(evil)},
			pumasi.Frame{Type: pumasi.FrameDelete, AgentID: "a1", RoomID: "r1", StorageName: n, ContentSHA256: sum(evil)},
		)
	}
	for _, a := range hostileAgents {
		frames = append(frames,
			pumasi.Frame{Type: pumasi.FrameWrite, AgentID: a, RoomID: "r1", StorageName: "x.md", ContentSHA256: sum(evil), Content: &evil},
			pumasi.Frame{Type: pumasi.FrameWrite, AgentID: "a1", RoomID: a, StorageName: "y.md", ContentSHA256: sum(evil), Content: &evil},
		)
	}
	wrong := "not what the sum says\n"
	frames = append(frames,
		// Inline content that does not match its sum is not written; the
		// fetch that follows gets a lie too.
		pumasi.Frame{Type: pumasi.FrameWrite, AgentID: "a1", RoomID: "r1", StorageName: "liar.md", ContentSHA256: sum("promised\n"), Content: &wrong},
		pumasi.Frame{Type: pumasi.FrameWrite, AgentID: "a1", RoomID: "r1", StorageName: "sentinel.md", ContentSHA256: sum(sentinel), Content: &sentinel},
	)

	var fetched []string
	var fetchedMu = make(chan struct{}, 1)
	fetchedMu <- struct{}{}
	upgrader := websocket.Upgrader{}
	// Frames go out after the first reconcile has finished (its status
	// report), when the daemon knows a1 is assigned; earlier ones would only
	// make it reconcile, which cannot produce the sentinel.
	reported := make(chan struct{})
	var reportOnce sync.Once
	var statuses atomic.Int64 // status posts: each ends a reconcile
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/machines/m1/assignments":
			json.NewEncoder(w).Encode(doc)
		case r.URL.Path == "/machines/m1/status":
			reportOnce.Do(func() { close(reported) })
			statuses.Add(1)
			w.WriteHeader(204)
		case r.URL.Path == "/machines/m1/ws":
			c, err := upgrader.Upgrade(w, r, nil)
			if err != nil {
				return
			}
			defer c.Close()
			select {
			case <-reported:
			case <-time.After(5 * time.Second):
			}
			for _, f := range frames {
				b, _ := json.Marshal(f)
				c.WriteMessage(websocket.TextMessage, b)
			}
			c.WriteMessage(websocket.TextMessage, []byte(`{not json`))
			c.WriteMessage(websocket.BinaryMessage, []byte{0, 1, 2})
			for {
				if _, _, err := c.ReadMessage(); err != nil {
					return
				}
			}
		case strings.HasPrefix(r.URL.Path, "/rooms/"):
			<-fetchedMu
			fetched = append(fetched, r.URL.EscapedPath())
			fetchedMu <- struct{}{}
			name := r.URL.Path[strings.LastIndex(r.URL.Path, "/")+1:]
			switch name {
			case "ok.md":
				w.Write([]byte(okBody))
			case "liar.md":
				w.Write([]byte("a lie\n"))
			default:
				w.Write([]byte(evil))
			}
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()

	startDaemon(t, Config{Server: srv.URL, Machine: "m1", Token: "anything", Home: home, Poll: 50 * time.Millisecond, Log: quietLog()})
	waitDir(t, home, "a1", map[string]string{"ok.md": okBody, "sentinel.md": sentinel})
	// Two more status posts: at least one whole reconcile (with its
	// retries of the hostile entries) ran after the good files landed.
	for n, deadline := statuses.Load(), time.Now().Add(10*time.Second); statuses.Load() < n+2; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the daemon reconciled no more within 10 s")
		}
	}

	var found []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(root, p)
			found = append(found, rel)
		}
		return nil
	})
	want := []string{
		filepath.Join("home", "agents", "a1", "memory", "shared", "ok.md"),
		filepath.Join("home", "agents", "a1", "memory", "shared", "sentinel.md"),
		filepath.Join("home", "machines", "m1.json"),
		filepath.Join("home", "machines", "m1.lock"), // The daemon's (home, machine) lock.
	}
	slices.Sort(found)
	if !slices.Equal(found, want) {
		t.Fatalf("files under the test root:\n%s\nwant only:\n%s", strings.Join(found, "\n"), strings.Join(want, "\n"))
	}
	var dirs []string
	ents, _ := os.ReadDir(filepath.Join(home, "agents"))
	for _, e := range ents {
		dirs = append(dirs, e.Name())
	}
	if !slices.Equal(dirs, []string{"a1"}) {
		t.Fatalf("agent dirs = %v, want [a1]", dirs)
	}
	for _, p := range []string{"/etc/x", "/tmp/pumasi-hostile-x", filepath.Join(root, "evil"), filepath.Join(home, "evil")} {
		if _, err := os.Lstat(p); err == nil {
			os.Remove(p)
			t.Fatalf("%s was written", p)
		}
	}
	// Only valid names in valid rooms were ever fetched.
	<-fetchedMu
	defer func() { fetchedMu <- struct{}{} }()
	for _, f := range fetched {
		if f != "/rooms/r1/files/ok.md" && f != "/rooms/r1/files/liar.md" && f != "/rooms/r1/files/sentinel.md" {
			t.Errorf("fetched %s", f)
		}
	}
}
