package gate

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestOwnerNearLinear pins that a long sentence of National Insurance
// numbers with their holder costs each number a window, not the sentence:
// ownerNear and nameFieldNear read the whole sentence and line per match,
// and 540 numbers took 0.72 s before (0.07 s after). Doubling the numbers
// must cost about double (best of three runs), not four times.
func TestOwnerNearLinear(t *testing.T) {
	row := func(n int) string {
		var b strings.Builder
		b.WriteString("Batch of NINO values from Jane Smith: ")
		for i := range n {
			fmt.Fprintf(&b, "AB%06dC ", 100000+i*7)
		}
		return b.String()
	}
	best := func(s string) time.Duration {
		d := time.Hour
		for range 3 {
			start := time.Now()
			if r := Check("Export rows", s); !slices.Contains(r.Names(SignalMatched), PIINationalID) {
				t.Fatalf("not refused as national_id: %v", r.Details)
			}
			d = min(d, time.Since(start))
		}
		return d
	}
	small, large := best(row(250)), best(row(1000))
	if large > 8*small {
		t.Errorf("250 numbers %v, 1000 numbers %v: more than linear", small, large)
	}
}
