package functions

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sort"
	"strings"
	"testing"

	"pumasi/adapters/embed"
	"pumasi/adapters/local"
	"pumasi/gate"
	"pumasi/knowledge"
)

// knowEnv is the API with a real local knowledge store and the offline
// embedder, served by httptest.
type knowEnv struct {
	t    *testing.T
	srv  *httptest.Server
	know *knowledge.Engine
}

func newKnowEnv(t *testing.T) *knowEnv {
	t.Helper()
	st, err := local.Open(context.Background(), t.TempDir(), local.Options{})
	if err != nil {
		t.Fatalf("open store: %v", err)
	}
	t.Cleanup(func() { st.Close() })
	k := local.NewKnowledge(st)
	api := &API{Store: st, Secret: testSecret, Knowledge: k, Embedder: embed.NewHashed(0)}
	srv := httptest.NewServer(api.Handler())
	t.Cleanup(srv.Close)
	return &knowEnv{t: t, srv: srv, know: k}
}

// knowResp is a finished request with its body decoded generically, so
// tests see exactly the keys a Hive client would.
type knowResp struct {
	status int
	raw    []byte
	body   map[string]any
}

func (e *knowEnv) do(method, path, agent string, body string) knowResp {
	e.t.Helper()
	return e.doAs(method, path, agent, "", body)
}

