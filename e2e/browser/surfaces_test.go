package browser_test

import (
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestDashboardSurfaces: in Chromium at 1280 and 375 px, the page signs in
// on a one-click link opened in a tab already on it (a hash change, no
// reload); shows an agent offline once its real daemon process is killed
// with SIGKILL and PUMASI_OFFLINE_AFTER has passed, distinct from synced;
// names similarity and score on a hit; keeps the admin badge at 375 px;
// offers "Choose files" on a touch screen instead of "Drop text files here";
// and labels its own live dot as the page's.
func TestDashboardSurfaces(t *testing.T) {
	l := startLocaldev(t, "PUMASI_OFFLINE_AFTER=2s")
	l.Must("POST", "/rooms/"+room+"/files?name=spec.md", l.Admin, "# spec\n")
	l.Must("PUT", "/rooms/"+room+"/agents/"+agent, l.Admin, `{"machine_id":"`+machine+`"}`)
	l.Contribute("e2e-surfaces", map[string]any{"hive": "e2e", "tags": []string{"go", "sqlite"},
		"title":   "modernc sqlite: set busy_timeout in the DSN",
		"content": "With modernc.org/sqlite v1.62.0, pass _pragma=busy_timeout(5000) and _txlock=immediate in the DSN so every pooled connection gets them; otherwise concurrent writers fail with SQLITE_BUSY (database is locked)."})

	// The daemon the page will see go offline: the script kills it.
	daemon := exec.Command(l.Bin, "machine", "run", "--server", l.Base, "--machine", machine, "--token", l.Admin, "--home", t.TempDir(), "--poll", "200ms")
	daemon.Env = append(os.Environ(), "PUMASI_SECRET=", "PUMASI_TOKEN=")
	if err := daemon.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { daemon.Process.Kill(); daemon.Wait() })

	r := l.Drive("surfaces.cjs", 3*time.Minute, map[string]any{
		"token": l.Admin, "room": room, "agent": agent, "daemon_pid": daemon.Process.Pid,
	})
	// The script killed the daemon: it is gone, not merely quiet.
	if err := daemon.Wait(); err == nil || !strings.Contains(err.Error(), "killed") {
		t.Fatalf("daemon ended with %v, want killed by the script's SIGKILL", err)
	}
	checkShots(t, r.Artifacts, shot{"offline-1280.png", 1280}, shot{"hits-1280.png", 1280}, shot{"rooms-375.png", 750})
}
