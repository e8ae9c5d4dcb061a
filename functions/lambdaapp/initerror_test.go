package lambdaapp

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestReportInitError: a failed cold start is posted to the runtime API's
// init error path with its type in the header and the body, and the message
// as given; a refusal is an error; outside Lambda nothing is sent.
func TestReportInitError(t *testing.T) {
	var got struct {
		path, header string
		body         map[string]string
	}
	status := http.StatusAccepted
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got.path, got.header = r.Method+" "+r.URL.Path, r.Header.Get("Lambda-Runtime-Function-Error-Type")
		_ = json.NewDecoder(r.Body).Decode(&got.body)
		w.WriteHeader(status)
	}))
	defer srv.Close()
	api := strings.TrimPrefix(srv.URL, "http://")

	cause := errors.New(`function knowledge-query: PUMASI_MERGE_THRESHOLD "1.5": want a number in [0, 1.01]`)
	if err := ReportInitError(context.Background(), api, cause); err != nil {
		t.Fatalf("ReportInitError = %v, want nil", err)
	}
	if want := "POST /2018-06-01/runtime/init/error"; got.path != want {
		t.Errorf("request = %q, want %q", got.path, want)
	}
	if got.header != InitErrorType || got.body["errorType"] != InitErrorType || got.body["errorMessage"] != cause.Error() {
		t.Errorf("header %q, body %v; want type %q and message %q", got.header, got.body, InitErrorType, cause)
	}

	leak := errors.New(`function knowledge-query: PUMASI_KNOWLEDGE "postgres://pumasi:hunter2-Zq9@db.internal:5432/k?sslmode=require&sslpassword=s3cr3t-Xy": connect: refused; PUMASI_SECRET=abcdef123456`)
	if err := ReportInitError(context.Background(), api, leak); err != nil {
		t.Fatal(err)
	}
	msg := got.body["errorMessage"]
	for _, s := range []string{"hunter2-Zq9", "pumasi:", "s3cr3t-Xy", "abcdef123456"} {
		if strings.Contains(msg, s) {
			t.Errorf("init error message %q holds the credential %q", msg, s)
		}
	}
	for _, s := range []string{"PUMASI_KNOWLEDGE", "db.internal:5432", "connect: refused", "PUMASI_SECRET"} {
		if !strings.Contains(msg, s) {
			t.Errorf("init error message %q lost %q, which tells what to fix", msg, s)
		}
	}

	for _, c := range []struct{ in, gone, kept string }{
		{`PUMASI_KNOWLEDGE "postgres://pumasi:p@ss-Zq9@db.internal/k": refused`, "ss-Zq9", "db.internal/k"},
		{`PUMASI_KNOWLEDGE "postgres://u:a/b-Zq9@db.internal/k": refused`, "a/b-Zq9", "db.internal/k"},
		{`connect: password = hunter2Zq user=app`, "hunter2Zq", "user=app"},
		{`s3: X-Amz-Signature=abc123def456&X-Amz-Date=20261203`, "abc123def456", "X-Amz-Date"},
		{`PUMASI_SECRET: must be at least 32 bytes`, "", "must be at least 32 bytes"},
		{`invalid key: PUMASI_EMBEDDINGS_KEY is empty`, "", "PUMASI_EMBEDDINGS_KEY is empty"},
	} {
		got := Scrub(c.in)
		if c.gone != "" && strings.Contains(got, c.gone) || !strings.Contains(got, c.kept) {
			t.Errorf("Scrub(%q) = %q: want %q gone and %q kept", c.in, got, c.gone, c.kept)
		}
	}

	status = http.StatusForbidden
	if err := ReportInitError(context.Background(), api, cause); err == nil || !strings.Contains(err.Error(), "403") {
		t.Errorf("ReportInitError on a 403 = %v, want an error naming it", err)
	}

	got.path = ""
	if err := ReportInitError(context.Background(), "", cause); err != nil || got.path != "" {
		t.Errorf("ReportInitError outside Lambda = %v and sent %q, want nil and nothing sent", err, got.path)
	}
}
