package local

import (
	"context"
	"encoding/json"
	"hash/fnv"
	"math"
	"math/rand"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"pumasi/adapters/embed"
	"pumasi/internal/heldout"
	"pumasi/knowledge"
)

// semanticAPI serves /v1/embeddings the way a semantic model would for the
// labelled pairs: a rewording lands next to its original (each text is its
// finding's direction plus a little noise of its own), two different
// findings on one topic share a topic direction but not the finding's. No
// real model runs offline; this stands in for one through the real client.
type semanticAPI struct {
	vecs map[string][]float32
}

const semDim = 64

func newSemanticAPI(pairs []qPair) *semanticAPI {
	api := &semanticAPI{vecs: map[string][]float32{}}
	r := rand.New(rand.NewSource(7))
	unit := func() []float64 {
		v := make([]float64, semDim)
		for i := range v {
			v[i] = r.NormFloat64()
		}
		return v
	}
	mix := func(parts ...[]float64) []float32 {
		out := make([]float32, semDim)
		for _, p := range parts {
			for i := range p {
				out[i] += float32(p[i])
			}
		}
		return out
	}
	scale := func(v []float64, s float64) []float64 {
		n := 0.0
		for _, x := range v {
			n += x * x
		}
		n = math.Sqrt(n)
		out := make([]float64, len(v))
		for i := range v {
			out[i] = v[i] / n * s
		}
		return out
	}
	// A text that more than one pair holds (a writer may word one finding
	// as a rewording in one pair and as a look-alike's original in
	// another) keeps the topic and finding it was first given, so that
	// every pair it is in sees the same vector; the draws stay the same
	// either way, so a part without such texts gets the vectors it always
	// had.
	type meaning struct{ topic, finding []float64 }
	seen := map[string]meaning{}
	for _, p := range pairs {
		topic := scale(unit(), 1)
		fa := scale(unit(), 1)
		fb := fa
		if p.Label == "distinct" {
			fb = scale(unit(), 1)
		}
		na, nb := scale(unit(), 0.35), scale(unit(), 0.35)
		a := knowledge.EmbeddingText(p.A.Title, p.A.Content)
		b := knowledge.EmbeddingText(p.B.Title, p.B.Content)
		if m, ok := seen[a]; ok {
			topic, fa = m.topic, m.finding
			if p.Label != "distinct" {
				fb = fa
			}
		} else if m, ok := seen[b]; ok {
			topic, fb = m.topic, m.finding
			if p.Label != "distinct" {
				fa = fb
			}
		}
		for _, t := range []struct {
			text    string
			finding []float64
			noise   []float64
		}{{a, fa, na}, {b, fb, nb}} {
			if _, ok := seen[t.text]; ok {
				continue
			}
			seen[t.text] = meaning{topic, t.finding}
			api.vecs[t.text] = mix(scale(topic, 0.8), scale(t.finding, 2), t.noise)
		}
	}
	return api
}

