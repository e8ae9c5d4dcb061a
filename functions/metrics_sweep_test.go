package functions_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"pumasi/adapters/embed"
	"pumasi/adapters/local"
	"pumasi/functions"
	"pumasi/knowledge"
)

// TestMetricsSweepCitesPruned: the citation rows a sweep prunes (its
// report's cites_pruned) add up in pumasi_sweep_cites_pruned_total, run
// after run; a run that prunes nothing adds nothing.
func TestMetricsSweepCitesPruned(t *testing.T) {
	ctx := context.Background()
	var mu sync.Mutex
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	st, err := local.Open(ctx, t.TempDir(), local.Options{Now: clock})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	k := knowledge.New(local.NewKnowledgeDriver(st), knowledge.Options{Now: clock})
	m := functions.NewMetrics()
	api := &functions.API{Store: st, Log: quiet, Knowledge: k, Embedder: embed.NewHashed(0), Metrics: m}
	v := make([]float32, 8)
	v[0] = 1
	e, err := k.Contribute(ctx, knowledge.ContributeInput{Hive: "academy", Agent: "agent-one", Title: "Cited on day one",
		Content: "An entry three agents cite.", NormHash: knowledge.Hash("Cited on day one", "An entry three agents cite."),
		Model: "test-model", Vector: v, Specificity: 0.8, Threshold: 1.01})
	if err != nil {
		t.Fatal(err)
	}
	for _, who := range []string{"citer-1", "citer-2", "citer-3"} {
		if _, err := k.Cite(ctx, e.Entry.ID, who); err != nil {
			t.Fatal(err)
		}
	}
	sweep := func() int64 {
		t.Helper()
		rep, err := api.Sweep(ctx, time.Hour)
		if err != nil || rep.Knowledge == nil {
			t.Fatalf("sweep = %+v, %v", rep, err)
		}
		return rep.Knowledge.CitesPruned
	}
	if n := sweep(); n != 0 {
		t.Fatalf("a sweep on the day of the cites pruned %d rows", n)
	}
	mu.Lock()
	now = now.Add(72 * time.Hour)
	mu.Unlock()
	if n := sweep(); n != 3 {
		t.Fatalf("a sweep three days later pruned %d rows, want 3", n)
	}
	sweep()
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	text := rec.Body.String()
	for _, line := range []string{"pumasi_sweep_cites_pruned_total 3\n", `pumasi_sweep_runs_total{result="ok"} 3` + "\n"} {
		if !strings.Contains(text, line) {
			t.Errorf("metrics lack %q:\n%s", line, text)
		}
	}
}
