package browser_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestDashboard signs in, uploads through the page (file picker and drag and
// drop), watches the agent's badge turn synced after the daemon process has
// written the bytes, meets every upload error of §4, deletes with
// confirmation, uses the knowledge search and contribute form, and saves
// screenshots at 1280 and 375 px wide.
func TestDashboard(t *testing.T) {
	l := startLocaldev(t)
	base, token := l.Base, l.Admin

	// The banner's one-click link carries the admin token in the fragment,
	// which browsers never send to the server.
	oneClick := base + "/#token=" + token
	if !slices.ContainsFunc(l.Banner, func(s string) bool { return strings.HasSuffix(s, oneClick) }) {
		t.Fatalf("banner has no one-click dashboard link %q:\n%s", oneClick, strings.Join(l.Banner, "\n"))
	}

	// The page and its assets are served beside the API, self-contained.
	for _, p := range []struct{ path, ctype string }{{"/", "text/html"}, {"/ui/app.js", "javascript"}, {"/ui/app.css", "text/css"}} {
		resp, err := http.Get(base + p.path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.Contains(resp.Header.Get("Content-Type"), p.ctype) || len(body) < 500 {
			t.Fatalf("GET %s = %d %q (%d bytes), want 200 %s", p.path, resp.StatusCode, resp.Header.Get("Content-Type"), len(body), p.ctype)
		}
		if !strings.Contains(resp.Header.Get("Content-Security-Policy"), "default-src 'none'") {
			t.Fatalf("GET %s has no strict CSP: %q", p.path, resp.Header.Get("Content-Security-Policy"))
		}
		if bytes.Contains(body, []byte("http://")) || bytes.Contains(body, []byte("https://")) {
			t.Fatalf("%s refers to another origin; the page must work offline", p.path)
		}
	}

	// One daemon process for machine m1, with its own home.
	machineToken := l.Token("--machine", machine)
	daemonHome := t.TempDir()
	dcmd := exec.Command(l.Bin, "machine", "run", "--server", base, "--machine", machine, "--token", machineToken, "--home", daemonHome, "--poll", "2s")
	dcmd.Env = append(os.Environ(), "PUMASI_SECRET=", "PUMASI_TOKEN=")
	startProc(t, "machine daemon", dcmd)

	// localdev serves knowledge, so the page's knowledge steps always run; a
	// server that cannot answer the query endpoint fails the test here.
	var probe map[string]any
	if code := l.JSON("GET", "/knowledge/query?q=probe&limit=1", "", nil, &probe); code != 200 {
		t.Fatalf("GET /knowledge/query = %d %v, want 200", code, probe)
	}

	start := time.Now()
	r := l.Drive("dashboard.cjs", 3*time.Minute, map[string]any{
		"token": token, "room": room, "agent": agent, "machine": machine, "agent_home": daemonHome, "knowledge": true,
	})
	elapsed := time.Since(start)

	// The badge turned green after the daemon wrote the upload.
	var synced struct {
		UploadToGreenMS *int64 `json:"upload_to_green_ms"`
	}
	var browser struct{ Version string }
	r.Decode("agent-synced", &synced)
	r.Decode("browser", &browser)
	if green := synced.UploadToGreenMS; green == nil || *green <= 0 || *green > 30000 {
		t.Fatalf("agent-synced step = %s, want upload_to_green_ms in (0, 30000]", r.Steps["agent-synced"])
	}
	t.Logf("chromium %s; upload to green badge: %d ms; whole browser run: %s", browser.Version, *synced.UploadToGreenMS, elapsed.Round(time.Millisecond))

	// Every error case reached the page with its contract code.
	var uploadErrors struct {
		Cases []struct {
			Name string `json:"name"`
			Code string `json:"code"`
		} `json:"cases"`
	}
	r.Decode("upload-errors", &uploadErrors)
	var codes []string
	for _, c := range uploadErrors.Cases {
		codes = append(codes, c.Name+"="+c.Code)
	}
	wantCodes := []string{"big.txt=too_large", "photo.png=unsupported_type", "nul.txt=unsupported_type", "latin1.txt=unsupported_type", ".hidden.md=invalid_name", "SPEC.md=name_conflict"}
	if !slices.Equal(codes, wantCodes) {
		t.Fatalf("upload error codes = %v, want %v", codes, wantCodes)
	}

	// Screenshots at both widths are real PNGs of the right size.
	checkShots(t, r.Artifacts, shot{"rooms-1280.png", 1280}, shot{"knowledge-1280.png", 1280},
		shot{"rooms-375.png", 750}, shot{"knowledge-375.png", 750}, shot{"login-375.png", 750})

	// What the page did is what the server and the daemon's disk hold.
	var listing struct {
		Files []struct {
			Name   string `json:"name"`
			SHA256 string `json:"sha256"`
		} `json:"files"`
	}
	if code := l.JSON("GET", "/rooms/"+room+"/files", token, nil, &listing); code != 200 {
		t.Fatalf("list = %d", code)
	}
	want := map[string]string{
		"mobile-notes.md": "- added from a phone\n",
		"노트.md":           "회의록: 배포는 금요일에 하지 않는다.\nversion 2 of the rule\n",
	}
	if len(listing.Files) != len(want) {
		t.Fatalf("room lists %d files, want %d: %+v", len(listing.Files), len(want), listing.Files)
	}
	for _, f := range listing.Files {
		content, ok := want[f.Name]
		sum := sha256.Sum256([]byte(content))
		if !ok || f.SHA256 != hex.EncodeToString(sum[:]) {
			t.Fatalf("listed %s sha %s; want one of %v with its content's sha256", f.Name, f.SHA256, want)
		}
	}
	shared := filepath.Join(daemonHome, "agents", agent, "memory", "shared")
	deadline := time.Now().Add(15 * time.Second)
	for {
		got, gotErr := sharedFiles(shared)
		if gotErr == nil && mapsEqual(got, want) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("daemon folder %s = %q (%v), want %q", shared, got, gotErr, want)
		}
		time.Sleep(100 * time.Millisecond)
	}
	var agents struct {
		Agents []struct {
			AgentID   string   `json:"agent_id"`
			MachineID string   `json:"machine_id"`
			Synced    bool     `json:"synced"`
			Missing   []string `json:"missing"`
		} `json:"agents"`
	}
	l.JSON("GET", "/rooms/"+room+"/agents", token, nil, &agents)
	got := fmt.Sprintf("%+v", agents.Agents)
	if want := fmt.Sprintf("%+v", []struct {
		AgentID   string
		MachineID string
		Synced    bool
		Missing   []string
	}{{agent, machine, true, []string{}}}); got != want {
		// b2 was placed on "laptop" and removed again through the page.
		t.Fatalf("room agents placed through the page = %s, want %s", got, want)
	}

	var res struct {
		Data []struct {
			Title             string `json:"title"`
			ContributionCount int    `json:"contribution_count"`
		} `json:"data"`
	}
	l.JSON("GET", "/knowledge/query?hive=e2e&q="+url.QueryEscape("sqlite busy_timeout DSN"), "", nil, &res)
	if len(res.Data) == 0 || res.Data[0].ContributionCount != 2 {
		t.Fatalf("knowledge query after the page's contributions = %+v, want the entry with 2 contributions", res.Data)
	}
}

// sharedFiles reads every regular file of dir by name.
func sharedFiles(dir string) (map[string]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, e := range entries {
		if !e.Type().IsRegular() {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		out[e.Name()] = string(b)
	}
	return out, nil
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}
