package local

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"pumasi/adapters/embed"
	"pumasi/knowledge"
)

// ownPair is a pair of testdata/knowledge/retrieval/pairs-lookalike-own.jsonl:
// session 11's look-alikes written from general knowledge for each kind of
// decisive detail (category), in English and Korean, in prose and in code
// or config, each with a rewording control that keeps the detail.
type ownPair struct {
	qPair
	Category, Lang, Form string
	From                 string `json:"from"`
	To                   string `json:"to"`
}

// ownRewordingsFloors are the shares of rewording controls merged by file;
// every look-alike of every category is kept apart. pairs-lookalike-own:
// 41/43 since session 11's phrase swaps and parses (35/43, with 8/43
// look-alikes merged, before). pairs-lookalike-own2, written after those
// rules landed and measured once before any change for it: see its README
// lines. pairs-lookalike-own4 (session 15): rewordings 15/21, look-alikes
// merged 6/33 before the subcommand, antonym and 안 rules, 15/21 and 0/33
// after; 16/21 since apostrophes are no quotes (b4-opp-en-client).
// pairs-lookalike-own5 (session 19, 22 kinds): rewordings 43/56 before and
// after, look-alikes merged 10/81 before the rules of details_kinds.go,
// 4/81 after, 3/81 since a denial verb swapped in place is decisive
// (refuse all clients → serve). pairs-lookalike-own6 (session 19, written after those rules
// landed, measured once before any change for it): rewordings 5/9,
// look-alikes merged 4/35 (all Korean: 위로 → 아래로, 배포 전에 → 후에,
// 토요일 → 일요일, 세 번 → 다섯 번), 6/9 and 0/35 after (세 번 agrees as 3);
// 7/9 since a number after a conjunction counts no word before it
// (b6-mode-en-ssh); 8/9 since a signal's name weighs as an identifier
// (b6-sig-en-stop). pairs-lookalike-own7 (session 20, 20 kinds, written
// before reading the rules): rewordings 26/38, look-alikes merged 27/75
// before the rules of details_classes.go and the operators, moves and
// flags of details_hunks.go, 27/38 and 0/75 after (28/38 since Korean
// modality is read from the prose: koreanModalPair); own5's reworded Korean
// negation (가져오지 않는다 → 가져온다) is kept apart since (koreanDenied).
var ownRewordingsFloors = map[string]float64{"pairs-lookalike-own.jsonl": 0.95, "pairs-lookalike-own2.jsonl": 0.9, "pairs-lookalike-own3.jsonl": 0.75, "pairs-lookalike-own4.jsonl": 0.76, "pairs-lookalike-own5.jsonl": 0.76, "pairs-lookalike-own6.jsonl": 0.88, "pairs-lookalike-own7.jsonl": 0.73}

// probeRewordingsFloors are the same floors for the probe directories
// under testdata/knowledge that hold pairs only (pairs.jsonl, own pairs'
// shape): probe23 (session 23), look-alikes and rewordings each written
// in two voices, not one text with a value substituted; its README has
// the figures (rewordings 15/21, look-alikes merged 13/33 on its first
// run, 15/21 and 0/33 since details_literals.go, 16/21 since a signal's
// name weighs as an identifier); pairs2.jsonl
// (rewordings 7/10, look-alikes merged 12/16 on its first run, 7/10 and
// 3/16 since details_bounds.go); pairs3.jsonl (rewordings 10/15,
// look-alikes merged 9/32 on its first run, 10/15 and 2/32 since
// details_choices.go, 1/32 since a value said to be the only one).
var probeRewordingsFloors = map[string]float64{"probe23/pairs.jsonl": 0.76, "probe23/pairs2.jsonl": 0.7, "probe23/pairs3.jsonl": 0.66}

