package functions

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"pumasi"
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

// TestFiftyAgentsSameFinding: 50 goroutines POST the same finding at once →
// one entry, contribution_count 50, 50 attributions.
func TestFiftyAgentsSameFinding(t *testing.T) {
	e := newKnowEnv(t)
	const n = 50
	var wg sync.WaitGroup
	statuses := make([]int, n)
	ids := make([]string, n)
	start := make(chan struct{})
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			req, _ := http.NewRequest("POST", e.srv.URL+"/knowledge/contribute",
				bytes.NewReader([]byte(contributeBody(findingTitle, findingContent, "academy"))))
			req.Header.Set("X-Hive-Agent", fmt.Sprintf("agent-%02d", i))
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				return
			}
			defer resp.Body.Close()
			var body struct {
				Data struct {
					Entry struct {
						ID string `json:"id"`
					} `json:"entry"`
				} `json:"data"`
			}
			json.NewDecoder(resp.Body).Decode(&body)
			statuses[i], ids[i] = resp.StatusCode, body.Data.Entry.ID
		}()
	}
	close(start)
	wg.Wait()
	created, merged := 0, 0
	distinct := map[string]bool{}
	for i := range statuses {
		switch statuses[i] {
		case 201:
			created++
		case 200:
			merged++
		default:
			t.Fatalf("request %d: status %d", i, statuses[i])
		}
		distinct[ids[i]] = true
	}
	if created != 1 || merged != n-1 || len(distinct) != 1 {
		t.Fatalf("201×%d 200×%d over %d entries, want 201×1 200×%d over 1", created, merged, len(distinct), n-1)
	}
	var id string
	for k := range distinct {
		id = k
	}
	r := e.do("GET", "/knowledge/"+id, "", "")
	contribs, _ := r.data()["contributions"].([]any)
	agents := map[string]bool{}
	for _, c := range contribs {
		agents[c.(map[string]any)["agent"].(string)] = true
	}
	if r.data()["contribution_count"] != float64(n) || len(contribs) != n || len(agents) != n {
		t.Fatalf("contribution_count %v, %d attributions, %d agents; want %d each", r.data()["contribution_count"], len(contribs), len(agents), n)
	}
}

func TestKnowledgeNotConfigured(t *testing.T) {
	srv := httptest.NewServer((&API{Secret: testSecret}).Handler())
	defer srv.Close()
	e := &knowEnv{t: t, srv: srv}
	for _, c := range []struct{ method, path, agent string }{
		{"POST", "/knowledge/contribute", "agent-x"}, {"GET", "/knowledge/query?q=x", ""},
		{"GET", "/knowledge/abc", ""}, {"POST", "/knowledge/abc/cite", "agent-x"},
	} {
		r := e.do(c.method, c.path, c.agent, contributeBody(findingTitle, findingContent, ""))
		if r.status != 500 || r.errCode() != "internal" || strings.Contains(string(r.raw), "configured") {
			t.Errorf("%s %s unconfigured = %d %s, want a bare 500", c.method, c.path, r.status, r.raw)
		}
	}
	if _, err := (&API{}).SweepKnowledge(context.Background()); err == nil {
		t.Fatal("SweepKnowledge without a store succeeded")
	}
}

