package e2e

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	awss3 "github.com/aws/aws-sdk-go-v2/service/s3"

	"pumasi"
	"pumasi/adapters/local"
	"pumasi/adapters/s3"
	"pumasi/internal/testpeer"
)

// backend is a storage backend a localdev process runs on: env gives the
// process the backend, open gives the test its own handle on the same data.
type backend struct {
	name    string
	env     []string
	storage string // PUMASI_STORAGE
	minio   *testpeer.MinIOServer
}

// forEachBackend runs a scenario once per storage backend: local (disk +
// SQLite) and s3 on a real MinIO with a fresh bucket. Without a cached MinIO
// the s3 run skips locally and fails in CI (testpeer.Required).
func forEachBackend(t *testing.T, run func(t *testing.T, b *backend)) {
	for _, name := range []string{"local", "s3"} {
		t.Run(name, func(t *testing.T) {
			b := &backend{name: name, storage: "local"}
			if name == "s3" {
				b.minio = testpeer.MinIO(t)
				b.storage = b.minio.URL(b.minio.NewBucket(t), "pumasi")
				b.env = append(b.minio.Env(), "PUMASI_STORAGE="+b.storage)
			}
			run(t, b)
			if b.minio != nil && !t.Failed() {
				b.checkUsed(t)
			}
		})
	}
}

// open opens, in the test process, the store a localdev with home runs on,
// so a test can read what the server recorded. Both backends allow other
// processes on the same data; the long grace keeps the local one's boot
// cleanup away from the server's files.
func (b *backend) open(t testing.TB, home string) pumasi.Store {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var st pumasi.Store
	var err error
	if b.minio != nil {
		st, err = s3.Open(ctx, b.storage, s3.Options{Credentials: b.minio.Credentials()})
	} else {
		st, err = local.Open(ctx, home, local.Options{Grace: 24 * time.Hour})
	}
	if err != nil {
		t.Fatalf("open %s store: %v", b.name, err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// checkUsed fails unless the scenario left room manifests in the bucket, so
// an s3 run that silently fell back to local storage cannot pass.
func (b *backend) checkUsed(t *testing.T) {
	t.Helper()
	loc, err := s3.ParseURL(b.storage)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	out, err := b.minio.Client().ListObjectsV2(ctx, &awss3.ListObjectsV2Input{Bucket: aws.String(loc.Bucket), Prefix: aws.String(loc.Prefix + "/rooms/")})
	if err != nil {
		t.Fatalf("list bucket %s: %v", loc.Bucket, err)
	}
	manifests := 0
	for _, o := range out.Contents {
		if strings.HasSuffix(aws.ToString(o.Key), "/manifest.json") {
			manifests++
		}
	}
	if manifests == 0 {
		t.Fatalf("bucket %s holds no room manifest under %s/rooms/ after an s3 run", loc.Bucket, loc.Prefix)
	}
}
