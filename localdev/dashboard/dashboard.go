// Package dashboard is localdev's web page: plain HTML, CSS and JavaScript
// embedded in the binary, so a newcomer runs no build step and the page works
// offline. It talks to the HTTP API of DESIGN.md §4 and §6 from the browser,
// with the token the user pastes (kept in sessionStorage only).
package dashboard

import (
	"embed"
	"io/fs"
	"net/http"
	"strings"
)

// static holds index.html and the assets served under /ui/.
//
//go:embed static
var static embed.FS

// assets is static with the folder name stripped.
var assets = func() fs.FS {
	sub, err := fs.Sub(static, "static")
	if err != nil {
		panic(err)
	}
	return sub
}()

// securityHeaders keep the page self-contained: everything from this origin,
// nothing inline, no framing, no referrer (the token never leaves the tab).
var securityHeaders = map[string]string{
	"Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
		"connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
	"X-Content-Type-Options": "nosniff",
	"Referrer-Policy":        "no-referrer",
	"X-Frame-Options":        "DENY",
	// Cache-Control no-cache still lets the browser revalidate, but assets
	// carry no validators, so a new binary's page is always what loads.
	"Cache-Control": "no-cache",
}

// Handler serves the page at / and its assets at /ui/. Other paths answer
// 404; use Wrap to put the page in front of the API.
func Handler() http.Handler {
	files := http.FileServerFS(assets)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		for k, v := range securityHeaders {
			w.Header().Set(k, v)
		}
		switch {
		case r.URL.Path == "/" || r.URL.Path == "/index.html":
			serveFile(w, r, "index.html")
		case strings.HasPrefix(r.URL.Path, "/ui/") && r.URL.Path != "/ui/" && !strings.HasSuffix(r.URL.Path, "/"):
			r2 := r.Clone(r.Context())
			r2.URL.Path = "/" + strings.TrimPrefix(r.URL.Path, "/ui/")
			r2.URL.RawPath = ""
			files.ServeHTTP(w, r2)
		default:
			http.NotFound(w, r)
		}
	})
}

func serveFile(w http.ResponseWriter, r *http.Request, name string) {
	b, err := fs.ReadFile(assets, name)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_, _ = w.Write(b)
}

// IsPage reports whether a request is for the dashboard rather than the API:
// GET or HEAD of /, /index.html or anything under /ui/.
func IsPage(r *http.Request) bool {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		return false
	}
	p := r.URL.Path
	return p == "/" || p == "/index.html" || strings.HasPrefix(p, "/ui/")
}

// Wrap serves the dashboard for page requests (IsPage) and api for the rest,
// so the page and the API share one origin and need no CORS.
func Wrap(api http.Handler) http.Handler {
	page := Handler()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if IsPage(r) {
			page.ServeHTTP(w, r)
			return
		}
		api.ServeHTTP(w, r)
	})
}
