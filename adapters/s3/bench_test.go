package s3_test

import (
	"bytes"
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"pumasi"
	s3store "pumasi/adapters/s3"
)

// benchRoomFiles keeps each bench room well under the 1,000-file quota.
const benchRoomFiles = 500

// BenchmarkUploads measures uploads/s through the s3 backend and raw
// PutObjects of the same bodies to the same MinIO in the same run, and
// reports their ratio. Uploads are sequential, each with a distinct name and
// body of about 1 KiB, so the ratio is the price of the blob PUT + manifest
// compare-and-swap + blob check over one plain PUT.
func BenchmarkUploads(b *testing.B) {
	e := newEnv(b)
	st := e.open(b, s3store.Options{})
	c := e.srv.Client()
	ctx := context.Background()
	body := func(i int) []byte {
		return append(bytes.Repeat([]byte("x"), 1000), fmt.Sprintf("\n%d\n", i)...)
	}

	b.ResetTimer()
	start := time.Now()
	for i := 0; i < b.N; i++ {
		_, err := c.PutObject(ctx, &s3.PutObjectInput{
			Bucket: aws.String(e.bucket), Key: aws.String(fmt.Sprintf("%s/raw/%d", e.prefix, i)), Body: bytes.NewReader(body(i)),
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	raw := time.Since(start)

	start = time.Now()
	for i := 0; i < b.N; i++ {
		_, err := st.PutFile(ctx, pumasi.PutFileInput{
			Room: fmt.Sprintf("bench-%d", i/benchRoomFiles), Name: fmt.Sprintf("f-%d.md", i), Body: body(i),
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	backend := time.Since(start)
	b.StopTimer()

	rawRate := float64(b.N) / raw.Seconds()
	backendRate := float64(b.N) / backend.Seconds()
	b.ReportMetric(rawRate, "raw-puts/s")
	b.ReportMetric(backendRate, "uploads/s")
	b.ReportMetric(backendRate/rawRate, "ratio")
}
