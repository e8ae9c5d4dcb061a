package local

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"io/fs"
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"pumasi/knowledge"
)

// holdCatchUp makes d's next background catch-up wait until the returned
// release is called (or the index closes); started is closed when it
// waits.
func holdCatchUp(d *Knowledge) (started <-chan struct{}, release func()) {
	s, r := make(chan struct{}), make(chan struct{})
	d.idx.inline = 100
	d.idx.hook = func(ctx context.Context) {
		close(s)
		select {
		case <-r:
		case <-ctx.Done():
		}
	}
	return s, func() { close(r) }
}

func importT(t *testing.T, s *Store, es []knowledge.NewEntry) {
	t.Helper()
	if n, err := NewKnowledgeDriver(s).Import(context.Background(), es, "seed"); err != nil || n != len(es) {
		t.Fatalf("Import = %d, %v; want %d", n, err, len(es))
	}
}

// nearestIs checks that v's nearest entry is want.
func nearestIs(t *testing.T, d *Knowledge, model string, v []float32, want string) {
	t.Helper()
	ids, err := d.Nearest(context.Background(), "academy", model, v, 3)
	if err != nil || len(ids) == 0 || ids[0] != want {
		t.Fatalf("Nearest(vector of %s) = %v, %v", want, ids, err)
	}
}

// TestCatchUpNeverBlocksAQuery: a query that finds more entries than it
// may apply itself starts a catch-up in the background and is answered at
// once: the index for what it holds, an exact scan for what it lacks, and
// never an entry tombstoned since. Entries written during the catch-up are
// found both ways, and closing during a catch-up stops it.
func TestCatchUpNeverBlocksAQuery(t *testing.T) {
	ctx := context.Background()
	s := openT(t, t.TempDir(), Options{})
	r := rand.New(rand.NewSource(7))
	first := randomEntries(r, 0, 200)
	importT(t, s, first)

	// A first start: nothing held, 200 pending.
	d := NewKnowledgeDriver(s)
	started, release := holdCatchUp(d)
	nearestIs(t, d, "m", first[42].Vector, first[42].ID)
	<-started
	late := randomEntries(r, 200, 1)[0]
	importT(t, s, []knowledge.NewEntry{late})
	for _, i := range []int{0, 150, 199} {
		nearestIs(t, d, "m", first[i].Vector, first[i].ID)
	}
	nearestIs(t, d, "m", late.Vector, late.ID)
	release()
	if err := d.WaitIndex(ctx); err != nil {
		t.Fatal(err)
	}
	if got, _, _ := d.IndexStats(); got != 201 {
		t.Fatalf("index holds %d vectors, want 201", got)
	}

	// Behind by more than a query applies: the held 201 are searched in
	// the index, the 200 new ones scanned, and entries re-embedded since
	// (a new seq, a tombstone for the old) are found under their new
	// model only.
	d2 := NewKnowledgeDriver(s)
	defer d2.Close()
	if err := d2.WaitIndex(ctx); err != nil {
		t.Fatal(err)
	}
	bulk := randomEntries(r, 201, 200)
	importT(t, s, bulk)
	for _, e := range first[:5] {
		if err := d2.SetVector(ctx, e.ID, "m2", e.Vector); err != nil {
			t.Fatal(err)
		}
	}
	started, release = holdCatchUp(d2)
	nearestIs(t, d2, "m", bulk[7].Vector, bulk[7].ID)
	<-started
	nearestIs(t, d2, "m", first[100].Vector, first[100].ID)
	for _, e := range first[:5] {
		ids, err := d2.Nearest(ctx, "academy", "m", e.Vector, 3)
		if err != nil {
			t.Fatal(err)
		}
		for _, id := range ids {
			if id == e.ID {
				t.Fatalf("Nearest under the old model returned %s, re-embedded since", e.ID)
			}
		}
		nearestIs(t, d2, "m2", e.Vector, e.ID)
	}
	release()
	if err := d2.WaitIndex(ctx); err != nil {
		t.Fatal(err)
	}
	if got, _, sets := d2.IndexStats(); got != 401 || sets != 2 {
		t.Fatalf("index holds %d vectors in %d sets, want 401 in 2", got, sets)
	}

	// A process closed during its catch-up stops it rather than waiting.
	d3 := NewKnowledgeDriver(s)
	started, _ = holdCatchUp(d3)
	if _, err := d3.Nearest(ctx, "academy", "m", first[10].Vector, 1); err != nil {
		t.Fatal(err)
	}
	<-started
	done := make(chan error, 1)
	go func() { done <- d3.Close() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Close waited for a held catch-up")
	}
	if err := d3.WaitIndex(ctx); err == nil {
		t.Fatal("WaitIndex after Close = nil, want an error")
	}
	nearestIs(t, d3, "m", first[10].Vector, first[10].ID) // still answered, exactly
}

