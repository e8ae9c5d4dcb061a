package localdev_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"pumasi/internal/testpeer"
	"pumasi/localdev"
)

// runLocaldevAt is runLocaldev on a home the test chose.
func runLocaldevAt(t *testing.T, cfg localdev.Config) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	cfg.Addr = "127.0.0.1:0"
	cfg.Secret = ldSecret
	cfg.NoMachine = true
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	done := make(chan error, 1)
	go func() { done <- localdev.Run(ctx, cfg) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("Run: %v", err)
			}
		case <-time.After(15 * time.Second):
			t.Error("localdev did not stop")
		}
	})
	var base string
	waitFor(t, "localdev writes its address", func() bool {
		b, err := os.ReadFile(filepath.Join(cfg.Home, "localdev.addr"))
		base = string(bytes.TrimSpace(b))
		return err == nil && base != ""
	})
	return base
}

// answer is one HTTP exchange's status, error code and body.
type answer struct {
	status int
	code   string
	body   string
	header http.Header
}

func call(t *testing.T, method, url, token string, body string, hdr map[string]string) answer {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, url, rd)
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	var e struct {
		Error struct {
			Code string `json:"code"`
		} `json:"error"`
	}
	_ = json.Unmarshal(b, &e)
	return answer{status: res.StatusCode, code: e.Error.Code, body: string(b), header: res.Header}
}

// TestFullDisk: localdev's home on a small tmpfs that another process fills
// to the last byte. Writes that bring data in answer 507
// insufficient_storage (not 500), /healthz answers 503 naming the disk
// check, while deletes and unplacements still answer 204: they are how
// space is freed. Once the filler is gone, everything recovers without a
// restart.
func TestFullDisk(t *testing.T) {
	home := testpeer.Tmpfs(t, 24<<20)
	base := runLocaldevAt(t, localdev.Config{Home: home, MinFree: 2 << 20})
	admin := ldToken(t, "admin")
	up := func(name, body string) answer {
		return call(t, "POST", base+"/rooms/r1/files?name="+name, admin, body, nil)
	}
	for _, n := range []string{"a.md", "b.md", "c.md"} {
		if a := up(n, strings.Repeat(n+" holds some words\n", 200)); a.status != http.StatusCreated {
			t.Fatalf("upload %s before the disk fills = %d %s", n, a.status, a.body)
		}
	}
	if a := call(t, "PUT", base+"/rooms/r1/agents/a1", admin, `{"machine_id":"m1"}`, nil); a.status != http.StatusOK {
		t.Fatalf("place = %d %s", a.status, a.body)
	}
	if a := call(t, "GET", base+"/healthz", "", "", nil); a.status != http.StatusOK {
		t.Fatalf("healthz with room to spare = %d %s", a.status, a.body)
	}
	if _, err := os.Stat(filepath.Join(home, ".reserve")); err != nil {
		t.Fatalf("no disk reserve in the home: %v", err)
	}

	filler := filepath.Join(home, "filler")
	testpeer.Fill(t, filler)

	if a := up("d.md", "new words\n"); a.status != http.StatusInsufficientStorage || a.code != "insufficient_storage" {
		t.Fatalf("upload on a full disk = %d %s, want 507 insufficient_storage", a.status, a.body)
	}
	contribution := `{"title":"SQLite WAL on a full disk","content":"PRAGMA wal_checkpoint(TRUNCATE) returns SQLITE_FULL (13) when the database file cannot grow; free space first."}`
	if a := call(t, "POST", base+"/knowledge/contribute", "", contribution, map[string]string{"X-Hive-Agent": "disk-tester"}); a.status != http.StatusInsufficientStorage {
		t.Fatalf("contribution on a full disk = %d %s, want 507", a.status, a.body)
	}
	h := call(t, "GET", base+"/healthz", "", "", nil)
	if h.status != http.StatusServiceUnavailable || h.code != "unavailable" || !strings.Contains(h.body, `"failing":["disk"]`) ||
		h.header.Get("Retry-After") == "" {
		t.Fatalf("healthz on a full disk = %d %s, want 503 naming disk, with Retry-After", h.status, h.body)
	}
	if a := call(t, "GET", base+"/livez", "", "", nil); a.status != http.StatusOK {
		t.Fatalf("livez on a full disk = %d %s, want 200", a.status, a.body)
	}
	for _, n := range []string{"a.md", "b.md"} {
		if a := call(t, "DELETE", base+"/rooms/r1/files/"+n, admin, "", nil); a.status != http.StatusNoContent {
			t.Fatalf("delete %s on a full disk = %d %s, want 204", n, a.status, a.body)
		}
	}
	if a := call(t, "DELETE", base+"/rooms/r1/agents/a1", admin, "", nil); a.status != http.StatusNoContent {
		t.Fatalf("unplace on a full disk = %d %s, want 204", a.status, a.body)
	}
	l := call(t, "GET", base+"/rooms/r1/files", admin, "", nil)
	if l.status != http.StatusOK || strings.Contains(l.body, `"a.md"`) || !strings.Contains(l.body, `"c.md"`) {
		t.Fatalf("listing after the deletes = %d %s", l.status, l.body)
	}

	if err := os.Remove(filler); err != nil {
		t.Fatal(err)
	}
	if a := call(t, "GET", base+"/healthz", "", "", nil); a.status != http.StatusOK {
		t.Fatalf("healthz once space is free = %d %s, want 200", a.status, a.body)
	}
	if a := up("d.md", "new words\n"); a.status != http.StatusCreated {
		t.Fatalf("upload once space is free = %d %s, want 201", a.status, a.body)
	}
	if a := call(t, "POST", base+"/knowledge/contribute", "", contribution, map[string]string{"X-Hive-Agent": "disk-tester"}); a.status != http.StatusCreated {
		t.Fatalf("contribution once space is free = %d %s, want 201", a.status, a.body)
	}
}

