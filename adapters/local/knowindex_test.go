package local

import (
	"context"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"testing"
	"time"

	"pumasi/knowledge"
)

// TestKnowIndexSavedAndAdopted: an index saved at Close is adopted by the
// next process on the home (no rebuild), catches up with what was written
// after it, and is refused when it belongs to another database.
func TestKnowIndexSavedAndAdopted(t *testing.T) {
	ctx := context.Background()
	home := t.TempDir()
	r := rand.New(rand.NewSource(1))
	vec := func() []float32 {
		v := make([]float32, 32)
		for i := range v {
			v[i] = float32(r.NormFloat64())
		}
		return v
	}
	contribute := func(k *knowledge.Engine, i int, v []float32) string {
		title, content := fmt.Sprintf("entry %d", i), fmt.Sprintf("content %d", i)
		res, err := k.Contribute(ctx, knowledge.ContributeInput{Hive: "academy", Agent: "idx-test", Title: title, Content: content,
			NormHash: knowledge.Hash(title, content), Model: "m", Vector: v, Specificity: 0.8, Threshold: 1.01})
		if err != nil {
			t.Fatal(err)
		}
		return res.Entry.ID
	}
	s, err := Open(ctx, home, Options{})
	if err != nil {
		t.Fatal(err)
	}
	d := NewKnowledgeDriver(s)
	k := knowledge.New(d, knowledge.Options{})
	vecs := map[string][]float32{}
	for i := 0; i < 200; i++ {
		v := vec()
		vecs[contribute(k, i, v)] = v
	}
	// Threshold 1.01 never asked the index; a query builds it.
	if _, err := d.Nearest(ctx, "academy", "m", vec(), 1); err != nil {
		t.Fatal(err)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if _, err := os.Stat(filepath.Join(home, "knowledge-index", "state.json")); err != nil {
		t.Fatalf("no saved index: %v", err)
	}

	s, err = Open(ctx, home, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	d = NewKnowledgeDriver(s)
	k = knowledge.New(d, knowledge.Options{})
	// One more entry after the save: the adopted index must catch up.
	late := vec()
	lateID := contribute(k, 999, late)
	ids, err := d.Nearest(ctx, "academy", "m", late, 1)
	if err != nil || len(ids) != 1 || ids[0] != lateID {
		t.Fatalf("Nearest(own vector) = %v, %v; want %s", ids, err, lateID)
	}
	if d.idx.savedSeq != 200 || d.idx.maxSeq != 201 {
		t.Fatalf("index state saved %d now %d, want the saved 200 adopted and 201 after the catch-up", d.idx.savedSeq, d.idx.maxSeq)
	}
	found := 0
	for id, v := range vecs {
		ids, _ := d.Nearest(ctx, "academy", "m", v, 1)
		if len(ids) == 1 && ids[0] == id {
			found++
		}
	}
	if found < 198 {
		t.Fatalf("adopted index finds %d of 200 entries by their own vector", found)
	}

	// Another database under the same home path: the saved index is not
	// adopted.
	if _, err := s.db.ExecContext(ctx, `UPDATE knowledge_meta SET value = value + 1 WHERE key = 'instance'`); err != nil {
		t.Fatal(err)
	}
	fresh := newKnowIndex(s)
	if err := fresh.refresh(ctx); err != nil {
		t.Fatal(err)
	}
	if fresh.savedSeq != 0 || fresh.maxSeq != 201 {
		t.Fatalf("index of another database adopted: saved %d", fresh.savedSeq)
	}
}

// TestImport: bulk-loaded entries are entries like any other (found,
// counted, attributed), and a taken (hive, norm_hash) is skipped.
func TestImport(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, t.TempDir(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	d := NewKnowledgeDriver(s)
	k := knowledge.New(d, knowledge.Options{})
	mk := func(id, title string, axis int) knowledge.NewEntry {
		v := make([]float32, 4)
		v[axis] = 1
		return knowledge.NewEntry{ID: id, Hive: "academy", Title: title, Content: title + " content", NormHash: knowledge.Hash(title, title+" content"),
			Model: "m", Vector: v, Specificity: 0.8, At: time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)}
	}
	n, err := d.Import(ctx, []knowledge.NewEntry{mk("a", "first", 0), mk("b", "second", 1), mk("c", "first", 2)}, "importer")
	if err != nil || n != 2 {
		t.Fatalf("Import = %d, %v; want 2 (the third repeats the first)", n, err)
	}
	e, err := k.GetEntry(ctx, "b")
	if err != nil || e.ContributionCount != 1 || len(e.Contributions) != 1 || e.Contributions[0].Agent != "importer" {
		t.Fatalf("imported entry = %+v, %v", e, err)
	}
	hits, err := k.Query(ctx, knowledge.QueryInput{Hive: "academy", Text: "second", Model: "m", Vector: []float32{0, 1, 0, 0}, Limit: 1})
	if err != nil || len(hits) != 1 || hits[0].ID != "b" {
		t.Fatalf("query = %v, %v", hits, err)
	}
}

// TestLexicalSeesNewWord: a word that matched nothing is not remembered as
// matching nothing, so an entry that brings it is found at once.
func TestLexicalSeesNewWord(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, t.TempDir(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	d := NewKnowledgeDriver(s)
	if ids, err := d.Lexical(ctx, "academy", []string{"zyxwvutsr"}, 10); err != nil || len(ids) != 0 {
		t.Fatalf("before = %v, %v", ids, err)
	}
	k := knowledge.New(d, knowledge.Options{})
	r, err := k.Contribute(ctx, knowledge.ContributeInput{Hive: "academy", Agent: "new-word", Title: "zyxwvutsr flag", Content: "Pass --zyxwvutsr to the tool.",
		NormHash: knowledge.Hash("zyxwvutsr flag", "Pass --zyxwvutsr to the tool."), Model: "m", Vector: []float32{1, 0}, Specificity: 0.8, Threshold: 1.01})
	if err != nil {
		t.Fatal(err)
	}
	if ids, err := d.Lexical(ctx, "academy", []string{"zyxwvutsr"}, 10); err != nil || len(ids) != 1 || ids[0] != r.Entry.ID {
		t.Fatalf("after = %v, %v; want the new entry", ids, err)
	}
}