// ownKnownMerges are the look-alikes a file is known to merge, with why:
// each is a gap the README names, and any other look-alike merged fails.
var ownKnownMerges = map[string]string{
	// WordNet's subset lists table and audit as verbs only, so the swap of
	// one plain name before a noun is no noun for a noun.
	"b3-id-en-word-alike": "sessions → audit",
	// The exact-duplicate key (Hash) folds case, so a text that differs
	// only in a name's case merges as the same text before any detail is
	// read (the README's own3 note on -fdx, -fdX).
	"b5-case-en-dot-alike": "out/Graph.svg → out/GRAPH.svg",
	"b5-case-ko-env-alike": "HTTP_PROXY → Http_Proxy",
	// probe23/pairs2.jsonl (its README): a regular expression's anchor
	// moved (example\.com$ → ^example\.com) changes no atom; two addresses
	// that both texts write with their roles swapped are the same set of
	// details; 512M → 512k beside a 512Mi both write is a figure each
	// text explains by the other's.
	"p23b-anchor-en-regex-alike": "example\\.com$ → ^example\\.com",
	"p23b-ip-en-dns-alike":       "10.0.0.2 ↔ 10.0.0.53",
	"p23b-size-en-mi-alike":      "512M → 512k",
	// probe23/pairs3.jsonl (its README): two encodings that both texts
	// name, their roles swapped in prose (the digest is hex, the header
	// base64), are the same details.
	"p23c-enc-en-token-alike": "base64 ↔ hex",
}

// TestOwnLookAlikes runs the own pairs through dedup under the offline
// embedder, as TestRetrievalQuality does the parts' pairs, and prints the
// verdicts by category: no look-alike may merge, and the rewordings keep
// their floor.
func TestOwnLookAlikes(t *testing.T) {
	if raceEnabled {
		t.Skip("measured without the race detector")
	}
	for file, floor := range ownRewordingsFloors {
		t.Run(file, func(t *testing.T) { measureOwn(t, tuningPart, file, floor) })
	}
	for path, floor := range probeRewordingsFloors {
		dir, file, _ := strings.Cut(path, "/")
		t.Run(path, func(t *testing.T) { measureOwn(t, corpusPart{name: dir, dir: dir}, file, floor) })
	}
}

func measureOwn(t *testing.T, part corpusPart, file string, floor float64) {
	pairs := readJSONL[ownPair](t, part, file)
	ctx := context.Background()
	s, err := Open(ctx, t.TempDir(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	emb := embed.NewHashed(0)
	at := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	k := knowledge.New(NewKnowledgeDriver(s), knowledge.Options{Now: func() time.Time { return at }})
	byCat := map[string]*mergeCounts{}
	var all mergeCounts
	for i, p := range pairs {
		hive := fmt.Sprintf("own-%03d", i)
		in := func(agent, title, content string) knowledge.ContributeInput {
			return knowledge.ContributeInput{Hive: hive, Agent: agent, Title: title, Content: content,
				NormHash: knowledge.Hash(title, content), Model: emb.Model(),
				Vector: emb.Vector(knowledge.EmbeddingText(title, content)), Specificity: 0.8, Threshold: emb.MergeThreshold(), At: at}
		}
		if _, err := k.Contribute(ctx, in("agent-a", p.A.Title, p.A.Content)); err != nil {
			t.Fatal(err)
		}
		res, err := k.Contribute(ctx, in("agent-b", p.B.Title, p.B.Content))
		if err != nil {
			t.Fatal(err)
		}
		c := byCat[p.Category]
		if c == nil {
			c = &mergeCounts{}
			byCat[p.Category] = c
		}
		merged := res.Verdict == knowledge.VerdictMerged
		switch {
		case merged && p.Label == "reworded":
			c.tp++
		case merged:
			c.fp++
			if _, known := ownKnownMerges[p.ID]; known {
				t.Logf("look-alike %s merged at %.3f (%s → %s): a known gap", p.ID, res.Similarity, p.From, p.To)
			} else {
				t.Errorf("look-alike %s merged at %.3f (%s → %s)", p.ID, res.Similarity, p.From, p.To)
			}
		case p.Label == "reworded":
			c.fn++
			va, vb := emb.Vector(knowledge.EmbeddingText(p.A.Title, p.A.Content)), emb.Vector(knowledge.EmbeddingText(p.B.Title, p.B.Content))
			t.Logf("rewording %s kept apart at cosine %.3f", p.ID, knowledge.Dot(va, vb))
		default:
			c.tn++
		}
	}
	cats := make([]string, 0, len(byCat))
	for c := range byCat {
		cats = append(cats, c)
	}
	sort.Strings(cats)
	for _, c := range cats {
		m := *byCat[c]
		t.Logf("%-12s %v", c, m)
		all.tp, all.fp, all.fn, all.tn = all.tp+m.tp, all.fp+m.fp, all.fn+m.fn, all.tn+m.tn
	}
	t.Logf("own pairs: %v", all)
	if got := all.rewordings(); got < floor {
		t.Errorf("own rewordings merged = %.3f, below its floor %.3f", got, floor)
	}
}
