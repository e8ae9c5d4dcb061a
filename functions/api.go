// Package functions holds pumasi's stateless HTTP handlers. The same handlers
// serve localdev's mux and, through a thin adapter, each AWS Lambda function:
// a handler keeps nothing between requests that it cannot rebuild from the store.
package functions

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"pumasi"
	"pumasi/knowledge"
)

// MaxJSONBody is the largest JSON request body accepted.
const MaxJSONBody = 64 << 10

// MachineSocket serves a machine daemon's WebSocket after the API has
// authenticated it; localdev's gateway implements it.
type MachineSocket interface {
	// ServeMachine serves the connection until it ends, or until expires
	// (the token's expiry): then it closes it with 1008 and a reason.
	ServeMachine(w http.ResponseWriter, r *http.Request, machine string, expires time.Time)
}

// API is the set of handlers and what they need. Build one per process; it is
// safe for concurrent use.
type API struct {
	Store  pumasi.Store
	Pusher Pusher
	// Secret signs and verifies tokens (PUMASI_SECRET).
	Secret []byte
	// Socket serves GET /machines/{machine}/ws; nil answers 404 (in AWS the
	// WebSocket API is a separate endpoint).
	Socket MachineSocket
	Now    func() time.Time
	Log    *slog.Logger

	// Knowledge keeps collective knowledge; Embedder embeds contributions
	// and queries for it (functions/knowledge.go).
	Knowledge knowledge.Store
	Embedder  Embedder
	// MergeThreshold is the cosine above which a contribution merges into
	// its nearest entry (knowledge.DefaultMergeThreshold when zero).
	MergeThreshold float64
	// RateLimits bound keyless knowledge writes; the zero value means the
	// defaults.
	RateLimits RateLimits
	limiters   knowledgeLimiters
	// lists and assigned keep encoded answers by rev (listcache.go).
	lists    listCache
	assigned assignedCache
	// tokens keeps verified tokens until they expire (tokencache.go).
	tokens tokenCache
	// CORS opens routes to browsers on other origins (functions/cors.go);
	// the zero value opens the public knowledge reads to every origin.
	CORS CORS
	// OfflineAfter is how long an agent's machine may go without reporting
	// status before the agent shows offline (PUMASI_OFFLINE_AFTER; zero:
	// DefaultOfflineAfter).
	OfflineAfter time.Duration
	// Serving, when set, says where this process keeps what it serves;
	// GET /healthz answers it.
	Serving *pumasi.Serving
	// Metrics, when set, counts requests, uploads, frames, verdicts and
	// sweeps (functions/metrics.go); MetricsHandler serves them.
	Metrics *Metrics
}

func (a *API) now() time.Time {
	if a.Now != nil {
		return a.Now()
	}
	return time.Now()
}

func (a *API) log() *slog.Logger {
	if a.Log != nil {
		return a.Log
	}
	return slog.Default()
}

func (a *API) pusher() Pusher {
	var p Pusher = NopPusher{}
	if a.Pusher != nil {
		p = a.Pusher
	}
	if a.Metrics != nil {
		p = countingPusher{p, a.Metrics}
	}
	return p
}

// Route is one endpoint of the HTTP API. Pattern segments in braces are
// parameters; the table is the single source for routing, for the Lambda
// functions and for the authorization matrix test.
type Route struct {
	Method  string
	Pattern string
	// Function is the Lambda function that serves the route.
	Function string
	handle   func(a *API, w http.ResponseWriter, r *http.Request, p params)
}

// params are the decoded path parameters of a matched route.
type params map[string]string

var routes []Route

// addRoute registers a route; each handler file adds its own in init.
func addRoute(method, pattern, function string, h func(a *API, w http.ResponseWriter, r *http.Request, p params)) {
	routes = append(routes, Route{Method: method, Pattern: pattern, Function: function, handle: h})
}

// Routes returns the API's routes in registration order.
func Routes() []Route {
	out := make([]Route, len(routes))
	copy(out, routes)
	return out
}

// Handler returns the whole API as one http.Handler.
func (a *API) Handler() http.Handler {
	var h http.Handler = http.HandlerFunc(a.ServeHTTP)
	if a.Metrics != nil {
		if a.Metrics.lagSource == nil {
			a.Metrics.lagSource = a.agentLags
		}
		a.Metrics.watchHealth(a)
		h = a.Metrics.instrument(h)
	}
	for _, wrap := range handlerWraps {
		h = wrap(h)
	}
	return h
}