func (s *semanticAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Input []string `json:"input"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	type item struct {
		Index     int       `json:"index"`
		Embedding []float32 `json:"embedding"`
	}
	var data []item
	for i, in := range req.Input {
		v, ok := s.vecs[in]
		if !ok { // any other text: a direction of its own
			h := fnv.New64a()
			h.Write([]byte(in))
			rr := rand.New(rand.NewSource(int64(h.Sum64())))
			v = make([]float32, semDim)
			for j := range v {
				v[j] = float32(rr.NormFloat64())
			}
		}
		data = append(data, item{i, v})
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{"object": "list", "data": data})
}

// TestSemanticEmbedderMerges runs the labelled pairs of every corpus part
// (allParts: the tuning ones and a held-out one when there is one) through
// the engine with an OpenAI-compatible embedder: at its own
// threshold (0.94) rewordings merge and different findings do not, its
// cosine alone deciding.
func TestSemanticEmbedderMerges(t *testing.T) {
	if raceEnabled {
		// One contribution at a time through the engine: nothing concurrent
		// to check, and several times slower. make test runs it in its pass
		// without the race detector, as TestRetrievalQuality.
		t.Skip("measured without the race detector")
	}
	for _, part := range allParts {
		t.Run(part.name, func(t *testing.T) {
			pairs := readJSONL[qPair](t, part, "pairs.jsonl")
			if part.tunerPairs != "" {
				pairs = append(pairs, readJSONL[qPair](t, part, part.tunerPairs)...)
			}
			srv := httptest.NewServer(newSemanticAPI(pairs))
			defer srv.Close()
			emb, err := embed.NewOpenAI(embed.OpenAIConfig{URL: srv.URL, Model: "semantic-test"})
			if err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			s, err := Open(ctx, t.TempDir(), Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			k := NewKnowledge(s)
			vec := func(text string) []float32 {
				v, err := emb.Embed(ctx, []string{text})
				if err != nil {
					t.Fatal(err)
				}
				return v[0]
			}
			m := mergePairs(t, part, k, "a", pairs, emb.Model(), vec, emb.MergeThreshold(), time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC))
			if part.heldOut && !heldout.Show() {
				t.Log(heldout.Hidden(part.name))
			} else {
				t.Logf("%s, semantic embedder at %.2f: %v", part.name, emb.MergeThreshold(), m)
			}
			if m.fn != 0 || m.fp != 0 {
				if part.heldOut && !heldout.Show() {
					t.Fatalf("%s: merge errors (figures hidden)", part.name)
				}
				t.Fatalf("merge errors: %d rewordings missed, %d different findings merged", m.fn, m.fp)
			}
		})
	}
}

// TestHashedModelChangeReembedsOnce: entries embedded under an earlier
// hashed model (the name before a thesaurus, stemmer or rule change) are
// embedded again once under the current name, then found by its queries;
// a second pass has nothing to do.
func TestHashedModelChangeReembedsOnce(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, t.TempDir(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	k := NewKnowledge(s)
	emb := embed.NewHashed(0)
	old := "hashed-ngram-v2-512"
	texts := [][2]string{
		{"SQLite database is locked under concurrent writers", "Enable `PRAGMA journal_mode=WAL` and set `busy_timeout` so writers wait instead of failing with SQLITE_BUSY."},
		{"캐시 서버 재시작 후 세션이 사라진다", "Redis 를 `save \"\"` 로 띄우면 재시작할 때 세션 키가 모두 사라진다. AOF 를 켜라."},
	}
	for _, tx := range texts {
		v := make([]float32, emb.Dim())
		v[0] = 1 // another model's vector, meaningless to this one
		if _, err := k.Contribute(ctx, knowledge.ContributeInput{Hive: "academy", Agent: "old-agent", Title: tx[0], Content: tx[1],
			NormHash: knowledge.Hash(tx[0], tx[1]), Model: old, Vector: v, Specificity: 0.8, Threshold: 1.01}); err != nil {
			t.Fatal(err)
		}
	}
	if n, err := k.Reembed(ctx, emb.Model(), emb.Embed); err != nil || n != len(texts) {
		t.Fatalf("first re-embed = %d, %v; want %d", n, err, len(texts))
	}
	if n, err := k.Reembed(ctx, emb.Model(), emb.Embed); err != nil || n != 0 {
		t.Fatalf("second re-embed = %d, %v; want 0", n, err)
	}
	for q, want := range map[string]string{"database is locked": texts[0][0], "cache restart loses sessions": texts[1][0]} {
		hits, err := k.Query(ctx, knowledge.QueryInput{Hive: "academy", Text: q, Model: emb.Model(), Vector: emb.Vector(q), Limit: 1})
		if err != nil || len(hits) != 1 || hits[0].Title != want || hits[0].Similarity <= 0 {
			t.Fatalf("query %q after re-embedding = %+v, %v; want %q with a similarity", q, hits, err, want)
		}
	}
}
