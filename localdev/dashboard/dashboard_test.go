package dashboard_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"pumasi/localdev/dashboard"
)

// TestWrap checks which requests reach the page and which the API.
func TestWrap(t *testing.T) {
	api := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Api", "1")
		w.WriteHeader(http.StatusTeapot)
	})
	srv := httptest.NewServer(dashboard.Wrap(api))
	defer srv.Close()
	for _, tc := range []struct {
		method, path string
		status       int
		ctype        string // prefix; empty for API answers
	}{
		{"GET", "/", 200, "text/html"},
		{"HEAD", "/", 200, "text/html"},
		{"GET", "/index.html", 200, "text/html"},
		{"GET", "/ui/app.js", 200, "text/javascript"},
		{"GET", "/ui/app.css", 200, "text/css"},
		{"GET", "/ui/favicon.svg", 200, "image/svg+xml"},
		{"GET", "/ui/", 404, "text/plain"},
		{"GET", "/ui/nope.js", 404, "text/plain"},
		{"GET", "/ui/%2e%2e/dashboard.go", 404, "text/plain"},
		{"POST", "/", http.StatusTeapot, ""},
		{"GET", "/healthz", http.StatusTeapot, ""},
		{"GET", "/rooms/r1/files", http.StatusTeapot, ""},
		{"DELETE", "/ui/app.js", http.StatusTeapot, ""},
	} {
		req, _ := http.NewRequest(tc.method, srv.URL+tc.path, nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tc.status {
			t.Errorf("%s %s = %d, want %d", tc.method, tc.path, resp.StatusCode, tc.status)
		}
		if got := resp.Header.Get("X-Api") == "1"; got != (tc.ctype == "") {
			t.Errorf("%s %s reached the API = %v, want %v", tc.method, tc.path, got, tc.ctype == "")
		}
		if tc.ctype != "" {
			if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, tc.ctype) {
				t.Errorf("%s %s Content-Type = %q, want %s", tc.method, tc.path, ct, tc.ctype)
			}
			if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'none'") {
				t.Errorf("%s %s CSP = %q", tc.method, tc.path, csp)
			}
		}
	}
}

// TestPageIsSelfContained checks that every asset the page names is served
// and that nothing is loaded from another origin or inline.
func TestPageIsSelfContained(t *testing.T) {
	srv := httptest.NewServer(dashboard.Handler())
	defer srv.Close()
	page := get(t, srv.URL+"/")
	refs := regexp.MustCompile(`(?:src|href)="([^"#]+)"`).FindAllStringSubmatch(page, -1)
	if len(refs) < 3 {
		t.Fatalf("page names %d assets, want at least 3 (script, style, icon)", len(refs))
	}
	for _, m := range refs {
		if !strings.HasPrefix(m[1], "/ui/") {
			t.Errorf("page refers to %q; assets must be under /ui/ on this origin", m[1])
			continue
		}
		if body := get(t, srv.URL+m[1]); len(body) == 0 {
			t.Errorf("%s is empty", m[1])
		}
	}
	for _, bad := range []string{"<style", "style=\"", "onclick=", "<script>"} {
		if strings.Contains(page, bad) {
			t.Errorf("page has inline %q, which the CSP blocks", bad)
		}
	}
}

func get(t *testing.T, url string) string {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		t.Fatalf("GET %s = %d", url, resp.StatusCode)
	}
	return string(b)
}
