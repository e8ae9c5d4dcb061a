package functions

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"pumasi/adapters/embed"
	"pumasi/adapters/local"
)

// corsServer is the API with a real local store and the given CORS policy.
func corsServer(t *testing.T, c CORS) *httptest.Server {
	t.Helper()
	st, err := local.Open(context.Background(), t.TempDir(), local.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	api := &API{Store: st, Secret: testSecret, Knowledge: local.NewKnowledge(st), Embedder: embed.NewHashed(0), CORS: c}
	srv := httptest.NewServer(api.Handler())
	t.Cleanup(srv.Close)
	return srv
}

func corsDo(t *testing.T, srv *httptest.Server, method, path string, header map[string]string) *http.Response {
	t.Helper()
	req, err := http.NewRequest(method, srv.URL+path, nil)
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
	resp.Body.Close()
	return resp
}

const browserOrigin = "https://app.example"

func TestCORSDefault(t *testing.T) {
	srv := corsServer(t, CORS{})
	origin := map[string]string{"Origin": browserOrigin}
	// Public reads answer every origin with *.
	for _, path := range []string{"/knowledge/query?q=pgvector", "/knowledge/nope"} {
		resp := corsDo(t, srv, "GET", path, origin)
		if got := resp.Header.Get("Access-Control-Allow-Origin"); got != "*" {
			t.Errorf("GET %s: Allow-Origin %q, want *", path, got)
		}
	}
	// Preflight of a read: 204 with the methods.
	resp := corsDo(t, srv, "OPTIONS", "/knowledge/query", map[string]string{
		"Origin": browserOrigin, "Access-Control-Request-Method": "GET",
	})
	if resp.StatusCode != 204 || resp.Header.Get("Access-Control-Allow-Origin") != "*" ||
		!strings.Contains(resp.Header.Get("Access-Control-Allow-Methods"), "GET") || resp.Header.Get("Access-Control-Max-Age") == "" {
		t.Fatalf("preflight of query = %d %v, want 204 with CORS headers", resp.StatusCode, resp.Header)
	}
	if got := resp.Header.Get("Access-Control-Allow-Methods"); got != "GET, HEAD, OPTIONS" {
		t.Fatalf("Allow-Methods %q, want GET, HEAD, OPTIONS once each", got)
	}
	// Keyed Hive clients send Authorization (and X-Hive-Agent) on reads
	// too; credentials are never allowed, least of all with "*".
	for _, h := range []string{"Authorization", HeaderAgent} {
		if !slices.Contains(strings.Split(resp.Header.Get("Access-Control-Allow-Headers"), ", "), h) {
			t.Fatalf("default preflight does not allow %s: %v", h, resp.Header)
		}
	}
	if resp.Header.Get("Access-Control-Allow-Credentials") != "" {
		t.Fatalf("preflight allows credentials: %v", resp.Header)
	}
	// The preflight of POST /knowledge/contribute is the contribute
	// route's, not GET /knowledge/{id}'s: closed by default.
	pre := corsDo(t, srv, "OPTIONS", "/knowledge/contribute", map[string]string{"Origin": browserOrigin, "Access-Control-Request-Method": "POST"})
	if pre.Header.Get("Access-Control-Allow-Origin") != "" || pre.Header.Get("Allow") != "POST, OPTIONS" {
		t.Fatalf("preflight of contribute = %d %v, want no CORS and Allow: POST, OPTIONS", pre.StatusCode, pre.Header)
	}
	// Writes and authenticated routes get no CORS by default.
	for _, c := range []struct{ method, path string }{
		{"POST", "/knowledge/contribute"}, {"POST", "/knowledge/x/cite"},
		{"GET", "/rooms/r1/files"}, {"POST", "/rooms/r1/files"}, {"GET", "/machines/m1/assignments"},
	} {
		resp := corsDo(t, srv, c.method, c.path, origin)
		if got := resp.Header.Get("Access-Control-Allow-Origin"); got != "" {
			t.Errorf("%s %s: Allow-Origin %q, want none", c.method, c.path, got)
		}
		pre := corsDo(t, srv, "OPTIONS", c.path, map[string]string{"Origin": browserOrigin, "Access-Control-Request-Method": c.method})
		if pre.Header.Get("Access-Control-Allow-Origin") != "" || pre.StatusCode == 204 && pre.Header.Get("Access-Control-Allow-Methods") != "" {
			t.Errorf("preflight of %s %s = %d %v, want no CORS", c.method, c.path, pre.StatusCode, pre.Header)
		}
	}
	// OPTIONS on an authenticated route names its methods, and nothing
	// that would let another origin call it.
	if resp := corsDo(t, srv, "OPTIONS", "/rooms/r1/files", origin); resp.StatusCode != 204 ||
		resp.Header.Get("Allow") != "GET, HEAD, POST, OPTIONS" || resp.Header.Get("Access-Control-Allow-Origin") != "" {
		t.Fatalf("OPTIONS /rooms/r1/files = %d %v, want 204 with Allow and no CORS", resp.StatusCode, resp.Header)
	}
}

func TestCORSConfigured(t *testing.T) {
	c, err := ParseCORS("https://app.example, https://other.example/", "knowledge")
	if err != nil {
		t.Fatal(err)
	}
	srv := corsServer(t, c)
	resp := corsDo(t, srv, "GET", "/knowledge/query?q=x", map[string]string{"Origin": browserOrigin})
	if got := resp.Header.Get("Access-Control-Allow-Origin"); got != browserOrigin || !strings.Contains(resp.Header.Get("Vary"), "Origin") {
		t.Fatalf("listed origin: Allow-Origin %q Vary %q, want the origin echoed and Vary: Origin", got, resp.Header.Get("Vary"))
	}
	resp = corsDo(t, srv, "GET", "/knowledge/query?q=x", map[string]string{"Origin": "https://evil.example"})
	if got := resp.Header.Get("Access-Control-Allow-Origin"); got != "" {
		t.Fatalf("unlisted origin: Allow-Origin %q, want none", got)
	}
	pre := corsDo(t, srv, "OPTIONS", "/knowledge/contribute", map[string]string{
		"Origin": "https://other.example", "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "x-hive-agent, content-type",
	})
	if pre.StatusCode != 204 || pre.Header.Get("Access-Control-Allow-Origin") != "https://other.example" ||
		!strings.Contains(pre.Header.Get("Access-Control-Allow-Headers"), HeaderAgent) || !strings.Contains(pre.Header.Get("Access-Control-Allow-Methods"), "POST") {
		t.Fatalf("preflight of contribute = %d %v, want 204 allowing POST and X-Hive-Agent", pre.StatusCode, pre.Header)
	}
	resp = corsDo(t, srv, "GET", "/rooms/r1/files", map[string]string{"Origin": browserOrigin})
	if got := resp.Header.Get("Access-Control-Allow-Origin"); got != "" {
		t.Fatalf("authenticated route with routes=knowledge: Allow-Origin %q, want none", got)
	}

	all, _ := ParseCORS("*", "all")
	srv = corsServer(t, all)
	pre = corsDo(t, srv, "OPTIONS", "/rooms/r1/files", map[string]string{"Origin": browserOrigin, "Access-Control-Request-Method": "POST"})
	if pre.StatusCode != 204 || !strings.Contains(pre.Header.Get("Access-Control-Allow-Headers"), "Authorization") {
		t.Fatalf("routes=all preflight = %d %v, want 204 allowing Authorization", pre.StatusCode, pre.Header)
	}
	resp = corsDo(t, srv, "GET", "/rooms/r1/files", map[string]string{"Origin": browserOrigin})
	if resp.StatusCode != 401 || resp.Header.Get("Access-Control-Allow-Origin") != "*" {
		t.Fatalf("routes=all GET without token = %d %q, want 401 readable by the browser", resp.StatusCode, resp.Header.Get("Access-Control-Allow-Origin"))
	}

	off, _ := ParseCORS("off", "")
	srv = corsServer(t, off)
	resp = corsDo(t, srv, "GET", "/knowledge/query?q=x", map[string]string{"Origin": browserOrigin})
	if got := resp.Header.Get("Access-Control-Allow-Origin"); got != "" {
		t.Fatalf("CORS off: Allow-Origin %q", got)
	}
	for _, bad := range [][2]string{{"app.example", ""}, {"*", "everything"}} {
		if _, err := ParseCORS(bad[0], bad[1]); err == nil {
			t.Errorf("ParseCORS(%q, %q) accepted", bad[0], bad[1])
		}
	}
}
