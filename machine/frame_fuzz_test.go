package machine

import (
	"context"
	"encoding/json"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pumasi"
)

// FuzzFrame decodes arbitrary WebSocket messages the way readFrames does and
// applies them, plus a write frame built from a fuzzed storage name, agent
// id and content, against a daemon serving agent a1 in room r1 from a hostile
// server (every fetch answers "evil"). After each input nothing may exist
// under the test root but valid names directly inside
// agents/a1/memory/shared/, and the files planted outside it must be
// untouched.
func FuzzFrame(f *testing.F) {
	root := f.TempDir()
	home := filepath.Join(root, "home")
	evil := "evil\n"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, evil)
	}))
	f.Cleanup(srv.Close)
	d, err := newDaemon(Config{Server: srv.URL, Machine: "m1", Token: "t", Home: home,
		Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		f.Fatal(err)
	}
	shared := d.sharedDir("a1")
	planted := map[string]string{
		filepath.Join(root, "outside.txt"):                           "outside\n",
		filepath.Join(home, "agents", "a1", "memory", "notes.md"):    "private notes\n",
		filepath.Join(home, "agents", "a2", "memory", "shared", "x"): "another agent\n",
	}
	for p, body := range planted {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			f.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			f.Fatal(err)
		}
	}
	// Only these directories may exist; only valid names inside shared/.
	dirs := map[string]bool{root: true, home: true}
	for p := range planted {
		for dir := filepath.Dir(p); dir != root; dir = filepath.Dir(dir) {
			dirs[dir] = true
		}
	}
	dirs[shared] = true

	frame := func(typ, agent, room, name, content string, inline bool) []byte {
		fr := pumasi.Frame{Type: typ, AgentID: agent, RoomID: room, StorageName: name, ContentSHA256: sumHex([]byte(content))}
		if inline {
			fr.Content = &content
		}
		b, _ := json.Marshal(fr)
		return b
	}
	for _, n := range append(hostileNames, "ok.md", "회의록.md", "notes.md", "..\\..\\x", "shared", "../notes.md") {
		f.Add(frame(pumasi.FrameWrite, "a1", "r1", n, evil, true), n, "a1", "hello\n")
		f.Add(frame(pumasi.FrameDelete, "a1", "r1", n, evil, false), n, "a1", "")
	}
	for _, a := range hostileAgents {
		f.Add(frame(pumasi.FrameWrite, a, "r1", "ok.md", evil, true), "ok.md", a, "x")
		f.Add(frame(pumasi.FrameWrite, "a1", a, "ok.md", evil, true), "ok.md", "a1", "x")
	}
	f.Add(frame(pumasi.FrameWrite, "a1", "r1", "fetched.md", evil, false), "fetched.md", "a1", evil)
	f.Add([]byte(`{"type":"agent_memory.shared_file.write","agent_id":"a1","room_id":"r1","storage_name":"../../../outside.txt","content_sha256":"`+strings.Repeat("0", 64)+`","content":"x"}`), "", "", "")
	f.Add([]byte(`{"type":"machine.assignments.changed","machine_id":"m2"}`), "", "", "")
	f.Add([]byte(`{not json`), "", "", "")

	ctx := context.Background()
	f.Fuzz(func(t *testing.T, msg []byte, name, agent, content string) {
		d.mu.Lock()
		d.assigned = map[string]string{"a1": "r1"}
		d.agents = map[string]*agentState{"a1": newAgentState()}
		d.mu.Unlock()
		var fr pumasi.Frame
		if json.Unmarshal(msg, &fr) == nil {
			switch fr.Type {
			case pumasi.FrameWrite, pumasi.FrameDelete:
				d.applyFrame(ctx, fr)
			default:
				d.dispatch(fr, nil)
			}
		}
		// The same frame shape, with a name the decoder did not shape.
		d.applyFrame(ctx, pumasi.Frame{Type: pumasi.FrameWrite, AgentID: agent, RoomID: "r1", StorageName: name,
			ContentSHA256: sumHex([]byte(content)), Content: &content})

		if agent == "a1" && validName(name) {
			if b, err := os.ReadFile(filepath.Join(shared, name)); err != nil || string(b) != content {
				t.Fatalf("valid write frame for %q left %q (%v), want %q", name, b, err, content)
			}
		}

		err := filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if e.Type()&fs.ModeSymlink != 0 {
				t.Fatalf("symlink %s appeared", p)
			}
			if e.IsDir() {
				if !dirs[p] {
					t.Fatalf("directory %s appeared (frame %q, name %q, agent %q)", p, msg, name, agent)
				}
				return nil
			}
			if want, ok := planted[p]; ok {
				if b, err := os.ReadFile(p); err != nil || string(b) != want {
					t.Fatalf("%s changed to %q (%v)", p, b, err)
				}
				return nil
			}
			if filepath.Dir(p) != shared || !validName(filepath.Base(p)) {
				t.Fatalf("file %s written outside memory/shared/ or under an invalid name (frame %q, name %q, agent %q)", p, msg, name, agent)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		// Start the next input from an empty shared/ so the walk stays short.
		ents, _ := os.ReadDir(shared)
		for _, e := range ents {
			os.Remove(filepath.Join(shared, e.Name()))
		}
	})
}
