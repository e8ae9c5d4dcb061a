package ann

import (
	"bytes"
	"errors"
	"math"
	"slices"
	"sync"
	"testing"
)

// sized returns n, or small under the race detector or -short, where
// instrumented dot products run ~10× slower and only behaviour is checked.
func sized(n, small int) int {
	if raceEnabled || testing.Short() {
		return small
	}
	return n
}

// build adds data under keys 0..n-1.
func build(t *testing.T, data [][]float32, opt Options) *Index {
	t.Helper()
	x := New(len(data[0]), opt)
	for i, v := range data {
		if err := x.Add(uint64(i), v); err != nil {
			t.Fatalf("Add(%d) = %v", i, err)
		}
	}
	return x
}

func TestAddRefusesBadVectors(t *testing.T) {
	x := New(4, Options{})
	nan := float32(math.NaN())
	inf := float32(math.Inf(1))
	cases := []struct {
		name string
		v    []float32
		want error
	}{
		{"zero", []float32{0, 0, 0, 0}, ErrZeroVector},
		{"nan", []float32{1, nan, 0, 0}, ErrBadVector},
		{"inf", []float32{1, 0, inf, 0}, ErrBadVector},
	}
	for _, c := range cases {
		if err := x.Add(1, c.v); !errors.Is(err, c.want) {
			t.Errorf("Add(%s) = %v, want %v", c.name, err, c.want)
		}
	}
	if err := x.Add(1, []float32{1, 2, 3}); err == nil {
		t.Errorf("Add(3 dims into 4) = nil, want an error")
	}
	if x.Len() != 0 || x.Has(1) {
		t.Fatalf("after refused adds Len = %d, Has(1) = %v, want 0, false", x.Len(), x.Has(1))
	}
	if got := x.Search([]float32{0, 0, 0, 0}, 1, 0); got != nil {
		t.Fatalf("Search(zero) = %v, want nil", got)
	}
}

func TestSmallExact(t *testing.T) {
	// With fewer entries than ef the search sees every node, so it must be
	// exact up to quantisation: check order and similarity values.
	x := New(3, Options{Seed: 1})
	vs := map[uint64][]float32{10: {1, 0, 0}, 20: {1, 1, 0}, 30: {0, 1, 0}, 40: {-1, 0, 0}, 50: {0, 0, 1}}
	for k, v := range vs {
		if err := x.Add(k, v); err != nil {
			t.Fatal(err)
		}
	}
	got := x.Search([]float32{2, 0.1, 0}, 3, 0)
	keys := []uint64{}
	for _, r := range got {
		keys = append(keys, r.Key)
	}
	if want := []uint64{10, 20, 30}; !slices.Equal(keys, want) {
		t.Fatalf("Search keys = %v, want %v", keys, want)
	}
	if s := got[0].Similarity; math.Abs(float64(s)-0.99875) > 0.01 {
		t.Fatalf("similarity to (1,0,0) = %v, want ≈ 0.99875", s)
	}
	if s := got[1].Similarity; math.Abs(float64(s)-0.7424) > 0.01 {
		t.Fatalf("similarity to (1,1,0) = %v, want ≈ 0.7424", s)
	}
	if x.Dim() != 3 || x.Len() != 5 {
		t.Fatalf("Dim, Len = %d, %d, want 3, 5", x.Dim(), x.Len())
	}
}

