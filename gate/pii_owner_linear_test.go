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
// and 540 numbers took 0.72 s before (0.07 s after). Eight times the
// numbers must cost about eight times as much (best of three runs), not 64.
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
	// Eight times the numbers: linear work takes about 8 times as long,
	// the quadratic scan this guards against 64 times. The margin between
	// them (24 times, and 10 ms) keeps a loaded machine from failing it:
	// 250 against 1000 numbers at 8 times failed once on timing alone at
	// a load average of 10. (1000 numbers is near the gate's length limit.)
	small, large := best(row(125)), best(row(1000))
	if large > 24*small+10*time.Millisecond {
		t.Errorf("125 numbers %v, 1000 numbers %v: more than linear", small, large)
	}
}
