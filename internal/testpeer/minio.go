// Package testpeer starts the real outside parts that tests talk to, such as
// a MinIO server, from the binaries scripts/tools.sh caches. A missing binary
// skips the test locally but fails it in CI (CI or PUMASI_REQUIRE_PEERS=1),
// so CI can never pass by skipping.
package testpeer

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
)

// startTimeout bounds how long MinIO may take to answer a real S3 call.
const startTimeout = 30 * time.Second

// readyBucket is the bucket the readiness probe creates; tests use buckets
// of their own (CreateBucket), so it stays empty.
const readyBucket = "pumasi-ready"

// ToolsDir is where scripts/tools.sh installs the test peers:
// $PUMASI_TOOLS, else ~/.cache/pumasi/tools.
func ToolsDir() string {
	if d := os.Getenv("PUMASI_TOOLS"); d != "" {
		return d
	}
	home, err := os.UserHomeDir()
	if err != nil {
		home = os.TempDir()
	}
	return filepath.Join(home, ".cache", "pumasi", "tools")
}

// Required reports whether missing peers must fail tests instead of skipping
// them: in CI, or when PUMASI_REQUIRE_PEERS=1.
func Required() bool {
	return os.Getenv("CI") != "" || os.Getenv("PUMASI_REQUIRE_PEERS") == "1"
}

// Tool returns the path of a cached tool binary, skipping the test (failing
// it when Required) when the binary is missing.
func Tool(t testing.TB, name, install string) string {
	t.Helper()
	bin := filepath.Join(ToolsDir(), "bin", name)
	if _, err := os.Stat(bin); err != nil {
		msg := fmt.Sprintf("%s not found at %s: run scripts/tools.sh %s", name, bin, install)
		if Required() {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return bin
}

// MinIOServer is a running MinIO on a loopback port with generated root
// credentials and a temp data dir.
type MinIOServer struct {
	Endpoint  string // http://127.0.0.1:<port>
	AccessKey string
	SecretKey string
	Region    string

	client *s3.Client
	cmd    *exec.Cmd
	exited chan struct{}
	dir    string
}

var shared struct {
	enabled bool
	once    sync.Once
	srv     *MinIOServer
	err     error
}

// Main runs a test binary's tests sharing one MinIO and one Postgres cluster
// among them (each started on first use) and stops them afterwards. Use it as
//
//	func TestMain(m *testing.M) { os.Exit(testpeer.Main(m)) }
//
// Without it, MinIO starts one server per call and stops it at t.Cleanup.
func Main(m *testing.M) int {
	shared.enabled = true
	code := m.Run()
	if shared.srv != nil {
		shared.srv.stop()
	}
	stopPostgres()
	return code
}

// MinIO returns a running MinIO: the binary's shared one under Main, else a
// fresh one stopped when t ends.
func MinIO(t testing.TB) *MinIOServer {
	t.Helper()
	bin := Tool(t, "minio", "minio")
	if shared.enabled {
		shared.once.Do(func() { shared.srv, shared.err = startMinIO(bin, true) })
		if shared.err != nil {
			t.Fatalf("start minio: %v", shared.err)
		}
		return shared.srv
	}
	srv, err := startMinIO(bin, true)
	if err != nil {
		t.Fatalf("start minio: %v", err)
	}
	t.Cleanup(srv.stop)
	return srv
}

// StartMinIO starts a MinIO from the tools cache for programs that are not
// tests (the bench); the caller must Stop it.
func StartMinIO() (*MinIOServer, error) {
	bin := filepath.Join(ToolsDir(), "bin", "minio")
	if _, err := os.Stat(bin); err != nil {
		return nil, fmt.Errorf("minio not found at %s: run scripts/tools.sh minio", bin)
	}
	return startMinIO(bin, false)
}

// Stop stops a server from StartMinIO and removes its data.
func (m *MinIOServer) Stop() { m.stop() }

// startMinIO starts a server; a test's (test) keeps its data in memory when
// there is room (peerDir), the bench's on disk.
func startMinIO(bin string, test bool) (*MinIOServer, error) {
	dir, err := peerDir("pumasi-testminio-", test)
	if err != nil {
		return nil, err
	}
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ {
		srv, err := tryStart(bin, dir)
		if err == nil {
			return srv, nil
		}
		lastErr = err
	}
	os.RemoveAll(dir)
	return nil, lastErr
}

// tryStart starts MinIO once on a port that was free a moment ago; the caller
// retries when another process took the port in between.
func tryStart(bin, dir string) (*MinIOServer, error) {
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	console, err := freePort()
	if err != nil {
		return nil, err
	}
	srv := &MinIOServer{
		Endpoint:  fmt.Sprintf("http://127.0.0.1:%d", port),
		AccessKey: "pumasi" + randHex(6),
		SecretKey: randHex(20),
		Region:    "us-east-1",
		exited:    make(chan struct{}),
		dir:       dir,
	}
	logPath := filepath.Join(dir, "minio.log")
	logf, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	defer logf.Close()
	cmd := exec.Command(bin, "server", "--quiet",
		"--address", fmt.Sprintf("127.0.0.1:%d", port),
		"--console-address", fmt.Sprintf("127.0.0.1:%d", console),
		filepath.Join(dir, "data"))
	cmd.Env = append(os.Environ(),
		"MINIO_ROOT_USER="+srv.AccessKey,
		"MINIO_ROOT_PASSWORD="+srv.SecretKey,
		"MINIO_BROWSER=off",
		"MINIO_UPDATE=off",
	)
	cmd.Stdout, cmd.Stderr = logf, logf
	// Pdeathsig kills MinIO if the test binary dies without cleaning up.
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", bin, err)
	}
	srv.cmd = cmd
	go func() { cmd.Wait(); close(srv.exited) }()

	srv.client = s3.New(s3.Options{
		Region:                     srv.Region,
		BaseEndpoint:               aws.String(srv.Endpoint),
		UsePathStyle:               true,
		Credentials:                srv.Credentials(),
		RequestChecksumCalculation: aws.RequestChecksumCalculationWhenRequired,
		ResponseChecksumValidation: aws.ResponseChecksumValidationWhenRequired,
	})
	if err := srv.waitReady(logPath); err != nil {
		srv.kill()
		return nil, err
	}
	return srv, nil
}

// waitReady returns once MinIO has served a real S3 call: creating
// readyBucket, retried with backoff until startTimeout. /minio/health/live
// is not enough: it answers 200 while the object layer still initialises,
// and the first CreateBucket then fails with 503 XMinioServerNotInitialized.
func (m *MinIOServer) waitReady(logPath string) error {
	ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
	defer cancel()
	backoff := 20 * time.Millisecond
	var lastErr error
	for tries := 1; ; tries++ {
		if lastErr = m.probe(ctx); lastErr == nil {
			return nil
		}
		select {
		case <-m.exited:
			return fmt.Errorf("minio exited early: %s", tail(logPath))
		case <-ctx.Done():
			return fmt.Errorf("minio not ready after %s (%d tries, last: %v): %s", startTimeout, tries, lastErr, tail(logPath))
		case <-time.After(backoff):
		}
		backoff = min(2*backoff, time.Second)
	}
}

// probe creates readyBucket once, without the SDK's own retries, so that
// waitReady alone decides how long to wait; an existing bucket of ours
// (a probe whose answer was lost) counts as ready.
func (m *MinIOServer) probe(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	_, err := m.client.CreateBucket(ctx, &s3.CreateBucketInput{Bucket: aws.String(readyBucket)},
		func(o *s3.Options) { o.RetryMaxAttempts = 1 })
	var owned *types.BucketAlreadyOwnedByYou
	if errors.As(err, &owned) {
		return nil
	}
	return err
}

func (m *MinIOServer) kill() {
	if m.cmd != nil && m.cmd.Process != nil {
		m.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-m.exited:
		case <-time.After(10 * time.Second):
			m.cmd.Process.Kill()
			<-m.exited
		}
	}
}

