package knowledgetest

// Counters, queries and errors of the knowledge conformance suite.

import (
	"context"
	"fmt"
	"math"
	"sync"
	"testing"

	"pumasi"
	"pumasi/knowledge"
)

func testKnowCounters(t *testing.T, s knowledge.Store) {
	ctx := context.Background()
	r := mustContribute(t, s, knowIn("agent-one", "academy", "Counted", "An entry to count on.", knowVec(12, 13, 0)))
	id := r.Entry.ID
	const cites = 40
	var wg sync.WaitGroup
	errs := make(chan error, 3*cites)
	for i := 0; i < cites; i++ {
		wg.Add(3)
		go func() {
			defer wg.Done()
			_, err := s.Cite(ctx, id, fmt.Sprintf("citer-%02d", i))
			errs <- err
		}()
		go func() {
			defer wg.Done()
			_, err := s.Endorse(ctx, id, "same-endorser")
			errs <- err
		}()
		go func() {
			defer wg.Done()
			_, err := s.Endorse(ctx, id, fmt.Sprintf("endorser-%02d", i%10))
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	e := mustEntry(t, s, id)
	if e.CitationCount != cites || e.EndorsementCount != 11 {
		t.Fatalf("citations %d endorsements %d, want %d and 11 (once per handle)", e.CitationCount, e.EndorsementCount, cites)
	}
	// Forty citers at once, then each again the same day: counted once.
	for i := 0; i < cites; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if b, err := s.Cite(ctx, id, fmt.Sprintf("citer-%02d", i)); err != nil || b.Counted || b.CitationCount != cites {
				t.Errorf("second cite the same day = counted %v, count %d, %v; want not counted, %d", b.Counted, b.CitationCount, err, cites)
			}
		}()
	}
	wg.Wait()
	if e.ContributionCount != 1 || e.Title != "Counted" {
		t.Fatalf("counters touched the entry: %+v", e)
	}
	if e.Quality <= e.Specificity || e.Quality > 1 {
		t.Fatalf("quality %v does not reflect counters over specificity %v", e.Quality, e.Specificity)
	}
	if _, err := s.Cite(ctx, "no-such-entry", "citer-x"); pumasi.ErrorCode(err) != pumasi.ENotFound {
		t.Fatalf("Cite(missing) = %v, want not_found", err)
	}
	if _, err := s.Endorse(ctx, "no-such-entry", "citer-x"); pumasi.ErrorCode(err) != pumasi.ENotFound {
		t.Fatalf("Endorse(missing) = %v, want not_found", err)
	}
	if _, err := s.GetEntry(ctx, "no-such-entry"); pumasi.ErrorCode(err) != pumasi.ENotFound {
		t.Fatalf("GetEntry(missing) = %v, want not_found", err)
	}
}

