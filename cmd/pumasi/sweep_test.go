package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"pumasi"
	"pumasi/adapters/local"
)

// TestSweepOnDemand runs `pumasi sweep` beside another open store (as beside
// a running localdev): an old orphan blob goes, a young one and every
// referenced blob stay.
func TestSweepOnDemand(t *testing.T) {
	home := t.TempDir()
	ctx := context.Background()
	st, err := local.Open(ctx, home, local.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	res, err := st.PutFile(ctx, pumasi.PutFileInput{Room: "r1", Name: "keep.md", Body: []byte("keep\n")})
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(home, "room_files", "r1")
	old := filepath.Join(dir, strings.Repeat("a", 64))
	young := filepath.Join(dir, strings.Repeat("b", 64))
	for _, p := range []string{old, young} {
		if err := os.WriteFile(p, []byte("orphan\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	past := time.Now().Add(-2 * time.Hour)
	os.Chtimes(old, past, past)
	os.Chtimes(filepath.Join(dir, res.File.SHA256), past, past)

	var stdout, stderr bytes.Buffer
	env := &cliEnv{stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr, getenv: func(string) string { return "" }}
	if err := run(ctx, env, []string{"sweep", "--home", home, "--grace", "1h"}); err != nil {
		t.Fatalf("sweep: %v (%s)", err, stderr.String())
	}
	var rep struct {
		Files     pumasi.SweepReport           `json:"files"`
		Knowledge *pumasi.KnowledgeSweepReport `json:"knowledge"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		t.Fatalf("output %q: %v", stdout.String(), err)
	}
	if rep.Files.Blobs != 1 || rep.Knowledge == nil {
		t.Fatalf("report = %+v, want 1 blob removed and a knowledge part", rep)
	}
	if _, err := os.Stat(old); !os.IsNotExist(err) {
		t.Fatalf("old orphan still there: %v", err)
	}
	for _, p := range []string{young, filepath.Join(dir, res.File.SHA256)} {
		if _, err := os.Stat(p); err != nil {
			t.Fatalf("%s was removed: %v", filepath.Base(p), err)
		}
	}
	if _, body, err := st.ReadFile(ctx, "r1", "keep.md"); err != nil || string(body) != "keep\n" {
		t.Fatalf("referenced file after sweep: %q, %v", body, err)
	}
}