// handlerWraps wrap every Handler: the metrics middleware (metrics.go) and,
// in tests, the OpenAPI response validator (openapi_test.go).
var handlerWraps []func(http.Handler) http.Handler

// ServeHTTP routes by method and path. It matches on the escaped path and
// decodes each segment itself, so an encoded `/` or `..` in a file name
// reaches the name rules (400 invalid_name) instead of being cleaned away.
func (a *API) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	segs, ok := splitPath(r.URL.EscapedPath())
	if !ok {
		writeError(w, pumasi.Errorf(pumasi.EInvalidRequest, "path is not valid"))
		return
	}
	if a.cors(w, r, segs) {
		return
	}
	rt, p, allow := matchRoute(r.Method, segs)
	if rt == nil {
		if len(allow) > 0 {
			if r.Method == http.MethodOptions {
				// Every path answers OPTIONS with its methods (RFC 9110 §9.3.7).
				w.Header().Set("Allow", strings.Join(allow, ", "))
				w.WriteHeader(http.StatusNoContent)
				return
			}
			writeMethodNotAllowed(w, r.Method, allow)
			return
		}
		writeError(w, pumasi.Errorf(pumasi.ENotFound, "no such endpoint"))
		return
	}
	defer func() {
		if v := recover(); v != nil {
			if v == http.ErrAbortHandler {
				panic(v)
			}
			a.log().Error("handler panic", "route", rt.Pattern, "panic", v)
			writeError(w, pumasi.Errorf(pumasi.EInternal, "internal error"))
		}
	}()
	// The log lets a failure after a write be answered honestly (fail).
	ctx, _ := pumasi.WithWriteLog(r.Context())
	rt.handle(a, w, r.WithContext(ctx), p)
}

// codeMethodNotAllowed is the error code of a 405 (DESIGN.md §4).
const codeMethodNotAllowed = "method_not_allowed"

// writeMethodNotAllowed answers 405 with the path's methods in Allow
// (RFC 9110 §15.5.6).
func writeMethodNotAllowed(w http.ResponseWriter, method string, allow []string) {
	w.Header().Set("Allow", strings.Join(allow, ", "))
	writeJSON(w, http.StatusMethodNotAllowed, errorBody{errorDetail{codeMethodNotAllowed,
		"this path does not take " + method + "; it takes " + strings.Join(allow, ", ")}})
}

// bestPattern is the route pattern that serves segs: of the patterns that
// match, the most specific one (DESIGN.md §4: a literal segment beats a
// parameter, compared left to right), never the first registered. ""
// when none matches. So GET /knowledge/contribute is a wrong method on
// /knowledge/contribute, not an entry named "contribute".
func bestPattern(segs []string) string {
	best := ""
	for _, rt := range routes {
		if _, ok := matchPattern(rt.Pattern, segs); ok && (best == "" || moreSpecific(rt.Pattern, best)) {
			best = rt.Pattern
		}
	}
	return best
}

// moreSpecific reports whether pattern a beats b for the same path: at the
// first segment where one has a literal and the other a parameter, the
// literal wins.
func moreSpecific(a, b string) bool {
	as, bs := strings.Split(a, "/"), strings.Split(b, "/")
	for i := range min(len(as), len(bs)) {
		ap, bp := strings.HasPrefix(as[i], "{"), strings.HasPrefix(bs[i], "{")
		if ap != bp {
			return !ap
		}
	}
	return false
}

// matchRoute finds the route of method on segs's best pattern. When that
// pattern has no such method it returns nil and the pattern's methods
// (HEAD with GET, and OPTIONS); nil and none when no pattern matches.
func matchRoute(method string, segs []string) (*Route, params, []string) {
	pattern := bestPattern(segs)
	if pattern == "" {
		return nil, nil, nil
	}
	var allow []string
	for i := range routes {
		rt := &routes[i]
		if rt.Pattern != pattern {
			continue
		}
		if rt.Method == method || (rt.Method == http.MethodGet && method == http.MethodHead) {
			p, _ := matchPattern(rt.Pattern, segs)
			return rt, p, nil
		}
		allow = append(allow, rt.Method)
		if rt.Method == http.MethodGet {
			allow = append(allow, http.MethodHead)
		}
	}
	return nil, nil, sortMethods(append(allow, http.MethodOptions))
}

// methodOrder is the order methods are listed in Allow, whatever the order
// their routes were registered in.
var methodOrder = []string{http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut,
	http.MethodPatch, http.MethodDelete, http.MethodOptions}

