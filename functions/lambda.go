package functions

import (
	"bytes"
	"context"
	"encoding/base64"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/aws/aws-lambda-go/events"

	"pumasi"
)

// LambdaHTTP adapts API Gateway HTTP API (payload v2) events to h, so a Lambda
// function runs the very handlers localdev serves. It decodes base64 bodies,
// splits comma-joined repeated headers where that is safe, and rebuilds the
// escaped path from the route key and path parameters so an encoded `/` in a
// file name reaches the name rules as it does in localdev.
func LambdaHTTP(h http.Handler) func(ctx context.Context, ev events.APIGatewayV2HTTPRequest) (events.APIGatewayV2HTTPResponse, error) {
	return func(ctx context.Context, ev events.APIGatewayV2HTTPRequest) (events.APIGatewayV2HTTPResponse, error) {
		req, err := RequestFromV2(ctx, ev)
		if err != nil {
			rec := httptest.NewRecorder()
			writeError(rec, err)
			return ResponseToV2(rec), nil
		}
		rec := httptest.NewRecorder()
		start := time.Now()
		h.ServeHTTP(rec, req)
		emitEMF(req, rec.Code, time.Since(start), rec.Body.Bytes(), time.Now())
		return ResponseToV2(rec), nil
	}
}

// RequestFromV2 builds the http.Request an API Gateway v2 event stands for.
func RequestFromV2(ctx context.Context, ev events.APIGatewayV2HTTPRequest) (*http.Request, error) {
	method := ev.RequestContext.HTTP.Method
	if method == "" {
		method = http.MethodGet
	}
	var body []byte
	if ev.IsBase64Encoded {
		b, err := base64.StdEncoding.DecodeString(ev.Body)
		if err != nil {
			return nil, badRequest("request body is not valid base64")
		}
		body = b
	} else {
		body = []byte(ev.Body)
	}
	u := &url.URL{Path: "/", RawQuery: ev.RawQueryString}
	escaped := escapedPathV2(ev)
	p, err := url.PathUnescape(escaped)
	if err != nil {
		return nil, badRequest("path is not valid")
	}
	u.Path, u.RawPath = p, escaped
	req, err := http.NewRequestWithContext(ctx, method, u.String(), bytes.NewReader(body))
	if err != nil {
		return nil, badRequest("request is not valid")
	}
	req.RequestURI = u.RequestURI()
	for k, v := range ev.Headers {
		key := http.CanonicalHeaderKey(k)
		if splittable[key] {
			for _, part := range strings.Split(v, ",") {
				req.Header.Add(key, strings.TrimSpace(part))
			}
		} else {
			req.Header.Set(key, v)
		}
	}
	if len(ev.Cookies) > 0 {
		req.Header.Set("Cookie", strings.Join(ev.Cookies, "; "))
	}
	req.ContentLength = int64(len(body))
	// The Host the client sent, as net/http's server sets it; API Gateway
	// sends its own domain (or the custom domain's) there, and the edge
	// check (edge.go) serves that domain without configuration.
	req.Host = ev.RequestContext.DomainName
	if h := req.Header.Get("Host"); h != "" {
		req.Host = h
		req.Header.Del("Host")
	}
	if d := ev.RequestContext.DomainName; d != "" {
		req = req.WithContext(WithAPIDomain(req.Context(), d))
	}
	if ip := ev.RequestContext.HTTP.SourceIP; ip != "" {
		req.RemoteAddr = ip + ":0"
	}
	return req, nil
}

// splittable are headers whose comma-joined repeats may be split back apart;
// others keep the joined value, which is what a list-valued header such as
// If-None-Match means anyway, and what Authorization or a date must keep.
var splittable = map[string]bool{"Accept": true, "Accept-Encoding": true}

// escapedPathV2 returns the request's escaped path. With a route key like
// "GET /rooms/{room}/files/{name}" it is rebuilt from the template and the
// decoded path parameters, escaping each; otherwise the raw path is used, less
// a leading stage name.
func escapedPathV2(ev events.APIGatewayV2HTTPRequest) string {
	key := ev.RouteKey
	if key == "" {
		key = ev.RequestContext.RouteKey
	}
	if _, tmpl, ok := strings.Cut(key, " "); ok && len(ev.PathParameters) > 0 && !strings.Contains(tmpl, "+}") {
		segs := strings.Split(tmpl, "/")
		for i, s := range segs {
			if strings.HasPrefix(s, "{") && strings.HasSuffix(s, "}") {
				segs[i] = url.PathEscape(ev.PathParameters[s[1:len(s)-1]])
			}
		}
		return strings.Join(segs, "/")
	}
	raw := ev.RawPath
	if raw == "" {
		raw = "/"
	}
	if st := ev.RequestContext.Stage; st != "" && st != "$default" {
		raw = strings.TrimPrefix(raw, "/"+st)
		if raw == "" {
			raw = "/"
		}
	}
	return raw
}

// ResponseToV2 turns a recorded response into the v2 response shape. Bodies
// that are not UTF-8 text are base64-encoded.
func ResponseToV2(rec *httptest.ResponseRecorder) events.APIGatewayV2HTTPResponse {
	res := rec.Result()
	out := events.APIGatewayV2HTTPResponse{StatusCode: res.StatusCode, Headers: map[string]string{}}
	for k, v := range res.Header {
		if k == "Set-Cookie" {
			out.Cookies = append(out.Cookies, v...)
			continue
		}
		out.Headers[k] = strings.Join(v, ", ")
	}
	b := rec.Body.Bytes()
	if utf8.Valid(b) {
		out.Body = string(b)
	} else {
		out.Body = base64.StdEncoding.EncodeToString(b)
		out.IsBase64Encoded = true
	}
	return out
}

func badRequest(msg string) error {
	return pumasi.Errorf(pumasi.EInvalidRequest, "%s", msg)
}
