package functions

import (
	"context"
	"path/filepath"
	"sort"
	"testing"

	"pumasi/adapters/embed"
	"pumasi/knowledge"
)

// TestRelevanceLeftOut measures the near misses the hooks would inject on
// a corpus that lacks the answer: each related tuning prompt is asked again
// with its own entry quarantined (left out of every query, as if it had
// never been written), so what answers it is at best a finding about the
// same tool or error and another problem. "Left-out clean" is the share of
// those prompts that then inject nothing at the floor. Unlike the
// unrelated prompts of a file, these come mechanically from its related
// ones, so the figure does not depend on what kinds of near miss a writer
// thought of; it moved alike on the files rules were read from and on the
// others (testdata/knowledge/relevance/README.md, session 10). Held-out
// parts are never asked.
func TestRelevanceLeftOut(t *testing.T) {
	if raceEnabled {
		t.Skip("measured without the race detector")
	}
	api, h, entryOf := relevanceAPI(t, filepath.Join(relevanceDir, "corpus.jsonl"))
	m, err := api.moderation()
	if err != nil {
		t.Fatal(err)
	}
	floor := knowledge.InjectFloorFor(embed.NewHashed(0).Model())
	type asked struct {
		part string
		p    relevancePrompt
	}
	byEntry := map[string][]asked{}
	for _, part := range relevanceParts {
		if part.heldOut {
			continue
		}
		for _, p := range readJSONL[relevancePrompt](t, filepath.Join(relevanceDir, part.file)) {
			if p.Related != nil && entryOf[*p.Related] != "" {
				id := entryOf[*p.Related]
				byEntry[id] = append(byEntry[id], asked{part.name, p})
			}
		}
	}
	ids := make([]string, 0, len(byEntry))
	for id := range byEntry {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	ctx := context.Background()
	clean, total := map[string]int{}, map[string]int{}
	for _, id := range ids {
		if _, _, err := m.Flag(ctx, knowledge.FlagInput{ID: id, Agent: "relevance-left-out", Reason: knowledge.FlagWrong, Admin: true}); err != nil {
			t.Fatal(err)
		}
		list := byEntry[id]
		prompts := make([]relevancePrompt, len(list))
		for i, a := range list {
			prompts[i] = a.p
		}
		for i, hits := range promptHits(t, h, prompts) {
			if hits == nil || len(hits) > 0 && hits[0].ID == id {
				t.Fatalf("%s: its quarantined entry answered", prompts[i].ID)
			}
			injected := false
			for _, x := range hits {
				injected = injected || x.Score >= floor
			}
			total[list[i].part]++
			if !injected {
				clean[list[i].part]++
			}
		}
		if _, err := m.Restore(ctx, id, "relevance-left-out"); err != nil {
			t.Fatal(err)
		}
	}
	// The figures reached in session 11 with the injection decision
	// (knowledge/decision.go, floor 0.1): less is a regression. On 87dc3de
	// (floor 0.205) they were tuning 92, tuning-2 78, tuning-3 59, tuning-4
	// 49, tuning-5 89, tuning-6 108, tuning-7 91, tuning-8 87, tuning-9 91,
	// tuning-10 88, tuning-11 87, tuning-12 90, tuning-13 86, and tuning-14
	// 91, tuning-15 85 (1271/1433 in all; now 1382/1433).
	want := map[string]int{"tuning": 101, "tuning-2": 82, "tuning-3": 59, "tuning-4": 49, "tuning-5": 98, "tuning-6": 117,
		"tuning-7": 97, "tuning-8": 98, "tuning-9": 98, "tuning-10": 97, "tuning-11": 96, "tuning-12": 98, "tuning-13": 98,
		"tuning-14": 99, "tuning-15": 95, "tuning-16": 94, "tuning-17": 93, "tuning-18": 98, "tuning-19": 94, "tuning-20": 95, "tuning-21": 95, "tuning-22": 97, "tuning-23": 99, "tuning-24": 95, "tuning-25": 97}
	// wantAll is the whole on session 18's code (1761/1833; 1856/1933 with
	// tuning-20; 1951/2033 with tuning-21 at session 20's end; 2048/2133
	// with tuning-22 at session 22's start; 2148/2233 with tuning-23 at its
	// end; 2340/2433 with tuning-24 and tuning-25 at session 23's end): a refit
	// judged by its folds may trade a prompt between files, not lose the
	// whole.
	const wantAll = 2340
	var all, allN int
	for _, part := range relevanceParts {
		if part.heldOut {
			continue
		}
		c, n := clean[part.name], total[part.name]
		all, allN = all+c, allN+n
		t.Logf("floor %.3f, %s: left-out prompts inject nothing %d/%d = %.1f%%", floor, part.name, c, n, 100*float64(c)/float64(max(n, 1)))
		if w, ok := want[part.name]; !ok {
			t.Errorf("part %s has no left-out floor: measure it once and give it the figure reached", part.name)
		} else if c < w {
			t.Errorf("%s: left-out prompts injecting nothing = %d/%d, want at least %d", part.name, c, n, w)
		}
	}
	t.Logf("floor %.3f, tuning (all): left-out prompts inject nothing %d/%d = %.1f%%", floor, all, allN, 100*float64(all)/float64(max(allN, 1)))
	if all < wantAll {
		t.Errorf("tuning (all): left-out prompts injecting nothing = %d/%d, want at least %d", all, allN, wantAll)
	}
}
