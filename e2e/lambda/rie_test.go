// Package lambda_test runs pumasi's Lambda functions for real: each built
// bootstrap under the AWS Lambda Runtime Interface Emulator against MinIO,
// compared request for request with the same handlers served as localdev
// serves them; and it checks infra/template.yaml against the code.
package lambda_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"

	"pumasi"
	s3store "pumasi/adapters/s3"
	"pumasi/functions"
	"pumasi/internal/rie"
	"pumasi/internal/testpeer"
)

func TestMain(m *testing.M) {
	code := testpeer.Main(m)
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
	os.Exit(code)
}

var secret = "lambda-e2e-secret-0123456789abcdef"

// built holds the bootstraps, compiled once per test binary for the host
// architecture (the emulator runs them natively).
var built struct {
	once sync.Once
	dir  string
	bins map[string]string
	err  error
}

var e2eFunctions = []string{"upload", "list", "get", "resolve", "delete", "health", "ws-connect", "ws-default", "ws-disconnect", "sweep", "knowledge-contribute", "knowledge-query"}

func bootstraps(t *testing.T) map[string]string {
	t.Helper()
	built.once.Do(func() {
		root, err := rie.ModuleRoot()
		if err != nil {
			built.err = err
			return
		}
		built.dir, built.err = os.MkdirTemp("", "pumasi-lambda-e2e-")
		if built.err != nil {
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
		defer cancel()
		built.bins, built.err = rie.Build(ctx, root, built.dir, runtime.GOARCH, e2eFunctions...)
	})
	if built.err != nil {
		t.Fatalf("build bootstraps: %v", built.err)
	}
	return built.bins
}

// emulators starts one emulator per function, each on its own ports, all
// stopped when t ends.
func emulators(t *testing.T, env []string, names ...string) map[string]*rie.Emulator {
	t.Helper()
	rieBin := testpeer.Tool(t, "aws-lambda-rie", "rie")
	bins := bootstraps(t)
	out := map[string]*rie.Emulator{}
	for _, n := range names {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		em, err := rie.Start(ctx, rieBin, bins[n], env)
		cancel()
		if err != nil {
			t.Fatalf("start %s under aws-lambda-rie: %v", n, err)
		}
		t.Cleanup(em.Stop)
		t.Cleanup(func() {
			if t.Failed() {
				t.Logf("%s output:\n%s", n, em.Output())
			}
		})
		out[n] = em
	}
	return out
}

// call is one HTTP API request, sent both as an API Gateway v2 event to a
// function under the emulator and as plain HTTP to the reference server.
type call struct {
	fn      string
	method  string
	pattern string
	params  map[string]string
	query   string
	headers map[string]string
	body    []byte
	// binary sends the body base64-encoded, as API Gateway does for
	// multipart and other non-text bodies.
	binary bool
}

func (c call) path() string {
	segs := strings.Split(c.pattern, "/")
	for i, s := range segs {
		if strings.HasPrefix(s, "{") && strings.HasSuffix(s, "}") {
			segs[i] = url.PathEscape(c.params[s[1:len(s)-1]])
		}
	}
	return strings.Join(segs, "/")
}

func (c call) event() events.APIGatewayV2HTTPRequest {
	path := c.path()
	headers := map[string]string{}
	for k, v := range c.headers {
		headers[strings.ToLower(k)] = v
	}
	headers["content-length"] = fmt.Sprint(len(c.body))
	qs := map[string]string{}
	if q, err := url.ParseQuery(c.query); err == nil {
		for k, v := range q {
			qs[k] = strings.Join(v, ",")
		}
	}
	ev := events.APIGatewayV2HTTPRequest{
		Version:               "2.0",
		RouteKey:              c.method + " " + c.pattern,
		RawPath:               path,
		RawQueryString:        c.query,
		Headers:               headers,
		QueryStringParameters: qs,
		PathParameters:        c.params,
		RequestContext: events.APIGatewayV2HTTPRequestContext{
			RouteKey:   c.method + " " + c.pattern,
			Stage:      "$default",
			DomainName: "api.example.test",
			HTTP: events.APIGatewayV2HTTPRequestContextHTTPDescription{
				Method: c.method, Path: path, Protocol: "HTTP/1.1", SourceIP: "127.0.0.1", UserAgent: "e2e",
			},
		},
	}
	if c.binary {
		ev.Body, ev.IsBase64Encoded = base64.StdEncoding.EncodeToString(c.body), true
	} else {
		ev.Body = string(c.body)
	}
	return ev
}

// reply is a response from either side, reduced to what the contract fixes.
type reply struct {
	status int
	header http.Header
	body   []byte
}

func invokeHTTP(t *testing.T, em *rie.Emulator, c call) reply {
	t.Helper()
	ev, _ := json.Marshal(c.event())
	// Invoke waits rie.AnswerWithin, past the emulator's own timeout.
	raw, err := em.Invoke(context.Background(), ev)
	if err != nil {
		t.Fatalf("%s %s via %s: %v", c.method, c.path(), c.fn, err)
	}
	var res events.APIGatewayV2HTTPResponse
	if err := json.Unmarshal(raw, &res); err != nil {
		t.Fatalf("%s: response %q: %v", c.fn, raw, err)
	}
	r := reply{status: res.StatusCode, header: http.Header{}, body: []byte(res.Body)}
	for k, v := range res.Headers {
		r.header.Set(k, v)
	}
	if res.IsBase64Encoded {
		if r.body, err = base64.StdEncoding.DecodeString(res.Body); err != nil {
			t.Fatal(err)
		}
	}
	return r
}

func doHTTP(t *testing.T, base string, c call) reply {
	t.Helper()
	u := base + c.path()
	if c.query != "" {
		u += "?" + c.query
	}
	req, _ := http.NewRequest(c.method, u, bytes.NewReader(c.body))
	for k, v := range c.headers {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	return reply{status: res.StatusCode, header: res.Header, body: body}
}

// normalize drops what differs between two stores by nature, the ids and
// times they minted, and keeps everything else of a JSON body.
func normalize(b []byte) any {
	var v any
	if json.Unmarshal(b, &v) != nil {
		return string(b)
	}
	var walk func(v any) any
	walk = func(v any) any {
		switch x := v.(type) {
		case map[string]any:
			for k := range x {
				if k == "id" || k == "created_at" || k == "updated_at" {
					delete(x, k)
					continue
				}
				x[k] = walk(x[k])
			}
		case []any:
			for i := range x {
				x[i] = walk(x[i])
			}
		}
		return v
	}
	return walk(v)
}

func multipartBody(t *testing.T, field, filename string, content []byte) ([]byte, string) {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	mw.SetBoundary("pumasi-e2e-boundary-0123456789")
	fw, err := mw.CreateFormFile(field, filename)
	if err != nil {
		t.Fatal(err)
	}
	fw.Write(content)
	mw.Close()
	return buf.Bytes(), mw.FormDataContentType()
}

// TestFunctionsUnderEmulator drives upload (multipart, base64) → list → get
// → resolve → delete through each function's own bootstrap under the real
// emulator against MinIO, and the same requests through functions.API over
// httptest against another prefix of the same MinIO, and wants the same
// status codes, contract headers and bodies (ids and times aside).
func TestFunctionsUnderEmulator(t *testing.T) {
	srv := testpeer.MinIO(t)
	bucket := srv.NewBucket(t)
	env := append(srv.Env(), "PUMASI_STORAGE="+srv.URL(bucket, "lambda"), "PUMASI_SECRET="+secret)
	ems := emulators(t, env, "upload", "list", "get", "resolve", "delete")

	ref, err := s3store.Open(context.Background(), srv.URL(bucket, "reference"), s3store.Options{Credentials: srv.Credentials()})
	if err != nil {
		t.Fatal(err)
	}
	api := &functions.API{Store: ref, Secret: []byte(secret)}
	hs := httptest.NewServer(api.Handler())
	defer hs.Close()

	tok, err := pumasi.SignToken([]byte(secret), "e2e", []string{"room:r1"}, time.Hour, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	auth := "Bearer " + tok
	notes := []byte("# Spec\n\nThe daemon writes via temp file + fsync + rename.\n")
	mp, ctype := multipartBody(t, "file", "notes.md", notes)
	korean := "회의 메모.md"
	room := map[string]string{"room": "r1"}
	file := func(name string) map[string]string { return map[string]string{"room": "r1", "name": name} }
	h := func(kv ...string) map[string]string {
		m := map[string]string{"Authorization": auth}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return m
	}

	steps := []struct {
		name   string
		c      call
		status int
	}{
		{"upload multipart", call{fn: "upload", method: "POST", pattern: "/rooms/{room}/files", params: room, headers: h("Content-Type", ctype), body: mp, binary: true}, 201},
		{"upload identical", call{fn: "upload", method: "POST", pattern: "/rooms/{room}/files", params: room, headers: h("Content-Type", ctype), body: mp, binary: true}, 200},
		{"upload raw korean name", call{fn: "upload", method: "POST", pattern: "/rooms/{room}/files", params: room, query: "name=" + url.QueryEscape(korean), headers: h("Content-Type", "text/plain"), body: []byte("안녕하세요, 품앗이.\n")}, 201},
		{"upload without token", call{fn: "upload", method: "POST", pattern: "/rooms/{room}/files", params: room, query: "name=x.md", body: []byte("x")}, 401},
		{"upload bad precondition", call{fn: "upload", method: "POST", pattern: "/rooms/{room}/files", params: room, query: "name=notes.md", headers: h("If-None-Match", "*"), body: []byte("other")}, 412},
		{"list", call{fn: "list", method: "GET", pattern: "/rooms/{room}/files", params: room, headers: h()}, 200},
		{"list not modified", call{fn: "list", method: "GET", pattern: "/rooms/{room}/files", params: room, headers: h("If-None-Match", `"r2"`)}, 304},
		{"get", call{fn: "get", method: "GET", pattern: "/rooms/{room}/files/{name}", params: file("notes.md"), headers: h()}, 200},
		{"get korean", call{fn: "get", method: "GET", pattern: "/rooms/{room}/files/{name}", params: file(korean), headers: h()}, 200},
		{"get meta", call{fn: "get", method: "GET", pattern: "/rooms/{room}/files/{name}", params: file("notes.md"), query: "meta=1", headers: h()}, 200},
		{"get encoded slash", call{fn: "get", method: "GET", pattern: "/rooms/{room}/files/{name}", params: file("../secret"), headers: h()}, 400},
		{"resolve", call{fn: "resolve", method: "POST", pattern: "/rooms/{room}/resolve", params: room, headers: h("Content-Type", "application/json"), body: []byte(`{"text":"read $notes.md and $missing.md, then $\"` + korean + `\"."}`)}, 200},
		{"delete", call{fn: "delete", method: "DELETE", pattern: "/rooms/{room}/files/{name}", params: file("notes.md"), headers: h()}, 204},
		{"get deleted", call{fn: "get", method: "GET", pattern: "/rooms/{room}/files/{name}", params: file("notes.md"), headers: h()}, 404},
		{"delete again", call{fn: "delete", method: "DELETE", pattern: "/rooms/{room}/files/{name}", params: file("notes.md"), headers: h()}, 404},
		{"list after delete", call{fn: "list", method: "GET", pattern: "/rooms/{room}/files", params: room, headers: h()}, 200},
	}
	for _, s := range steps {
		got := invokeHTTP(t, ems[s.c.fn], s.c)
		want := doHTTP(t, hs.URL, s.c)
		if want.status != s.status {
			t.Fatalf("%s: reference status = %d, want %d (%s)", s.name, want.status, s.status, want.body)
		}
		if got.status != want.status {
			t.Fatalf("%s: lambda status = %d, reference %d\nlambda body: %s", s.name, got.status, want.status, got.body)
		}
		for _, k := range []string{"Content-Type", "ETag"} {
			if got.header.Get(k) != want.header.Get(k) {
				t.Errorf("%s: lambda %s = %q, reference %q", s.name, k, got.header.Get(k), want.header.Get(k))
			}
		}
		if g, w := normalize(got.body), normalize(want.body); !reflect.DeepEqual(g, w) {
			t.Errorf("%s: lambda body\n%s\nreference body\n%s", s.name, got.body, want.body)
		}
		switch s.name {
		case "get":
			if !bytes.Equal(got.body, notes) {
				t.Errorf("get: lambda body = %q, want the uploaded bytes", got.body)
			}
		case "list":
			var l pumasi.Listing
			if err := json.Unmarshal(got.body, &l); err != nil || l.Rev != 2 || len(l.Files) != 2 {
				t.Errorf("list: lambda listing = %s, want rev 2 with 2 files", got.body)
			}
		case "resolve":
			if !bytes.Contains(got.body, []byte(`"unknown":["missing.md"]`)) || !bytes.Contains(got.body, []byte("memory/shared/notes.md")) {
				t.Errorf("resolve: lambda body = %s, want notes.md resolved and missing.md unknown", got.body)
			}
		}
	}

	// A function answers only its own routes, as API Gateway would route.
	wrong := call{fn: "upload", method: "GET", pattern: "/rooms/{room}/files", params: room, headers: h()}
	if got := invokeHTTP(t, ems["upload"], wrong); got.status != 404 {
		t.Fatalf("list request sent to upload = %d, want 404", got.status)
	}
}