// TestFullDiskWithoutFloor: with the floor off, a write still answers 507
// when the disk itself refuses it (ENOSPC writing the upload, SQLITE_FULL
// committing), never 500; a delete still commits.
func TestFullDiskWithoutFloor(t *testing.T) {
	home := testpeer.Tmpfs(t, 24<<20)
	base := runLocaldevAt(t, localdev.Config{Home: home, MinFree: -1})
	admin := ldToken(t, "admin")
	if a := call(t, "POST", base+"/rooms/r1/files?name=a.md", admin, "a\n", nil); a.status != http.StatusCreated {
		t.Fatalf("upload = %d %s", a.status, a.body)
	}
	filler := filepath.Join(home, "filler")
	testpeer.Fill(t, filler)
	if a := call(t, "POST", base+"/rooms/r1/files?name=big.md", admin, strings.Repeat("x", 200<<10), nil); a.status != http.StatusInsufficientStorage {
		t.Fatalf("upload on a full disk without a floor = %d %s, want 507", a.status, a.body)
	}
	if a := call(t, "DELETE", base+"/rooms/r1/files/a.md", admin, "", nil); a.status != http.StatusNoContent {
		t.Fatalf("delete on a full disk = %d %s, want 204", a.status, a.body)
	}
	testpeer.Fill(t, filler+"2") // what the released reserve gave back
	if a := call(t, "PUT", base+"/rooms/r1/agents/a1", admin, `{"machine_id":"m1"}`, nil); a.status != http.StatusInsufficientStorage && a.status != http.StatusOK {
		t.Fatalf("placement on a disk full to the last byte = %d %s, want 507 (or 200 if its pages fit the WAL)", a.status, a.body)
	}
	os.Remove(filler)
	os.Remove(filler + "2")
	if a := call(t, "POST", base+"/rooms/r1/files?name=big.md", admin, strings.Repeat("x", 200<<10), nil); a.status != http.StatusCreated {
		t.Fatalf("upload once space is free = %d %s, want 201", a.status, a.body)
	}
}
