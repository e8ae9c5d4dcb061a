package testpeer

import (
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
)

// TestWaitReadyOutlastsInitialisation plays what a cold MinIO does: its
// liveness probe answers 200 at once while CreateBucket answers 503
// XMinioServerNotInitialized for a while. waitReady must not return before
// the create succeeds.
func TestWaitReadyOutlastsInitialisation(t *testing.T) {
	const notReady = 5
	var creates atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/minio/health/live":
			w.WriteHeader(http.StatusOK)
		case r.Method == http.MethodPut && r.URL.Path == "/"+readyBucket:
			if creates.Add(1) <= notReady {
				w.Header().Set("Content-Type", "application/xml")
				w.WriteHeader(http.StatusServiceUnavailable)
				w.Write([]byte(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>XMinioServerNotInitialized</Code><Message>Server not initialized yet, please try again.</Message></Error>`))
				return
			}
			w.WriteHeader(http.StatusOK)
		default:
			w.WriteHeader(http.StatusNotFound)
		}
	}))
	defer srv.Close()
	m := &MinIOServer{Endpoint: srv.URL, AccessKey: "k", SecretKey: "s", Region: "us-east-1", exited: make(chan struct{})}
	m.client = s3.New(s3.Options{Region: m.Region, BaseEndpoint: aws.String(m.Endpoint), UsePathStyle: true, Credentials: m.Credentials()})
	if err := m.waitReady("/nonexistent.log"); err != nil {
		t.Fatalf("waitReady: %v", err)
	}
	if got := creates.Load(); got != notReady+1 {
		t.Fatalf("waitReady returned after %d creates, want %d (the first success)", got, notReady+1)
	}
}
