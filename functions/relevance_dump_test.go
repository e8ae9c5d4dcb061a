package functions

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"pumasi/knowledge"
)

// TestRelevanceDump writes, with PUMASI_RELEVANCE_DUMP=<file>, every
// tuning prompt's hits (limit 3, no floor; each score without the
// injection decision's weight, knowledge.Unweighted) and its query's evidence
// features (knowledge/decision.go) as JSON lines, for
// scripts/relevancefit, which fits and cross-validates the injection
// decision on them. Held-out parts are never asked.
func TestRelevanceDump(t *testing.T) {
	out := os.Getenv("PUMASI_RELEVANCE_DUMP")
	if out == "" {
		t.Skip("PUMASI_RELEVANCE_DUMP=<file> writes the tuning prompts' hits and features")
	}
	api, _, entryOf := relevanceAPI(t, filepath.Join(relevanceDir, "corpus.jsonl"))
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	enc := json.NewEncoder(f)
	type hit struct {
		ID    string  `json:"id"`
		Score float64 `json:"score"`
	}
	type row struct {
		Part     string    `json:"part"`
		ID       string    `json:"id"`
		Want     string    `json:"want"`
		Hits     []hit     `json:"hits"`
		Features []float64 `json:"features"`
	}
	ctx := context.Background()
	ask := func(part string, p relevancePrompt, want string) {
		vecs, err := api.Embedder.Embed(ctx, []string{p.Prompt})
		if err != nil {
			t.Fatal(err)
		}
		hits, err := api.Knowledge.Query(ctx, knowledge.QueryInput{Text: p.Prompt, Model: api.Embedder.Model(), Vector: vecs[0], Limit: hookLimit})
		if err != nil {
			t.Fatal(err)
		}
		r := row{Part: part, ID: p.ID, Want: want}
		for _, h := range hits {
			// The score without the decision's weight: the fit's log(score)
			// is the score the decision weighs, so a weighted one would fit
			// the weight on itself (its steps would not reproduce
			// decision.go's coefficients).
			r.Hits = append(r.Hits, hit{h.ID, knowledge.Unweighted(h)})
			r.Features = h.Features
		}
		if err := enc.Encode(r); err != nil {
			t.Fatal(err)
		}
	}
	byEntry := map[string][][2]any{}
	var order []string
	for _, part := range relevanceParts {
		if part.heldOut {
			continue
		}
		for _, p := range readJSONL[relevancePrompt](t, filepath.Join(relevanceDir, part.file)) {
			want := ""
			if p.Related != nil {
				want = entryOf[*p.Related]
				if want == "" {
					want = "missing"
				} else {
					if byEntry[want] == nil {
						order = append(order, want)
					}
					byEntry[want] = append(byEntry[want], [2]any{part.name, p})
				}
			}
			ask(part.name, p, want)
		}
	}
	// Left out (TestRelevanceLeftOut): each related prompt again with its
	// entry quarantined, as a prompt no entry answers; part "left-out/<part>".
	m, err := api.moderation()
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range order {
		if _, _, err := m.Flag(ctx, knowledge.FlagInput{ID: id, Agent: "relevance-left-out", Reason: knowledge.FlagWrong, Admin: true}); err != nil {
			t.Fatal(err)
		}
		for _, a := range byEntry[id] {
			ask("left-out/"+a[0].(string), a[1].(relevancePrompt), "")
		}
		if _, err := m.Restore(ctx, id, "relevance-left-out"); err != nil {
			t.Fatal(err)
		}
	}
}
