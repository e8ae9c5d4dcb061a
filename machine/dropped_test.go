package machine

import (
	"testing"
	"time"
)

// TestDroppedSocketReconciles makes the hub drop the daemon's socket at
// every frame (a one-byte budget, as if the daemon had stopped reading):
// with the poll an hour away, only the reconcile that follows each
// reconnect can bring the files, and it must.
func TestDroppedSocketReconciles(t *testing.T) {
	s := newServer(t)
	s.hub.SendBytes = 1
	home := t.TempDir()
	s.daemon(t, "m1", home, time.Hour)
	s.place("r1", "a1", "m1")
	s.upload("r1", "one.md", "first\n")
	waitDir(t, home, "a1", map[string]string{"one.md": "first\n"})
	s.upload("r1", "two.md", "second\n")
	s.remove("r1", "one.md")
	waitDir(t, home, "a1", map[string]string{"two.md": "second\n"})
}