func TestSweepThroughAPI(t *testing.T) {
	st, err := local.Open(context.Background(), t.TempDir(), local.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	k := local.NewKnowledge(st)
	// Threshold above 1 forces the race: near-duplicates both get in.
	racy := &API{Knowledge: k, Embedder: embed.NewHashed(0), MergeThreshold: 1.01, Secret: testSecret}
	srv := httptest.NewServer(racy.Handler())
	defer srv.Close()
	e := &knowEnv{t: t, srv: srv, know: k}
	a := e.do("POST", "/knowledge/contribute", "agent-a", contributeBody(findingTitle, findingContent, ""))
	b := e.do("POST", "/knowledge/contribute", "agent-b", contributeBody(findingTitle, findingContent+" Confirmed on 0.7.", ""))
	if a.status != 201 || b.status != 201 {
		t.Fatalf("forced race = %d, %d, want two 201", a.status, b.status)
	}
	rep, err := (&API{Knowledge: k}).SweepKnowledge(context.Background())
	if err != nil || rep.Merged != 1 {
		t.Fatalf("sweep = %+v, %v; want 1 merged", rep, err)
	}
	keep := a.data()["entry"].(map[string]any)["id"].(string)
	r := e.do("GET", "/knowledge/"+keep, "", "")
	if r.data()["contribution_count"] != 2.0 {
		t.Fatalf("kept entry after sweep = %s", r.raw)
	}
	gone := b.data()["entry"].(map[string]any)["id"].(string)
	// The id contribute handed out lives: it answers with its survivor.
	if r := e.do("GET", "/knowledge/"+gone, "", ""); r.status != 200 || r.data()["id"] != keep || r.data()["merged_into"] != keep {
		t.Fatalf("absorbed entry = %d %s, want 200 with the survivor %s and merged_into", r.status, r.raw, keep)
	}
	if r := e.do("GET", "/knowledge/"+keep, "", ""); r.data()["merged_into"] != nil {
		t.Fatalf("survivor by its own id says merged_into: %s", r.raw)
	}
	// Counts on the absorbed id go to the survivor.
	if r := e.do("POST", "/knowledge/"+gone+"/cite", "reader-1", ""); r.status != 200 || r.data()["id"] != keep ||
		r.data()["citation_count"] != 1.0 || r.data()["counted"] != true || r.data()["merged_into"] != keep {
		t.Fatalf("cite on the absorbed id = %d %s, want counted on %s", r.status, r.raw, keep)
	}
	if r := e.do("POST", "/knowledge/"+gone+"/endorse", "reader-1", ""); r.status != 200 || r.data()["id"] != keep || r.data()["endorsement_count"] != 1.0 {
		t.Fatalf("endorse on the absorbed id = %d %s, want counted on %s", r.status, r.raw, keep)
	}
	r = e.do("GET", "/knowledge/"+gone+"/history", "", "")
	events, _ := r.data()["events"].([]any)
	if r.status != 200 || r.data()["entry_id"] != gone || len(events) != 1 {
		t.Fatalf("history of the absorbed id = %d %s, want one event", r.status, r.raw)
	}
	ev := events[0].(map[string]any)
	if ev["kind"] != "merged_into" || ev["other_id"] != keep || ev["via"] != "sweep" || ev["similarity"].(float64) < 0.5 {
		t.Fatalf("merge event = %v", ev)
	}
	hasKeys(t, "event", ev, "kind", "at", "other_id", "similarity", "via")

	// Only an admin unmerges.
	roomTok, err := pumasi.SignToken(testSecret, "tester", []string{"room:r1"}, time.Hour, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	adminTok, err := pumasi.SignToken(testSecret, "moderator", []string{pumasi.ScopeAdmin}, time.Hour, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if r := e.doAs("POST", "/knowledge/"+gone+"/unmerge", "agent-a", "", ""); r.status != 401 {
		t.Fatalf("unmerge without a token = %d %s, want 401", r.status, r.raw)
	}
	if r := e.doAs("POST", "/knowledge/"+gone+"/unmerge", "", roomTok, ""); r.status != 403 || r.errCode() != "forbidden" {
		t.Fatalf("unmerge with a room token = %d %s, want 403", r.status, r.raw)
	}
	for i := 0; i < 2; i++ { // idempotent: the second changes nothing
		r = e.doAs("POST", "/knowledge/"+gone+"/unmerge", "", adminTok, "")
		if r.status != 200 || r.data()["id"] != gone || r.data()["contribution_count"] != 1.0 || r.data()["merged_into"] != nil {
			t.Fatalf("unmerge %d = %d %s, want the restored entry, 1 contributor", i, r.status, r.raw)
		}
		contribs, _ := r.data()["contributions"].([]any)
		if len(contribs) != 1 || contribs[0].(map[string]any)["agent"] != "agent-b" {
			t.Fatalf("restored contributions = %v, want agent-b's own", contribs)
		}
		kept := e.do("GET", "/knowledge/"+keep, "", "")
		if kept.data()["contribution_count"] != 1.0 || kept.data()["citation_count"] != 1.0 || kept.data()["endorsement_count"] != 1.0 {
			t.Fatalf("survivor after unmerge %d = %s, want its own contributor and the counts made since", i, kept.raw)
		}
	}
	r = e.do("GET", "/knowledge/"+gone+"/history", "", "")
	events, _ = r.data()["events"].([]any)
	if len(events) != 2 || events[1].(map[string]any)["kind"] != "unmerged" || events[1].(map[string]any)["by"] != "moderator" {
		t.Fatalf("history after unmerge = %s, want merged_into then unmerged by moderator", r.raw)
	}
	if r := e.do("GET", "/knowledge/no-such-entry/history", "", ""); r.status != 404 {
		t.Fatalf("history of an unknown id = %d", r.status)
	}
	if rep, _ := (&API{Knowledge: k}).SweepKnowledge(context.Background()); rep.Merged != 0 {
		t.Fatalf("second sweep merged %d (an unmerged pair stays apart)", rep.Merged)
	}
}
