package nearest

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
)

func randVec(r *rand.Rand, dim int) []float32 {
	v := make([]float32, dim)
	for i := range v {
		v[i] = float32(r.NormFloat64())
	}
	return v
}

func cosine(a, b []float32) float64 {
	var ab, aa, bb float64
	for i := range a {
		ab += float64(a[i]) * float64(b[i])
		aa += float64(a[i]) * float64(a[i])
		bb += float64(b[i]) * float64(b[i])
	}
	return ab / math.Sqrt(aa*bb)
}

// bruteCodes is the reference answer: every live vector quantised and
// compared the way Search does, sorted best first (ties by key).
func bruteCodes(live map[uint64][]float32, q []float32, k int) []Result {
	qc := make([]int8, len(q))
	qinv, err := quantize(q, qc)
	if err != nil {
		return nil
	}
	var all []Result
	for key, v := range live {
		c := make([]int8, len(v))
		inv, _ := quantize(v, c)
		all = append(all, Result{key, float32(dot(qc, c)) * qinv * inv})
	}
	slices.SortFunc(all, func(a, b Result) int {
		switch {
		case worse(b, a):
			return -1
		case worse(a, b):
			return 1
		}
		return 0
	})
	return all[:min(k, len(all))]
}

func TestAddRefusesBadVectors(t *testing.T) {
	x := New(4)
	nan, inf := float32(math.NaN()), float32(math.Inf(1))
	for _, c := range []struct {
		name string
		v    []float32
		want error
	}{
		{"zero", []float32{0, 0, 0, 0}, ErrZeroVector},
		{"nan", []float32{1, nan, 0, 0}, ErrBadVector},
		{"inf", []float32{1, 0, inf, 0}, ErrBadVector},
	} {
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
	for _, q := range [][]float32{{0, 0, 0, 0}, {1, 2}, {nan, 0, 0, 0}} {
		if got := x.Search(q, 1); got != nil {
			t.Fatalf("Search(%v) = %v, want nil", q, got)
		}
	}
}

// TestSearchIsExact: Search returns what comparing every code gives, and
// the codes' cosine is within 0.02 of the float32 one.
func TestSearchIsExact(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	x := New(64)
	live := map[uint64][]float32{}
	for i := range 2000 {
		v := randVec(r, 64)
		live[uint64(i*7)] = v
		if err := x.Add(uint64(i*7), v); err != nil {
			t.Fatal(err)
		}
	}
	for range 50 {
		q := randVec(r, 64)
		got, want := x.Search(q, 10), bruteCodes(live, q, 10)
		if !slices.Equal(got, want) {
			t.Fatalf("Search = %v, want %v", got, want)
		}
		for _, g := range got {
			if d := math.Abs(float64(g.Similarity) - cosine(q, live[g.Key])); d > 0.02 {
				t.Fatalf("similarity %v of %d is %.3f off the float32 cosine", g.Similarity, g.Key, d)
			}
		}
	}
	if got := x.Search(randVec(r, 64), 5000); len(got) != 2000 {
		t.Fatalf("Search(k > Len) = %d results, want all 2000", len(got))
	}
}

// TestDeleteAndReplaceKeepMemoryToLive: deleted keys are never returned, a
// re-added key replaces its vector in place, no code of a deleted entry
// stays in the slabs, and deleting most entries gives the memory back.
func TestDeleteAndReplaceKeepMemoryToLive(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	const n, dim = 4000, 32
	x := New(dim)
	live := map[uint64][]float32{}
	for i := range n {
		v := randVec(r, dim)
		live[uint64(i)] = v
		x.Add(uint64(i), v)
	}
	grown := x.Bytes()
	x.Trim()
	full := x.Bytes()
	if per := float64(full) / n; full >= grown || per > 8+4+dim+24+1 {
		t.Fatalf("Trim: %d bytes (%.1f per entry), %d before; want less, about %d per entry", full, per, grown, 8+4+dim+24)
	}
	// Replace every 5th in place.
	for i := 0; i < n; i += 5 {
		v := randVec(r, dim)
		live[uint64(i)] = v
		x.Add(uint64(i), v)
	}
	if x.Len() != n || x.Bytes() != full {
		t.Fatalf("after replacing: Len %d Bytes %d, want %d and %d (in place)", x.Len(), x.Bytes(), n, full)
	}
	// Delete 90 %.
	for i := range n {
		if i%10 != 0 {
			if !x.Delete(uint64(i)) {
				t.Fatalf("Delete(%d) = false", i)
			}
			delete(live, uint64(i))
		}
	}
	if x.Delete(1) {
		t.Fatal("second Delete(1) = true")
	}
	if x.Len() != len(live) {
		t.Fatalf("Len = %d, want %d", x.Len(), len(live))
	}
	if b, most := x.Bytes(), 2*full/10+1024; b > most {
		t.Fatalf("Bytes after deleting 90%% = %d, want ≤ %d (full %d)", b, most, full)
	}
	for range 30 {
		q := randVec(r, dim)
		if got, want := x.Search(q, 10), bruteCodes(live, q, 10); !slices.Equal(got, want) {
			t.Fatalf("after deletes Search = %v, want %v", got, want)
		}
	}
	if tail := x.codes[len(x.codes):cap(x.codes)]; slices.ContainsFunc(tail, func(c int8) bool { return c != 0 }) {
		t.Fatal("a deleted code remains in the slab's spare capacity")
	}
	for k := range live {
		x.Delete(k)
	}
	if x.Len() != 0 || x.Bytes() > 64*(8+4+dim) {
		t.Fatalf("empty index: Len %d, Bytes %d", x.Len(), x.Bytes())
	}
	if got := x.Search(randVec(r, dim), 3); len(got) != 0 {
		t.Fatalf("empty index found %v", got)
	}
}

// TestConcurrentSearchAndWrites runs searches beside a writer (meant for
// -race): each search sees only keys that were added at some point.
func TestConcurrentSearchAndWrites(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	x := New(16)
	var wg sync.WaitGroup
	vs := make([][]float32, 500)
	for i := range vs {
		vs[i] = randVec(r, 16)
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i, v := range vs {
			x.Add(uint64(i), v)
			if i%3 == 0 {
				x.Delete(uint64(i / 2))
			}
		}
	}()
	for g := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 200 {
				for _, res := range x.Search(vs[(i*7+g)%len(vs)], 5) {
					if res.Key >= uint64(len(vs)) {
						t.Errorf("unknown key %d", res.Key)
					}
				}
			}
		}()
	}
	wg.Wait()
}

