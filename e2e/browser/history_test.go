package browser_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"image/png"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestDashboardHistory: two people's tokens (subjects alice and bob) make
// three versions of plan.md and delete notes.md; in Chromium, alice reads
// the room log, opens plan.md's history, compares versions line by line,
// restores version 1 and brings notes.md back. The server then holds what
// the page did, recorded under alice.
func TestDashboardHistory(t *testing.T) {
	if testing.Short() {
		t.Skip("starts localdev and chromium")
	}
	chromium, node, modules := browserTools(t)
	bin := buildPumasi(t)
	home := t.TempDir()
	base, _ := startLocaldev(t, bin, home)
	mint := func(subject string) string {
		out, err := exec.Command(bin, "token", "--room", room, "--subject", subject, "--home", home, "--ttl", "1h").Output()
		if err != nil {
			t.Fatalf("pumasi token --subject %s: %v", subject, err)
		}
		return strings.TrimSpace(string(out))
	}
	alice, bob := mint("alice"), mint("bob")
	send := func(method, path, token, body string) {
		t.Helper()
		req, _ := http.NewRequest(method, base+path, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+token)
		req.Header.Set("Content-Type", "text/markdown")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode/100 != 2 {
			t.Fatalf("%s %s = %d", method, path, resp.StatusCode)
		}
	}
	v1 := "# plan\n- step one\n"
	send("POST", "/rooms/"+room+"/files?name=plan.md", alice, v1)
	send("POST", "/rooms/"+room+"/files?name=plan.md", bob, "# plan\n- step one\n- step two by bob\n")
	send("POST", "/rooms/"+room+"/files?name=plan.md", alice, "# plan\n- step one\n- step two, done\n- step three\n")
	send("POST", "/rooms/"+room+"/files?name=notes.md", bob, "notes\n")
	send("DELETE", "/rooms/"+room+"/files/notes.md", bob, "")

	artifacts := os.Getenv("PUMASI_ARTIFACTS")
	if artifacts != "" {
		artifacts = filepath.Join(artifacts, "history")
	} else {
		artifacts = t.TempDir()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	script := exec.CommandContext(ctx, node, "history.cjs")
	script.Env = append(os.Environ(), "NODE_PATH="+modules, "PUMASI_BASE="+base, "PUMASI_TOKEN="+alice,
		"PUMASI_ROOM="+room, "PUMASI_ARTIFACTS="+artifacts, "PUMASI_CHROMIUM="+chromium)
	script.WaitDelay = 5 * time.Second
	var stdout, stderr bytes.Buffer
	script.Stdout, script.Stderr = &stdout, &stderr
	runErr := script.Run()
	steps := map[string]json.RawMessage{}
	for _, l := range strings.Split(strings.TrimSpace(stdout.String()), "\n") {
		var s struct {
			Step string `json:"step"`
		}
		if json.Unmarshal([]byte(l), &s) == nil && s.Step != "" {
			steps[s.Step] = json.RawMessage(l)
			t.Logf("step %s", tail(l, 300))
		}
	}
	if runErr != nil || steps["done"] == nil {
		t.Fatalf("history.cjs: %v\nerror: %s\nstderr: %s", runErr, steps["error"], tail(stderr.String(), 2000))
	}
	for _, name := range []string{"history-1280.png", "room-log-1280.png"} {
		f, err := os.Open(filepath.Join(artifacts, name))
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(f)
		f.Close()
		if err != nil || img.Bounds().Dx() != 1280 {
			t.Fatalf("screenshot %s: %v", name, err)
		}
	}

	// The server holds what the page did, under alice.
	var vl struct {
		Versions []struct {
			Version      int    `json:"version"`
			SHA256       string `json:"sha256"`
			UploadedBy   string `json:"uploaded_by"`
			RestoredFrom int    `json:"restored_from"`
			Current      bool   `json:"current"`
		} `json:"versions"`
	}
	if code := getJSON(t, base+"/rooms/"+room+"/files/plan.md/versions", alice, &vl); code != 200 || len(vl.Versions) != 4 {
		t.Fatalf("versions after the page = %d %+v", code, vl.Versions)
	}
	sum := sha256.Sum256([]byte(v1))
	if v := vl.Versions[0]; v.Version != 4 || v.SHA256 != hex.EncodeToString(sum[:]) || v.UploadedBy != "alice" || v.RestoredFrom != 1 || !v.Current {
		t.Fatalf("newest version = %+v, want v4 restored from v1 by alice", v)
	}
	var listing struct {
		Files []struct {
			Name       string `json:"name"`
			UploadedBy string `json:"uploaded_by"`
		} `json:"files"`
	}
	getJSON(t, base+"/rooms/"+room+"/files", alice, &listing)
	if len(listing.Files) != 2 || listing.Files[0].Name != "notes.md" || listing.Files[0].UploadedBy != "alice" {
		t.Fatalf("listing after the page = %+v, want notes.md back (restored by alice) and plan.md", listing.Files)
	}
}
