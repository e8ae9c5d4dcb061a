package lambdaapp

import (
	"context"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-lambda-go/events"

	"pumasi/functions"
)

func TestLoadConfig(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	full := map[string]string{
		EnvStorage: "s3://b/p?region=us-east-1", EnvSecret: "0123456789abcdef0123", EnvGateway: "https://x.example/prod",
		EnvSweepGrace: "30m", "PUMASI_HOME": "/tmp/ignored",
	}
	cfg, err := LoadConfig("upload", env(full))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.GatewayEndpoint != full[EnvGateway] || string(cfg.Secret) != full[EnvSecret] || cfg.Storage != full[EnvStorage] {
		t.Fatalf("upload config = %+v", cfg)
	}
	// list does not push, so it does not read the gateway endpoint.
	if cfg, _ := LoadConfig("list", env(full)); cfg.GatewayEndpoint != "" {
		t.Fatalf("list read %s", EnvGateway)
	}
	if cfg, _ := LoadConfig("sweep", env(full)); cfg.SweepGrace.String() != "30m0s" || cfg.Secret != nil {
		t.Fatalf("sweep config = %+v, want grace 30m and no secret", cfg)
	}
	for _, tc := range []struct {
		fn   string
		env  map[string]string
		want string
	}{
		{"upload", map[string]string{EnvStorage: "s3://b/p"}, "PUMASI_SECRET is not set"},
		{"upload", map[string]string{EnvSecret: "0123456789abcdef0123"}, "PUMASI_STORAGE is not set"},
		{"list", map[string]string{EnvStorage: "local", EnvSecret: "0123456789abcdef0123"}, "must be an s3:// URL"},
		{"list", map[string]string{EnvStorage: "s3://b/p", EnvSecret: "short"}, "shorter than 16"},
		{"sweep", map[string]string{EnvStorage: "s3://b/p", EnvSweepGrace: "soon"}, "not a duration"},
		{"nope", full, "unknown function"},
	} {
		if _, err := LoadConfig(tc.fn, env(tc.env)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("LoadConfig(%s, %v) error = %v, want %q", tc.fn, tc.env, err, tc.want)
		}
	}
}

func TestEveryRouteHasAFunction(t *testing.T) {
	for _, rt := range functions.Routes() {
		f, ok := Lookup(rt.Function)
		if !ok {
			t.Errorf("route %s %s names function %q, which has no main", rt.Method, rt.Pattern, rt.Function)
			continue
		}
		want := KindHTTP
		if rt.Function == "ws-connect" {
			want = KindWebSocket
		}
		if f.Kind != want {
			t.Errorf("function %s kind = %s, want %s", f.Name, f.Kind, want)
		}
	}
}

func TestOwnRoutes(t *testing.T) {
	get := ownRoutes("get")
	for _, tc := range []struct {
		method, path string
		want         bool
	}{
		{"GET", "/rooms/r1/files/notes.md", true},
		{"HEAD", "/rooms/r1/files/notes.md", true},
		{"GET", "/rooms/r1/files/a%2Fb", true},
		{"GET", "/rooms/r1/files/%ED%9A%8C%EC%9D%98.md", true},
		{"GET", "/rooms/r1/files", false},
		{"DELETE", "/rooms/r1/files/notes.md", false},
		{"GET", "/rooms/r1/files/", false},
		{"GET", "/rooms/r1/files/a/b", false},
		// The preflight of its own path, and of no other.
		{"OPTIONS", "/rooms/r1/files/notes.md", true},
		{"OPTIONS", "/rooms/r1/files", false},
	} {
		if got := get(tc.method, tc.path); got != tc.want {
			t.Errorf("get serves %s %s = %v, want %v", tc.method, tc.path, got, tc.want)
		}
	}
}

// TestHTTPHandlerServesOnlyItsHosts: every HTTP function serves the API's
// own domain (the event's domainName) without configuration, names of
// PUMASI_ALLOWED_HOSTS, and refuses any other Host with 403 forbidden.
func TestHTTPHandlerServesOnlyItsHosts(t *testing.T) {
	cfg, err := LoadConfig("health", func(k string) string {
		return map[string]string{EnvAllowedHosts: "pumasi.example.com"}[k]
	})
	if err != nil {
		t.Fatal(err)
	}
	h := HTTPHandler(&functions.API{CORS: cfg.CORS}, "health", cfg.AllowedHosts)
	for host, want := range map[string]int{"": 200, "abc123.execute-api.us-east-1.amazonaws.com": 200, "pumasi.example.com": 200, "evil.example": 403} {
		ev := events.APIGatewayV2HTTPRequest{RawPath: "/healthz", Headers: map[string]string{},
			RequestContext: events.APIGatewayV2HTTPRequestContext{DomainName: "abc123.execute-api.us-east-1.amazonaws.com",
				HTTP: events.APIGatewayV2HTTPRequestContextHTTPDescription{Method: "GET"}}}
		if host != "" {
			ev.Headers["host"] = host
		}
		res, err := h(context.Background(), ev)
		if err != nil || res.StatusCode != want || want == 403 && !strings.Contains(res.Body, `"forbidden"`) {
			t.Errorf("Host %q = %d %s, %v; want %d", host, res.StatusCode, res.Body, err, want)
		}
	}
	if _, err := LoadConfig("health", func(k string) string { return map[string]string{EnvAllowedHosts: "http://x"}[k] }); err == nil {
		t.Errorf("a bad PUMASI_ALLOWED_HOSTS was accepted")
	}
}

// TestFunctionsLinkNoSQLite: every function is wired through the wiring
// root's SQLite-free half (internal/wire/cloud), never through the local
// backend: a Lambda's disk is private and lost, and SQLite would only make
// the bootstrap bigger and its cold start slower.
func TestFunctionsLinkNoSQLite(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "pumasi/functions/lambdaapp").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	deps := strings.Fields(string(out))
	if !slices.Contains(deps, "pumasi/internal/wire/cloud") {
		t.Fatal("lambdaapp does not wire through internal/wire/cloud")
	}
	for _, d := range deps {
		if d == "pumasi/adapters/local" || d == "pumasi/internal/wire" || strings.HasPrefix(d, "modernc.org/sqlite") {
			t.Errorf("lambdaapp links %s", d)
		}
	}
}

// TestKeyedWritersReadTheSecret: every function serving a route that takes
// a knowledge write (contribute, cite, endorse, flag) reads PUMASI_SECRET,
// so a bearer key's handle, an HMAC under it, is the same in each of them
// as in localdev (one key, one contributor).
func TestKeyedWritersReadTheSecret(t *testing.T) {
	const secret = "0123456789abcdef0123456789abcdef"
	env := map[string]string{EnvStorage: "s3://bucket/pumasi?region=us-east-1", EnvSecret: secret}
	writes := map[string]bool{"/knowledge/contribute": true, "/knowledge/{id}/cite": true,
		"/knowledge/{id}/endorse": true, "/knowledge/{id}/flag": true}
	seen := map[string]bool{}
	for _, r := range functions.Routes() {
		if r.Method != "POST" || !writes[r.Pattern] || seen[r.Function] {
			continue
		}
		seen[r.Function] = true
		cfg, err := LoadConfig(r.Function, func(k string) string { return env[k] })
		if err != nil {
			t.Fatal(err)
		}
		if string(cfg.Secret) != secret {
			t.Errorf("function %s (serving %s) does not read %s: its keyed writers would get other handles", r.Function, r.Pattern, EnvSecret)
		}
	}
	if len(seen) < 3 {
		t.Fatalf("found the write routes in %v, want contribute, counters and moderate", seen)
	}
}
