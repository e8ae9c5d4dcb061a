package functions

import (
	"context"
	"net"
	"net/http"
	"net/url"
	"strings"

	"pumasi"
)

// The edge checks run before routing, in front of every route, the
// dashboard and localdev's @connections endpoint (DESIGN.md §4,
// SECURITY.md "Hosts and origins"):
//
//   - Host: a request must name a host the deployment serves. A web page
//     whose domain re-resolves to 127.0.0.1 (DNS rebinding) is same-origin
//     to the browser, so only the Host header it sends gives it away. No
//     other site's DNS can make a browser send a loopback name, so those
//     pass at any port: a port forward (ssh -L, docker -p, kubectl
//     port-forward) or a TCP proxy in front keeps working.
//   - Origin: a state-changing request (POST, PUT, PATCH, DELETE) that
//     carries an Origin must come from the same origin (its host is the
//     request's Host), from a served host (loopback names only at the
//     listen port: a page of another local server is another site), or
//     from an origin the CORS policy opens that route to.
//
// Both refusals answer 403 forbidden.

// AllowedHosts are the host names a deployment serves besides loopback
// (PUMASI_ALLOWED_HOSTS): exact names at any port, names at one port,
// "*.suffix" for every name under suffix, or "*" for every host.
type AllowedHosts struct {
	any      bool
	names    map[string]bool // name, any port
	hostPort map[string]bool // "name:port"
	suffixes []string        // ".example.com"
}

// ParseAllowedHosts reads PUMASI_ALLOWED_HOSTS: a comma-separated list of
// host names or IP addresses ("pumasi.example.com", "10.0.0.5:8787",
// "[fd00::1]", "*.example.com", or "*" to turn the Host check off). Empty
// means loopback only. Returns invalid_request.
func ParseAllowedHosts(s string) (AllowedHosts, error) {
	var a AllowedHosts
	for _, e := range strings.Split(s, ",") {
		e = strings.ToLower(strings.TrimSpace(e))
		if e == "" {
			continue
		}
		if e == "*" {
			a.any = true
			continue
		}
		if suffix, ok := strings.CutPrefix(e, "*."); ok {
			if !validHostName(suffix) {
				return AllowedHosts{}, badHosts(e)
			}
			a.suffixes = append(a.suffixes, "."+suffix)
			continue
		}
		name, port, ok := splitHost(e)
		if !ok || !validHostName(name) && net.ParseIP(name) == nil {
			return AllowedHosts{}, badHosts(e)
		}
		if port == "" {
			if a.names == nil {
				a.names = map[string]bool{}
			}
			a.names[name] = true
			continue
		}
		if a.hostPort == nil {
			a.hostPort = map[string]bool{}
		}
		a.hostPort[name+":"+port] = true
	}
	return a, nil
}

func badHosts(e string) error {
	return pumasi.Errorf(pumasi.EInvalidRequest, "allowed host %q: want host names or addresses such as pumasi.example.com, 10.0.0.5:8787 or *.example.com, or *", e)
}

// validHostName reports whether s is a DNS name: dot-separated labels of
// letters, digits and hyphens.
func validHostName(s string) bool {
	if s == "" || len(s) > 253 {
		return false
	}
	for _, l := range strings.Split(s, ".") {
		if l == "" || len(l) > 63 || l[0] == '-' || l[len(l)-1] == '-' {
			return false
		}
		for _, c := range l {
			if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
				return false
			}
		}
	}
	return true
}

// splitHost splits a Host header value (or an origin's host) into its
// lower-case name, without brackets or a trailing dot, and its port ("" when
// absent).
func splitHost(h string) (name, port string, ok bool) {
	h = strings.ToLower(h)
	if h == "" {
		return "", "", false
	}
	if strings.HasPrefix(h, "[") {
		end := strings.IndexByte(h, ']')
		if end < 0 {
			return "", "", false
		}
		name, rest := h[1:end], h[end+1:]
		if net.ParseIP(name) == nil {
			return "", "", false
		}
		if rest != "" {
			if port, ok = strings.CutPrefix(rest, ":"); !ok || !validPort(port) {
				return "", "", false
			}
		}
		return name, port, true
	}
	if i := strings.LastIndexByte(h, ':'); i >= 0 {
		name, port = h[:i], h[i+1:]
		if strings.Contains(name, ":") || !validPort(port) {
			return "", "", false
		}
	} else {
		name = h
	}
	name = strings.TrimSuffix(name, ".")
	return name, port, name != ""
}

