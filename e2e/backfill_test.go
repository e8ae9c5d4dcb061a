package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestBackfill is done-criterion 2 of issue 3: a daemon started after 20
// uploads converges; an agent placed later receives every file; an agent
// moved from r1 to r2 ends up with exactly r2's files.
func TestBackfill(t *testing.T) {
	s := startLocaldev(t)
	home := t.TempDir()
	s.place("r1", "a1", "m1")
	r1 := map[string]string{}
	for i := 0; i < 20; i++ {
		name := fmt.Sprintf("note-%02d.md", i)
		body := fmt.Sprintf("# note %d\n%s\n", i, strings.Repeat("line\n", i*50))
		s.upload("r1", name, []byte(body))
		r1[name] = body
	}
	// One of them updated and one deleted before any daemon ran.
	s.upload("r1", "note-03.md", []byte("note 3, second version\n"))
	r1["note-03.md"] = "note 3, second version\n"
	s.remove("r1", "note-07.md")
	delete(r1, "note-07.md")

	startDaemon(t, "m1", home, s.url, 30*time.Second)
	waitShared(t, 20*time.Second, home, "a1", r1)

	// Placed later: gets every file.
	s.place("r1", "a5", "m1")
	waitShared(t, 10*time.Second, home, "a5", r1)

	// Moved from r1 to r2: exactly r2's files, r1's gone.
	r2 := map[string]string{"r2-a.md": "room two, a\n", "r2-b.md": "room two, b\n", "note-01.md": "r2's own note-01\n"}
	for n, b := range r2 {
		s.upload("r2", n, []byte(b))
	}
	s.place("r2", "a1", "m1")
	waitShared(t, 10*time.Second, home, "a1", r2)
	waitShared(t, 5*time.Second, home, "a5", r1)
	waitFor(t, 10*time.Second, "a1 synced in r2 and gone from r1", func() bool {
		_, inR1 := s.agents("r1")["a1"]
		return s.agents("r2")["a1"].Synced && !inR1
	})
}
