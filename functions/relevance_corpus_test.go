package functions

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"pumasi/adapters/embed"
	"pumasi/adapters/local"
	"pumasi/knowledge"
)

func readJSONL[T any](t *testing.T, path string) []T {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []T
	sc := bufio.NewScanner(bytes.NewReader(raw))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var v T
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		out = append(out, v)
	}
	return out
}

// relevanceServer contributes the corpus through the API (gate, embedder,
// dedup, as localdev runs them with the offline hashed embedder) and
// returns the handler and each corpus id's entry id.
func relevanceServer(t *testing.T, corpus string) (http.Handler, map[string]string) {
	t.Helper()
	_, h, entryOf := relevanceAPI(t, corpus)
	return h, entryOf
}

// relevanceAPI is relevanceServer with the API behind the handler.
func relevanceAPI(t *testing.T, corpus string) (*API, http.Handler, map[string]string) {
	t.Helper()
	st, err := local.Open(context.Background(), t.TempDir(), local.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	api := &API{Store: st, Secret: testSecret, Knowledge: local.NewKnowledge(st), Embedder: embed.NewHashed(0), RateLimits: RateLimits{Disabled: true}}
	h := api.Handler()
	type finding struct {
		ID, Title, Content string
		Tags               []string
	}
	entryOf := map[string]string{}
	for _, f := range readJSONL[finding](t, corpus) {
		body, _ := json.Marshal(map[string]any{"title": f.Title, "content": f.Content, "tags": f.Tags})
		r := httptest.NewRequest("POST", "/knowledge/contribute", bytes.NewReader(body))
		r.Header.Set(HeaderAgent, "relevance-corpus")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		var ans struct {
			Data struct {
				Entry *knowledge.Entry `json:"entry"`
			} `json:"data"`
		}
		if err := json.Unmarshal(w.Body.Bytes(), &ans); err != nil || w.Code/100 != 2 || ans.Data.Entry == nil {
			t.Logf("corpus %s not stored: %d %s", f.ID, w.Code, strings.TrimSpace(w.Body.String()))
			continue
		}
		entryOf[f.ID] = ans.Data.Entry.ID
	}
	return api, h, entryOf
}

// promptHits are the hook's hits for each prompt: GET /knowledge/query with
// the prompt, limit 3, no floor (so any floor can be applied after).
func promptHits(t *testing.T, h http.Handler, prompts []relevancePrompt) [][]knowledge.Hit {
	t.Helper()
	out := make([][]knowledge.Hit, len(prompts))
	for i, p := range prompts {
		r := httptest.NewRequest("GET", "/knowledge/query?limit="+strconv.Itoa(hookLimit)+"&q="+url.QueryEscape(p.Prompt), nil)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		var ans struct {
			Data []knowledge.Hit `json:"data"`
		}
		if w.Code != 200 || json.Unmarshal(w.Body.Bytes(), &ans) != nil {
			t.Fatalf("query %s = %d %s", p.ID, w.Code, w.Body)
		}
		out[i] = ans.Data
	}
	return out
}

// engineHits are the hook's hits for each prompt as the engine ranks them
// for GET /knowledge/query with the prompt, limit 3 and no floor, with
// their query's features (not sent), so that min_score=floor's rule can be
// applied after at any floor.
func engineHits(t *testing.T, api *API, prompts []relevancePrompt) [][]knowledge.Hit {
	t.Helper()
	ctx := context.Background()
	out := make([][]knowledge.Hit, len(prompts))
	for i, p := range prompts {
		vecs, err := api.Embedder.Embed(ctx, []string{p.Prompt})
		if err != nil {
			t.Fatal(err)
		}
		out[i], err = api.Knowledge.Query(ctx, knowledge.QueryInput{Text: p.Prompt, Model: api.Embedder.Model(), Vector: vecs[0], Limit: hookLimit})
		if err != nil {
			t.Fatalf("query %s: %v", p.ID, err)
		}
	}
	return out
}

// injectionFigures are, at floor, the share of prompts with no related
// entry for which nothing is injected (clean) and the share of related
// prompts whose entry is injected (found).
type injectionFigures struct {
	clean, found         float64
	unrelated, related   int
	cleanN, foundN       int
	injectedPerUnrelated float64
	// others counts the hits other than their entry injected on related
	// prompts.
	others int
}

func (f injectionFigures) String() string {
	return fmt.Sprintf("unrelated inject nothing %d/%d = %.1f%%, related get their entry %d/%d = %.1f%%",
		f.cleanN, f.unrelated, 100*f.clean, f.foundN, f.related, 100*f.found)
}

// figuresAt applies min_score=floor's two-part rule to the hits: floor on
// every hit's score, and later on the score without the decision's weight
// of every hit after the first (knowledge.AfterFirst; 0: none).
func figuresAt(prompts []relevancePrompt, hits [][]knowledge.Hit, entryOf map[string]string, floor, later float64) injectionFigures {
	var f injectionFigures
	for i, p := range prompts {
		var above []knowledge.Hit
		for _, h := range hits[i] {
			if h.Score >= floor {
				above = append(above, h)
			}
		}
		var injected []string
		for _, h := range knowledge.AfterFirst(above, later) {
			injected = append(injected, h.ID)
		}
		if p.Related == nil {
			f.unrelated++
			if len(injected) == 0 {
				f.cleanN++
			}
			continue
		}
		f.related++
		want := entryOf[*p.Related]
		for _, id := range injected {
			if want != "" && id == want {
				f.foundN++
			} else {
				f.others++
			}
		}
	}
	f.clean = float64(f.cleanN) / float64(max(f.unrelated, 1))
	f.found = float64(f.foundN) / float64(max(f.related, 1))
	return f
}

// TestRelevanceMisses prints, with PUMASI_RELEVANCE_MISSES=1 and -v, the
// tuning prompts the floor gets wrong (never the held-out ones): a related
// prompt whose entry is not injected, with where its entry ranked, and an
// unrelated prompt that injects something.
func TestRelevanceMisses(t *testing.T) {
	if os.Getenv("PUMASI_RELEVANCE_MISSES") == "" || !testing.Verbose() {
		t.Skip("PUMASI_RELEVANCE_MISSES=1 -v prints the tuning part's misses")
	}
	h, entryOf := relevanceServer(t, filepath.Join(relevanceDir, "corpus.jsonl"))
	floor := knowledge.InjectFloorFor(embed.NewHashed(0).Model())
	title := map[string]string{}
	for _, part := range relevanceParts {
		if part.heldOut {
			continue
		}
		prompts := readJSONL[relevancePrompt](t, filepath.Join(relevanceDir, part.file))
		for _, p := range prompts {
			r := httptest.NewRequest("GET", "/knowledge/query?limit=10&q="+url.QueryEscape(p.Prompt), nil)
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			var ans struct {
				Data []knowledge.Hit `json:"data"`
			}
			_ = json.Unmarshal(w.Body.Bytes(), &ans)
			for _, x := range ans.Data {
				title[x.ID] = x.Title
			}
			if p.Related == nil {
				if len(ans.Data) > 0 && ans.Data[0].Score >= floor {
					x := ans.Data[0]
					t.Logf("UNREL %s %s %.3f (sim %.2f lex %.2f q %.2f) %q -> %q", p.ID, p.Lang, x.Score, x.Similarity, x.Lexical, x.Quality, p.Prompt, x.Title)
				}
				continue
			}
			want := entryOf[*p.Related]
			rank, got := 0, knowledge.Hit{}
			for i, x := range ans.Data {
				if x.ID == want {
					rank, got = i+1, x
					break
				}
			}
			if rank >= 1 && rank <= hookLimit && got.Score >= floor {
				continue
			}
			top := knowledge.Hit{}
			if len(ans.Data) > 0 {
				top = ans.Data[0]
			}
			t.Logf("MISS %s %s rank %d %.3f (sim %.2f lex %.2f q %.2f) top %.3f %q: %q", p.ID, p.Lang, rank, got.Score, got.Similarity, got.Lexical, got.Quality, top.Score, top.Title, p.Prompt)
		}
	}
}
