package functions

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/url"
	"strings"
	"testing"

	"github.com/aws/aws-lambda-go/events"

	"pumasi"
)

// v2 builds an API Gateway HTTP API event the way the gateway sends it for a
// route with path parameters.
func v2(method, routeTmpl string, params map[string]string, rawPath, query string, headers map[string]string, body []byte, b64 bool) events.APIGatewayV2HTTPRequest {
	ev := events.APIGatewayV2HTTPRequest{
		Version:         "2.0",
		RouteKey:        method + " " + routeTmpl,
		RawPath:         rawPath,
		RawQueryString:  query,
		Headers:         headers,
		PathParameters:  params,
		IsBase64Encoded: b64,
	}
	ev.RequestContext.HTTP.Method = method
	ev.RequestContext.Stage = "$default"
	if b64 {
		ev.Body = base64.StdEncoding.EncodeToString(body)
	} else {
		ev.Body = string(body)
	}
	return ev
}

func TestLambdaAdapterMatchesLocaldev(t *testing.T) {
	e := newTestEnv(t)
	api := &API{Store: e.store, Secret: testSecret}
	h := LambdaHTTP(api.Handler())
	ctx := context.Background()
	auth := map[string]string{"authorization": "Bearer " + e.admin}

	body, ctype := multipartBody(t, "회의록.md", []byte("# 회의록\n"))
	raw, _ := io.ReadAll(body)
	hdr := map[string]string{"authorization": auth["authorization"], "content-type": ctype}
	res, err := h(ctx, v2("POST", "/rooms/{room}/files", map[string]string{"room": "r1"}, "/rooms/r1/files", "", hdr, raw, true))
	if err != nil || res.StatusCode != 201 || !strings.Contains(res.Body, `"changed":true`) {
		t.Fatalf("upload = %d %s %v", res.StatusCode, res.Body, err)
	}

	res, _ = h(ctx, v2("GET", "/rooms/{room}/files", map[string]string{"room": "r1"}, "/rooms/r1/files", "", auth, nil, false))
	var l pumasi.Listing
	if json.Unmarshal([]byte(res.Body), &l); res.StatusCode != 200 || len(l.Files) != 1 || res.Headers["Etag"] != `"r1"` {
		t.Fatalf("list = %d %s headers %v", res.StatusCode, res.Body, res.Headers)
	}

	// Repeated If-None-Match values arrive comma-joined.
	inm := map[string]string{"authorization": auth["authorization"], "if-none-match": `"r0", "r1"`}
	if res, _ = h(ctx, v2("GET", "/rooms/{room}/files", map[string]string{"room": "r1"}, "/rooms/r1/files", "", inm, nil, false)); res.StatusCode != 304 {
		t.Fatalf("list with joined If-None-Match = %d, want 304", res.StatusCode)
	}

	get := v2("GET", "/rooms/{room}/files/{name}", map[string]string{"room": "r1", "name": "회의록.md"}, "/rooms/r1/files/"+url.PathEscape("회의록.md"), "", auth, nil, false)
	if res, _ = h(ctx, get); res.StatusCode != 200 || res.Body != "# 회의록\n" {
		t.Fatalf("get = %d %q", res.StatusCode, res.Body)
	}

	// A decoded "/" in a path parameter must not become a path separator.
	hostile := v2("GET", "/rooms/{room}/files/{name}", map[string]string{"room": "r1", "name": "../x"}, "/rooms/r1/files/..%2Fx", "", auth, nil, false)
	if res, _ = h(ctx, hostile); res.StatusCode != 400 || !strings.Contains(res.Body, "invalid_name") {
		t.Fatalf("hostile name = %d %s", res.StatusCode, res.Body)
	}

	rs := v2("POST", "/rooms/{room}/resolve", map[string]string{"room": "r1"}, "/rooms/r1/resolve", "", auth, []byte(`{"text":"see $회의록.md"}`), false)
	if res, _ = h(ctx, rs); res.StatusCode != 200 || !strings.Contains(res.Body, "memory/shared/회의록.md") {
		t.Fatalf("resolve = %d %s", res.StatusCode, res.Body)
	}

	del := v2("DELETE", "/rooms/{room}/files/{name}", map[string]string{"room": "r1", "name": "회의록.md"}, "/rooms/r1/files/x", "", auth, nil, false)
	if res, _ = h(ctx, del); res.StatusCode != 204 {
		t.Fatalf("delete = %d %s", res.StatusCode, res.Body)
	}

	// $default route key with a stage prefix in rawPath.
	def := v2("GET", "", nil, "/prod/healthz", "", nil, nil, false)
	def.RouteKey = "$default"
	def.RequestContext.Stage = "prod"
	if res, _ = h(ctx, def); res.StatusCode != 200 {
		t.Fatalf("healthz via stage = %d %s", res.StatusCode, res.Body)
	}

	bad := v2("POST", "/rooms/{room}/files", map[string]string{"room": "r1"}, "/rooms/r1/files", "", auth, nil, true)
	bad.Body = "%%%not base64"
	if res, _ = h(ctx, bad); res.StatusCode != 400 || !strings.Contains(res.Body, "invalid_request") {
		t.Fatalf("broken base64 = %d %s", res.StatusCode, res.Body)
	}
}
