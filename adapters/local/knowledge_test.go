package local

import (
	"context"
	"fmt"
	"math/rand"
	"slices"
	"testing"

	"pumasi"
	"pumasi/adapters/storagetest"
)

func TestKnowledgeConformance(t *testing.T) {
	storagetest.RunKnowledge(t, func(t *testing.T) pumasi.KnowledgeStore {
		s, err := Open(context.Background(), t.TempDir(), Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return NewKnowledge(s)
	})
}

func TestSelectTop(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for _, n := range []int{0, 1, 5, 100, 1000} {
		for _, k := range []int{0, 1, 3, 32, 2000} {
			cs := make([]knowCand, n)
			for i := range cs {
				cs[i] = knowCand{fmt.Sprintf("e%04d", i), float64(r.Intn(50)) / 50}
			}
			want := slices.Clone(cs)
			sortCands(want)
			selectTop(cs, k)
			top := min(k, n)
			if !slices.Equal(cs[:top], want[:top]) {
				t.Fatalf("n=%d k=%d: top = %v, want %v", n, k, cs[:top], want[:top])
			}
			rest := slices.Clone(cs)
			sortCands(rest)
			if !slices.Equal(rest, want) {
				t.Fatalf("n=%d k=%d: selectTop lost or duplicated candidates", n, k)
			}
		}
	}
}
