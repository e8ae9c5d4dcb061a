package functions

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/aws/aws-lambda-go/events"

	"pumasi"
	"pumasi/adapters/embed"
	"pumasi/adapters/local"
	"pumasi/knowledge"
)

func TestParseAllowedHosts(t *testing.T) {
	for _, bad := range []string{"http://x.example", "x.example/", "x_y.example", "a..b", "x.example:port", "[::1", "*.", "-x.example", "x.example:123456"} {
		if _, err := ParseAllowedHosts(bad); pumasi.ErrorCode(err) != pumasi.EInvalidRequest {
			t.Errorf("ParseAllowedHosts(%q) = %v, want invalid_request", bad, err)
		}
	}
	for _, good := range []string{"", " ", "pumasi.example.com", "Pumasi.Example.com, 10.0.0.5:8787", "[fd00::1]", "*.example.com", "*"} {
		if _, err := ParseAllowedHosts(good); err != nil {
			t.Errorf("ParseAllowedHosts(%q) = %v", good, err)
		}
	}
}

func TestEdgeHosts(t *testing.T) {
	hosts, err := ParseAllowedHosts("pumasi.example.com, 10.0.0.5:8787, [fd00::1], *.corp.example")
	if err != nil {
		t.Fatal(err)
	}
	e := Edge{Hosts: hosts, Port: "8787", Self: []string{"192.168.1.5"}}
	// host → served as a Host header, served as an origin's host (loopback
	// names and Self only at the listen port).
	for host, want := range map[string][2]bool{
		"127.0.0.1:8787": {true, true}, "localhost:8787": {true, true}, "LOCALHOST:8787": {true, true},
		"[::1]:8787": {true, true}, "localhost.:8787": {true, true}, "192.168.1.5:8787": {true, true}, "": {true, true},
		"127.0.0.1:8788": {true, false}, "localhost": {true, false}, "[::1]": {true, false}, "192.168.1.5:80": {true, false},
		"pumasi.example.com": {true, true}, "pumasi.example.com:443": {true, true}, "PUMASI.example.com.": {true, true},
		"10.0.0.5:8787": {true, true}, "[fd00::1]": {true, true}, "[fd00::1]:9000": {true, true}, "a.b.corp.example": {true, true},
		"evil.example": {false, false}, "evil.example:8787": {false, false}, "pumasi.example.com.evil.example": {false, false},
		"10.0.0.5:8788": {false, false}, "10.0.0.5": {false, false}, "corp.example": {false, false}, "xcorp.example": {false, false},
		"127.0.0.1:8787:1": {false, false}, "[::1]x": {false, false}, "fd00::1": {false, false}, "127.0.0.2:8787": {false, false},
	} {
		if got := e.servesHost(context.Background(), host, false); got != want[0] {
			t.Errorf("servesHost(%q) = %v, want %v", host, got, want[0])
		}
		if got := e.servesHost(context.Background(), host, true); got != want[1] {
			t.Errorf("servesHost(%q) as an origin = %v, want %v", host, got, want[1])
		}
	}
	// Port 80 also serves an origin without a port; an empty Port, any.
	if !(Edge{Port: "80"}).servesHost(context.Background(), "localhost", true) {
		t.Errorf("port 80 refused origin localhost")
	}
	if !(Edge{}).servesHost(context.Background(), "127.0.0.1:1234", true) {
		t.Errorf("no port refused a loopback origin")
	}
	// Under Lambda, the API's own domain without configuration.
	ctx := WithAPIDomain(context.Background(), "abc123.execute-api.us-east-1.amazonaws.com")
	if !(Edge{}).servesHost(ctx, "ABC123.execute-api.us-east-1.amazonaws.com", false) || (Edge{}).servesHost(ctx, "evil.example", false) {
		t.Errorf("API domain check wrong")
	}
	if !(Edge{Hosts: AllowedHosts{any: true}}).servesHost(context.Background(), "evil.example", false) {
		t.Errorf("* refused a host")
	}
}