func TestDeleteNeverReturned(t *testing.T) {
	n := sized(3000, 600)
	data, queries := Clustered(n, 50, 64, 10, 3)
	x := build(t, data, Options{Seed: 3})
	gone := map[uint64]bool{}
	for k := uint64(0); k < uint64(n); k += 3 {
		if !x.Delete(k) {
			t.Fatalf("Delete(%d) = false, want true", k)
		}
		gone[k] = true
	}
	if x.Delete(0) {
		t.Fatalf("second Delete(0) = true, want false")
	}
	if got, want := x.Len(), n-len(gone); got != want {
		t.Fatalf("Len = %d, want %d", got, want)
	}
	check := func(x *Index) {
		t.Helper()
		for _, q := range append(queries, data[:100]...) {
			rs := x.Search(q, 10, 0)
			if len(rs) != 10 {
				t.Fatalf("Search returned %d, want 10", len(rs))
			}
			for _, r := range rs {
				if gone[r.Key] {
					t.Fatalf("deleted key %d returned", r.Key)
				}
			}
		}
	}
	check(x)
	if x.Has(0) || !x.Has(1) {
		t.Fatalf("Has(0), Has(1) = %v, %v, want false, true", x.Has(0), x.Has(1))
	}
	// A deleted vector's own query must find its live neighbours, not nothing.
	if rs := x.Search(data[0], 1, 0); len(rs) != 1 || rs[0].Key == 0 {
		t.Fatalf("Search(deleted vector) = %v, want one live neighbour", rs)
	}
	before := x.Bytes()
	x.Compact()
	if x.Tombstones() != 0 || x.Len() != n-len(gone) || x.Bytes() >= before {
		t.Fatalf("after Compact tombstones=%d len=%d bytes %d→%d, want 0, %d, fewer",
			x.Tombstones(), x.Len(), before, x.Bytes(), n-len(gone))
	}
	check(x)
	// Everything deleted: nothing found, nothing panics.
	for k := range uint64(n) {
		x.Delete(k)
	}
	if rs := x.Search(queries[0], 5, 0); len(rs) != 0 {
		t.Fatalf("Search on all-deleted = %v, want none", rs)
	}
}

func TestReAddReplaces(t *testing.T) {
	n := sized(2000, 500)
	data, _ := Clustered(n, 0, 32, 8, 4)
	x := build(t, data, Options{Seed: 4})
	// Re-add key 5 pointing the opposite way: only the new vector may be found.
	far := make([]float32, 32)
	for i, f := range data[5] {
		far[i] = -f
	}
	if err := x.Add(5, far); err != nil {
		t.Fatal(err)
	}
	if x.Len() != n || x.Tombstones() != 1 {
		t.Fatalf("Len, Tombstones = %d, %d, want %d, 1", x.Len(), x.Tombstones(), n)
	}
	rs := x.Search(far, 1, 0)
	if len(rs) != 1 || rs[0].Key != 5 || rs[0].Similarity < 0.99 {
		t.Fatalf("Search(new vector) = %v, want key 5 at ≈1", rs)
	}
	for _, r := range x.Search(data[5], 50, 200) {
		if r.Key == 5 {
			t.Fatalf("old vector of key 5 still found: %v", r)
		}
	}
}

func TestSaveLoadRoundTrip(t *testing.T) {
	n := sized(3000, 600)
	data, queries := Clustered(n, 50, 48, 12, 5)
	x := build(t, data, Options{M: 12, EfConstruction: 80, EfSearch: 40, Seed: 5})
	for k := uint64(0); k < uint64(n); k += 7 {
		x.Delete(k)
	}
	var buf bytes.Buffer
	if err := x.Save(&buf); err != nil {
		t.Fatal(err)
	}
	y, err := Load(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatalf("Load = %v", err)
	}
	if y.Dim() != x.Dim() || y.Len() != x.Len() || y.Tombstones() != x.Tombstones() || y.opt != x.opt {
		t.Fatalf("loaded dim/len/tomb/opt = %d/%d/%d/%+v, want %d/%d/%d/%+v",
			y.Dim(), y.Len(), y.Tombstones(), y.opt, x.Dim(), x.Len(), x.Tombstones(), x.opt)
	}
	for _, q := range queries {
		a, b := x.Search(q, 10, 0), y.Search(q, 10, 0)
		if !slices.Equal(a, b) {
			t.Fatalf("loaded Search = %v, want %v", b, a)
		}
	}
	// The loaded index keeps working: add, delete, save again byte for byte.
	if err := y.Add(99999, data[1]); err != nil {
		t.Fatal(err)
	}
	if rs := y.Search(data[1], 2, 0); len(rs) != 2 || (rs[0].Key != 99999 && rs[1].Key != 99999) {
		t.Fatalf("loaded index after Add: Search = %v, want key 99999 among top 2", rs)
	}
	var again bytes.Buffer
	z, _ := Load(bytes.NewReader(buf.Bytes()))
	if err := z.Save(&again); err != nil || !bytes.Equal(again.Bytes(), buf.Bytes()) {
		t.Fatalf("Save(Load(f)) differs from f (err %v, %d vs %d bytes)", err, again.Len(), buf.Len())
	}
	// Empty index round trip.
	buf.Reset()
	if err := New(8, Options{}).Save(&buf); err != nil {
		t.Fatal(err)
	}
	e, err := Load(&buf)
	if err != nil || e.Len() != 0 || e.Search(make([]float32, 8), 1, 0) != nil {
		t.Fatalf("empty round trip: err %v", err)
	}
}

