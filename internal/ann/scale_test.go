package ann

import (
	"bytes"
	"os"
	"runtime"
	"strconv"
	"testing"
	"time"
)

// TestBytesEstimate checks Bytes against the heap the index really holds and
// logs bytes per entry at 512 dimensions.
func TestBytesEstimate(t *testing.T) {
	n := sized(5000, 1000)
	data, _ := Clustered(n, 0, 512, 20, 9)
	before := liveHeap()
	x := build(t, data, Options{Seed: 9})
	heap := liveHeap() - before
	runtime.KeepAlive(data)
	est := x.Bytes()
	t.Logf("n=%d dim=512: Bytes()=%.0f B/entry, measured heap %.0f B/entry", n, float64(est)/float64(n), float64(heap)/float64(n))
	if per := float64(est) / float64(n); per > 1024 {
		t.Fatalf("Bytes() = %.0f B/entry at 512 dims, want ≤ 1024", per)
	}
	if r := float64(est) / float64(heap); r < 0.8 || r > 1.25 {
		t.Fatalf("Bytes() = %d, heap grew %d (ratio %.2f), want within 20%%", est, heap, r)
	}
	// Reserved up front, the slabs hold no growth slack.
	y := New(512, Options{Seed: 9})
	y.Reserve(n)
	for i, v := range data {
		if err := y.Add(uint64(i), v); err != nil {
			t.Fatal(err)
		}
	}
	per := float64(y.Bytes()) / float64(n)
	t.Logf("n=%d dim=512 reserved: Bytes()=%.0f B/entry", n, per)
	if per > float64(est)/float64(n) || per > 720 {
		t.Fatalf("reserved Bytes() = %.0f B/entry, want ≤ 720 and ≤ unreserved %.0f", per, float64(est)/float64(n))
	}
	runtime.KeepAlive(x)
}

func liveHeap() int64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return int64(ms.HeapAlloc)
}

// TestScale is the long run behind the README figures, off by default:
//
//	PUMASI_ANN_SCALE=100000 go test -run TestScale -v -timeout 30m ./internal/ann/
//
// It reports recall@10, add/s, search p50/p99 and bytes/entry for clustered
// and sparse vectors at that size, and Save/Load throughput.
func TestScale(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("PUMASI_ANN_SCALE"))
	if n <= 0 {
		t.Skip("set PUMASI_ANN_SCALE=<entries> to run")
	}
	for _, c := range []struct {
		name     string
		clusters int
	}{{"clustered", 100}, {"sparse", 0}} {
		r, add, p50, p99, bpe := BuildRecall(n, 512, c.clusters, 1)
		t.Logf("%s n=%d dim=512: recall@10=%.4f add=%.0f/s search p50=%v p99=%v bytes/entry=%.0f",
			c.name, n, r, add, p50, p99, bpe)
	}
	data, _ := Clustered(n, 0, 512, 100, 1)
	x := New(512, Options{Seed: 1})
	for i, v := range data {
		if err := x.Add(uint64(i), v); err != nil {
			t.Fatal(err)
		}
	}
	data = nil
	f, err := os.CreateTemp(t.TempDir(), "ann")
	if err != nil {
		t.Fatal(err)
	}
	st := time.Now()
	if err := x.Save(f); err != nil {
		t.Fatal(err)
	}
	if err := f.Sync(); err != nil {
		t.Fatal(err)
	}
	save := time.Since(st)
	size, _ := f.Seek(0, 1)
	f.Seek(0, 0)
	st = time.Now()
	y, err := Load(f)
	if err != nil {
		t.Fatal(err)
	}
	load := time.Since(st)
	t.Logf("n=%d file=%.1f MB save=%v (%.0f MB/s) load=%v (%.0f MB/s)", n, float64(size)/1e6,
		save, float64(size)/1e6/save.Seconds(), load, float64(size)/1e6/load.Seconds())
	var a, b bytes.Buffer
	x.Save(&a)
	y.Save(&b)
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Fatalf("loaded index saves differently")
	}
}
