package functions

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"testing"

	"pumasi/adapters/embed"
	"pumasi/internal/heldout"
	"pumasi/knowledge"
)

// The labelled relevance set (testdata/knowledge/relevance/README.md): a
// corpus of findings and prompts an agent's hook would see, each naming the
// one finding that answers it or none. The floor is chosen on the tuning
// prompts only (tuning.jsonl, and tuning2.jsonl to tuning6.jsonl, the
// held-out prompts of rounds 1 to 5, tuning data since their aggregates
// were read). A held-out prompt file, when there is one, is a part with
// heldOut set and its sha256 (relevanceParts), frozen.
const (
	relevanceDir = "../testdata/knowledge/relevance"
	// hookLimit is `pumasi know hook`'s default --limit.
	hookLimit = 3
)

type relevancePrompt struct {
	ID      string  `json:"id"`
	Lang    string  `json:"lang"`
	Related *string `json:"related"`
	Part    string  `json:"part"`
	Prompt  string  `json:"prompt"`
}

// relevanceParts are the prompt files: the tuning ones (the floor is chosen
// on them together) and a held-out one when there is one, frozen by its
// checksum (none between rounds; round 5's heldout5.jsonl, sha256
// 7b874846…, is tuning6.jsonl now, round 6's heldout6.jsonl tuning7.jsonl,
// round 7's heldout7.jsonl tuning8.jsonl, session 6's heldout8.jsonl
// tuning9.jsonl, session 7's heldout9.jsonl tuning10.jsonl).
var relevanceParts = []struct {
	name, file string
	heldOut    bool
	sha256     string // a held-out file's frozen checksum
}{
	{"tuning", "tuning.jsonl", false, ""},
	{"tuning-2", "tuning2.jsonl", false, ""},
	{"tuning-3", "tuning3.jsonl", false, ""},
	{"tuning-4", "tuning4.jsonl", false, ""},
	{"tuning-5", "tuning5.jsonl", false, ""},
	{"tuning-6", "tuning6.jsonl", false, ""},
	// Round 6's held-out prompts (heldout6.jsonl, sha256 9928aa65…), spent:
	// tuning data since session 5.
	{"tuning-7", "tuning7.jsonl", false, ""},
	// Round 7's held-out prompts (heldout7.jsonl, sha256 f0261369…), written
	// on 2026-12-03 by a writer who read only the corpus; spent by its two
	// looks in session 5, tuning data since session 6.
	{"tuning-8", "tuning8.jsonl", false, ""},
	// Session 6's held-out prompts (heldout8.jsonl, sha256 777bf278…),
	// written on 2026-12-03 by a writer who read only the corpus; spent by
	// its two looks (sessions 6 and 7), tuning data since session 8.
	{"tuning-9", "tuning9.jsonl", false, ""},
	// Session 7's held-out prompts (heldout9.jsonl, sha256 f634b614…),
	// written on 2026-12-03 by a writer who read only the corpus; spent by
	// its two looks (sessions 7 and 8), tuning data since session 9.
	{"tuning-10", "tuning10.jsonl", false, ""},
	// Sessions 8's and 9's held-out prompts (heldout10.jsonl, sha256
	// f3fda71f…; heldout11.jsonl, ca559068…; heldout12.jsonl, b3954fde…),
	// written on 2026-12-03 by writers who read only the corpus; spent by
	// their two looks (the second on session 9's floor 0.205), tuning data
	// since session 9.
	{"tuning-11", "tuning11.jsonl", false, ""},
	{"tuning-12", "tuning12.jsonl", false, ""},
	{"tuning-13", "tuning13.jsonl", false, ""},
	// Session 9's second (heldout13.jsonl, sha256 f2d9b202…) and session
	// 10's (heldout14.jsonl, e49b27ca…; 54 of its 110 unrelated prompts
	// name an entry's tool with another problem), by writers who read only
	// the corpus; spent by their two looks (the second on 7f5d650), tuning
	// data since session 11.
	{"tuning-14", "tuning14.jsonl", false, ""},
	{"tuning-15", "tuning15.jsonl", false, ""},
	// Written in session 10 for session 11 by a writer who read only the
	// corpus (heldout15.jsonl, sha256 05f3386f… while held out); spent by
	// its two looks (the second on 0415b19), tuning data since session 12.
	{"tuning-16", "tuning16.jsonl", false, ""},
	// Written in session 11 for session 12 by a writer who read only the
	// corpus (heldout16.jsonl, sha256 6c0ac52b… while held out); spent by
	// its two looks (the second on da1c50a), tuning data since session 16.
	{"tuning-17", "tuning17.jsonl", false, ""},
	// Written at the start of session 15 by a writer who read only the
	// corpus (heldout17.jsonl, sha256 be2a63a6… while held out); spent by
	// its two looks (the second on da1c50a), tuning data since session 16.
	{"tuning-18", "tuning18.jsonl", false, ""},
	// Written in session 15 for session 16 by a writer who read only the
	// corpus (100 related over 100 entries, 110 unrelated, 70 Korean;
	// heldout18.jsonl, sha256 fe13a757… while held out); spent by its two
	// looks (the second on 92fe42d), tuning data since session 18.
	{"tuning-19", "tuning19.jsonl", false, ""},
	// Written at the start of session 17 by a writer who read only the
	// corpus (100 related over 98 entries, 110 unrelated of which 57 name
	// an entry's tool or error word with another problem, 70 Korean),
	// frozen at once (heldout19.jsonl, sha256 92f27ee1… while held out);
	// spent by its two looks (the second on f76e60f), tuning data since the
	// end of session 18.
	{"tuning-20", "tuning20.jsonl", false, ""},
	// Written at the start of session 18 by a writer who read only the
	// corpus (100 related over 99 entries, 110 unrelated of which 55 share
	// an entry's tool, error family or config file, 70 Korean), frozen when
	// it was done, before any of the session's relevance changes landed
	// (heldout20.jsonl, sha256 b6e138e8… while held out); spent by its two
	// looks (the second on 48ea1d9), tuning data since the end of session
	// 20.
	{"tuning-21", "tuning21.jsonl", false, ""},
	// Written at the start of session 19 by a writer who read only the
	// corpus (100 related over 100 entries, 110 unrelated of which 55 share
	// an entry's tool, error family or config file, 70 Korean), frozen when
	// it was done, before any of the session's relevance changes landed
	// (heldout21.jsonl, sha256 40fc65ee… while held out); spent by its two
	// looks (the second on 24fa8c0), tuning data since the start of
	// session 22.
	{"tuning-22", "tuning22.jsonl", false, ""},
	// Written at the start of session 21 by a writer who read only the
	// corpus (100 related over 100 entries, 110 unrelated, most sharing an
	// entry's tool or domain; 65 Korean, 28 of them about English
	// entries), frozen when it was done, before any of the session's
	// relevance changes landed (heldout22.jsonl, sha256 5503602c… while
	// held out); spent by its two looks (the second on f1bf993), tuning
	// data since the end of session 22.
	{"tuning-23", "tuning23.jsonl", false, ""},
	// Written at the end of session 22 by a writer who read only the corpus
	// (100 related over 100 entries, 20 across languages; 110 unrelated,
	// 88 of them sharing an entry's tool, error family or config file; 66
	// Korean), frozen when it was done, for the next session's changes;
	// look 1 on session 22's final code (its knowledge code as f1bf993).
	// (heldout23.jsonl, sha256 2ea4762b… while held out); spent by its two
	// looks (the second on session 23's final code), tuning data since the
	// end of session 23.
	{"tuning-24", "tuning24.jsonl", false, ""},
	// Written at the start of session 23 by a writer who read only the
	// corpus (100 related over 100 entries, 56 across languages; 110
	// unrelated; 65 Korean), frozen when done, to judge session 23's
	// changes; look 1 on 1575c99 (session 22's final code).
	// (heldout24.jsonl, sha256 dff6d62f… while held out); spent by its two
	// looks (1575c99, then session 23's final code), tuning data since the
	// end of session 23.
	{"tuning-25", "tuning25.jsonl", false, ""},
}

