package local

import (
	"context"
	"strings"
	"testing"

	"pumasi"
	"pumasi/knowledge"
)

// panicNearest is the local driver whose near-duplicate probe panics, as a
// bug in the engine's detail comparison once did on that probe's goroutine.
type panicNearest struct{ knowledge.Driver }

func (panicNearest) Nearest(context.Context, string, string, []float32, int) ([]string, error) {
	panic("probe bug")
}

// TestContributeProbePanicIsAnError: a panic in the near-duplicate probe,
// which runs on a goroutine of its own, answers that contribution with an
// internal error and leaves the process (and the next contribution) alive.
func TestContributeProbePanicIsAnError(t *testing.T) {
	ctx := context.Background()
	d := NewKnowledgeDriver(openT(t, t.TempDir(), Options{}))
	defer d.Close()
	in := knowledge.ContributeInput{Hive: "academy", Agent: "probe-test", Title: "t", Content: "c",
		NormHash: knowledge.Hash("t", "c"), Model: "m", Vector: []float32{1, 0}, Specificity: 0.8, Threshold: 0.9}
	res, err := knowledge.New(panicNearest{d}, knowledge.Options{}).Contribute(ctx, in)
	if err == nil || pumasi.ErrorCode(err) != pumasi.EInternal || !strings.Contains(err.Error(), "panic: probe bug") {
		t.Fatalf("a contribution whose probe panicked = %v; want an internal error naming the panic", err)
	}
	res, err = knowledge.New(d, knowledge.Options{}).Contribute(ctx, in)
	if err != nil || res.Verdict != knowledge.VerdictAccepted {
		t.Fatalf("next contribution = %v, %v; want accepted", res.Verdict, err)
	}
}