// sortMethods sorts ms into methodOrder (others last) and returns it.
func sortMethods(ms []string) []string {
	rank := func(m string) int {
		if i := slices.Index(methodOrder, m); i >= 0 {
			return i
		}
		return len(methodOrder)
	}
	slices.SortStableFunc(ms, func(a, b string) int { return rank(a) - rank(b) })
	return ms
}

func splitPath(escaped string) ([]string, bool) {
	escaped = strings.TrimPrefix(escaped, "/")
	if escaped == "" {
		return nil, true
	}
	raw := strings.Split(escaped, "/")
	segs := make([]string, 0, len(raw))
	for _, s := range raw {
		// Empty segments are duplicate slashes, as in a client whose base
		// URL ends in "/" (HIVE_API_URL=https://host/): they reach the route.
		if s == "" {
			continue
		}
		d, err := url.PathUnescape(s)
		if err != nil {
			return nil, false
		}
		segs = append(segs, d)
	}
	return segs, true
}

func matchPattern(pattern string, segs []string) (params, bool) {
	ps := strings.Split(strings.TrimPrefix(pattern, "/"), "/")
	if len(ps) != len(segs) {
		return nil, false
	}
	p := params{}
	for i, s := range ps {
		if strings.HasPrefix(s, "{") && strings.HasSuffix(s, "}") {
			p[s[1:len(s)-1]] = segs[i]
			continue
		}
		if s != segs[i] {
			return nil, false
		}
	}
	return p, true
}

type errorDetail struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

type errorBody struct {
	Error errorDetail `json:"error"`
}

// MarshalJSON writes the contract's error body: "success": false (The
// Hive's clients read it) beside "error".
func (b errorBody) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	err := enc.Encode(struct {
		Success bool        `json:"success"`
		Error   errorDetail `json:"error"`
	}{false, b.Error})
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), err
}

// RetryAfter is the Retry-After (seconds) of an unavailable answer.
const RetryAfter = "5"

// writeError sends the contract's error body; internal causes are logged by
// the caller through fail, never sent. An unavailable answer carries
// Retry-After.
func writeError(w http.ResponseWriter, err error) {
	code := pumasi.ErrorCode(err)
	if code == pumasi.EUnavailable {
		w.Header().Set("Retry-After", RetryAfter)
	}
	writeJSON(w, pumasi.HTTPStatus(code), errorBody{errorDetail{code, pumasi.ErrorMessage(err)}})
}

// fail logs internal errors and answers with the error body. A failure
// that would promise nothing was applied, met after this request's writes
// were applied or lost their answer, is answered as an unknown outcome.
func (a *API) fail(w http.ResponseWriter, r *http.Request, err error) {
	err = pumasi.WriteLogFrom(r.Context()).Honest(err)
	switch pumasi.ErrorCode(err) {
	case pumasi.EUnavailable, pumasi.EInsufficientStorage:
		a.log().Warn("request failed", "method", r.Method, "path", r.URL.Path, "err", err)
	}
	if pumasi.ErrorCode(err) == pumasi.EInternal && !errors.Is(err, context.Canceled) {
		a.log().Error("request failed", "method", r.Method, "path", r.URL.Path, "err", err)
	}
	writeError(w, err)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
}

// decodeJSON reads a JSON body of at most MaxJSONBody bytes into v, refusing
// unknown trailing data. Returns invalid_request or too_large.
func decodeJSON(r *http.Request, v any) error {
	body, err := io.ReadAll(io.LimitReader(r.Body, MaxJSONBody+1))
	if err != nil {
		return pumasi.Errorf(pumasi.EInvalidRequest, "could not read the request body")
	}
	if len(body) > MaxJSONBody {
		return pumasi.Errorf(pumasi.ETooLarge, "JSON body is larger than %d bytes", MaxJSONBody)
	}
	// A UTF-8 byte order mark is not JSON (RFC 8259 §8.1) but editors and
	// PowerShell write one; it means nothing, so it is skipped.
	body = bytes.TrimPrefix(body, []byte("\xef\xbb\xbf"))
	// encoding/json would quietly turn broken UTF-8 into U+FFFD.
	if !utf8.Valid(body) {
		return pumasi.Errorf(pumasi.EInvalidRequest, "body is not valid UTF-8")
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	if err := dec.Decode(v); err != nil {
		return pumasi.Errorf(pumasi.EInvalidRequest, "body is not valid JSON for this endpoint")
	}
	if dec.More() {
		return pumasi.Errorf(pumasi.EInvalidRequest, "body has data after the JSON value")
	}
	return nil
}
