package localdev_test

import (
	"bytes"
	"encoding/json"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// hiveCall sends one request the way The Hive's clients do and decodes the
// answer generically, so the test sees exactly the keys a client reads.
func hiveCall(t *testing.T, method, u string, header map[string]string, body string) (int, http.Header, map[string]any) {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, u, rd)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var m map[string]any
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatalf("%s %s: %d %q is not JSON", method, u, resp.StatusCode, raw)
		}
	}
	return resp.StatusCode, resp.Header, m
}

func dataOf(m map[string]any) map[string]any { d, _ := m["data"].(map[string]any); return d }

// TestHiveClientsAgainstLocaldev replays The Hive's request shapes against
// a real localdev: a base URL with a trailing slash (//knowledge/...),
// contribute with X-Hive-Agent and no hive, a keyed Bearer write with no
// X-Hive-Agent, a query with neither hive nor auth from a browser on
// another origin; and checks The Hive's response fields.
func TestHiveClientsAgainstLocaldev(t *testing.T) {
	home := t.TempDir()
	p := startLocaldev(t, home)
	base := p.base + "/" // HIVE_API_URL=http://host:port/
	const title = "pgx v5 pool_max_conns default is too small"
	const content = "pgx v5 `pgxpool` defaults `pool_max_conns` to max(4, GOMAXPROCS); under 200 concurrent requests set `pool_max_conns=32` in the DSN or requests queue on `Acquire`."
	body, _ := json.Marshal(map[string]any{"title": title, "content": content, "tags": []string{"postgres", "go"}})

	st, _, m := hiveCall(t, "POST", base+"/knowledge/contribute", map[string]string{"X-Hive-Agent": "hive-client-1", "Content-Type": "application/json"}, string(body))
	d := dataOf(m)
	id, _ := d["entry_id"].(string)
	entry, _ := d["entry"].(map[string]any)
	if st != 201 || m["success"] != true || d["verdict"] != "accepted" || id == "" || entry["id"] != id || entry["hive"] != "academy" {
		t.Fatalf("contribute = %d %v, want 201, success, entry_id, default hive academy", st, m)
	}

	// A keyed client: Bearer, no X-Hive-Agent. Merged, attributed to a
	// handle derived from the key.
	const key = "hive_live_8f2c1d9e0a7b4c3d2e1f0a9b8c7d6e5f"
	st, _, m = hiveCall(t, "POST", base+"/knowledge/contribute", map[string]string{"Authorization": "Bearer " + key, "Content-Type": "application/json"}, string(body))
	d = dataOf(m)
	if st != 200 || m["success"] != true || d["verdict"] != "merged" || d["merged_into"] != id || d["similarity"] != 1.0 {
		t.Fatalf("keyed contribute = %d %v, want 200 merged_into %s with similarity", st, m, id)
	}
	st, _, m = hiveCall(t, "GET", base+"/knowledge/"+id, nil, "")
	contribs, _ := dataOf(m)["contributions"].([]any)
	if st != 200 || m["success"] != true || len(contribs) != 2 {
		t.Fatalf("entry = %d %v", st, m)
	}
	keyed := contribs[1].(map[string]any)["agent"].(string)
	if !strings.HasPrefix(keyed, "key-") || len(keyed) != 20 || keyed == contribs[0].(map[string]any)["agent"] {
		t.Fatalf("keyed contribution attributed to %q, want key- and 16 hex digits", keyed)
	}
	// The same key cites as the same handle.
	st, _, m = hiveCall(t, "POST", base+"/knowledge/"+id+"/endorse", map[string]string{"Authorization": "Bearer " + key}, "")
	if st != 200 || m["success"] != true || dataOf(m)["endorsement_count"] != 1.0 {
		t.Fatalf("keyed endorse = %d %v", st, m)
	}
	// The key is nowhere in localdev's home (SQLite, WAL, files).
	filepath.WalkDir(home, func(path string, de fs.DirEntry, err error) error {
		if err == nil && !de.IsDir() {
			if b, _ := os.ReadFile(path); bytes.Contains(b, []byte(key)) || bytes.Contains(b, []byte(key[10:])) {
				t.Errorf("%s holds the bearer key", path)
			}
		}
		return nil
	})

	// A rejected contribution: reasons[] and hints[] beside reason, details
	// and the error body.
	bad, _ := json.Marshal(map[string]any{"title": "Ask ops", "content": "Mail ops.lead@acme-corp.com when `kubectl drain` hangs on 1.29."})
	st, _, m = hiveCall(t, "POST", base+"/knowledge/contribute", map[string]string{"X-Hive-Agent": "hive-client-1", "Content-Type": "application/json"}, string(bad))
	d = dataOf(m)
	reasons, _ := d["reasons"].([]any)
	hints, _ := d["hints"].([]any)
	if st != 422 || m["success"] != false || d["verdict"] != "rejected" || len(reasons) != 1 || len(hints) == 0 || d["reason"] == nil || m["error"] == nil {
		t.Fatalf("rejected = %d %v", st, m)
	}

	// The query, from a page on another origin: no hive, no auth.
	q := base + "/knowledge/query?q=" + url.QueryEscape("pgx pool requests queue on Acquire")
	st, h, m := hiveCall(t, "GET", q, map[string]string{"Origin": "https://dashboard.example"}, "")
	hits, _ := m["data"].([]any)
	if st != 200 || m["success"] != true || len(hits) != 1 || h.Get("Access-Control-Allow-Origin") != "*" {
		t.Fatalf("query = %d %v (Allow-Origin %q)", st, m, h.Get("Access-Control-Allow-Origin"))
	}
	hit := hits[0].(map[string]any)
	if sum, _ := hit["summary"].(string); hit["id"] != id || sum == "" || len(sum) > 4*200 || hit["contribution_count"] != 2.0 {
		t.Fatalf("hit = %v", hit)
	}
	st, h, _ = hiveCall(t, "OPTIONS", p.base+"/knowledge/query", map[string]string{"Origin": "https://dashboard.example", "Access-Control-Request-Method": "GET"}, "")
	if st != 204 || h.Get("Access-Control-Allow-Origin") != "*" || !strings.Contains(h.Get("Access-Control-Allow-Methods"), "GET") {
		t.Fatalf("preflight = %d %v", st, h)
	}
	// Authenticated routes answer no CORS by default.
	_, h, _ = hiveCall(t, "GET", p.base+"/rooms/r1/files", map[string]string{"Origin": "https://dashboard.example"}, "")
	if h.Get("Access-Control-Allow-Origin") != "" {
		t.Fatalf("rooms answered CORS: %v", h)
	}
}

// TestLocaldevCORSFlags: --cors-origins and --cors-routes reach the API.
func TestLocaldevCORSFlags(t *testing.T) {
	p := startLocaldevArgs(t, t.TempDir(), []string{"--no-machine", "--cors-origins", "https://app.example", "--cors-routes", "knowledge"})
	st, h, _ := hiveCall(t, "OPTIONS", p.base+"/knowledge/contribute", map[string]string{
		"Origin": "https://app.example", "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "content-type, x-hive-agent",
	}, "")
	if st != 204 || h.Get("Access-Control-Allow-Origin") != "https://app.example" || !strings.Contains(h.Get("Access-Control-Allow-Headers"), "X-Hive-Agent") {
		t.Fatalf("preflight of contribute = %d %v", st, h)
	}
	_, h, _ = hiveCall(t, "GET", p.base+"/knowledge/query?q=x", map[string]string{"Origin": "https://other.example"}, "")
	if got := h.Get("Access-Control-Allow-Origin"); got != "" {
		t.Fatalf("unlisted origin got Allow-Origin %q", got)
	}
}
