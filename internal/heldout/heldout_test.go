package heldout

import (
	"strings"
	"testing"
)

func TestBelowHidesTheFigure(t *testing.T) {
	got := Below("held-out/gate20", "narrative", 0.9)
	for _, want := range []string{"held-out/gate20", "narrative", "0.9", Env} {
		if !strings.Contains(got, want) {
			t.Errorf("Below = %q, want it to name %q", got, want)
		}
	}
}
