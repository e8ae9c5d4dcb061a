package local

import (
	"context"
	"fmt"
	"testing"
	"time"

	"pumasi/knowledge"
)

// TestReembedDoesNotSyncPerEntry: re-embedding (localdev at start, every
// sweep after an embedder change) answers nobody, so it does not wait for a
// WAL fsync per entry, which made 100k entries take minutes.
func TestReembedDoesNotSyncPerEntry(t *testing.T) {
	ctx := context.Background()
	s := openT(t, t.TempDir(), Options{})
	d := NewKnowledgeDriver(s)
	defer d.Close()
	const n = 200
	var seed []knowledge.NewEntry
	for i := 0; i < n; i++ {
		title := fmt.Sprintf("entry %d", i)
		seed = append(seed, knowledge.NewEntry{ID: fmt.Sprintf("e%03d", i), Hive: "h", Title: title, Content: title + " content",
			NormHash: knowledge.Hash(title, title+" content"), Model: "old", Vector: []float32{1, float32(i)}, Specificity: 0.8,
			At: time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)})
	}
	if got, err := d.Import(ctx, seed, "seed"); err != nil || got != n {
		t.Fatalf("Import = %d, %v", got, err)
	}
	before := syncsT(s)
	start := time.Now()
	done, err := knowledge.New(d, knowledge.Options{}).Reembed(ctx, "new", func(_ context.Context, texts []string) ([][]float32, error) {
		out := make([][]float32, len(texts))
		for i := range out {
			out[i] = []float32{0, 1}
		}
		return out, nil
	})
	if err != nil || done != n {
		t.Fatalf("Reembed = %d, %v", done, err)
	}
	syncs := syncsT(s) - before
	t.Logf("re-embedding %d entries: %d WAL fsyncs, %v", n, syncs, time.Since(start).Round(time.Millisecond))
	if syncs >= n {
		t.Errorf("re-embedding %d entries took %d WAL fsyncs (one each)", n, syncs)
	}
}