func (m *MinIOServer) stop() {
	m.kill()
	os.RemoveAll(m.dir)
}

// Credentials returns the server's root credentials as an SDK provider.
func (m *MinIOServer) Credentials() aws.CredentialsProvider {
	return credentials.NewStaticCredentialsProvider(m.AccessKey, m.SecretKey, "")
}

// Client returns an S3 client for the server, for tests that inspect or
// tamper with objects directly.
func (m *MinIOServer) Client() *s3.Client { return m.client }

// Env returns the AWS variables a child process needs to reach the server
// through the standard credential chain.
func (m *MinIOServer) Env() []string {
	return []string{
		"AWS_ACCESS_KEY_ID=" + m.AccessKey,
		"AWS_SECRET_ACCESS_KEY=" + m.SecretKey,
		"AWS_REGION=" + m.Region,
	}
}

// URL returns the PUMASI_STORAGE URL for bucket and prefix on this server.
func (m *MinIOServer) URL(bucket, prefix string) string {
	q := url.Values{}
	q.Set("endpoint", m.Endpoint)
	q.Set("region", m.Region)
	q.Set("path_style", "true")
	return "s3://" + bucket + "/" + strings.Trim(prefix, "/") + "?" + q.Encode()
}

// NewBucket creates a bucket with a fresh random name and returns the name.
func (m *MinIOServer) NewBucket(t testing.TB) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	name, err := m.CreateBucket(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return name
}

// CreateBucket creates a bucket with a fresh random name and returns it.
func (m *MinIOServer) CreateBucket(ctx context.Context) (string, error) {
	name := "t-" + randHex(8)
	if _, err := m.client.CreateBucket(ctx, &s3.CreateBucketInput{Bucket: aws.String(name)}); err != nil {
		return "", fmt.Errorf("create bucket %s: %w", name, err)
	}
	return name, nil
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func randHex(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return hex.EncodeToString(b)
}

// tail returns the last lines of a log file for error messages.
func tail(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return err.Error()
	}
	s := strings.TrimSpace(string(b))
	if len(s) > 2000 {
		s = "..." + s[len(s)-2000:]
	}
	if s == "" {
		return "(no output)"
	}
	return s
}
