package e2e

import (
	"fmt"
	"os"
	"testing"
	"time"
)

// TestLocaldevMachine checks localdev's in-process daemon: placing an agent
// on machine "local" and uploading puts the file in <home>/agents/<agent>/
// memory/shared/ with nothing else running; SIGTERM stops it all cleanly.
func TestLocaldevMachine(t *testing.T) {
	home := t.TempDir()
	port := freePort(t)
	s := &server{t: t, home: home, port: port, url: fmt.Sprintf("http://127.0.0.1:%d", port), admin: signToken(t, "admin")}
	s.hc = newClient()
	s.proc = startProc(t, "localdev-with-machine", nil, "localdev", "--home", home, "--addr", fmt.Sprintf("127.0.0.1:%d", port), "--poll", "1s")
	s.waitUp()

	s.place("r1", "a1", "local")
	s.upload("r1", "hello.md", []byte("# hello from localdev\n"))
	waitShared(t, 15*time.Second, home, "a1", map[string]string{"hello.md": "# hello from localdev\n"})
	waitFor(t, 10*time.Second, "a1 synced", func() bool { return s.agents("r1")["a1"].Synced })

	s.proc.stop(t)
	if _, err := os.Stat(sharedDir(home, "a1") + "/hello.md"); err != nil {
		t.Fatal(err)
	}
}
