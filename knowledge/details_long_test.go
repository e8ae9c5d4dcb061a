package knowledge

import (
	"fmt"
	"math/rand"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

// longText is a text of n bytes or more made of pattern filled with 0, 1, 2...
func longText(pattern string, n int) string {
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, pattern, i)
	}
	return b.String()
}

// TestFiguresAllocLinear: reading the figures of a long text (a contribution
// may hold 64k characters, each a number) allocates in proportion to its
// length, not to its length times its numbers: each number's multiplier
// was read from a lower-cased copy of the whole rest of the text (a copy
// whenever the rest holds a capital).
func TestFiguresAllocLinear(t *testing.T) {
	if raceEnabled {
		// The race detector's instrumentation allocates on its own (124 MB
		// here where a plain run takes 2 MB): make test runs it without.
		t.Skip("allocation count: make test runs it without the race detector")
	}
	s := longText("%d Rows ", 64<<10)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	d := DetailSet{Figures: map[string][]string{}, Stated: map[string]bool{}}
	d.addFigures(s)
	runtime.ReadMemStats(&after)
	if got, limit := after.TotalAlloc-before.TotalAlloc, uint64(200*len(s)); got > limit {
		t.Fatalf("addFigures on %d bytes allocated %d bytes, want under %d", len(s), got, limit)
	}
}

// TestConflictTimeLinear: comparing the details of two long texts takes
// time in proportion to their length, on texts that give one thing many
// values (every number after "port": numbersRival compared every value of
// one with every value of the other, 0.4 s for two 64k texts and 16 times
// that for a contribution's 16 candidates) and on texts of many compound
// names of one family, each inflected in the other (fam-abc1, fam-abcx1:
// compoundsSwapped compared every pair, 2.4 s). Eight times the text may
// take at most 24 times as long (quadratic is 64), best of three each.
func TestConflictTimeLinear(t *testing.T) {
	if raceEnabled {
		t.Skip("timing: make test runs it without the race detector")
	}
	for _, c := range []struct {
		a, b string
		rule func(a, b DetailSet) bool
	}{{"port %d, ", "port %d, 7s ", DetailsConflict}, {"fam-abc%d ", "fam-abcx%d ", compoundsSwapped}} {
		cost := func(n int) time.Duration {
			a, b := ParseDetails(longText(c.a, n)), ParseDetails(longText(c.b, n))
			best := time.Duration(1 << 62)
			for i := 0; i < 3; i++ {
				start := time.Now()
				c.rule(a, b)
				best = min(best, time.Since(start))
			}
			return best
		}
		small, large := cost(8<<10), cost(64<<10)
		if large > 24*small+10*time.Millisecond {
			t.Errorf("%q beside %q: %v on 8k bytes, %v on 64k, want under 24 times", c.a, c.b, small, large)
		}
	}
}

// TestExclusiveIndexed: exclusive indexed for long lists gives what
// comparing every pair (sameValue) gives.
func TestExclusiveIndexed(t *testing.T) {
	vals := []string{"30", "30s", "30ms", "10", "10s", "v1.2", "1.2", "abc", "a1", "1a", "", "12", "120", "0x1f", "7d"}
	rng := rand.New(rand.NewSource(22))
	for i := 0; i < 2000; i++ {
		xs, ys := make([]string, 1+rng.Intn(12)), make([]string, 6+rng.Intn(12))
		for j := range xs {
			xs[j] = vals[rng.Intn(len(vals))]
		}
		for j := range ys {
			ys[j] = vals[rng.Intn(len(vals))]
		}
		if got, want := exclusive(xs, ys), exclusiveScan(xs, ys); !slices.Equal(got, want) {
			t.Fatalf("exclusive(%q, %q) = %q, want %q", xs, ys, got, want)
		}
	}
}