// TestReembedKeepsIndexBounded: re-embedding every entry (as a changed
// embedder's model name makes the engine do) leaves the index holding each
// entry once, under the new model; the old model's set is dropped and the
// memory is what the live entries need, whether the index caught up in one
// step or followed along.
func TestReembedKeepsIndexBounded(t *testing.T) {
	ctx := context.Background()
	s := openT(t, t.TempDir(), Options{})
	r := rand.New(rand.NewSource(3))
	n := 3000
	if raceEnabled {
		n = 300 // SQLite under the race detector: a SetVector takes ~20 ms
	}
	es := randomEntries(r, 0, n)
	importT(t, s, es)
	follow := NewKnowledgeDriver(s) // queries while the re-embedding runs
	defer follow.Close()
	if err := follow.WaitIndex(ctx); err != nil {
		t.Fatal(err)
	}
	_, full, _ := follow.IndexStats()
	for i, e := range es {
		if err := follow.SetVector(ctx, e.ID, "m2", e.Vector); err != nil {
			t.Fatal(err)
		}
		if i%(n/6) == 0 {
			nearestIs(t, follow, "m2", e.Vector, e.ID)
		}
	}
	later := NewKnowledgeDriver(s) // starts after it
	defer later.Close()
	for _, d := range []*Knowledge{follow, later} {
		if err := d.WaitIndex(ctx); err != nil {
			t.Fatal(err)
		}
		entries, bytes, sets := d.IndexStats()
		if entries != n || sets != 1 {
			t.Fatalf("after re-embedding: %d vectors in %d sets, want %d in 1", entries, sets, n)
		}
		if bytes > full*3/2 {
			t.Fatalf("after re-embedding: %d bytes, want ≤ 1.5 × the %d before", bytes, full)
		}
		if ids, err := d.Nearest(ctx, "academy", "m", es[9].Vector, 3); err != nil || len(ids) != 0 {
			t.Fatalf("Nearest under the old model = %v, %v; want nothing", ids, err)
		}
		nearestIs(t, d, "m2", es[9].Vector, es[9].ID)
	}
}

// TestIndexLeavesNothingOnDisk: the saved index of an earlier version
// (graph files, its state, temp files of a killed save) is removed when a
// driver starts, and the index writes no file of its own: no vector of an
// entry, redacted or not, is left under the home but in the database.
func TestIndexLeavesNothingOnDisk(t *testing.T) {
	home := t.TempDir()
	old := filepath.Join(home, "knowledge-index")
	if err := os.MkdirAll(old, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"state.json", "graph-10-0-abcd-0.ann", ".tmp-12345"} {
		if err := os.WriteFile(filepath.Join(old, name), []byte("PANNHNSW old"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s := openT(t, home, Options{})
	d := NewKnowledgeDriver(s)
	if _, err := os.Stat(old); !os.IsNotExist(err) {
		t.Fatalf("the earlier version's saved index is still there: %v", err)
	}
	r := rand.New(rand.NewSource(5))
	es := randomEntries(r, 0, 50)
	importT(t, s, es)
	nearestIs(t, d, "m", es[3].Vector, es[3].ID)
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	var code bytes.Buffer // the first entry's vector as stored
	for _, f := range es[0].Vector {
		binary.Write(&code, binary.LittleEndian, f)
	}
	filepath.WalkDir(home, func(path string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		if strings.HasPrefix(e.Name(), "pumasi.db") {
			return nil
		}
		b, _ := os.ReadFile(path)
		if bytes.Contains(b, code.Bytes()[:16]) || strings.Contains(path, "knowledge-index") {
			t.Errorf("%s holds index data", path)
		}
		return nil
	})
}

// TestIndexSkipsBadVectors: a stored vector that cannot be read or holds
// NaN is left out of the index, one of another dimension than its model's
// others is kept apart, and every other entry is still found, in the index
// and by the exact scan alike.
func TestIndexSkipsBadVectors(t *testing.T) {
	s := openT(t, t.TempDir(), Options{})
	r := rand.New(rand.NewSource(11))
	es := randomEntries(r, 0, 40)
	importT(t, s, es)
	nan := make([]byte, 64)
	binary.LittleEndian.PutUint32(nan, math.Float32bits(float32(math.NaN())))
	seven := make([]byte, 4*7)
	for i := range 7 {
		binary.LittleEndian.PutUint32(seven[4*i:], math.Float32bits(1))
	}
	for id, blob := range map[string][]byte{"e0001": {1, 2, 3}, "e0002": nan, "e0003": seven} {
		if _, err := s.db.ExecContext(context.Background(), `UPDATE knowledge_entries SET vector = ? WHERE id = ?`, blob, id); err != nil {
			t.Fatal(err)
		}
	}
	for _, behind := range []bool{true, false} {
		d := NewKnowledgeDriver(s)
		if behind {
			_, release := holdCatchUp(d)
			defer release()
			d.idx.inline = 0
		}
		for _, e := range es[4:] {
			nearestIs(t, d, "m", e.Vector, e.ID)
		}
		if !behind {
			if got, _, sets := d.IndexStats(); got != 38 || sets != 2 {
				t.Fatalf("index holds %d vectors in %d sets, want the 38 readable ones, the 7-dimension one apart", got, sets)
			}
			sevenDims := []float32{1, 1, 1, 1, 1, 1, 1}
			nearestIs(t, d, "m", sevenDims, "e0003")
		}
		d.Close()
	}
}

// randomEntries makes entries from..from+n-1 (ids e0000...) of hive
// academy and model m, each with a random 16-dimension vector from r.
func randomEntries(r *rand.Rand, from, n int) []knowledge.NewEntry {
	out := make([]knowledge.NewEntry, 0, n)
	for i := from; i < from+n; i++ {
		v := make([]float32, 16)
		for j := range v {
			v[j] = float32(r.NormFloat64())
		}
		title := fmt.Sprintf("entry %d", i)
		out = append(out, knowledge.NewEntry{ID: fmt.Sprintf("e%04d", i), Hive: "academy", Title: title, Content: title + " content",
			NormHash: knowledge.Hash(title, title+" content"), Model: "m", Vector: v, Specificity: 0.8,
			At: time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)})
	}
	return out
}
