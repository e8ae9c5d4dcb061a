package lambda_test

import (
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestTemplateS3TimeoutFitsTheFunction: every function's S3 client gives up
// (a manifest change runs under twice the storage URL's timeout) before the
// function's own Timeout, which is inside API Gateway's 29-30 s integration
// limit, so a stalled S3 answers the documented 503 rather than the
// gateway's bare timeout.
func TestTemplateS3TimeoutFitsTheFunction(t *testing.T) {
	top := loadTemplate(t)
	globals := path(top, "Globals", "Function")
	resources := path(top, "Resources")
	n := 0
	for _, logical := range keys(resources) {
		r := get(resources, logical)
		if path(r, "Type").Value != "AWS::Serverless::Function" {
			continue
		}
		props := get(r, "Properties")
		storage := path(props, "Environment", "Variables", "PUMASI_STORAGE")
		if storage == nil {
			continue
		}
		timeout := get(props, "Timeout")
		if timeout == nil {
			timeout = get(globals, "Timeout")
		}
		secs, err := strconv.Atoi(timeout.Value)
		if err != nil {
			t.Fatalf("%s Timeout %q: %v", logical, timeout.Value, err)
		}
		raw := strings.Join(scalars(storage), "")
		_, query, _ := strings.Cut(raw, "?")
		q, err := url.ParseQuery(query)
		if err != nil {
			t.Fatalf("%s PUMASI_STORAGE %q: %v", logical, raw, err)
		}
		d := 30 * time.Second // adapters/s3's default
		if v := q.Get("timeout"); v != "" {
			if d, err = time.ParseDuration(v); err != nil {
				t.Fatalf("%s PUMASI_STORAGE timeout %q: %v", logical, v, err)
			}
		}
		if limit := time.Duration(min(secs, 29)) * time.Second; 2*d >= limit {
			t.Errorf("%s: S3 timeout %s (a manifest change: %s) does not fit its %s Timeout within API Gateway's 29 s", logical, d, 2*d, limit)
		}
		n++
	}
	if n < 10 {
		t.Fatalf("checked %d functions with PUMASI_STORAGE, want every one", n)
	}
}
