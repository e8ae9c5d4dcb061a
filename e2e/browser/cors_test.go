package browser_test

import (
	"encoding/json"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestBrowserClientWithKey is a page on another origin (another port of
// 127.0.0.1) in real headless Chromium calling localdev the way a keyed
// Hive client in a browser does. Chromium itself enforces CORS, so what it
// lets the page read is what the policy allows: the knowledge query with
// `Authorization: Bearer` and X-Hive-Agent passes its preflight and reads
// the entry; the same request with credentials (cookies) is refused, since
// credentials are never allowed beside "*"; a contribute stays closed under
// the default routes; and the machine WebSocket opens with ?token= and not
// with a forged one (functions' TestSocketTokenInQuery checks the token
// reaches no log).
func TestBrowserClientWithKey(t *testing.T) {
	l := startLocaldev(t)
	l.Contribute("seeder", map[string]any{"title": "pgx v5 pool_max_conns default is too small",
		"content": "pgx v5 pgxpool defaults pool_max_conns to max(4, GOMAXPROCS); under 64 concurrent requests set pool_max_conns=32 in the DSN or requests queue on the pool."})
	machineToken := l.Token("--machine", machine)

	// The page's own origin: another port, so another origin.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var pageRequests []string
	page := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		pageRequests = append(pageRequests, r.Method+" "+r.URL.Path)
		mu.Unlock()
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte("<!doctype html><title>another origin</title><p>a Hive client</p>"))
	})}
	go page.Serve(ln)
	t.Cleanup(func() { page.Close() })
	pageURL := "http://" + ln.Addr().String() + "/"

	r := l.Drive("cors.cjs", 2*time.Minute, map[string]any{"page": pageURL, "machine": machine, "machine_token": machineToken})
	var got struct {
		Origin  string                     `json:"origin"`
		Results map[string]json.RawMessage `json:"results"`
	}
	var browser struct{ Version string }
	r.Decode("results", &got)
	r.Decode("browser", &browser)
	t.Logf("chromium %s, page origin %s, API %s", browser.Version, got.Origin, l.Base)
	if got.Origin == l.Base || !strings.HasPrefix(got.Origin, "http://127.0.0.1:") {
		t.Fatalf("page origin %q is not another origin than %s", got.Origin, l.Base)
	}
	var query struct {
		Status  int    `json:"status"`
		Success bool   `json:"success"`
		Hits    int    `json:"hits"`
		Title   string `json:"title"`
		Blocked string `json:"blocked"`
	}
	json.Unmarshal(got.Results["query with key"], &query)
	if query.Status != 200 || !query.Success || query.Hits < 1 || query.Title != "pgx v5 pool_max_conns default is too small" {
		t.Fatalf("keyed query from another origin = %s, want 200 with the entry", got.Results["query with key"])
	}
	for _, name := range []string{"query with key and credentials", "contribute with key"} {
		var r struct {
			Blocked string `json:"blocked"`
		}
		if json.Unmarshal(got.Results[name], &r); !strings.Contains(r.Blocked, "Failed to fetch") {
			t.Errorf("%s = %s, want the browser to refuse it (CORS)", name, got.Results[name])
		}
	}
	var ws, bad struct {
		Open bool `json:"open"`
	}
	json.Unmarshal(got.Results["websocket with ?token="], &ws)
	json.Unmarshal(got.Results["websocket with a bad ?token="], &bad)
	if !ws.Open || bad.Open {
		t.Fatalf("websocket with ?token= = %s, with a forged one = %s; want open, refused", got.Results["websocket with ?token="], got.Results["websocket with a bad ?token="])
	}
}
