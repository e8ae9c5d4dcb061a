package functions

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
)

// The OpenAPI document (docs/openapi.yaml) is checked against every
// response any test in this package gets from API.Handler: the validator
// wraps the handler, and TestMain fails the run when a response does not
// match the document, naming the request. So the document cannot drift
// from the handlers. With no -run filter it also fails when a route of
// Routes() was never exercised, so a new route needs a documented test.

var oas struct {
	once   sync.Once
	doc    *openapi3.T
	router routers.Router
	err    error

	mu       sync.Mutex
	failures []string
	seen     map[string]int
	checked  int
}

func loadOpenAPI() (*openapi3.T, routers.Router, error) {
	oas.once.Do(func() {
		loader := openapi3.NewLoader()
		doc, err := loader.LoadFromFile("../docs/openapi.yaml")
		if err != nil {
			oas.err = fmt.Errorf("load docs/openapi.yaml: %w", err)
			return
		}
		if err := doc.Validate(context.Background()); err != nil {
			oas.err = fmt.Errorf("docs/openapi.yaml is not a valid OpenAPI document: %w", err)
			return
		}
		// Match any host: tests listen on random loopback ports.
		doc.Servers = nil
		oas.doc = doc
		oas.router, oas.err = gorillamux.NewRouter(doc)
	})
	return oas.doc, oas.router, oas.err
}

func init() {
	handlerWraps = append(handlerWraps, validateAgainstOpenAPI)
}

// recorder passes a response through and keeps a copy of it.
type recorder struct {
	http.ResponseWriter
	status   int
	header   http.Header
	body     bytes.Buffer
	hijacked bool
}

func (r *recorder) WriteHeader(code int) {
	if r.status == 0 {
		r.status = code
		r.header = r.ResponseWriter.Header().Clone()
	}
	r.ResponseWriter.WriteHeader(code)
}

func (r *recorder) Write(b []byte) (int, error) {
	if r.status == 0 {
		r.WriteHeader(http.StatusOK)
	}
	if r.body.Len() < 4<<20 {
		r.body.Write(b)
	}
	return r.ResponseWriter.Write(b)
}

func (r *recorder) Flush() {
	if f, ok := r.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Hijack lets the WebSocket upgrade through; a hijacked response is not
// HTTP any more and is not validated.
func (r *recorder) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	r.hijacked = true
	h, ok := r.ResponseWriter.(http.Hijacker)
	if !ok {
		return nil, nil, fmt.Errorf("response writer cannot hijack")
	}
	return h.Hijack()
}

func (r *recorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

func validateAgainstOpenAPI(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := &recorder{ResponseWriter: w}
		next.ServeHTTP(rec, r)
		if rec.hijacked || r.Method == http.MethodHead || r.Method == http.MethodOptions {
			return
		}
		if rec.status == 0 {
			rec.status = http.StatusOK
			rec.header = w.Header().Clone()
		}
		if msg := checkResponse(r, rec); msg != "" {
			oas.mu.Lock()
			oas.failures = append(oas.failures, fmt.Sprintf("%s %s → %d: %s\n  body: %.300s", r.Method, r.URL.RequestURI(), rec.status, msg, rec.body.String()))
			oas.mu.Unlock()
		}
	})
}

// checkResponse validates one response and returns what is wrong, if anything.
func checkResponse(r *http.Request, rec *recorder) string {
	_, router, err := loadOpenAPI()
	if err != nil {
		return err.Error()
	}
	// The router matches on the decoded path; a request whose path the
	// handler cleans (duplicate slashes) is matched the way it routes.
	req := r.Clone(context.Background())
	req.URL.Path = "/" + strings.Join(strings.FieldsFunc(r.URL.Path, func(c rune) bool { return c == '/' }), "/")
	req.URL.RawPath = ""
	// A wrong method is the API's own answer whatever the document's
	// router makes of the path (GET /knowledge/contribute would match GET
	// /knowledge/{id} there): an error body with the path's methods.
	if rec.status == http.StatusMethodNotAllowed {
		if rec.header.Get("Allow") == "" {
			return "405 without Allow"
		}
		return checkErrorBody(rec)
	}
	route, pathParams, err := router.FindRoute(req)
	if err != nil {
		// No documented operation: the API must have refused it with a
		// contract error (an unknown path 404, a wrong method 405, a name
		// with an encoded "/" 400).
		if rec.status < 400 {
			return "no documented operation for a successful response: " + err.Error()
		}
		return checkErrorBody(rec)
	}
	oas.mu.Lock()
	if oas.seen == nil {
		oas.seen = map[string]int{}
	}
	oas.seen[route.Method+" "+route.Path]++
	oas.checked++
	oas.mu.Unlock()
	in := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{
			Request: req, PathParams: pathParams, Route: route,
			Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc},
		},
		Status: rec.status,
		Header: rec.header,
		Options: &openapi3filter.Options{
			IncludeResponseStatus: true,
			MultiError:            true,
		},
	}
	// A room file's bytes are opaque to the contract (any text type);
	// their status and headers are still checked.
	if ct := rec.header.Get("Content-Type"); ct != "" && !strings.HasPrefix(ct, "application/json") {
		in.Options.ExcludeResponseBody = true
	}
	in.SetBodyBytes(rec.body.Bytes())
	if err := openapi3filter.ValidateResponse(context.Background(), in); err != nil {
		return err.Error()
	}
	return ""
}

// checkErrorBody checks a response no operation documents against the
// contract's error body.
func checkErrorBody(rec *recorder) string {
	doc, _, _ := loadOpenAPI()
	schema := doc.Components.Schemas["Error"].Value
	var v any
	if err := jsonUnmarshal(rec.body.Bytes(), &v); err != nil {
		return "undocumented error response is not JSON: " + err.Error()
	}
	if err := schema.VisitJSON(v); err != nil {
		return "undocumented error response is not the contract's error body: " + err.Error()
	}
	return ""
}

// AfterTests run once every test of the binary has ended (functions_test's
// shared fixtures register their removal here).
var AfterTests []func()

func TestMain(m *testing.M) {
	flag.Parse()
	code := m.Run()
	for _, f := range AfterTests {
		f()
	}
	oas.mu.Lock()
	defer oas.mu.Unlock()
	if len(oas.failures) > 0 {
		fmt.Fprintf(os.Stderr, "FAIL: %d of the responses do not match docs/openapi.yaml:\n", len(oas.failures))
		for i, f := range oas.failures {
			if i == 20 {
				fmt.Fprintf(os.Stderr, "... and %d more\n", len(oas.failures)-20)
				break
			}
			fmt.Fprintln(os.Stderr, f)
		}
		code = 1
	}
	if f := flag.Lookup("test.run"); code == 0 && f != nil && f.Value.String() == "" && !testing.Short() {
		var missing []string
		for _, rt := range Routes() {
			if oas.seen[rt.Method+" "+rt.Pattern] == 0 && !strings.HasSuffix(rt.Pattern, "/ws") {
				missing = append(missing, rt.Method+" "+rt.Pattern)
			}
		}
		sort.Strings(missing)
		if len(missing) > 0 {
			fmt.Fprintf(os.Stderr, "FAIL: no test response validated against docs/openapi.yaml for: %s\n", strings.Join(missing, ", "))
			code = 1
		}
	}
	if testing.Verbose() {
		fmt.Fprintf(os.Stderr, "openapi: %d responses validated against docs/openapi.yaml\n", oas.checked)
	}
	os.Exit(code)
}

func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }
