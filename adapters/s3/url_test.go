package s3_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"pumasi"
	s3store "pumasi/adapters/s3"
	"pumasi/internal/testpeer"
)

func TestParseURL(t *testing.T) {
	tests := []struct {
		in   string
		want s3store.Location
		bad  bool
	}{
		{in: "s3://bkt/some/prefix/?endpoint=http://127.0.0.1:9000&region=us-east-1&path_style=true",
			want: s3store.Location{Bucket: "bkt", Prefix: "some/prefix", Endpoint: "http://127.0.0.1:9000", Region: "us-east-1", PathStyle: true}},
		{in: "s3://bkt", want: s3store.Location{Bucket: "bkt"}},
		{in: "s3://bkt/p?endpoint=https%3A%2F%2Fs3.example.com%2F", want: s3store.Location{Bucket: "bkt", Prefix: "p", Endpoint: "https://s3.example.com"}},
		{in: "s3:///prefix", bad: true},
		{in: "gs://bkt/p", bad: true},
		{in: "s3://bkt/p?endpiont=http://x", bad: true},
		{in: "s3://bkt/p?path_style=maybe", bad: true},
		{in: "s3://bkt/p?endpoint=127.0.0.1:9000", bad: true},
		{in: "s3://bkt/p?timeout=7s&header_timeout=1500ms&connect_timeout=2s",
			want: s3store.Location{Bucket: "bkt", Prefix: "p", Timeouts: s3store.Timeouts{Request: 7 * time.Second, Header: 1500 * time.Millisecond, Connect: 2 * time.Second}}},
		{in: "s3://bkt/p?timeout=7", bad: true},
		{in: "s3://bkt/p?header_timeout=-1s", bad: true},
		{in: "s3://bkt/p?connect_timeout=0s", bad: true},
	}
	for _, tt := range tests {
		got, err := s3store.ParseURL(tt.in)
		if tt.bad {
			if pumasi.ErrorCode(err) != pumasi.EInvalidRequest {
				t.Errorf("ParseURL(%q) = %+v, %v; want invalid_request", tt.in, got, err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("ParseURL(%q) = %+v, %v; want %+v", tt.in, got, err, tt.want)
		}
	}
}

// TestOpenMissingBucket checks that a wrong bucket fails at Open, not at the
// first upload.
func TestOpenMissingBucket(t *testing.T) {
	srv := testpeer.MinIO(t)
	_, err := s3store.Open(context.Background(), srv.URL("no-such-bucket-here", "p"), s3store.Options{Credentials: srv.Credentials()})
	if err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Fatalf("Open(missing bucket) error = %v, want one saying it does not exist", err)
	}
}

// TestOpenTimeouts: the storage URL's timeouts reach the store, Options
// override them field by field, and what neither sets takes the defaults.
func TestOpenTimeouts(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	open := func(raw string, opts s3store.Options) s3store.Timeouts {
		t.Helper()
		opts.Credentials = e.srv.Credentials()
		st, err := s3store.Open(ctx, raw, opts)
		if err != nil {
			t.Fatal(err)
		}
		return s3store.RequestTimeouts(st)
	}
	if got, want := open(e.url(), s3store.Options{}), (s3store.Timeouts{Request: s3store.DefaultRequestTimeout, Header: s3store.DefaultHeaderTimeout, Connect: s3store.DefaultConnectTimeout}); got != want {
		t.Errorf("defaults = %+v, want %+v", got, want)
	}
	raw := e.url() + "&timeout=7s&header_timeout=3s"
	if got, want := open(raw, s3store.Options{}), (s3store.Timeouts{Request: 7 * time.Second, Header: 3 * time.Second, Connect: s3store.DefaultConnectTimeout}); got != want {
		t.Errorf("from the URL = %+v, want %+v", got, want)
	}
	if got, want := open(raw, s3store.Options{Timeouts: s3store.Timeouts{Header: time.Second}}), (s3store.Timeouts{Request: 7 * time.Second, Header: time.Second, Connect: s3store.DefaultConnectTimeout}); got != want {
		t.Errorf("URL and Options = %+v, want %+v", got, want)
	}
}
