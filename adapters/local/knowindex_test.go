package local

import (
	"context"
	"fmt"
	"math/rand"
	"testing"
	"time"

	"pumasi/knowledge"
)

// TestKnowIndexFollowsAnotherProcess: a second Store on the same home (as
// a second process) finds every entry the first wrote, including one
// written after its index caught up, with nothing saved between them.
func TestKnowIndexFollowsAnotherProcess(t *testing.T) {
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
	writer := knowledge.New(NewKnowledgeDriver(openT(t, home, Options{})), knowledge.Options{})
	vecs := map[string][]float32{}
	for i := 0; i < 200; i++ {
		v := vec()
		vecs[contribute(writer, i, v)] = v
	}
	d := NewKnowledgeDriver(openT(t, home, Options{}))
	defer d.Close()
	found := 0
	for id, v := range vecs {
		ids, err := d.Nearest(ctx, "academy", "m", v, 1)
		if err != nil {
			t.Fatal(err)
		}
		if len(ids) == 1 && ids[0] == id {
			found++
		}
	}
	if found != 200 {
		t.Fatalf("the second process finds %d of 200 entries by their own vector", found)
	}
	late := vec()
	lateID := contribute(writer, 999, late)
	if ids, err := d.Nearest(ctx, "academy", "m", late, 1); err != nil || len(ids) != 1 || ids[0] != lateID {
		t.Fatalf("Nearest(late vector) = %v, %v; want %s", ids, err, lateID)
	}
	if got, _, _ := d.IndexStats(); got != 201 {
		t.Fatalf("index holds %d, want 201", got)
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
	word := []knowledge.Term{{Text: "zyxwvutsr"}}
	if ids, err := d.Match(ctx, "academy", word, 10); err != nil || len(ids) != 1 || len(ids[0]) != 0 {
		t.Fatalf("before = %v, %v", ids, err)
	}
	k := knowledge.New(d, knowledge.Options{})
	r, err := k.Contribute(ctx, knowledge.ContributeInput{Hive: "academy", Agent: "new-word", Title: "zyxwvutsr flag", Content: "Pass --zyxwvutsr to the tool.",
		NormHash: knowledge.Hash("zyxwvutsr flag", "Pass --zyxwvutsr to the tool."), Model: "m", Vector: []float32{1, 0}, Specificity: 0.8, Threshold: 1.01})
	if err != nil {
		t.Fatal(err)
	}
	if ids, err := d.Match(ctx, "academy", word, 10); err != nil || len(ids) != 1 || len(ids[0]) != 1 || ids[0][0] != r.Entry.ID {
		t.Fatalf("after = %v, %v; want the new entry", ids, err)
	}
}
