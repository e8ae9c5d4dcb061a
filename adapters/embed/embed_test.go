package embed

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"regexp"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"pumasi/knowledge"
)

func norm2(v []float32) float64 {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	return math.Sqrt(s)
}

func TestHashedDeterministicAndNormalised(t *testing.T) {
	h := NewHashed(0)
	if h.Dim() != DefaultDim || !regexp.MustCompile(`^hashed-ngram-v3-512-[0-9a-f]{12}$`).MatchString(h.Model()) {
		t.Fatalf("dim %d model %q", h.Dim(), h.Model())
	}
	texts := []string{"Postgres `now()` is frozen in a transaction", "SQLite WAL 모드는 NFS 에서 잠긴다", ""}
	a, err := h.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := NewHashed(512).Embed(context.Background(), texts)
	for i := range texts {
		if len(a[i]) != 512 {
			t.Fatalf("len = %d, want 512", len(a[i]))
		}
		for j := range a[i] {
			if a[i][j] != b[i][j] {
				t.Fatalf("text %d differs at %d between two embedders", i, j)
			}
		}
	}
	for i, want := range []float64{1, 1, 0} {
		if got := norm2(a[i]); math.Abs(got-want) > 1e-5 {
			t.Fatalf("norm of %q = %v, want %v", texts[i], got, want)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := h.Embed(ctx, texts); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled Embed err = %v", err)
	}
}

// TestHashedModelNamesItsInputs: the model name changes with anything that
// shapes a vector (the embedder's settings, every input of the lexicon), so
// a deployment re-embeds its entries when one changes, and only then.
func TestHashedModelNamesItsInputs(t *testing.T) {
	inputs := knowledge.LexiconInputs()
	var names []string
	for _, in := range inputs {
		names = append(names, in.Name)
	}
	want := "[stopwords.txt thesaurus.txt wordnet.txt glossary.txt transliteration.txt loanwords.txt stemmer]"
	if got := fmt.Sprint(names); got != want {
		t.Fatalf("lexicon inputs %s, want %s", got, want)
	}
	base := knowledge.DigestOf(inputs)
	if base != knowledge.LexiconDigest() {
		t.Fatal("LexiconDigest is not the digest of LexiconInputs")
	}
	for i := range inputs {
		changed := append([]knowledge.LexiconInput(nil), inputs...)
		changed[i].Text += "\nx"
		if knowledge.DigestOf(changed) == base {
			t.Errorf("changing %s leaves the lexicon digest as it is", inputs[i].Name)
		}
	}
	if digestOf(settings, base) == digestOf(settings+" ", base) || digestOf(settings, base) == digestOf(settings, base+"0") {
		t.Error("the model digest ignores the embedder's settings or the lexicon")
	}
	if !strings.HasSuffix(NewHashed(0).Model(), "-"+digestOf(settings, base)) {
		t.Errorf("model %q does not end in the digest of its inputs", NewHashed(0).Model())
	}
}

// TestHashedSimilarity pins what the hashed merge threshold means for the
// default embedder: case, spacing and punctuation edits merge; another
// finding on the same tool does not.
func TestHashedSimilarity(t *testing.T) {
	h := NewHashed(0)
	base := "Postgres 16 fails with ERROR: CREATE INDEX CONCURRENTLY cannot run inside a transaction block when the migration tool wraps files in BEGIN; in goose add -- +goose NO TRANSACTION at the top of the file."
	sim := func(a, b string) float64 { return knowledge.Cosine(h.Vector(a), h.Vector(b)) }
	tests := []struct {
		name  string
		other string
		merge bool
	}{
		{"identical", base, true},
		{"case and spacing", strings.ToUpper(base[:40]) + "  " + base[40:], true},
		{"punctuation", strings.ReplaceAll(base, ";", ".") + "!", true},
		{"one word added", base + " Really.", true},
		{"same tool other finding", "Postgres 16 `VACUUM FULL` takes an ACCESS EXCLUSIVE lock on the table; use pg_repack to rebuild bloated tables online.", false},
		{"unrelated", "Next.js 14 Server Actions fail with Body exceeded 1mb limit; raise experimental.serverActions.bodySizeLimit.", false},
		{"korean unrelated", "SQLite 의 journal_mode=WAL 은 공유 메모리를 쓰므로 NFS 위의 DB 에서는 database is locked 가 반복된다.", false},
	}
	for _, tt := range tests {
		s := sim(base, tt.other)
		if (s > h.MergeThreshold()) != tt.merge {
			t.Errorf("%s: cosine %.3f, merge = %v, want %v", tt.name, s, !tt.merge, tt.merge)
		}
		t.Logf("%-24s cosine %.3f", tt.name, s)
	}
	ko := "SQLite 의 journal_mode=WAL 은 NFS 에서 database is locked 가 반복된다"
	if s := sim(ko, ko+"."); s < 0.99 {
		t.Errorf("korean near-identical cosine %.3f", s)
	}
	if s := sim("WAL 모드 설정", "WAL 모드를 설정하면"); s < 0.3 {
		t.Errorf("korean inflection cosine %.3f, want some overlap", s)
	}
}

// fakeAPI speaks the OpenAI embeddings API: it embeds each input with the
// hashed embedder (so results are checkable) and answers in shuffled index
// order, as the real API may.
type fakeAPI struct {
	t        *testing.T
	requests atomic.Int32
	batches  [][]string
	// fail, when set, may answer instead; returning false falls through.
	fail func(w http.ResponseWriter, r *http.Request, n int32) bool
}

func (f *fakeAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	n := f.requests.Add(1)
	if r.Method != http.MethodPost || r.URL.Path != "/v1/embeddings" {
		http.Error(w, "wrong endpoint "+r.Method+" "+r.URL.Path, http.StatusNotFound)
		return
	}
	if got := r.Header.Get("Authorization"); got != "Bearer test-key" {
		w.WriteHeader(http.StatusUnauthorized)
		io.WriteString(w, `{"error":{"message":"Incorrect API key provided","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}`)
		return
	}
	if f.fail != nil && f.fail(w, r, n) {
		return
	}
	var req struct {
		Model          string   `json:"model"`
		Input          []string `json:"input"`
		EncodingFormat string   `json:"encoding_format"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.Model != "text-embedding-3-small" || req.EncodingFormat != "float" {
		w.WriteHeader(http.StatusBadRequest)
		io.WriteString(w, `{"error":{"message":"bad request body","type":"invalid_request_error"}}`)
		return
	}
	f.batches = append(f.batches, req.Input)
	h := NewHashed(64)
	type item struct {
		Object    string    `json:"object"`
		Index     int       `json:"index"`
		Embedding []float32 `json:"embedding"`
	}
	items := make([]item, len(req.Input))
	for i, in := range req.Input {
		v := h.Vector(in)
		for j := range v {
			v[j] *= 3 // not unit length: the client must normalise
		}
		items[i] = item{"embedding", i, v}
	}
	sort.Slice(items, func(a, b int) bool { return items[a].Index > items[b].Index })
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{"object": "list", "data": items, "model": req.Model,
		"usage": map[string]int{"prompt_tokens": 1, "total_tokens": 1}})
}

func newClient(t *testing.T, url string, mut func(*OpenAIConfig)) *OpenAI {
	t.Helper()
	cfg := OpenAIConfig{URL: url, Model: "text-embedding-3-small", Key: "test-key", MaxBatch: 2, Timeout: 2 * time.Second}
	if mut != nil {
		mut(&cfg)
	}
	c, err := NewOpenAI(cfg)
	if err != nil {
		t.Fatal(err)
	}
	c.backoff = func(int) time.Duration { return 10 * time.Millisecond }
	return c
}

func TestOpenAIBatchesInOrder(t *testing.T) {
	api := &fakeAPI{t: t}
	srv := httptest.NewServer(api)
	defer srv.Close()
	c := newClient(t, srv.URL+"/v1", nil)
	texts := []string{"one alpha", "two beta", "three gamma", "four delta", "five 오"}
	vecs, err := c.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	if got := api.requests.Load(); got != 3 {
		t.Fatalf("requests = %d, want 3 batches of at most 2", got)
	}
	if len(api.batches) != 3 || len(api.batches[0]) != 2 || len(api.batches[2]) != 1 || api.batches[2][0] != "five 오" {
		t.Fatalf("batches = %q", api.batches)
	}
	h := NewHashed(64)
	for i, text := range texts {
		if math.Abs(norm2(vecs[i])-1) > 1e-5 {
			t.Fatalf("vector %d norm %v, want 1", i, norm2(vecs[i]))
		}
		if s := knowledge.Cosine(vecs[i], h.Vector(text)); s < 0.9999 {
			t.Fatalf("vector %d is not the embedding of %q (cosine %v): order lost", i, text, s)
		}
	}
	if c.Model() != "openai:text-embedding-3-small" {
		t.Fatalf("model = %q", c.Model())
	}
}

func TestOpenAIEndpointForms(t *testing.T) {
	api := &fakeAPI{t: t}
	srv := httptest.NewServer(api)
	defer srv.Close()
	for _, u := range []string{srv.URL, srv.URL + "/", srv.URL + "/v1", srv.URL + "/v1/", srv.URL + "/v1/embeddings"} {
		c := newClient(t, u, nil)
		if _, err := c.Embed(context.Background(), []string{"x"}); err != nil {
			t.Fatalf("URL %q: %v", u, err)
		}
	}
	if _, err := NewOpenAI(OpenAIConfig{URL: "ftp://x", Model: "m"}); err == nil {
		t.Fatal("ftp URL accepted")
	}
	if _, err := NewOpenAI(OpenAIConfig{URL: srv.URL}); err == nil {
		t.Fatal("missing model accepted")
	}
}

func TestOpenAIErrorShapes(t *testing.T) {
	t.Run("unauthorized is not retried", func(t *testing.T) {
		api := &fakeAPI{t: t}
		srv := httptest.NewServer(api)
		defer srv.Close()
		c := newClient(t, srv.URL, func(c *OpenAIConfig) { c.Key = "wrong" })
		_, err := c.Embed(context.Background(), []string{"x"})
		var ae *APIError
		if !errors.As(err, &ae) || ae.Status != 401 || ae.Type != "invalid_request_error" ||
			ae.Code != "invalid_api_key" || ae.Message != "Incorrect API key provided" {
			t.Fatalf("err = %#v", err)
		}
		if got := api.requests.Load(); got != 1 {
			t.Fatalf("requests = %d, want 1 (4xx is final)", got)
		}
	})
	t.Run("rate limit is retried", func(t *testing.T) {
		api := &fakeAPI{t: t, fail: func(w http.ResponseWriter, r *http.Request, n int32) bool {
			if n < 3 {
				w.Header().Set("Retry-After", "0")
				w.WriteHeader(http.StatusTooManyRequests)
				io.WriteString(w, `{"error":{"message":"Rate limit reached","type":"requests","code":"rate_limit_exceeded"}}`)
				return true
			}
			return false
		}}
		srv := httptest.NewServer(api)
		defer srv.Close()
		vecs, err := newClient(t, srv.URL, nil).Embed(context.Background(), []string{"x"})
		if err != nil || len(vecs) != 1 {
			t.Fatalf("err = %v", err)
		}
		if got := api.requests.Load(); got != 3 {
			t.Fatalf("requests = %d, want 3", got)
		}
	})
	t.Run("server error gives up after retries", func(t *testing.T) {
		api := &fakeAPI{t: t, fail: func(w http.ResponseWriter, r *http.Request, n int32) bool {
			w.WriteHeader(http.StatusBadGateway)
			io.WriteString(w, "<html>bad gateway</html>")
			return true
		}}
		srv := httptest.NewServer(api)
		defer srv.Close()
		_, err := newClient(t, srv.URL, func(c *OpenAIConfig) { c.MaxRetries = 3 }).Embed(context.Background(), []string{"x"})
		var ae *APIError
		if !errors.As(err, &ae) || ae.Status != 502 || !strings.Contains(err.Error(), "Bad Gateway") {
			t.Fatalf("err = %v", err)
		}
		if got := api.requests.Load(); got != 4 {
			t.Fatalf("requests = %d, want 1 + 3 retries", got)
		}
	})
	t.Run("bad request body", func(t *testing.T) {
		api := &fakeAPI{t: t, fail: func(w http.ResponseWriter, r *http.Request, n int32) bool {
			w.WriteHeader(http.StatusBadRequest)
			io.WriteString(w, `{"error":{"message":"This model's maximum context length is 8192 tokens","type":"invalid_request_error","param":"input","code":null}}`)
			return true
		}}
		srv := httptest.NewServer(api)
		defer srv.Close()
		_, err := newClient(t, srv.URL, nil).Embed(context.Background(), []string{"x"})
		var ae *APIError
		if !errors.As(err, &ae) || ae.Status != 400 || !strings.Contains(ae.Message, "8192") || ae.Code != "" {
			t.Fatalf("err = %#v", err)
		}
	})
	t.Run("wrong count is a protocol error", func(t *testing.T) {
		api := &fakeAPI{t: t, fail: func(w http.ResponseWriter, r *http.Request, n int32) bool {
			io.WriteString(w, `{"object":"list","data":[{"object":"embedding","index":0,"embedding":[1,0]}]}`)
			return true
		}}
		srv := httptest.NewServer(api)
		defer srv.Close()
		_, err := newClient(t, srv.URL, nil).Embed(context.Background(), []string{"x", "y"})
		if err == nil || !strings.Contains(err.Error(), "1 embeddings for 2 inputs") {
			t.Fatalf("err = %v", err)
		}
		if got := api.requests.Load(); got != 1 {
			t.Fatalf("requests = %d, want 1", got)
		}
	})
	t.Run("repeated index", func(t *testing.T) {
		api := &fakeAPI{t: t, fail: func(w http.ResponseWriter, r *http.Request, n int32) bool {
			io.WriteString(w, `{"data":[{"index":0,"embedding":[1,0]},{"index":0,"embedding":[0,1]}]}`)
			return true
		}}
		srv := httptest.NewServer(api)
		defer srv.Close()
		if _, err := newClient(t, srv.URL, nil).Embed(context.Background(), []string{"x", "y"}); err == nil {
			t.Fatal("repeated index accepted")
		}
	})
	t.Run("error body with status 200", func(t *testing.T) {
		api := &fakeAPI{t: t, fail: func(w http.ResponseWriter, r *http.Request, n int32) bool {
			io.WriteString(w, `{"error":{"message":"model not loaded","type":"server_error"}}`)
			return true
		}}
		srv := httptest.NewServer(api)
		defer srv.Close()
		_, err := newClient(t, srv.URL, nil).Embed(context.Background(), []string{"x"})
		if err == nil || !strings.Contains(err.Error(), "model not loaded") {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("timeout is bounded", func(t *testing.T) {
		release := make(chan struct{})
		api := &fakeAPI{t: t, fail: func(w http.ResponseWriter, r *http.Request, n int32) bool {
			select {
			case <-release:
			case <-r.Context().Done():
			}
			return true
		}}
		srv := httptest.NewServer(api)
		defer srv.Close()
		defer close(release)
		c := newClient(t, srv.URL, func(c *OpenAIConfig) { c.Timeout = 150 * time.Millisecond; c.MaxRetries = 1 })
		start := time.Now()
		_, err := c.Embed(context.Background(), []string{"x"})
		if err == nil || !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("err = %v, want deadline exceeded", err)
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Fatalf("took %v, want about 2 × 150ms", d)
		}
		if got := api.requests.Load(); got != 2 {
			t.Fatalf("requests = %d, want 2", got)
		}
	})
}
