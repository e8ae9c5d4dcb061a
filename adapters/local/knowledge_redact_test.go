package local

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"

	"pumasi"
	"pumasi/knowledge"
)

// TestRedactionLeavesNoTrace: after DELETE's redaction, the entry's unique
// words are in no file under the home — pumasi.db, its -wal and -shm, and
// anything else — though they were written to the entry, its FTS index,
// two attribution rows, an updated row (cites) and a flag's note, among
// hundreds of other entries, nor the stem of an inflected word, which only
// the stored analysis held. An entry not redacted is found by the same
// search, so the search can fail.
func TestRedactionLeavesNoTrace(t *testing.T) {
	ctx := context.Background()
	home := t.TempDir()
	s, err := Open(ctx, home, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	d := NewKnowledgeDriver(s)
	defer d.Close()
	k := knowledge.New(d, knowledge.Options{})
	const secret, kept = "zqxvkwpmsecret", "zqxvkwpmkept"
	// An inflected word whose stem is not in its text: only the stored
	// analysis (and an index of stems) holds "zqxvkwpmhappi".
	const inflected, stem = "zqxvkwpmhappy", "zqxvkwpmhappi"
	vec := func(i int) []float32 {
		v := make([]float32, 32)
		v[i%32], v[(i*7+3)%32] = 1, 0.5
		return v
	}
	in := func(agent, title, content string, tags []string, i int) knowledge.ContributeInput {
		return knowledge.ContributeInput{Hive: "academy", Agent: agent, Title: title, Content: content, Tags: tags,
			NormHash: knowledge.Hash(title, content), Model: "test-model", Vector: vec(i), Specificity: 0.8, Threshold: 1.01}
	}
	for i := range 300 {
		if _, err := k.Contribute(ctx, in("filler", fmt.Sprintf("Filler finding %d", i), fmt.Sprintf("Filler content number %d about SQLite pages.", i), nil, i)); err != nil {
			t.Fatal(err)
		}
	}
	target := in("author-1", "Token "+secret+" in the title", "The content repeats "+secret+" and more, "+inflected+".", []string{secret + "-tag"}, 1)
	res, err := k.Contribute(ctx, target)
	if err != nil {
		t.Fatal(err)
	}
	id := res.Entry.ID
	again := target
	again.Agent = "author-2"
	if _, err := k.Contribute(ctx, again); err != nil {
		t.Fatal(err)
	}
	if _, err := k.Contribute(ctx, in("author-1", "Kept "+kept, "This one stays: "+kept+".", nil, 2)); err != nil {
		t.Fatal(err)
	}
	for range 5 {
		if _, err := k.Cite(ctx, id, "citer-1"); err != nil {
			t.Fatal(err)
		}
	}
	if _, _, err := k.Flag(ctx, knowledge.FlagInput{ID: id, Agent: "flagger-1", Reason: knowledge.FlagPII, Note: "it leaks " + secret}); err != nil {
		t.Fatal(err)
	}
	for i := range 50 { // more writes after it, so its pages are checkpointed and rewritten
		if _, err := k.Contribute(ctx, in("filler", fmt.Sprintf("Later finding %d", i), fmt.Sprintf("Later content %d.", i), nil, i+300)); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.truncateWAL(ctx); err != nil {
		t.Fatal(err)
	}
	if found := filesHolding(t, home, secret); len(found) == 0 {
		t.Fatalf("before the redaction no file holds %q: the search is blind", secret)
	}
	stored, err := d.Entries(ctx, []string{id})
	if err != nil || len(stored[id].Analysis) == 0 || !bytes.Contains(stored[id].Analysis, []byte(stem)) {
		t.Fatalf("before the redaction the entry's stored analysis is %q (%v), want one holding the stem %q", stored[id].Analysis, err, stem)
	}
	if found := filesHolding(t, home, stem); len(found) == 0 {
		t.Fatalf("before the redaction no file holds the stem %q: the search is blind to analyses", stem)
	}

	start := time.Now()
	if err := k.Redact(ctx, id, "admin", "a secret the gate missed"); err != nil {
		t.Fatal(err)
	}
	t.Logf("redaction among %d entries took %v", 352, time.Since(start).Round(time.Millisecond))
	if _, err := k.GetEntry(ctx, id); pumasi.ErrorCode(err) != pumasi.EGone {
		t.Fatalf("GetEntry after redaction = %v, want gone", err)
	}
	for _, w := range []string{secret, stem} {
		if found := filesHolding(t, home, w); len(found) > 0 {
			t.Fatalf("after the redaction %q is still in %v", w, found)
		}
	}
	if found := filesHolding(t, home, kept); len(found) == 0 {
		t.Fatalf("the entry not redacted (%q) is in no file: the search is blind", kept)
	}
	// And after the store closes (its last checkpoint) too.
	d.Close()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{secret, stem} {
		if found := filesHolding(t, home, w); len(found) > 0 {
			t.Fatalf("after close %q is in %v", w, found)
		}
	}
}

// filesHolding lists the files under dir whose bytes hold s.
func filesHolding(t *testing.T, dir, s string) []string {
	t.Helper()
	var found []string
	err := filepath.WalkDir(dir, func(p string, de fs.DirEntry, err error) error {
		if err != nil || de.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if bytes.Contains(b, []byte(s)) {
			rel, _ := filepath.Rel(dir, p)
			found = append(found, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return found
}
