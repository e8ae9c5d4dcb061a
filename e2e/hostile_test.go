package e2e

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
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"pumasi"
)

// TestHostileServer is done-criterion 4 of issue 3 with a real daemon
// process: a fake server sends storage names and ids meant to escape
// memory/shared/; nothing may be written outside it.
func TestHostileServer(t *testing.T) {
	root := t.TempDir()
	home := filepath.Join(root, "home")
	os.MkdirAll(home, 0o755)
	outside := filepath.Join(os.TempDir(), "pumasi-e2e-hostile-x")
	os.Remove(outside)
	if _, err := os.Lstat("/etc/x"); err == nil {
		t.Fatal("/etc/x exists before the test; cannot tell what the daemon did")
	}

	names := []string{"../../evil", "/etc/x", outside, "a/b", "a\x00b", "..", ".hidden", "a\\b", "../home/agents/a1/memory/notes.md"}
	ids := []string{"../a1", "..", "a1/../../x", "A1", ""}
	evil := "evil\n"
	good := "good\n"
	sentinel := "sentinel\n"

	type file struct {
		Name   string `json:"name"`
		SHA256 string `json:"sha256"`
		Size   int    `json:"size"`
	}
	var files []file
	for _, n := range names {
		files = append(files, file{n, sum([]byte(evil)), len(evil)})
	}
	files = append(files, file{"good.md", sum([]byte(good)), len(good)}, file{"sentinel.md", sum([]byte(sentinel)), len(sentinel)})
	type assignment struct {
		AgentID string `json:"agent_id"`
		RoomID  string `json:"room_id"`
		Rev     int    `json:"rev"`
		Files   []file `json:"files"`
	}
	var agents []assignment
	for _, id := range ids {
		agents = append(agents, assignment{id, "r1", 1, files}, assignment{"a2", id, 1, files})
	}
	agents = append(agents, assignment{"a1", "r1", 1, files})
	doc := map[string]any{"machine_id": "m1", "etag": "x", "agents": agents}

	var frames []pumasi.Frame
	for _, n := range names {
		frames = append(frames,
			pumasi.Frame{Type: pumasi.FrameWrite, AgentID: "a1", RoomID: "r1", StorageName: n, ContentSHA256: sum([]byte(evil)), Content: &evil},
			pumasi.Frame{Type: pumasi.FrameDelete, AgentID: "a1", RoomID: "r1", StorageName: n})
	}
	for _, id := range ids {
		frames = append(frames,
			pumasi.Frame{Type: pumasi.FrameWrite, AgentID: id, RoomID: "r1", StorageName: "x.md", ContentSHA256: sum([]byte(evil)), Content: &evil},
			pumasi.Frame{Type: pumasi.FrameWrite, AgentID: "a1", RoomID: id, StorageName: "y.md", ContentSHA256: sum([]byte(evil)), Content: &evil})
	}
	frames = append(frames, pumasi.Frame{Type: pumasi.FrameWrite, AgentID: "a1", RoomID: "r1", StorageName: "sentinel.md", ContentSHA256: sum([]byte(sentinel)), Content: &sentinel})

	reported := make(chan struct{})
	var once sync.Once
	up := websocket.Upgrader{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/machines/m1/assignments":
			json.NewEncoder(w).Encode(doc)
		case r.URL.Path == "/machines/m1/status":
			once.Do(func() { close(reported) })
			w.WriteHeader(204)
		case r.URL.Path == "/machines/m1/ws":
			c, err := up.Upgrade(w, r, nil)
			if err != nil {
				return
			}
			defer c.Close()
			select {
			case <-reported:
			case <-time.After(10 * time.Second):
			}
			for _, f := range frames {
				b, _ := json.Marshal(f)
				c.WriteMessage(websocket.TextMessage, b)
			}
			for {
				if _, _, err := c.ReadMessage(); err != nil {
					return
				}
			}
		case strings.HasSuffix(r.URL.Path, "/good.md"):
			w.Write([]byte(good))
		default:
			// Anything else fetched gets evil bytes (wrong for the sentinel).
			w.Write([]byte(evil))
		}
	}))
	defer srv.Close()

	notes := filepath.Join(home, "agents", "a1", "memory", "notes.md")
	os.MkdirAll(filepath.Dir(notes), 0o755)
	os.WriteFile(notes, []byte("mine\n"), 0o600)

	startDaemon(t, "m1", home, srv.URL, 200*time.Millisecond)
	waitShared(t, 20*time.Second, home, "a1", map[string]string{"good.md": good, "sentinel.md": sentinel})
	time.Sleep(time.Second) // a few more polls retrying the hostile entries

	var found []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(root, p)
			found = append(found, rel)
		}
		return nil
	})
	slices.Sort(found)
	wantFiles := []string{
		filepath.Join("home", "agents", "a1", "memory", "notes.md"),
		filepath.Join("home", "agents", "a1", "memory", "shared", "good.md"),
		filepath.Join("home", "agents", "a1", "memory", "shared", "sentinel.md"),
		filepath.Join("home", "machines", "m1.json"),
		filepath.Join("home", "machines", "m1.lock"), // The daemon's (home, machine) lock.
	}
	if !slices.Equal(found, wantFiles) {
		t.Fatalf("files written:\n%s\nwant only:\n%s", strings.Join(found, "\n"), strings.Join(wantFiles, "\n"))
	}
	for _, p := range []string{"/etc/x", outside} {
		if _, err := os.Lstat(p); err == nil {
			os.Remove(p)
			t.Fatalf("%s was written", p)
		}
	}
	if b, _ := os.ReadFile(notes); string(b) != "mine\n" {
		t.Fatalf("notes.md = %q", b)
	}
}