func TestLoadRefusesCorruption(t *testing.T) {
	data, _ := Clustered(500, 0, 16, 4, 6)
	x := build(t, data, Options{Seed: 6})
	var buf bytes.Buffer
	if err := x.Save(&buf); err != nil {
		t.Fatal(err)
	}
	good := buf.Bytes()
	if _, err := Load(bytes.NewReader(good)); err != nil {
		t.Fatalf("Load(good) = %v", err)
	}
	// Flip one bit at a spread of offsets: header, every slab, trailing sum.
	for _, off := range []int{0, 9, 13, 20, 60, 100, 104, 200, len(good) / 3, len(good) / 2, len(good) - 100, len(good) - 1} {
		bad := slices.Clone(good)
		bad[off] ^= 0x10
		if _, err := Load(bytes.NewReader(bad)); err == nil {
			t.Errorf("Load with bit flipped at %d of %d = nil error", off, len(good))
		}
	}
	for _, n := range []int{0, 10, 112, len(good) / 2, len(good) - 1} {
		if _, err := Load(bytes.NewReader(good[:n])); err == nil {
			t.Errorf("Load of %d of %d bytes = nil error", n, len(good))
		}
	}
	// A file with good checksums but an impossible graph (a buggy writer) is
	// refused by the structure check, not by a panic at the first search.
	for name, spoil := range map[string]func(*Index){
		"link out of range": func(x *Index) { x.links0[1] = uint32(len(x.keys) + 5) },
		"count over cap":    func(x *Index) { x.links0[0] = uint32(x.m0 + 1) },
		"level over max":    func(x *Index) { x.levels[3] = uint8(x.maxLevel + 1) },
		"duplicate key":     func(x *Index) { x.keys[2] = x.keys[1] },
	} {
		y, err := Load(bytes.NewReader(good))
		if err != nil {
			t.Fatal(err)
		}
		spoil(y)
		var b bytes.Buffer
		if err := y.Save(&b); err != nil {
			t.Fatal(err)
		}
		if _, err := Load(&b); !errors.Is(err, ErrCorrupt) {
			t.Errorf("Load(%s) = %v, want ErrCorrupt", name, err)
		}
	}
}

func TestConcurrentSearchDuringAdd(t *testing.T) {
	n := sized(4000, 600)
	data, queries := Clustered(n, 20, 32, 8, 8)
	x := build(t, data[:n/4], Options{Seed: 8})
	var wg sync.WaitGroup
	stop := make(chan struct{})
	errs := make(chan string, 4)
	for g := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				rs := x.Search(queries[(i+g)%len(queries)], 5, 0)
				if len(rs) != 5 {
					errs <- "short result"
					return
				}
				for _, r := range rs {
					if r.Key >= uint64(n) {
						errs <- "unknown key"
						return
					}
				}
				_ = x.Len()
				_ = x.Bytes()
			}
		}()
	}
	deleted := 0
	for i := n / 4; i < n; i++ {
		if err := x.Add(uint64(i), data[i]); err != nil {
			t.Fatal(err)
		}
		if i%10 == 0 && x.Delete(uint64(i-5)) {
			deleted++
		}
	}
	close(stop)
	wg.Wait()
	select {
	case e := <-errs:
		t.Fatalf("concurrent search: %s", e)
	default:
	}
	if want := n - deleted; deleted == 0 || x.Len() != want {
		t.Fatalf("Len = %d, want %d", x.Len(), want)
	}
}
