package browser_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestDashboardModeration: three entries, one flagged by an agent and two
// quarantined by an admin's flag; in Chromium at 1280 and 375 px the admin's
// Moderation view lists them, restores one and redacts another after a
// confirmation; a room token sees no Moderation tab. The server then serves
// the restored entry to queries again and answers 410 for the redacted one.
func TestDashboardModeration(t *testing.T) {
	if testing.Short() {
		t.Skip("starts localdev and chromium")
	}
	chromium, node, modules := browserTools(t)
	bin := buildPumasi(t)
	home := t.TempDir()
	base, _ := startLocaldev(t, bin, home)
	tokenBytes, err := os.ReadFile(filepath.Join(home, "admin.token"))
	if err != nil {
		t.Fatal(err)
	}
	admin := strings.TrimSpace(string(tokenBytes))
	out, err := exec.Command(bin, "token", "--room", room, "--home", home, "--ttl", "1h").Output()
	if err != nil {
		t.Fatalf("pumasi token --room: %v", err)
	}
	roomToken := strings.TrimSpace(string(out))

	do := func(method, path, token, handle string, body any) (int, []byte) {
		t.Helper()
		var rd *bytes.Reader
		if body != nil {
			b, _ := json.Marshal(body)
			rd = bytes.NewReader(b)
		} else {
			rd = bytes.NewReader(nil)
		}
		req, _ := http.NewRequest(method, base+path, rd)
		req.Header.Set("Content-Type", "application/json")
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		if handle != "" {
			req.Header.Set("X-Hive-Agent", handle)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var buf bytes.Buffer
		buf.ReadFrom(resp.Body)
		return resp.StatusCode, buf.Bytes()
	}
	findings := []map[string]any{
		{"title": "modernc sqlite: set busy_timeout in the DSN", "content": "With modernc.org/sqlite v1.62.0, pass _pragma=busy_timeout(5000) and _txlock=immediate in the DSN so every pooled connection gets them; otherwise concurrent writers fail with SQLITE_BUSY (database is locked)."},
		{"title": "Postgres now() is frozen in a transaction", "content": "Postgres 15 `now()` returns the transaction start time; inside a long BEGIN block use `clock_timestamp()` to measure elapsed time."},
		{"title": "gorilla/websocket allows one concurrent writer", "content": "With github.com/gorilla/websocket v1.5.3, Conn.WriteMessage is not safe for concurrent use: serialise writes through one goroutine or a mutex, or it panics with \"concurrent write to websocket connection\"."},
	}
	ids := make([]string, len(findings))
	for i, f := range findings {
		f["hive"] = "e2e"
		status, body := do("POST", "/knowledge/contribute", "", "e2e-moderation", f)
		var ans struct {
			Data struct {
				Verdict string `json:"verdict"`
				EntryID string `json:"entry_id"`
			} `json:"data"`
		}
		json.Unmarshal(body, &ans)
		if status != 201 || ans.Data.Verdict != "accepted" || ans.Data.EntryID == "" {
			t.Fatalf("contribute %q = %d %s, want 201 accepted", f["title"], status, body)
		}
		ids[i] = ans.Data.EntryID
	}
	flagged, restored, redacted := ids[0], ids[1], ids[2]
	if status, body := do("POST", "/knowledge/"+flagged+"/flag", "", "agent-flagger", map[string]string{"reason": "outdated", "note": "v1.63 changed this"}); status != 200 {
		t.Fatalf("agent flag = %d %s", status, body)
	}
	for _, id := range []string{restored, redacted} {
		if status, body := do("POST", "/knowledge/"+id+"/flag", admin, "", map[string]string{"reason": "harmful"}); status != 200 {
			t.Fatalf("admin flag = %d %s", status, body)
		}
	}

	artifacts := os.Getenv("PUMASI_ARTIFACTS")
	if artifacts != "" {
		artifacts = filepath.Join(artifacts, "moderation")
	} else {
		artifacts = t.TempDir()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	script := exec.CommandContext(ctx, node, "moderation.cjs")
	script.Env = append(os.Environ(),
		"NODE_PATH="+modules,
		"PUMASI_BASE="+base,
		"PUMASI_TOKEN="+admin,
		"PUMASI_ROOM_TOKEN="+roomToken,
		"PUMASI_FLAGGED="+flagged,
		"PUMASI_RESTORED="+restored,
		"PUMASI_REDACTED="+redacted,
		"PUMASI_ARTIFACTS="+artifacts,
		"PUMASI_CHROMIUM="+chromium,
	)
	script.WaitDelay = 5 * time.Second
	var stdout, stderr bytes.Buffer
	script.Stdout, script.Stderr = &stdout, &stderr
	runErr := script.Run()
	done := false
	for _, l := range strings.Split(strings.TrimSpace(stdout.String()), "\n") {
		t.Logf("step %s", tail(l, 400))
		done = done || strings.Contains(l, `"step":"done"`)
	}
	if runErr != nil || !done {
		t.Fatalf("moderation.cjs: %v (done %v)\nstderr: %s", runErr, done, tail(stderr.String(), 2000))
	}

	// What the page did is what the server holds.
	status, body := do("GET", "/knowledge/"+restored, "", "", nil)
	var got struct {
		Data struct {
			Quarantined bool `json:"quarantined"`
		}
	}
	json.Unmarshal(body, &got)
	if status != 200 || got.Data.Quarantined {
		t.Fatalf("restored entry = %d %s, want 200 and not quarantined", status, body)
	}
	if status, body := do("GET", "/knowledge/"+redacted, "", "", nil); status != http.StatusGone {
		t.Fatalf("redacted entry = %d %s, want 410", status, body)
	}
	_, body = do("GET", "/knowledge/query?hive=e2e&q=postgres+now+transaction+clock_timestamp", "", "", nil)
	if !strings.Contains(string(body), restored) {
		t.Fatalf("the restored entry is not found again: %s", body)
	}
}