// edgeAPI is an API over a real local store behind an edge serving
// loopback at port 8787.
func edgeAPI(t *testing.T, c CORS) (http.Handler, knowledge.Store) {
	t.Helper()
	st, err := local.Open(context.Background(), t.TempDir(), local.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	api := &API{Store: st, Secret: testSecret, Knowledge: local.NewKnowledge(st), Embedder: embed.NewHashed(0), CORS: c, RateLimits: RateLimits{Disabled: true}}
	return Edge{Port: "8787", CORS: c}.Wrap(api.Handler()), api.Knowledge
}

const edgeFinding = `{"title":"pgx v5 pool_max_conns default is too small","content":"pgx v5 pgxpool defaults pool_max_conns to max(4, GOMAXPROCS); under 200 concurrent requests set pool_max_conns=32 in the DSN or requests queue on Acquire."}`

func edgeContribute(h http.Handler, host, origin string) *httptest.ResponseRecorder {
	r := httptest.NewRequest("POST", "/knowledge/contribute", strings.NewReader(edgeFinding))
	r.Host = host
	r.Header.Set(HeaderAgent, "edge-agent")
	r.Header.Set("Content-Type", "application/json")
	if origin != "" {
		r.Header.Set("Origin", origin)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

func errorCodeOf(t *testing.T, w *httptest.ResponseRecorder) string {
	t.Helper()
	var b errorBody
	_ = json.Unmarshal(w.Body.Bytes(), &b)
	return b.Error.Code
}

// TestEdgeRefusesForeignHostAndOrigin: a keyless knowledge write for a Host
// the server does not serve (a DNS rebinding page) or from a foreign Origin
// is refused with 403 forbidden and stores nothing; the same write from the
// served host, with or without a same-origin Origin, is accepted.
func TestEdgeRefusesForeignHostAndOrigin(t *testing.T) {
	h, k := edgeAPI(t, CORS{})
	for _, tc := range []struct{ host, origin string }{
		{"evil.example:8787", ""},
		{"evil.example:8787", "http://evil.example:8787"},
		{"127.0.0.1:8787", "http://evil.example:8787"},
		{"127.0.0.1:8787", "https://evil.example"},
		{"127.0.0.1:8787", "null"},
		{"127.0.0.1:8787", "http://localhost:3000"},
	} {
		w := edgeContribute(h, tc.host, tc.origin)
		if w.Code != http.StatusForbidden || errorCodeOf(t, w) != pumasi.EForbidden {
			t.Errorf("Host %q Origin %q: %d %s, want 403 forbidden", tc.host, tc.origin, w.Code, w.Body)
		}
	}
	hits, err := k.Query(context.Background(), knowledge.QueryInput{Text: "pgx pool_max_conns", Limit: 5})
	if err != nil || len(hits) != 0 {
		t.Fatalf("refused writes stored %d entries (%v)", len(hits), err)
	}
	if w := edgeContribute(h, "127.0.0.1:8787", "http://127.0.0.1:8787"); w.Code != http.StatusCreated {
		t.Fatalf("same-origin write = %d %s, want 201", w.Code, w.Body)
	}
	if w := edgeContribute(h, "localhost:8787", ""); w.Code != http.StatusOK {
		t.Fatalf("write without Origin = %d %s, want 200 (merged)", w.Code, w.Body)
	}
	// Through a port forward (ssh -L 9000:127.0.0.1:8787): the browser's
	// Host and Origin both name the forwarded port; same origin.
	if w := edgeContribute(h, "localhost:9000", "http://localhost:9000"); w.Code != http.StatusOK {
		t.Fatalf("port-forwarded same-origin write = %d %s, want 200", w.Code, w.Body)
	}
	// Reads are public: a foreign Origin may read (CORS decides what its
	// page sees), a foreign Host may not.
	for host, want := range map[string]int{"127.0.0.1:8787": 200, "evil.example:8787": 403} {
		r := httptest.NewRequest("GET", "/knowledge/query?q=pgx", nil)
		r.Host = host
		r.Header.Set("Origin", "https://evil.example")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != want {
			t.Errorf("GET Host %s = %d, want %d", host, w.Code, want)
		}
	}
}

// TestEdgeOriginFollowsCORS: an origin the CORS policy opens the knowledge
// writes to may send them keyless; it may not send writes on other routes,
// and an origin the policy does not list may send none.
func TestEdgeOriginFollowsCORS(t *testing.T) {
	c, err := ParseCORS("https://app.example", CORSKnowledge)
	if err != nil {
		t.Fatal(err)
	}
	h, _ := edgeAPI(t, c)
	if w := edgeContribute(h, "127.0.0.1:8787", "https://app.example"); w.Code != http.StatusCreated || w.Header().Get("Access-Control-Allow-Origin") != "https://app.example" {
		t.Fatalf("allowed origin's write = %d %v %s, want 201 with CORS", w.Code, w.Header(), w.Body)
	}
	if w := edgeContribute(h, "127.0.0.1:8787", "https://other.example"); w.Code != http.StatusForbidden {
		t.Fatalf("unlisted origin's write = %d, want 403", w.Code)
	}
	r := httptest.NewRequest("PUT", "/rooms/r1/agents/a1", strings.NewReader(`{"machine_id":"m1"}`))
	r.Host = "127.0.0.1:8787"
	r.Header.Set("Origin", "https://app.example")
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	if w.Code != http.StatusForbidden || errorCodeOf(t, w) != pumasi.EForbidden {
		t.Fatalf("allowed origin on a route CORS does not open = %d %s, want 403", w.Code, w.Body)
	}
	// "*" with the knowledge routes opens them to every origin.
	c, _ = ParseCORS("*", CORSKnowledge)
	h, _ = edgeAPI(t, c)
	if w := edgeContribute(h, "127.0.0.1:8787", "https://any.example"); w.Code != http.StatusCreated {
		t.Fatalf("write with * and knowledge routes = %d %s", w.Code, w.Body)
	}
}

// TestLambdaEdge: through the Lambda adapter, a request for the API's own
// domain (the event's domainName, and the Host API Gateway sends) passes
// without configuration, a foreign Host header is refused, and a
// same-origin browser write passes.
func TestLambdaEdge(t *testing.T) {
	st, err := local.Open(context.Background(), t.TempDir(), local.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	api := &API{Store: st, Secret: testSecret, Knowledge: local.NewKnowledge(st), Embedder: embed.NewHashed(0), RateLimits: RateLimits{Disabled: true}}
	h := LambdaHTTP(Edge{CORS: api.CORS}.Wrap(api.Handler()))
	const domain = "abc123.execute-api.us-east-1.amazonaws.com"
	call := func(host, origin string) events.APIGatewayV2HTTPResponse {
		ev := events.APIGatewayV2HTTPRequest{
			RawPath: "/knowledge/contribute", Body: edgeFinding,
			Headers: map[string]string{"content-type": "application/json", "x-hive-agent": "edge-agent"},
			RequestContext: events.APIGatewayV2HTTPRequestContext{DomainName: domain,
				HTTP: events.APIGatewayV2HTTPRequestContextHTTPDescription{Method: "POST", SourceIP: "192.0.2.1"}},
		}
		if host != "" {
			ev.Headers["host"] = host
		}
		if origin != "" {
			ev.Headers["origin"] = origin
		}
		res, err := h(context.Background(), ev)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	if res := call("evil.example", ""); res.StatusCode != http.StatusForbidden || !strings.Contains(res.Body, pumasi.EForbidden) {
		t.Fatalf("foreign Host = %d %s, want 403 forbidden", res.StatusCode, res.Body)
	}
	if res := call(domain, "https://evil.example"); res.StatusCode != http.StatusForbidden {
		t.Fatalf("foreign Origin = %d %s, want 403", res.StatusCode, res.Body)
	}
	if res := call(domain, "https://"+domain); res.StatusCode != http.StatusCreated {
		t.Fatalf("own domain, same origin = %d %s, want 201", res.StatusCode, res.Body)
	}
	if res := call("", ""); res.StatusCode != http.StatusOK {
		t.Fatalf("no host header (domainName only) = %d %s, want 200 merged", res.StatusCode, res.Body)
	}
}