func validPort(p string) bool {
	if p == "" || len(p) > 5 {
		return false
	}
	for _, c := range p {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// loopbackNames are the names of this machine that no other site's DNS can
// hand a browser.
var loopbackNames = map[string]bool{"127.0.0.1": true, "localhost": true, "::1": true}

// Edge refuses requests for hosts the deployment does not serve and
// state-changing requests from origins it does not allow; see the checks
// above. localdev wraps its whole server in one; every HTTP Lambda wraps
// its handler.
type Edge struct {
	// Hosts are the public names served besides loopback.
	Hosts AllowedHosts
	// Port is localdev's listen port: an Origin of a loopback name (or of
	// Self) counts as a served host only at it ("80" also admits an origin
	// without a port). Empty admits them at any port.
	Port string
	// Self are further host names served like loopback: localdev's own
	// listen address when it is a specific, non-loopback one.
	Self []string
	// CORS is the browser policy; an origin it opens a route to may send
	// that route's writes.
	CORS CORS
}

// apiDomainKey carries, under Lambda, the API's own domain name.
type apiDomainKey struct{}

// WithAPIDomain returns ctx carrying domain, the name API Gateway served a
// request under (its request context's domainName): a Lambda serves it
// without configuration.
func WithAPIDomain(ctx context.Context, domain string) context.Context {
	return context.WithValue(ctx, apiDomainKey{}, strings.ToLower(strings.TrimSuffix(domain, ".")))
}

// Wrap returns h behind the edge checks.
func (e Edge) Wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !e.servesHost(r.Context(), r.Host, false) {
			writeError(w, pumasi.Errorf(pumasi.EForbidden,
				"this server does not serve host %q (a DNS rebinding page looks like this); if the name is yours, add it to PUMASI_ALLOWED_HOSTS", clip(r.Host)))
			return
		}
		if stateChanging(r.Method) {
			if origin := r.Header.Get("Origin"); origin != "" && !e.allowsOrigin(r, origin) {
				writeError(w, pumasi.Errorf(pumasi.EForbidden,
					"%s from origin %q is not allowed: open the route to it with PUMASI_CORS_ORIGINS and PUMASI_CORS_ROUTES", r.Method, clip(origin)))
				return
			}
		}
		h.ServeHTTP(w, r)
	})
}

// clip keeps an echoed header value short.
func clip(s string) string {
	if len(s) > 100 {
		return s[:100] + "…"
	}
	return s
}

func stateChanging(method string) bool {
	switch method {
	case http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete:
		return true
	}
	return false
}

// servesHost reports whether host (a Host header, or an origin's host when
// atPort) is one the deployment serves; atPort admits loopback names only
// at e.Port. A request without a Host (HTTP/1.0, a direct Lambda invoke) is
// not one a browser sends, so it passes.
func (e Edge) servesHost(ctx context.Context, host string, atPort bool) bool {
	if host == "" || e.Hosts.any {
		return true
	}
	name, port, ok := splitHost(host)
	if !ok {
		return false
	}
	if d, _ := ctx.Value(apiDomainKey{}).(string); d != "" && name == d {
		return true
	}
	if loopbackNames[name] || containsFold(e.Self, name) {
		return !atPort || e.Port == "" || port == e.Port || port == "" && e.Port == "80"
	}
	if e.Hosts.names[name] || e.Hosts.hostPort[name+":"+port] {
		return true
	}
	for _, s := range e.Hosts.suffixes {
		if strings.HasSuffix(name, s) {
			return true
		}
	}
	return false
}

func containsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}

// allowsOrigin reports whether a state-changing request from origin may
// go on: it is the same origin (as the dashboard's writes are), a served
// host, or the CORS policy opens this request's route to it.
func (e Edge) allowsOrigin(r *http.Request, origin string) bool {
	if u, err := url.Parse(origin); err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" && u.Path == "" &&
		(strings.EqualFold(u.Host, r.Host) || e.servesHost(r.Context(), u.Host, true)) {
		return true
	}
	return e.CORS.opensWrite(r.Method, r.URL.EscapedPath(), origin)
}