// readPrompts reads a part's prompt file, checking a held-out one's
// checksum first.
func readPrompts(t *testing.T, file string, heldOut bool, frozen string) []relevancePrompt {
	t.Helper()
	path := filepath.Join(relevanceDir, file)
	if heldOut {
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if sum := sha256.Sum256(raw); hex.EncodeToString(sum[:]) != frozen {
			t.Fatalf("%s changed (sha256 %x): a held-out part is frozen; label new prompts in tuning.jsonl", file, sum)
		}
	}
	return readJSONL[relevancePrompt](t, path)
}

// TestRelevanceFloor measures what the hooks and MCP inject with the
// offline hashed embedder's floor (knowledge.InjectFloorFor, what
// min_score=floor applies) on the labelled relevance set, prints the figures of
// every part (one subtest each, so a tuner can run the tuning parts alone)
// and, with -v, a sweep of floors on the tuning parts together (the floor
// was chosen there), and fails below the figures reached.
func TestRelevanceFloor(t *testing.T) {
	if raceEnabled {
		// The prompts are asked one at a time: nothing concurrent to check,
		// and several times slower. make test runs it in its pass without
		// the race detector, as TestQuerySharesNothing on the same corpus;
		// the contribute and query paths' goroutines (the near-duplicate
		// probe, the candidate searches) run under it in every other
		// knowledge test.
		t.Skip("measured without the race detector")
	}
	api, _, entryOf := relevanceAPI(t, filepath.Join(relevanceDir, "corpus.jsonl"))
	t.Logf("corpus: %d findings stored", len(entryOf))
	model := embed.NewHashed(0).Model()
	floor, later := knowledge.InjectFloorFor(model), knowledge.LaterFloorFor(model)
	// The figures reached in round 5 of issue 23 at floor 0.175 with the
	// query's support (knowledge.QuerySupport): less is a regression. The
	// issue's goal is 90 % of both. Before round 5, at 0.315: tuning 86/94,
	// 96/106; tuning-2 73/79, 74/87; tuning-3 49/50, 54/66; tuning-4 33/37,
	// 47/55; tuning-5 (held-out-4 of round 4) 44/54, 94/99.
	// Session 9 moved the floor to 0.205 and EvidenceFull to 14 (chosen on
	// the outside writers' files, tuning-5 … tuning-10; knowledge/rank.go):
	// clean rose and found fell on every file, so these are that point's
	// figures, with the figures at 0.175 before it in the comments.
	// Session 11: the injection decision (knowledge/decision.go) and the
	// floor 0.1, a stated trade (all tuning clean 1259 → 1308/1391, found
	// 1319 → 1309/1433; leave-one-file-out in the README). Its figures here,
	// the ones at 0.205 before it in the comments. The later floor
	// (knowledge.LexicalLaterFloor: hits after the first keep 0.205 on
	// their own score) then traded found 1309 → 1306 for the other hits
	// injected on related prompts, 2258 → 477 (maxOthers below).
	want := map[string][2]float64{ // clean, found
		"tuning":   {0.989, 0.933}, // 93/94, 99/106 (92/94, 100/106 at 0.205 before the decision)
		"tuning-2": {0.987, 0.85},  // 78/79, 74/87 (78/79, 75/87; 75/87 before the later floor)
		"tuning-3": {1, 0.848},     // 50/50, 56/66 (50/50, 54/66)
		"tuning-4": {1, 0.78},      // 37/37, 43/55 (37/37, 41/55; 44/55 before the later floor)
		"tuning-5": {1, 0.959},     // 54/54, 95/99 (52/54, 94/99)
		"tuning-6": {0.954, 0.966}, // 83/87, 116/120 (84/87, 114/120)
		"tuning-7": {0.98, 0.94},   // 108/110, 94/100 (109/110, 97/100; 95/100 before the later floor)
		"tuning-8": {0.99, 0.94},   // 109/110, 94/100 (110/110, 97/100)
		"tuning-9": {0.972, 0.90},  // 107/110, 90/100 (105/110, 93/100)
		// Look 1, on 30dec1f before session 8's changes: 76/110, 97/100;
		// look 2 on 14c7924 (no relevance change landed): the same. Spent:
		// tuning10.jsonl since session 9, the floors at look 2.
		"tuning-10": {0.90, 0.94}, // 99/110, 94/100 (93/110, 94/100)
		// Held-out-10 (look 1 on 3fc789b: 69/110, 96/100, printed again on
		// 14c7924 where the relevance path had not changed), held-out-11
		// (look 1 on 92741f5: 81/110, 97/100) and held-out-12 (look 1 on
		// c5f451b: 69/110, 96/100), each looked at a second time on
		// session 9's floor 0.205 with EvidenceFull 14: spent, tuning data
		// since then, the floors at look 2. The new point traded found for
		// clean by design (chosen on tuning data before the looks).
		"tuning-11": {0.836, 0.92}, // 92/110, 92/100 (84/110, 89/100)
		"tuning-12": {0.945, 0.92}, // 104/110, 92/100 (95/110, 96/100)
		"tuning-13": {0.845, 0.92}, // 93/110, 92/100 (82/110, 93/100)
		// Held-out-13, look 1 on 9e26290 (the floor at 0.205): 83/110,
		// 90/100; look 2 on 7f5d650: the same. Held-out-14, look 1 on
		// 87dc3de (session 10's starting code): 105/110, 92/100; look 2 on
		// 7f5d650 (no relevance change landed): the same. Spent: tuning
		// data since session 11, the floors at look 2.
		"tuning-14": {0.827, 0.86}, // 91/110, 86/100 (83/110, 90/100)
		"tuning-15": {1, 0.89},     // 110/110, 89/100 (105/110, 92/100)
		// Look 1 on 7f5d650 (session 10's final code): 81/110, 90/100; look 2
		// on 0415b19 (the injection decision, floor 0.1): 92/110, 89/100.
		// Spent: tuning data (tuning16.jsonl) since session 12, floors at look 2.
		"tuning-16": {0.836, 0.89}, // 92/110, 89/100 (81/110, 90/100)
		// Look 1 on 0415b19 (session 11's final code): 98/110, 91/100; look 2
		// on da1c50a (session 15's final code): the same. Spent: tuning data
		// from session 16 (tuning17.jsonl), floors at look 2.
		"tuning-17": {0.89, 0.91}, // 98/110, 91/100
		// Look 1 on 3f95204 (session 15's starting code): 102/110, 94/100;
		// look 2 on da1c50a (its final code): the same. Spent: tuning data
		// from session 16 (tuning18.jsonl), floors at look 2.
		"tuning-18": {0.927, 0.94}, // 102/110, 94/100
		// Look 1 on da1c50a (session 15's final code): 95/110, 90/100; look 2
		// on 92fe42d (session 17's final code): the same. Spent: tuning data
		// from session 18 (tuning19.jsonl), floors at look 2.
		"tuning-19": {0.863, 0.9}, // 95/110, 90/100
		// Frozen at the start of session 17; look 1 on 92fe42d: 108/110,
		// 91/100; look 2 on f76e60f (session 18's final code): the same.
		// Spent: tuning data (tuning20.jsonl) from the end of session 18.
		"tuning-20": {0.981, 0.91}, // 108/110, 91/100
		// Frozen at the start of session 18; look 1 on f76e60f (its final
		// code): 102/110, 96/100; look 2 on 48ea1d9 (session 20's final
		// code): the same. Spent: tuning data (tuning21.jsonl) from the end
		// of session 20, floors at look 2.
		"tuning-21": {0.927, 0.96}, // 102/110, 96/100
		// Frozen at the start of session 19; look 1 on 48ea1d9 (session
		// 20's final code): 105/110, 97/100; look 2 on 24fa8c0 (session
		// 21's final code): the same. Spent: tuning data (tuning22.jsonl)
		// from the start of session 22, floors at look 2.
		"tuning-22": {0.954, 0.97}, // 105/110, 97/100
		// Frozen at the start of session 21; look 1 on f69cc62 (session
		// 20's final code): 107/110, 94/100; look 2 on f1bf993 (session
		// 22's final code): the same. Spent: tuning data (tuning23.jsonl)
		// from the end of session 22, floors at look 2.
		"tuning-23": {0.972, 0.94}, // 107/110, 94/100
		// Frozen at the end of session 22; look 1 on f1bf993 (its final
		// code): 103/110, 98/100; look 2 on 82a1076 (session 23's final
		// code): the same. Spent: tuning data (tuning24.jsonl) from the end
		// of session 23, floors at look 2.
		"tuning-24": {0.936, 0.98}, // 103/110, 98/100
		// Frozen at the start of session 23; look 1 on 1575c99 (session
		// 22's final code): 107/110, 95/100; look 2 on 82a1076: the same.
		// Spent: tuning data (tuning25.jsonl) from the end of session 23,
		// floors at look 2.
		"tuning-25": {0.972, 0.95}, // 107/110, 95/100
	}
	var tuning []relevancePrompt
	var tuningHits [][]knowledge.Hit
	tuningParts, tuningRan := 0, 0
	for _, part := range relevanceParts {
		if !part.heldOut {
			tuningParts++
		}
	}
	for _, part := range relevanceParts {
		t.Run(part.name, func(t *testing.T) {
			prompts := readPrompts(t, part.file, part.heldOut, part.sha256)
			hits := engineHits(t, api, prompts)
			if !part.heldOut {
				tuning, tuningHits = append(tuning, prompts...), append(tuningHits, hits...)
				tuningRan++
			}
			got := figuresAt(prompts, hits, entryOf, floor, later)
			if part.heldOut && !heldout.Show() {
				t.Log(heldout.Hidden(part.name))
			} else {
				t.Logf("floor %.3f, %s: %v; %d other hits injected on related prompts", floor, part.name, got, got.others)
				t.Logf("no floor,    %s: %v", part.name, figuresAt(prompts, hits, entryOf, 0, 0))
			}
			w, ok := want[part.name]
			if !ok {
				t.Fatalf("part %s has no floors: measure it once and give it the figures reached", part.name)
			}
			if got.clean < w[0] {
				if part.heldOut && !heldout.Show() {
					t.Error(heldout.Below(part.name, "unrelated prompts injecting nothing", w[0]))
				} else {
					t.Errorf("%s: unrelated prompts injecting nothing = %.1f%%, want at least %.1f%%", part.name, 100*got.clean, 100*w[0])
				}
			}
			if got.found < w[1] {
				if part.heldOut && !heldout.Show() {
					t.Error(heldout.Below(part.name, "related prompts getting their entry", w[1]))
				} else {
					t.Errorf("%s: related prompts getting their entry = %.1f%%, want at least %.1f%%", part.name, 100*got.found, 100*w[1])
				}
			}
		})
	}
	// The hits other than their entry that related prompts inject, on
	// every tuning part together: 494 at 0.205 before the decision, 2258
	// with the decision's weight alone at 0.1 (a weight of 1 let every hit
	// from 0.1 up beside the right one), 478 with the later floor
	// (knowledge.LexicalLaterFloor); 516 once session 16 added tuning-17
	// and tuning-18 (200 more related prompts, 38 more such hits); 536 once
	// session 18 added tuning-19 (100 more related prompts), 545 with
	// tuning-20 at its end, 555 with tuning-21 at session 20's end (its
	// 100 related prompts, 10 such hits), 569 with tuning-22 at session
	// 22's start (14 such hits), 587 with tuning-23 at its end (19 such
	// hits; one fewer elsewhere), 630 with tuning-24 and tuning-25 at
	// session 23's end (43 such hits between them, at the hook's floor and
	// later floor). More is a regression.
	const maxOthers = 630
	if tuningRan == tuningParts && len(tuning) > 0 {
		all := figuresAt(tuning, tuningHits, entryOf, floor, later)
		t.Logf("tuning (all), floor %.3f, later %.3f: %v; %d other hits injected on related prompts", floor, later, all, all.others)
		if all.others > maxOthers {
			t.Errorf("tuning: related prompts injected %d hits other than their entry, want at most %d", all.others, maxOthers)
		}
	}
	if testing.Verbose() && len(tuning) > 0 {
		for f := 0.0; f <= 0.6001; f += 0.005 {
			t.Logf("tuning (all), floor %.3f: %v", f, figuresAt(tuning, tuningHits, entryOf, f, later))
		}
	}
}