func testKnowQuery(t *testing.T, s knowledge.Store) {
	ctx := context.Background()
	mk := func(title string, vec []float32, spec float64, hive string) string {
		in := knowIn("agent-q", hive, title, title+" content", vec)
		in.Specificity = spec
		in.Threshold = 1.01
		return mustContribute(t, s, in).Entry.ID
	}
	close := mk("close but vague", knowVec(0, 1, 0.2), 0.5, "academy")        // sim 0.981
	good := mk("a bit farther, specific", knowVec(0, 1, 0.5), 0.7, "academy") // sim 0.894
	far := mk("far", knowVec(1, 0, 0.3), 1, "academy")                        // sim 0.287
	orth := mk("orthogonal", knowVec(3, 4, 0), 1, "academy")                  // sim 0
	other := mk("other hive", knowVec(0, 1, 0), 1, "backend")                 // sim 1
	probe := knowVec(0, 1, 0)
	hits, err := s.Query(ctx, knowledge.QueryInput{Hive: "academy", Model: "test-model", Vector: probe, Limit: 5})
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, h := range hits {
		order = append(order, h.ID)
		if math.Abs(h.Score-h.Similarity*h.Quality*h.Freshness) > 1e-9 || h.Freshness <= 0.99 || h.Freshness > 1 {
			t.Fatalf("score %v != similarity %v × quality %v × freshness %v (a day old)", h.Score, h.Similarity, h.Quality, h.Freshness)
		}
	}
	if fmt.Sprint(order) != fmt.Sprint([]string{good, close, far}) {
		t.Fatalf("order = %v, want [good close far] = %v (orthogonal %s and other hive %s left out)",
			order, []string{good, close, far}, orth, other)
	}
	if math.Abs(hits[1].Similarity-1/math.Sqrt(1.04)) > 1e-3 {
		t.Fatalf("similarity of close = %v", hits[1].Similarity)
	}
	hits, err = s.Query(ctx, knowledge.QueryInput{Hive: "academy", Model: "test-model", Vector: probe, Limit: 1})
	if err != nil || len(hits) != 1 || hits[0].ID != good {
		t.Fatalf("limit 1 = %v, %v", hits, err)
	}
	hits, err = s.Query(ctx, knowledge.QueryInput{Model: "test-model", Vector: probe, Limit: 2})
	if err != nil || len(hits) != 2 || hits[0].ID != other || hits[1].ID != good {
		t.Fatalf("all hives limit 2 = %+v, %v; want other-hive entry then good", hits, err)
	}
	hits, err = s.Query(ctx, knowledge.QueryInput{Hive: "academy", Model: "unknown-model", Vector: probe, Limit: 5})
	if err != nil || hits == nil || len(hits) != 0 {
		t.Fatalf("unknown model = %v, %v; want an empty, non-nil list", hits, err)
	}
	hits, err = s.Query(ctx, knowledge.QueryInput{Hive: "empty-hive", Model: "test-model", Vector: probe})
	if err != nil || hits == nil || len(hits) != 0 {
		t.Fatalf("empty hive = %v, %v", hits, err)
	}
	// Counters lift quality and so the rank: endorse far enough to matter.
	for i := 0; i < 30; i++ {
		if _, err := s.Endorse(ctx, close, fmt.Sprintf("fan-%02d", i)); err != nil {
			t.Fatal(err)
		}
	}
	hits, err = s.Query(ctx, knowledge.QueryInput{Hive: "academy", Model: "test-model", Vector: probe, Limit: 2})
	if err != nil || len(hits) != 2 || hits[0].ID != close || hits[0].EndorsementCount != 30 {
		t.Fatalf("after 30 endorsements = %+v, %v; want close first", hits, err)
	}
}

// testKnowQueryDeep hides the best-scoring entry behind 60 more similar but
// poor ones: ranking must not stop at the most similar few.
func testKnowQueryDeep(t *testing.T, s knowledge.Store) {
	for i := 0; i < 60; i++ {
		in := knowIn("agent-q", "academy", fmt.Sprintf("poor %02d", i), "poor but similar", knowVec(0, 1+i%10, 0.01+0.001*float64(i)))
		in.Specificity, in.Threshold = 0.05, 1.01
		mustContribute(t, s, in)
	}
	in := knowIn("agent-q", "academy", "rich", "less similar, far better", knowVec(0, 14, 1))
	in.Specificity, in.Threshold = 1, 1.01
	rich := mustContribute(t, s, in).Entry.ID
	hits, err := s.Query(context.Background(), knowledge.QueryInput{Hive: "academy", Model: "test-model", Vector: knowVec(0, 1, 0), Limit: 1})
	if err != nil || len(hits) != 1 || hits[0].ID != rich {
		t.Fatalf("top hit = %+v, %v; want the rich entry (sim 0.71 × 1 beats 0.99 × 0.05)", hits, err)
	}
}

func testKnowErrors(t *testing.T, s knowledge.Store) {
	ctx := context.Background()
	good := knowIn("agent-one", "academy", "t", "c", knowVec(0, 1, 0))
	bad := map[string]func(*knowledge.ContributeInput){
		"bad hive":    func(in *knowledge.ContributeInput) { in.Hive = "Bad Hive" },
		"bad handle":  func(in *knowledge.ContributeInput) { in.Agent = "x" },
		"no vector":   func(in *knowledge.ContributeInput) { in.Vector = nil },
		"no model":    func(in *knowledge.ContributeInput) { in.Model = "" },
		"no hash":     func(in *knowledge.ContributeInput) { in.NormHash = "" },
		"empty title": func(in *knowledge.ContributeInput) { in.Title = " " },
	}
	for name, mut := range bad {
		in := good
		mut(&in)
		if _, err := s.Contribute(ctx, in); err == nil || pumasi.ErrorCode(err) == pumasi.EInternal {
			t.Errorf("%s: err = %v, want a client error", name, err)
		}
	}
	if _, err := s.Query(ctx, knowledge.QueryInput{Hive: "Bad Hive", Model: "m", Vector: []float32{1}}); pumasi.ErrorCode(err) != pumasi.EInvalidRequest {
		t.Errorf("query bad hive = %v", err)
	}
}
