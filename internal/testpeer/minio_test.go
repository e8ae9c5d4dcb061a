package testpeer_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"pumasi/internal/testpeer"
)

// TestMinIO starts a real MinIO, writes and reads one object in a fresh
// bucket, checks conditional writes are honoured (the s3 backend relies on
// them) and that the server is gone after cleanup.
func TestMinIO(t *testing.T) {
	var endpoint string
	t.Run("run", func(t *testing.T) {
		srv := testpeer.MinIO(t)
		endpoint = srv.Endpoint
		ctx := context.Background()
		bucket := srv.NewBucket(t)
		c := srv.Client()
		put := func(body, ifMatch, ifNoneMatch string) (*s3.PutObjectOutput, error) {
			in := &s3.PutObjectInput{Bucket: aws.String(bucket), Key: aws.String("k"), Body: bytes.NewReader([]byte(body))}
			if ifMatch != "" {
				in.IfMatch = aws.String(ifMatch)
			}
			if ifNoneMatch != "" {
				in.IfNoneMatch = aws.String(ifNoneMatch)
			}
			return c.PutObject(ctx, in)
		}
		first, err := put("one", "", "*")
		if err != nil {
			t.Fatalf("create with If-None-Match: %v", err)
		}
		if _, err := put("two", "", "*"); err == nil {
			t.Fatalf("second create with If-None-Match: * succeeded, want 412")
		}
		if _, err := put("two", `"0123456789abcdef0123456789abcdef"`, ""); err == nil {
			t.Fatalf("put with a wrong If-Match succeeded, want 412")
		}
		if _, err := put("two", aws.ToString(first.ETag), ""); err != nil {
			t.Fatalf("put with the right If-Match: %v", err)
		}
		out, err := c.GetObject(ctx, &s3.GetObjectInput{Bucket: aws.String(bucket), Key: aws.String("k")})
		if err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(out.Body)
		out.Body.Close()
		if string(got) != "two" {
			t.Fatalf("body = %q, want %q", got, "two")
		}
	})
	if endpoint == "" {
		return // skipped
	}
	if resp, err := http.Get(endpoint + "/minio/health/live"); err == nil {
		resp.Body.Close()
		t.Fatalf("minio still answers at %s after cleanup", endpoint)
	}
}

// TestMissingBinary runs this test binary again with an empty tools folder:
// without CI it must skip with the install hint, with CI=1 or
// PUMASI_REQUIRE_PEERS=1 it must fail, so CI never passes by skipping.
func TestMissingBinary(t *testing.T) {
	if os.Getenv("TESTPEER_CHILD") == "1" {
		testpeer.MinIO(t)
		t.Fatal("MinIO returned without a binary")
	}
	empty := t.TempDir()
	tests := []struct {
		env      []string
		wantFail bool
		want     string
	}{
		{env: nil, wantFail: false, want: "--- SKIP: TestMissingBinary"},
		{env: []string{"CI=true"}, wantFail: true, want: "--- FAIL: TestMissingBinary"},
		{env: []string{"PUMASI_REQUIRE_PEERS=1"}, wantFail: true, want: "--- FAIL: TestMissingBinary"},
	}
	for _, tt := range tests {
		cmd := exec.Command(os.Args[0], "-test.run=^TestMissingBinary$", "-test.v")
		var env []string
		for _, kv := range os.Environ() {
			if !strings.HasPrefix(kv, "CI=") && !strings.HasPrefix(kv, "PUMASI_REQUIRE_PEERS=") && !strings.HasPrefix(kv, "PUMASI_TOOLS=") {
				env = append(env, kv)
			}
		}
		cmd.Env = append(append(env, "TESTPEER_CHILD=1", "PUMASI_TOOLS="+empty), tt.env...)
		out, err := cmd.CombinedOutput()
		if failed := err != nil; failed != tt.wantFail {
			t.Errorf("env %v: failed = %v, want %v\n%s", tt.env, failed, tt.wantFail, out)
		}
		if !strings.Contains(string(out), tt.want) || !strings.Contains(string(out), "run scripts/tools.sh minio") {
			t.Errorf("env %v: output lacks %q or the install hint:\n%s", tt.env, tt.want, out)
		}
	}
}

// TestMinIOColdStarts starts MinIO on a fresh data dir again and again and
// at once creates a bucket and writes and reads an object through a client
// without SDK retries: any 503 XMinioServerNotInitialized left after
// MinIO(t) returns fails the test. PUMASI_COLD_STARTS sets the count
// (default 20, as in make test).
func TestMinIOColdStarts(t *testing.T) {
	n := 20
	if v := os.Getenv("PUMASI_COLD_STARTS"); v != "" {
		var err error
		if n, err = strconv.Atoi(v); err != nil || n < 1 {
			t.Fatalf("PUMASI_COLD_STARTS=%q, want a positive count", v)
		}
	}
	var ok, skipped, failed int
	var total, worst time.Duration
	for i := range n {
		passed := t.Run(fmt.Sprint(i), func(t *testing.T) {
			defer func() {
				if t.Skipped() {
					skipped++
				}
			}()
			begin := time.Now()
			srv := testpeer.MinIO(t)
			took := time.Since(begin)
			total += took
			worst = max(worst, took)
			c := s3.New(s3.Options{
				Region:           srv.Region,
				BaseEndpoint:     aws.String(srv.Endpoint),
				UsePathStyle:     true,
				Credentials:      srv.Credentials(),
				RetryMaxAttempts: 1,
			})
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			bucket := fmt.Sprintf("cold-%d", i)
			if _, err := c.CreateBucket(ctx, &s3.CreateBucketInput{Bucket: aws.String(bucket)}); err != nil {
				t.Fatalf("first create bucket after start: %v", err)
			}
			if _, err := c.PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String(bucket), Key: aws.String("k"),
				Body: strings.NewReader("v"), IfNoneMatch: aws.String("*")}); err != nil {
				t.Fatalf("first conditional put after start: %v", err)
			}
			out, err := c.GetObject(ctx, &s3.GetObjectInput{Bucket: aws.String(bucket), Key: aws.String("k")})
			if err != nil {
				t.Fatalf("first get after start: %v", err)
			}
			got, _ := io.ReadAll(out.Body)
			out.Body.Close()
			if string(got) != "v" {
				t.Fatalf("body = %q, want %q", got, "v")
			}
			ok++
		})
		if !passed {
			failed++
		}
	}
	// A skipped start (no MinIO installed, outside CI) is neither a pass nor
	// a failure; a failed one has already failed its subtest.
	if skipped == n {
		t.Skipf("all %d cold starts skipped: no MinIO", n)
	}
	if ok+skipped+failed != n {
		t.Fatalf("%d cold starts: %d ready, %d skipped, %d failed", n, ok, skipped, failed)
	}
	if ok > 0 {
		t.Logf("%d of %d cold starts ready (%d failed, %d skipped); start took %s on average, %s at worst",
			ok, n, failed, skipped, total/time.Duration(ok), worst)
	}
}
