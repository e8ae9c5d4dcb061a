package functions

import (
	"net/http"
	"slices"
	"strconv"
	"strings"

	"pumasi"
)

// CORS routes classes: which routes answer browsers on other origins.
const (
	// CORSReads opens only the public knowledge reads (the default).
	CORSReads = "reads"
	// CORSKnowledge also opens the keyless knowledge writes (contribute,
	// cite, endorse) and lets them send X-Hive-Agent.
	CORSKnowledge = "knowledge"
	// CORSAll opens every route, with Authorization allowed.
	CORSAll = "all"
)

// CORS decides which browser origins may call the API (DESIGN.md §4). The
// zero value lets every origin read the public knowledge routes (GET
// /knowledge/query, GET /knowledge/{id}) and nothing else: the reads are
// public anyway, and every other route answers browsers on other origins
// without CORS headers, so they cannot read its answers.
type CORS struct {
	// Origins are the allowed origins ("https://app.example"); empty or
	// "*" means every origin.
	Origins []string
	// Routes is CORSReads (also when empty), CORSKnowledge or CORSAll.
	Routes string
	// Disabled sends no CORS headers at all.
	Disabled bool
}

// ParseCORS reads PUMASI_CORS_ORIGINS ("*", a comma-separated list of
// origins, or "off") and PUMASI_CORS_ROUTES ("reads", "knowledge" or
// "all"); empty strings mean the defaults. Returns invalid_request.
func ParseCORS(origins, routes string) (CORS, error) {
	var c CORS
	switch routes = strings.TrimSpace(routes); routes {
	case "", CORSReads, CORSKnowledge, CORSAll:
		c.Routes = routes
	default:
		return c, pumasi.Errorf(pumasi.EInvalidRequest, "CORS routes %q: want reads, knowledge or all", routes)
	}
	if strings.TrimSpace(origins) == "off" {
		c.Disabled = true
		return c, nil
	}
	for _, o := range strings.Split(origins, ",") {
		o = strings.TrimRight(strings.TrimSpace(o), "/")
		if o == "" {
			continue
		}
		if o != "*" && !(strings.HasPrefix(o, "http://") || strings.HasPrefix(o, "https://")) {
			return c, pumasi.Errorf(pumasi.EInvalidRequest, "CORS origin %q: want *, off, or origins such as https://app.example", o)
		}
		c.Origins = append(c.Origins, o)
	}
	return c, nil
}

// corsClass of a route: 0 public knowledge read, 1 knowledge write, 2 any
// other route.
func corsClass(rt Route) int {
	switch rt.Method + " " + rt.Pattern {
	case "GET /knowledge/query", "GET /knowledge/{id}", "GET /knowledge/{id}/history":
		return 0
	case "POST /knowledge/contribute", "POST /knowledge/{id}/cite", "POST /knowledge/{id}/endorse":
		return 1
	}
	return 2
}

func (c CORS) opens(class int) bool {
	switch c.Routes {
	case CORSAll:
		return true
	case CORSKnowledge:
		return class <= 1
	}
	return class == 0
}

// allowOrigin is the Access-Control-Allow-Origin value for origin, "" when
// it is not allowed.
func (c CORS) allowOrigin(origin string) string {
	if len(c.Origins) == 0 || slices.Contains(c.Origins, "*") {
		return "*"
	}
	if slices.Contains(c.Origins, origin) {
		return origin
	}
	return ""
}

// cors adds CORS headers for the route segs reach and answers a preflight
// (OPTIONS) itself; it reports whether the request is answered.
func (a *API) cors(w http.ResponseWriter, r *http.Request, segs []string) bool {
	c := a.CORS
	if c.Disabled {
		return false
	}
	method := r.Method
	preflight := r.Method == http.MethodOptions
	if preflight {
		method = r.Header.Get("Access-Control-Request-Method")
	}
	if method == http.MethodHead {
		method = http.MethodGet
	}
	// The methods of this path that are open to other origins.
	var open, all []string
	matched := false
	pattern := bestPattern(segs)
	for _, rt := range routes {
		if rt.Pattern != pattern {
			continue
		}
		if !slices.Contains(all, rt.Method) {
			all = append(all, rt.Method)
		}
		if !c.opens(corsClass(rt)) {
			continue
		}
		if !slices.Contains(open, rt.Method) {
			open = append(open, rt.Method)
		}
		matched = matched || rt.Method == method
	}
	if len(open) == 0 {
		return false
	}
	origin := r.Header.Get("Origin")
	allowed := c.allowOrigin(origin)
	h := w.Header()
	if allowed != "*" {
		h.Add("Vary", "Origin")
	}
	if preflight {
		withHead := func(ms []string) []string {
			if slices.Contains(ms, http.MethodGet) {
				ms = append(ms, http.MethodHead)
			}
			return sortMethods(append(ms, http.MethodOptions))
		}
		// Allow names every method of the path, as a 405 does; the
		// preflight's Access-Control-Allow-Methods only those open to
		// other origins.
		open = withHead(open)
		h.Set("Allow", strings.Join(withHead(all), ", "))
		if origin != "" && allowed != "" && (matched || method == "") {
			h.Set("Access-Control-Allow-Origin", allowed)
			h.Set("Access-Control-Allow-Methods", strings.Join(open, ", "))
			h.Set("Access-Control-Allow-Headers", strings.Join(c.allowHeaders(), ", "))
			h.Set("Access-Control-Max-Age", strconv.Itoa(600))
		}
		w.WriteHeader(http.StatusNoContent)
		return true
	}
	if origin != "" && allowed != "" && matched {
		h.Set("Access-Control-Allow-Origin", allowed)
		h.Set("Access-Control-Expose-Headers", "ETag, Retry-After")
	}
	return false
}

// allowHeaders are the request headers a preflight may ask for. Keyed Hive
// clients send Authorization (and X-Hive-Agent) on every knowledge call,
// reads included, so every open route allows both: the reads are public and
// a key only names the writer (hive.go), so letting a page send it grants
// nothing. Access-Control-Allow-Credentials is never sent: a bearer key is
// an explicit header, not a cookie, and credentials with "*" would be
// refused by browsers anyway.
func (c CORS) allowHeaders() []string {
	hs := []string{"Content-Type", "If-None-Match", "Authorization", HeaderAgent}
	if c.Routes == CORSAll {
		hs = append(hs, "If-Match")
	}
	return hs
}

// opensWrite reports whether the policy lets a browser on origin send
// method to escapedPath: the route that path reaches (by precedence, as
// routing picks it) with that method is open to other origins and origin is
// an allowed one. The edge's Origin check asks it
// for state-changing requests from origins that are not served hosts.
func (c CORS) opensWrite(method, escapedPath, origin string) bool {
	if c.Disabled {
		return false
	}
	segs, ok := splitPath(escapedPath)
	if !ok || c.allowOrigin(origin) == "" {
		return false
	}
	pattern := bestPattern(segs)
	for _, rt := range routes {
		if rt.Pattern == pattern && rt.Method == method && c.opens(corsClass(rt)) {
			return true
		}
	}
	return false
}
