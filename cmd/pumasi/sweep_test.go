package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"pumasi"
	"pumasi/adapters/embed"
	"pumasi/adapters/local"
	"pumasi/knowledge"
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
		Files     pumasi.SweepReport     `json:"files"`
		Knowledge *knowledge.SweepReport `json:"knowledge"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		t.Fatalf("output %q: %v", stdout.String(), err)
	}
	if rep.Files.Blobs != 1 || rep.Knowledge == nil {
		t.Fatalf("report = %+v, want 1 blob removed and a knowledge part", rep)
	}
	// The knowledge part names the citation rows it pruned (none here).
	var raw struct {
		Knowledge map[string]any `json:"knowledge"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &raw); err != nil || raw.Knowledge["cites_pruned"] != float64(0) {
		t.Fatalf("knowledge report %v, %v; want cites_pruned 0", raw.Knowledge, err)
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

// TestSweepMergesWhatTheScheduledOneWould: `pumasi sweep` collapses twins
// at the embedder's own threshold (0.80 for the offline one), as the
// scheduled sweep in localdev and Lambda does, not at the generic 0.94;
// PUMASI_MERGE_THRESHOLD moves it, and a bad value exits 2 naming it.
func TestSweepMergesWhatTheScheduledOneWould(t *testing.T) {
	ctx := context.Background()
	emb := embed.NewHashed(0)
	title1, content1 := "Go vet flags a sync.Mutex copied by value", "`go vet` (copylocks) reports a `sync.Mutex` passed by value; pass a pointer."
	title2, content2 := "copylocks: go vet and a sync.Mutex passed by value", "When a `sync.Mutex` is passed by value, `go vet` reports it under copylocks; use a pointer."
	cos := knowledge.Cosine(emb.Vector(knowledge.EmbeddingText(title1, content1)), emb.Vector(knowledge.EmbeddingText(title2, content2)))
	if cos <= emb.MergeThreshold() || cos > 0.94 {
		t.Fatalf("twins at cosine %.3f; the test needs one between %.2f and 0.94", cos, emb.MergeThreshold())
	}
	sweep := func(threshold string) (*knowledge.SweepReport, error) {
		home := t.TempDir()
		st, err := local.Open(ctx, home, local.Options{})
		if err != nil {
			t.Fatal(err)
		}
		k := local.NewKnowledge(st)
		for i, f := range [][2]string{{title1, content1}, {title2, content2}} {
			v := emb.Vector(knowledge.EmbeddingText(f[0], f[1]))
			// Merging off for the writes: the twins race past each other.
			if _, err := k.Contribute(ctx, knowledge.ContributeInput{Hive: "academy", Agent: fmt.Sprintf("agent-%d", i), Title: f[0], Content: f[1],
				NormHash: knowledge.Hash(f[0], f[1]), Model: emb.Model(), Vector: v, Specificity: 0.8, Threshold: 1.01}); err != nil {
				t.Fatal(err)
			}
		}
		st.Close()
		var stdout, stderr bytes.Buffer
		env := &cliEnv{stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr, getenv: func(k string) string {
			if k == "PUMASI_MERGE_THRESHOLD" {
				return threshold
			}
			return ""
		}}
		if err := run(ctx, env, []string{"sweep", "--home", home}); err != nil {
			return nil, err
		}
		var rep struct {
			Knowledge *knowledge.SweepReport `json:"knowledge"`
		}
		if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil || rep.Knowledge == nil {
			t.Fatalf("output %q: %v", stdout.String(), err)
		}
		return rep.Knowledge, nil
	}
	if rep, err := sweep(""); err != nil || rep.Merged != 1 {
		t.Fatalf("default sweep merged %+v, %v; want the twins (cosine %.3f) merged", rep, err, cos)
	}
	if rep, err := sweep("0.95"); err != nil || rep.Merged != 0 {
		t.Fatalf("sweep at 0.95 merged %+v, %v; want none", rep, err)
	}
	_, err := sweep("high")
	var code *exitCodeError
	if !errors.As(err, &code) || code.code != 2 || !strings.Contains(err.Error(), "PUMASI_MERGE_THRESHOLD") {
		t.Fatalf("bad threshold: %v, want exit 2 naming PUMASI_MERGE_THRESHOLD", err)
	}
}

// TestSweepByHandKeepsTheServersModel: a home whose entries the server
// embedded with a remote model, swept by hand from a shell without that
// model's env, is refused (exit 2, naming both models) instead of having
// every vector rewritten into the offline model, which the server would
// not search; --reembed does it on purpose.
func TestSweepByHandKeepsTheServersModel(t *testing.T) {
	ctx := context.Background()
	home := t.TempDir()
	st, err := local.Open(ctx, home, local.Options{})
	if err != nil {
		t.Fatal(err)
	}
	k := local.NewKnowledge(st)
	const remote = "text-embedding-3-small"
	title, content := "SQLite WAL needs a sync", "With `synchronous=NORMAL` a commit is not synced until the next checkpoint."
	res, err := k.Contribute(ctx, knowledge.ContributeInput{Hive: "h", Agent: "agent-1", Title: title, Content: content,
		NormHash: knowledge.Hash(title, content), Model: remote, Vector: []float32{1, 0, 0, 0}, Specificity: 0.8, Threshold: 1.01})
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	model := func() string {
		t.Helper()
		st, err := local.Open(ctx, home, local.Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		d := local.NewKnowledgeDriver(st)
		defer d.Close()
		ents, err := d.Entries(ctx, []string{res.Entry.ID})
		if err != nil || len(ents) != 1 {
			t.Fatalf("entry %s after the sweep: %v, %v", res.Entry.ID, ents, err)
		}
		return ents[res.Entry.ID].Model
	}
	sweep := func(args ...string) error {
		var stdout, stderr bytes.Buffer
		env := &cliEnv{stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr, getenv: func(string) string { return "" }}
		return run(ctx, env, append([]string{"sweep", "--home", home}, args...))
	}
	err = sweep()
	var code *exitCodeError
	if !errors.As(err, &code) || code.code != 2 || !strings.Contains(err.Error(), remote) || !strings.Contains(err.Error(), "--reembed") {
		t.Fatalf("sweep by hand with another embedder: %v, want exit 2 naming %s and --reembed", err, remote)
	}
	if got := model(); got != remote {
		t.Fatalf("a refused sweep re-embedded the server's entry: model %q -> %q", remote, got)
	}
	if err := sweep("--reembed"); err != nil {
		t.Fatalf("sweep --reembed: %v", err)
	}
	if got := model(); got == remote {
		t.Fatalf("sweep --reembed left the entry under %q", got)
	}
}