// doAs is do with a bearer token (none when empty).
func (e *knowEnv) doAs(method, path, agent, bearer, body string) knowResp {
	e.t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, e.srv.URL+path, rd)
	if err != nil {
		e.t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if agent != "" {
		req.Header.Set("X-Hive-Agent", agent)
	}
	if bearer != "" {
		req.Header.Set("Authorization", "Bearer "+bearer)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	r := knowResp{status: resp.StatusCode, raw: raw}
	if err := json.Unmarshal(raw, &r.body); err != nil {
		e.t.Fatalf("%s %s: body is not a JSON object: %q", method, path, raw)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
		e.t.Fatalf("%s %s: Content-Type %q", method, path, ct)
	}
	return r
}

func (r knowResp) data() map[string]any {
	d, _ := r.body["data"].(map[string]any)
	return d
}

func (r knowResp) list() []any {
	d, _ := r.body["data"].([]any)
	return d
}

func (r knowResp) errCode() string {
	e, _ := r.body["error"].(map[string]any)
	s, _ := e["code"].(string)
	return s
}

func contributeBody(title, content, hive string, tags ...string) string {
	m := map[string]any{"title": title, "content": content, "tags": append([]string{}, tags...)}
	if hive != "" {
		m["hive"] = hive
	}
	b, _ := json.Marshal(m)
	return string(b)
}

const (
	findingTitle   = "pgvector HNSW with a WHERE filter returns fewer rows"
	findingContent = "pgvector 0.5 with `ORDER BY embedding <=> $1 LIMIT 5` and a selective `WHERE hive = $2` may return fewer rows than LIMIT; raise `hnsw.ef_search` to 100 or use iterative scans in 0.8."
)

func keysOf(m map[string]any) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

func hasKeys(t *testing.T, what string, m map[string]any, keys ...string) {
	t.Helper()
	for _, k := range keys {
		if _, ok := m[k]; !ok {
			t.Fatalf("%s lacks %q; has %v", what, k, keysOf(m))
		}
	}
}

// TestHiveClientRequests replays the exact requests of The Hive's public
// client and checks the answers have the Hive's shape.
func TestHiveClientRequests(t *testing.T) {
	e := newKnowEnv(t)
	// POST /knowledge/contribute with X-Hive-Agent and
	// {"title","content","hive":"academy","tags":[]}.
	body := fmt.Sprintf(`{"title":%q,"content":%q,"hive":"academy","tags":[]}`, findingTitle, findingContent)
	r := e.do("POST", "/knowledge/contribute", "claude-code-7", body)
	if r.status != 201 {
		t.Fatalf("contribute = %d %s, want 201", r.status, r.raw)
	}
	d := r.data()
	if d["verdict"] != "accepted" {
		t.Fatalf("verdict = %v, want accepted", d["verdict"])
	}
	entry, _ := d["entry"].(map[string]any)
	hasKeys(t, "entry", entry, "id", "title", "content", "hive", "tags", "contribution_count", "citation_count", "endorsement_count", "created_at")
	if entry["hive"] != "academy" || entry["title"] != findingTitle || entry["contribution_count"] != 1.0 {
		t.Fatalf("entry = %v", entry)
	}
	id := entry["id"].(string)

	// The same finding from another agent merges: 200, similarity 1.
	r = e.do("POST", "/knowledge/contribute", "codex-2", body)
	if r.status != 200 || r.data()["verdict"] != "merged" || r.data()["similarity"] != 1.0 {
		t.Fatalf("duplicate = %d %s, want 200 merged with similarity 1", r.status, r.raw)
	}
	if got := r.data()["entry"].(map[string]any); got["id"] != id || got["contribution_count"] != 2.0 {
		t.Fatalf("merged entry = %v", got)
	}

	// GET /knowledge/query?q=<text>&limit=5
	r = e.do("GET", "/knowledge/query?q="+url.QueryEscape("how do I make pgvector HNSW return enough rows with a filter")+"&limit=5", "", "")
	if r.status != 200 {
		t.Fatalf("query = %d %s", r.status, r.raw)
	}
	hits := r.list()
	if len(hits) != 1 {
		t.Fatalf("query hits = %d, want 1: %s", len(hits), r.raw)
	}
	hit := hits[0].(map[string]any)
	hasKeys(t, "hit", hit, "id", "title", "content", "hive", "tags", "similarity", "score",
		"contribution_count", "citation_count", "endorsement_count", "created_at")
	// Hybrid relevance: the score never exceeds the better of the vector
	// and the lexical match (quality and freshness only lower it).
	if hit["id"] != id || hit["similarity"].(float64) <= 0 || hit["score"].(float64) <= 0 ||
		hit["score"].(float64) > max(hit["similarity"].(float64), hit["lexical"].(float64)) {
		t.Fatalf("hit = %v", hit)
	}
	if _, ok := hit["contributions"]; ok {
		t.Fatal("query hits carry contributions; they belong to GET /knowledge/{id}")
	}

	// A rejected contribution: 422 with data.verdict, reason, details.
	r = e.do("POST", "/knowledge/contribute", "claude-code-7",
		`{"title":"Ops contact","content":"Ping ops.lead@acme-corp.com or 010-4821-7730 when `+"`kubectl drain`"+` hangs.","hive":"academy","tags":[]}`)
	if r.status != 422 || r.data()["verdict"] != "rejected" || r.errCode() != "rejected" {
		t.Fatalf("PII contribution = %d %s, want 422 rejected", r.status, r.raw)
	}
	reason, _ := r.data()["reason"].(string)
	details := fmt.Sprint(r.data()["details"])
	if !strings.Contains(reason, "email") || !strings.Contains(details, "phone") || strings.Contains(string(r.raw), "acme-corp") || strings.Contains(string(r.raw), "4821") {
		t.Fatalf("PII rejection = %s: want kinds named, values never echoed", r.raw)
	}
}

func TestContributeGateStages(t *testing.T) {
	e := newKnowEnv(t)
	tests := []struct {
		name, title, content, stage string
	}{
		{"narrative", "My day", "Today I spent three hours and finally got the build green. I was so relieved.", gate.StageNarrative},
		{"platitude", "Advice", "Always write tests and keep it simple.", gate.StageSpecificity},
		{"korean pii", "결제 오류", "카드번호 4526 0181 5908 3012 로 결제하면 `REJECT_CARD_COMPANY` 가 난다.", gate.StagePII},
	}
	for _, tt := range tests {
		r := e.do("POST", "/knowledge/contribute", "agent-x", contributeBody(tt.title, tt.content, ""))
		if r.status != 422 || r.data()["verdict"] != "rejected" || r.data()["stage"] != tt.stage || r.data()["reason"] == "" {
			t.Errorf("%s = %d %s, want 422 at stage %s", tt.name, r.status, r.raw, tt.stage)
		}
	}
	// Nothing rejected was stored.
	r := e.do("GET", "/knowledge/query?q=build+tests+card", "", "")
	if len(r.list()) != 0 {
		t.Fatalf("rejected contributions are queryable: %s", r.raw)
	}
}

func TestKnowledgeWritesNeedAgent(t *testing.T) {
	e := newKnowEnv(t)
	ok := e.do("POST", "/knowledge/contribute", "agent-x", contributeBody(findingTitle, findingContent, ""))
	if ok.status != 201 {
		t.Fatalf("contribute = %d %s", ok.status, ok.raw)
	}
	id := ok.data()["entry"].(map[string]any)["id"].(string)
	for _, agent := range []string{"", "ab", "has space", strings.Repeat("x", 65)} {
		for _, path := range []string{"/knowledge/contribute", "/knowledge/" + id + "/cite", "/knowledge/" + id + "/endorse"} {
			r := e.do("POST", path, agent, contributeBody(findingTitle, findingContent, ""))
			if agent == "" {
				if r.status != 401 || r.errCode() != "agent_required" {
					t.Errorf("POST %s without agent = %d %s, want 401 agent_required", path, r.status, r.raw)
				}
				continue
			}
			// A handle that breaks the rule is a bad request naming the rule.
			if r.status != 400 || r.errCode() != "invalid_request" || !strings.Contains(string(r.raw), "3-64 characters of A-Z a-z 0-9 . _ -") {
				t.Errorf("POST %s with agent %q = %d %s, want 400 invalid_request naming the rule", path, agent, r.status, r.raw)
			}
		}
	}
	// Reads are public.
	if r := e.do("GET", "/knowledge/"+id, "", ""); r.status != 200 {
		t.Fatalf("public GET = %d", r.status)
	}
	if r := e.do("GET", "/knowledge/query?q=pgvector", "", ""); r.status != 200 || len(r.list()) != 1 {
		t.Fatalf("public query = %d %s", r.status, r.raw)
	}
}

func TestContributeBadRequests(t *testing.T) {
	e := newKnowEnv(t)
	for name, body := range map[string]string{
		"not json":     `{"title":`,
		"no title":     `{"content":"x"}`,
		"no content":   `{"title":"x"}`,
		"bad hive":     `{"title":"t","content":"c","hive":"Not A Slug"}`,
		"title type":   `{"title":5,"content":"c"}`,
		"trailing":     `{"title":"t","content":"c"} {}`,
		"content type": `{"title":"t","content":5}`,
	} {
		r := e.do("POST", "/knowledge/contribute", "agent-x", body)
		if r.status != 400 || r.errCode() != "invalid_request" {
			t.Errorf("%s = %d %s, want 400 invalid_request", name, r.status, r.raw)
		}
	}
}

func TestKnowledgeQueryParams(t *testing.T) {
	e := newKnowEnv(t)
	tools := []string{"postgres", "sqlite", "redis", "nginx", "docker", "kubernetes", "terraform"}
	for i, tool := range tools {
		for j, hive := range []string{"academy", "backend"} {
			title := fmt.Sprintf("%s setting %d in %s", tool, i, hive)
			content := fmt.Sprintf("In %s 1.%d set `max_connections=%d` via `--config /etc/%s.conf`; the default of %d is too low for 200 clients.", tool, i, 100+i+j, tool, 10+i)
			r := e.do("POST", "/knowledge/contribute", "agent-x", contributeBody(title, content, hive))
			if r.status != 201 {
				t.Fatalf("seed %s/%s = %d %s", tool, hive, r.status, r.raw)
			}
		}
	}
	q := "/knowledge/query?q=" + url.QueryEscape("max_connections default too low")
	if n := len(e.do("GET", q, "", "").list()); n != knowledge.DefaultQueryLimit {
		t.Fatalf("default limit gave %d hits, want %d", n, knowledge.DefaultQueryLimit)
	}
	if n := len(e.do("GET", q+"&limit=3", "", "").list()); n != 3 {
		t.Fatalf("limit=3 gave %d", n)
	}
	if n := len(e.do("GET", q+"&limit=1000", "", "").list()); n != 14 {
		t.Fatalf("limit=1000 gave %d, want all 14 (cap 50)", n)
	}
	r := e.do("GET", q+"&limit=50&hive=backend", "", "")
	if len(r.list()) != 7 {
		t.Fatalf("hive=backend gave %d, want 7", len(r.list()))
	}
	prev := 2.0
	for _, h := range r.list() {
		m := h.(map[string]any)
		if m["hive"] != "backend" {
			t.Fatalf("hive filter leaked %v", m["hive"])
		}
		if s := m["score"].(float64); s > prev {
			t.Fatalf("hits not ranked by score: %v after %v", s, prev)
		} else {
			prev = s
		}
	}
	top := e.do("GET", "/knowledge/query?q="+url.QueryEscape("redis max_connections /etc/redis.conf")+"&hive=academy", "", "").list()
	if len(top) == 0 || !strings.HasPrefix(top[0].(map[string]any)["title"].(string), "redis ") {
		t.Fatalf("query for redis ranked %v first", top)
	}
	for _, bad := range []string{"/knowledge/query", "/knowledge/query?q=", "/knowledge/query?q=x&limit=0",
		"/knowledge/query?q=x&limit=abc", "/knowledge/query?q=x&hive=Bad%20Hive",
		"/knowledge/query?q=" + strings.Repeat("a", MaxQueryBytes+1)} {
		if r := e.do("GET", bad, "", ""); r.status != 400 || r.errCode() != "invalid_request" {
			t.Errorf("GET %s = %d %s, want 400", bad, r.status, r.raw)
		}
	}
	if r := e.do("GET", "/knowledge/query?q=nothing+matches+zzzz&hive=empty", "", ""); r.status != 200 || r.list() == nil || len(r.list()) != 0 {
		t.Fatalf("empty result = %d %s, want 200 with data []", r.status, r.raw)
	}
}

func TestKnowledgeEntryAndCounters(t *testing.T) {
	e := newKnowEnv(t)
	r := e.do("POST", "/knowledge/contribute", "first-agent", contributeBody(findingTitle, findingContent, "academy", "pgvector", "Postgres"))
	id := r.data()["entry"].(map[string]any)["id"].(string)
	// A near-duplicate: the same finding with a trailing remark.
	r = e.do("POST", "/knowledge/contribute", "second-agent", contributeBody(findingTitle, findingContent+" Verified.", "academy"))
	if r.status != 200 || r.data()["verdict"] != "merged" {
		t.Fatalf("near duplicate = %d %s, want merged", r.status, r.raw)
	}
	if sim := r.data()["similarity"].(float64); sim <= knowledge.DefaultMergeThreshold || sim >= 1 {
		t.Fatalf("near duplicate similarity %v", sim)
	}
	r = e.do("GET", "/knowledge/"+id, "", "")
	ent := r.data()
	if r.status != 200 || ent["contribution_count"] != 2.0 || fmt.Sprint(ent["tags"]) != "[pgvector postgres]" {
		t.Fatalf("entry = %d %s", r.status, r.raw)
	}
	contribs, _ := ent["contributions"].([]any)
	if len(contribs) != 2 || contribs[0].(map[string]any)["agent"] != "first-agent" || contribs[1].(map[string]any)["agent"] != "second-agent" {
		t.Fatalf("contributions = %v", contribs)
	}
	hasKeys(t, "contribution", contribs[1].(map[string]any), "agent", "title", "content", "at", "similarity")

	// A cite counts once per handle and UTC day: the repeats answer 200,
	// counted false, the entry unchanged.
	for i := 0; i < 3; i++ {
		r = e.do("POST", "/knowledge/"+id+"/cite", "reader-1", "")
		if r.status != 200 || r.data()["counted"] != (i == 0) || r.data()["citation_count"] != 1.0 {
			t.Fatalf("cite %d by one handle = %d %s, want counted only the first time, citation_count 1", i, r.status, r.raw)
		}
	}
	r = e.do("POST", "/knowledge/"+id+"/cite", "reader-2", "")
	if r.status != 200 || r.data()["counted"] != true || r.data()["citation_count"] != 2.0 {
		t.Fatalf("cite by another handle = %d %s, want citation_count 2", r.status, r.raw)
	}
	for i := 0; i < 3; i++ {
		r = e.do("POST", "/knowledge/"+id+"/endorse", "reader-1", "")
	}
	if r.status != 200 || r.data()["endorsement_count"] != 1.0 {
		t.Fatalf("endorse thrice by one handle = %s, want 1", r.raw)
	}
	r = e.do("POST", "/knowledge/"+id+"/endorse", "reader-2", "")
	if r.data()["endorsement_count"] != 2.0 {
		t.Fatalf("second endorser = %s, want 2", r.raw)
	}
	for _, p := range []string{"/knowledge/nope", "/knowledge/nope/cite", "/knowledge/nope/endorse"} {
		method := "POST"
		if !strings.Contains(p, "/cite") && !strings.Contains(p, "/endorse") {
			method = "GET"
		}
		if r := e.do(method, p, "reader-1", ""); r.status != 404 || r.errCode() != "not_found" {
			t.Errorf("%s %s = %d %s, want 404", method, p, r.status, r.raw)
		}
	}
}
