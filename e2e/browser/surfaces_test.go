package browser_test

import (
	"bytes"
	"context"
	"encoding/json"
	"image/png"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
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
	if testing.Short() {
		t.Skip("starts localdev, a daemon and chromium")
	}
	chromium, node, modules := browserTools(t)
	bin := buildPumasi(t)
	home := t.TempDir()
	base, _ := startLocaldevEnv(t, bin, home, "PUMASI_OFFLINE_AFTER=2s")
	tokenBytes, err := os.ReadFile(filepath.Join(home, "admin.token"))
	if err != nil {
		t.Fatal(err)
	}
	token := strings.TrimSpace(string(tokenBytes))
	send := func(method, path string, body string, header ...string) {
		t.Helper()
		req, _ := http.NewRequest(method, base+path, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+token)
		for i := 0; i+1 < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode/100 != 2 {
			t.Fatalf("%s %s = %d", method, path, resp.StatusCode)
		}
	}
	send("POST", "/rooms/"+room+"/files?name=spec.md", "# spec\n")
	send("PUT", "/rooms/"+room+"/agents/"+agent, `{"machine_id":"`+machine+`"}`)
	finding, _ := json.Marshal(map[string]any{"hive": "e2e", "tags": []string{"go", "sqlite"},
		"title":   "modernc sqlite: set busy_timeout in the DSN",
		"content": "With modernc.org/sqlite v1.62.0, pass _pragma=busy_timeout(5000) and _txlock=immediate in the DSN so every pooled connection gets them; otherwise concurrent writers fail with SQLITE_BUSY (database is locked)."})
	send("POST", "/knowledge/contribute", string(finding), "X-Hive-Agent", "e2e-surfaces", "Content-Type", "application/json")

	// The daemon the page will see go offline: the script kills it.
	daemon := exec.Command(bin, "machine", "run", "--server", base, "--machine", machine, "--token", token, "--home", t.TempDir(), "--poll", "200ms")
	daemon.Env = append(os.Environ(), "PUMASI_SECRET=", "PUMASI_TOKEN=")
	if err := daemon.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { daemon.Process.Kill(); daemon.Wait() })

	artifacts := os.Getenv("PUMASI_ARTIFACTS")
	if artifacts != "" {
		artifacts = filepath.Join(artifacts, "surfaces")
	} else {
		artifacts = t.TempDir()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	script := exec.CommandContext(ctx, node, "surfaces.cjs")
	script.Env = append(os.Environ(),
		"NODE_PATH="+modules,
		"PUMASI_BASE="+base,
		"PUMASI_TOKEN="+token,
		"PUMASI_ROOM="+room,
		"PUMASI_AGENT="+agent,
		"PUMASI_DAEMON_PID="+strconv.Itoa(daemon.Process.Pid),
		"PUMASI_ARTIFACTS="+artifacts,
		"PUMASI_CHROMIUM="+chromium,
	)
	script.WaitDelay = 5 * time.Second
	var stdout, stderr bytes.Buffer
	script.Stdout, script.Stderr = &stdout, &stderr
	runErr := script.Run()
	steps := map[string]json.RawMessage{}
	for _, l := range strings.Split(strings.TrimSpace(stdout.String()), "\n") {
		var s struct{ Step string }
		if json.Unmarshal([]byte(l), &s) == nil && s.Step != "" {
			steps[s.Step] = json.RawMessage(l)
			t.Logf("step %s", tail(l, 400))
		}
	}
	if runErr != nil {
		t.Fatalf("surfaces.cjs: %v\nerror: %s\nstderr: %s", runErr, steps["error"], tail(stderr.String(), 2000))
	}
	if _, ok := steps["done"]; !ok {
		t.Fatalf("surfaces.cjs ended without its done step; stdout: %s", tail(stdout.String(), 2000))
	}
	// The script killed the daemon: it is gone, not merely quiet.
	if err := daemon.Wait(); err == nil || !strings.Contains(err.Error(), "killed") {
		t.Fatalf("daemon ended with %v, want killed by the script's SIGKILL", err)
	}
	for _, shot := range []struct {
		name  string
		width int
	}{{"offline-1280.png", 1280}, {"hits-1280.png", 1280}, {"rooms-375.png", 750}} {
		f, err := os.Open(filepath.Join(artifacts, shot.name))
		if err != nil {
			t.Fatalf("screenshot %s: %v", shot.name, err)
		}
		img, err := png.Decode(f)
		f.Close()
		if err != nil || img.Bounds().Dx() != shot.width {
			t.Fatalf("screenshot %s: %v, want width %d", shot.name, err, shot.width)
		}
	}
}
