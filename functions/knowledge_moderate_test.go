package functions

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"pumasi"
)

// modReq is a request with optional X-Hive-Agent and bearer token; the
// body may be empty (204).
func (e *knowEnv) modReq(method, path, agent, token, body string) (int, map[string]any) {
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
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var m map[string]any
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &m); err != nil {
			e.t.Fatalf("%s %s: body is not JSON: %q", method, path, raw)
		}
	}
	return resp.StatusCode, m
}

func modToken(t *testing.T, scopes ...string) string {
	t.Helper()
	tok, err := pumasi.SignToken(testSecret, "moderator", scopes, time.Hour, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

func errCodeOf(m map[string]any) string {
	e, _ := m["error"].(map[string]any)
	s, _ := e["code"].(string)
	return s
}

// contributeID contributes a finding and returns its entry id.
func (e *knowEnv) contributeID(agent, title, content, extra string) string {
	e.t.Helper()
	m := map[string]any{"title": title, "content": content}
	if extra != "" {
		m["supersedes"] = extra
	}
	b, _ := json.Marshal(m)
	r := e.do("POST", "/knowledge/contribute", agent, string(b))
	if r.status != http.StatusCreated {
		e.t.Fatalf("contribute %q = %d %s, want 201", title, r.status, r.raw)
	}
	ent, _ := r.data()["entry"].(map[string]any)
	id, _ := ent["id"].(string)
	return id
}

// queryIDs returns the ids query answers for q, with token when set.
func (e *knowEnv) queryIDs(q, extra, token string) []string {
	e.t.Helper()
	status, m := e.modReq("GET", "/knowledge/query?limit=50&q="+url.QueryEscape(q)+extra, "", token, "")
	if status != http.StatusOK {
		e.t.Fatalf("query %q = %d %v", q, status, m)
	}
	var ids []string
	hits, _ := m["data"].([]any)
	for _, h := range hits {
		ids = append(ids, h.(map[string]any)["id"].(string))
	}
	return ids
}

func TestKnowledgeFlagQuarantineRestore(t *testing.T) {
	e := newKnowEnv(t)
	id := e.contributeID("author-1", findingTitle, findingContent, "")
	admin, room := modToken(t, pumasi.ScopeAdmin), modToken(t, pumasi.ScopeRoom+"r1")
	flag := func(agent, token string) (int, map[string]any) {
		return e.modReq("POST", "/knowledge/"+id+"/flag", agent, token, `{"reason":"wrong","note":"the flag is gone in 0.8"}`)
	}
	for i, agent := range []string{"flagger-1", "flagger-2"} {
		status, m := flag(agent, "")
		d, _ := m["data"].(map[string]any)
		if status != http.StatusOK || m["counted"] != true || d["flags"] != float64(i+1) || d["quarantined"] != false {
			t.Fatalf("flag %d = %d %v", i+1, status, m)
		}
	}
	if status, m := flag("flagger-2", ""); status != http.StatusOK || m["counted"] != false {
		t.Fatalf("repeat flag = %d %v, want 200 counted false", status, m)
	}
	if !slices.Contains(e.queryIDs(findingTitle, "", ""), id) {
		t.Fatalf("two flags hid the entry")
	}
	if status, m := flag("flagger-3", ""); status != http.StatusOK || m["data"].(map[string]any)["quarantined"] != true {
		t.Fatalf("third flag = %d %v, want quarantined", status, m)
	}
	if slices.Contains(e.queryIDs(findingTitle, "", ""), id) {
		t.Fatalf("a quarantined entry is queried")
	}
	if status, m := e.modReq("GET", "/knowledge/"+id, "", "", ""); status != http.StatusOK || m["data"].(map[string]any)["quarantined"] != true {
		t.Fatalf("GET quarantined = %d %v", status, m)
	}
	if !slices.Contains(e.queryIDs(findingTitle, "&include=quarantined", admin), id) {
		t.Fatalf("an admin's include=quarantined misses it")
	}
	for _, c := range []struct {
		token string
		want  int
	}{{"", http.StatusUnauthorized}, {room, http.StatusForbidden}} {
		if status, _ := e.modReq("GET", "/knowledge/query?q=pgvector&include=quarantined", "", c.token, ""); status != c.want {
			t.Fatalf("include=quarantined with token %q = %d, want %d", c.token, status, c.want)
		}
	}
	if status, _ := e.modReq("GET", "/knowledge/query?q=pgvector&include=all", "", admin, ""); status != http.StatusBadRequest {
		t.Fatalf("include=all = %d, want 400", status)
	}
	if status, m := e.modReq("POST", "/knowledge/"+id+"/restore", "", admin, ""); status != http.StatusOK ||
		m["data"].(map[string]any)["quarantined"] != false || m["data"].(map[string]any)["flags"] != float64(3) {
		t.Fatalf("restore = %d %v", status, m)
	}
	if !slices.Contains(e.queryIDs(findingTitle, "", ""), id) {
		t.Fatalf("a restored entry is not queried")
	}
	// An admin's flag (an admin token, no X-Hive-Agent) quarantines at once.
	if status, m := flag("", admin); status != http.StatusOK || m["data"].(map[string]any)["quarantined"] != true {
		t.Fatalf("admin flag = %d %v", status, m)
	}
	for _, body := range []string{`{"reason":"meh"}`, `{}`, `{"reason":"pii","note":"` + strings.Repeat("x", 501) + `"}`} {
		if status, m := e.modReq("POST", "/knowledge/"+id+"/flag", "flagger-9", "", body); status != http.StatusBadRequest {
			t.Fatalf("flag %s = %d %v, want 400", body[:min(len(body), 30)], status, m)
		}
	}
	if status, m := e.modReq("POST", "/knowledge/"+id+"/flag", "", "", `{"reason":"pii"}`); status != http.StatusUnauthorized || errCodeOf(m) != pumasi.EAgentRequired {
		t.Fatalf("anonymous flag = %d %v, want 401 agent_required", status, m)
	}
	if status, _ := e.modReq("POST", "/knowledge/no-such-entry/flag", "flagger-1", "", `{"reason":"pii"}`); status != http.StatusNotFound {
		t.Fatalf("flag unknown = %d, want 404", status)
	}
}

func TestKnowledgeAdminRoutesRefuseOthers(t *testing.T) {
	e := newKnowEnv(t)
	id := e.contributeID("author-1", findingTitle, findingContent, "")
	room, machine := modToken(t, pumasi.ScopeRoom+"r1"), modToken(t, pumasi.ScopeMachine+"m1")
	routes := []struct{ method, path string }{
		{"POST", "/knowledge/" + id + "/restore"},
		{"DELETE", "/knowledge/" + id},
		{"GET", "/knowledge/moderation"},
	}
	for _, rt := range routes {
		for _, c := range []struct {
			agent, token string
			want         int
		}{{"author-1", "", http.StatusUnauthorized}, {"", "not-a-token", http.StatusUnauthorized},
			{"", room, http.StatusForbidden}, {"", machine, http.StatusForbidden}} {
			status, m := e.modReq(rt.method, rt.path, c.agent, c.token, "")
			if status != c.want || m["success"] != false {
				t.Errorf("%s %s (agent %q token %.8q) = %d %v, want %d", rt.method, rt.path, c.agent, c.token, status, m, c.want)
			}
		}
	}
	if status, _ := e.modReq("GET", "/knowledge/"+id, "", "", ""); status != http.StatusOK {
		t.Fatalf("the refused DELETEs redacted the entry: GET = %d", status)
	}
}

func TestKnowledgeRedactAnswersGone(t *testing.T) {
	e := newKnowEnv(t)
	id := e.contributeID("author-1", findingTitle, findingContent, "")
	admin := modToken(t, pumasi.ScopeAdmin)
	for i := 0; i < 2; i++ {
		if status, m := e.modReq("DELETE", "/knowledge/"+id+"?reason=a+leaked+secret", "", admin, ""); status != http.StatusNoContent || m != nil {
			t.Fatalf("DELETE #%d = %d %v, want 204 without a body", i+1, status, m)
		}
	}
	for _, rq := range []struct{ method, path, body string }{
		{"GET", "/knowledge/" + id, ""},
		{"POST", "/knowledge/" + id + "/cite", ""},
		{"POST", "/knowledge/" + id + "/endorse", ""},
		{"POST", "/knowledge/" + id + "/flag", `{"reason":"pii"}`},
		{"POST", "/knowledge/" + id + "/restore", ""},
	} {
		token := ""
		if strings.HasSuffix(rq.path, "/restore") {
			token = admin
		}
		status, m := e.modReq(rq.method, rq.path, "agent-1", token, rq.body)
		if status != http.StatusGone || errCodeOf(m) != pumasi.EGone || m["success"] != false {
			t.Errorf("%s %s after redaction = %d %v, want 410 gone", rq.method, rq.path, status, m)
		}
	}
	if slices.Contains(e.queryIDs(findingTitle, "&include=quarantined", admin), id) {
		t.Fatalf("a redacted entry is queried")
	}
	if status, _ := e.modReq("DELETE", "/knowledge/no-such-entry", "", admin, ""); status != http.StatusNotFound {
		t.Fatalf("DELETE unknown = %d, want 404", status)
	}
}

func TestKnowledgeSupersede(t *testing.T) {
	e := newKnowEnv(t)
	old := e.contributeID("author-1", findingTitle, findingContent, "")
	const newTitle = "pgvector 0.8 iterative index scans return LIMIT rows under a WHERE filter"
	const newContent = "Since pgvector 0.8.0, `SET hnsw.iterative_scan = relaxed_order` keeps scanning the HNSW index until `LIMIT 5` rows pass `WHERE hive = $2`; raising `hnsw.ef_search` is no longer needed."
	for _, c := range []struct {
		supersedes string
		hive       string
		want       int
	}{{"no-such-entry", "", http.StatusNotFound}, {old, "backend", http.StatusBadRequest}} {
		m := map[string]any{"title": newTitle, "content": newContent, "supersedes": c.supersedes}
		if c.hive != "" {
			m["hive"] = c.hive
		}
		b, _ := json.Marshal(m)
		if r := e.do("POST", "/knowledge/contribute", "author-2", string(b)); r.status != c.want {
			t.Fatalf("supersedes %s in hive %q = %d %s, want %d", c.supersedes, c.hive, r.status, r.raw, c.want)
		}
	}
	b, _ := json.Marshal(map[string]any{"title": findingTitle, "content": findingContent, "supersedes": old})
	if r := e.do("POST", "/knowledge/contribute", "author-2", string(b)); r.status != http.StatusBadRequest {
		t.Fatalf("a contribution repeating the entry it supersedes = %d %s, want 400", r.status, r.raw)
	}
	newer := e.contributeID("author-2", newTitle, newContent, old)
	if newer == old {
		t.Fatalf("the superseding finding merged into the older entry")
	}
	if _, m := e.modReq("GET", "/knowledge/"+old, "", "", ""); m["data"].(map[string]any)["superseded_by"] != newer {
		t.Fatalf("older entry = %v, want superseded_by %s", m["data"], newer)
	}
	if _, m := e.modReq("GET", "/knowledge/"+newer, "", "", ""); m["data"].(map[string]any)["supersedes"] != old {
		t.Fatalf("newer entry = %v, want supersedes %s", m["data"], old)
	}
	ids := e.queryIDs(findingTitle, "", "")
	if slices.Contains(ids, old) || !slices.Contains(ids, newer) {
		t.Fatalf("query for the older finding = %v, want the newer %s in place of %s", ids, newer, old)
	}
}

// twoFindings contributes two unrelated findings to academy and returns
// their ids.
func (e *knowEnv) twoFindings() (string, string) {
	e.t.Helper()
	a := e.contributeID("author-1", findingTitle, findingContent, "")
	b := e.contributeID("author-1", "SQLite busy_timeout must be set on every pooled connection",
		"With database/sql each pooled connection needs `PRAGMA busy_timeout = 5000`; set `_pragma=busy_timeout(5000)` in the DSN so SQLITE_BUSY stops.", "")
	return a, b
}

func TestKnowledgeModerationView(t *testing.T) {
	e := newKnowEnv(t)
	admin := modToken(t, pumasi.ScopeAdmin)
	a, b := e.twoFindings()
	e.modReq("POST", "/knowledge/"+a+"/flag", "flagger-1", "", `{"reason":"outdated"}`)
	e.modReq("POST", "/knowledge/"+b+"/flag", "", admin, `{"reason":"harmful"}`)
	status, m := e.modReq("GET", "/knowledge/moderation?hive=academy&limit=10", "", admin, "")
	if status != http.StatusOK {
		t.Fatalf("moderation = %d %v", status, m)
	}
	d := m["data"].(map[string]any)
	first := func(k string) string {
		l, _ := d[k].([]any)
		if len(l) != 1 {
			t.Fatalf("%s = %v, want one entry", k, d[k])
		}
		return l[0].(map[string]any)["id"].(string)
	}
	if first("flagged") != a || first("quarantined") != b {
		t.Fatalf("moderation = %v, want %s flagged and %s quarantined", d, a, b)
	}
	if ms, ok := d["merges"].([]any); !ok || ms == nil {
		t.Fatalf("merges = %v, want a list", d["merges"])
	}
	if status, _ := e.modReq("GET", "/knowledge/moderation?limit=0", "", admin, ""); status != http.StatusBadRequest {
		t.Fatalf("limit=0 = %d, want 400", status)
	}
}

// TestKnowledgeModerationPages: ?list= and ?cursor= walk one list a page at
// a time, each entry once; a cursor without its list, of another list or
// not given by the server is 400.
func TestKnowledgeModerationPages(t *testing.T) {
	e := newKnowEnv(t)
	admin := modToken(t, pumasi.ScopeAdmin)
	a, b := e.twoFindings()
	for _, id := range []string{a, b} {
		if status, m := e.modReq("POST", "/knowledge/"+id+"/flag", "flagger-1", "", `{"reason":"outdated"}`); status != http.StatusOK {
			t.Fatalf("flag %s = %d %v", id, status, m)
		}
	}
	var got []string
	path := "/knowledge/moderation?list=flagged&limit=1"
	for page := 0; path != ""; page++ {
		status, m := e.modReq("GET", path, "", admin, "")
		if status != http.StatusOK || page > 2 {
			t.Fatalf("GET %s = %d %v (page %d)", path, status, m, page)
		}
		d := m["data"].(map[string]any)
		for _, it := range d["flagged"].([]any) {
			got = append(got, it.(map[string]any)["id"].(string))
		}
		if q, _ := d["quarantined"].([]any); len(q) != 0 {
			t.Fatalf("list=flagged answers quarantined %v", q)
		}
		path = ""
		if c, _ := d["next"].(map[string]any)["flagged"].(string); c != "" {
			path = "/knowledge/moderation?list=flagged&limit=1&cursor=" + url.QueryEscape(c)
		}
	}
	slices.Sort(got)
	want := []string{a, b}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Fatalf("flagged, a page of 1 at a time = %v, want %v", got, want)
	}
	_, m := e.modReq("GET", "/knowledge/moderation?list=flagged&limit=1", "", admin, "")
	c := m["data"].(map[string]any)["next"].(map[string]any)["flagged"].(string)
	for _, q := range []string{"cursor=" + url.QueryEscape(c), "list=merges&cursor=" + url.QueryEscape(c), "list=flagged&cursor=nope", "list=all"} {
		if status, m := e.modReq("GET", "/knowledge/moderation?"+q, "", admin, ""); status != http.StatusBadRequest {
			t.Errorf("moderation?%s = %d %v, want 400", q, status, m)
		}
	}
}

// historyKinds returns the kinds GET /knowledge/{id}/history lists.
func (e *knowEnv) historyKinds(id string) []string {
	e.t.Helper()
	status, m := e.modReq("GET", "/knowledge/"+id+"/history", "", "", "")
	if status != http.StatusOK {
		e.t.Fatalf("history of %s = %d %v", id, status, m)
	}
	d := m["data"].(map[string]any)
	if d["entry_id"] != id {
		e.t.Fatalf("history entry_id = %v, want %s", d["entry_id"], id)
	}
	var kinds []string
	for _, ev := range d["events"].([]any) {
		kinds = append(kinds, ev.(map[string]any)["kind"].(string))
	}
	return kinds
}

func TestKnowledgeHistoryListsModeration(t *testing.T) {
	e := newKnowEnv(t)
	admin := modToken(t, pumasi.ScopeAdmin)
	old := e.contributeID("author-1", findingTitle, findingContent, "")
	if got := e.historyKinds(old); len(got) != 0 {
		t.Fatalf("history of a new entry = %v, want none", got)
	}
	newer := e.contributeID("author-2", "pgvector 0.8 iterative index scans return LIMIT rows under a WHERE filter",
		"Since pgvector 0.8.0, `SET hnsw.iterative_scan = relaxed_order` keeps scanning the HNSW index until `LIMIT 5` rows pass `WHERE hive = $2`; raising `hnsw.ef_search` is no longer needed.", old)
	e.modReq("POST", "/knowledge/"+old+"/flag", "flagger-1", "", `{"reason":"outdated","note":"see the newer one"}`)
	e.modReq("POST", "/knowledge/"+old+"/flag", "", admin, `{"reason":"outdated"}`)
	e.modReq("POST", "/knowledge/"+old+"/restore", "", admin, "")
	if got, want := e.historyKinds(old), []string{"superseded", "flagged", "flagged", "quarantined", "restored"}; !slices.Equal(got, want) {
		t.Fatalf("history of the older entry = %v, want %v", got, want)
	}
	if got := e.historyKinds(newer); !slices.Equal(got, []string{"supersedes"}) {
		t.Fatalf("history of the newer entry = %v, want [supersedes]", got)
	}
	e.modReq("DELETE", "/knowledge/"+old+"?reason=wrong", "", admin, "")
	if got := e.historyKinds(old); len(got) != 6 || got[5] != "redacted" {
		t.Fatalf("history after redaction = %v, want the redaction last", got)
	}
	if status, _ := e.modReq("GET", "/knowledge/no-such-entry/history", "", "", ""); status != http.StatusNotFound {
		t.Fatalf("history of an unknown id = %d, want 404", status)
	}
}