// FuzzIndexOps drives an index and a map with the same adds, replaces and
// deletes; after each step they agree on Len and Has, and every search
// returns the map's best codes.
func FuzzIndexOps(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15})
	f.Add([]byte{0, 1, 0, 1, 1, 1, 2, 1, 0, 2, 2, 2, 1, 2, 0, 0, 3, 3, 3, 3})
	f.Fuzz(func(t *testing.T, ops []byte) {
		const dim = 8
		x := New(dim)
		live := map[uint64][]float32{}
		for i := 0; i+1 < len(ops); i += 2 {
			key := uint64(ops[i+1] % 32)
			v := make([]float32, dim)
			for j := range v {
				v[j] = float32(int(ops[(i+j)%len(ops)])-128) / 16
			}
			switch ops[i] % 4 {
			case 0, 1:
				if err := x.Add(key, v); err == nil {
					live[key] = v
				} else if !errors.Is(err, ErrZeroVector) {
					t.Fatalf("Add = %v", err)
				}
			case 2:
				_, had := live[key]
				if got := x.Delete(key); got != had {
					t.Fatalf("Delete(%d) = %v, want %v", key, got, had)
				}
				delete(live, key)
			case 3:
				want := bruteCodes(live, v, 4)
				if got := x.Search(v, 4); !slices.Equal(got, want) && !(len(got) == 0 && len(want) == 0) {
					t.Fatalf("Search = %v, want %v", got, want)
				}
			}
			if x.Len() != len(live) || x.Has(key) != (live[key] != nil) {
				t.Fatalf("Len %d Has(%d) %v, want %d %v", x.Len(), key, x.Has(key), len(live), live[key] != nil)
			}
		}
	})
}
