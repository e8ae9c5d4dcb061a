package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"pumasi"
	s3store "pumasi/adapters/s3"
	"pumasi/internal/testpeer"
)

func init() {
	register(scenario{name: "s3", run: benchS3})
}

// benchS3 measures uploads/s of 4 KiB files through the s3 backend (blob PUT
// + manifest compare-and-swap) against a real MinIO, beside raw PutObjects
// of the same bodies to the same MinIO in the same run.
func benchS3(ctx context.Context, cfg config) ([]row, error) {
	n := 500
	if cfg.quick {
		n = 100
	}
	srv, err := testpeer.StartMinIO()
	if err != nil {
		return nil, err
	}
	defer srv.Stop()
	bucket, err := srv.CreateBucket(ctx)
	if err != nil {
		return nil, err
	}
	content := make([]byte, 2048)
	rand.Read(content)
	text := []byte(hex.EncodeToString(content))
	body := func(i int) []byte { return append([]byte(fmt.Sprintf("%08d", i)), text[8:]...) }

	c := srv.Client()
	start := time.Now()
	for i := 0; i < n; i++ {
		_, err := c.PutObject(ctx, &s3.PutObjectInput{
			Bucket: aws.String(bucket), Key: aws.String(fmt.Sprintf("raw/%05d", i)), Body: bytes.NewReader(body(i)),
		})
		if err != nil {
			return nil, fmt.Errorf("raw put: %w", err)
		}
	}
	rawOps := float64(n) / time.Since(start).Seconds()

	st, err := s3store.Open(ctx, srv.URL(bucket, "bench"), s3store.Options{
		Credentials: srv.Credentials(), Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	if err != nil {
		return nil, err
	}
	defer st.Close()
	// The rate is taken over the first and the last fifth of the uploads,
	// so a cost that grows with the room shows as a falling ratio.
	fifth := n / 5
	var early, late float64
	start = time.Now()
	for i := 0; i < n; i++ {
		if i == n-fifth {
			start = time.Now()
		}
		_, err := st.PutFile(ctx, pumasi.PutFileInput{
			Room: "bench", Name: fmt.Sprintf("f%05d.txt", i), Body: body(i), ContentType: "text/plain",
		})
		if err != nil {
			return nil, fmt.Errorf("s3 upload: %w", err)
		}
		if i == fifth-1 {
			early = float64(fifth) / time.Since(start).Seconds()
		}
	}
	late = float64(fifth) / time.Since(start).Seconds()

	// 8 clients at once into one room: their manifest changes join.
	var next atomic.Int64
	errs := make(chan error, 8)
	start = time.Now()
	for w := 0; w < 8; w++ {
		go func() {
			for {
				i := int(next.Add(1)) - 1
				if i >= n {
					errs <- nil
					return
				}
				if _, err := st.PutFile(ctx, pumasi.PutFileInput{
					Room: "bench8", Name: fmt.Sprintf("f%05d.txt", i), Body: body(i), ContentType: "text/plain",
				}); err != nil {
					errs <- fmt.Errorf("s3 upload: %w", err)
					return
				}
			}
		}()
	}
	for w := 0; w < 8; w++ {
		if e := <-errs; e != nil && err == nil {
			err = e
		}
	}
	if err != nil {
		return nil, err
	}
	parallel := float64(n) / time.Since(start).Seconds()

	return []row{
		{Metric: fmt.Sprintf("s3 backend uploads (4 KiB, files 1-%d of one room)", fifth), Value: early, Unit: "ops/s",
			Baseline: "raw PutObject, same MinIO", Base: rawOps, HigherIsBetter: true},
		{Metric: fmt.Sprintf("s3 backend uploads (4 KiB, files %d-%d of one room)", n-fifth+1, n), Value: late, Unit: "ops/s",
			Baseline: "raw PutObject, same MinIO", Base: rawOps, HigherIsBetter: true},
		{Metric: fmt.Sprintf("s3 backend uploads (4 KiB, %d into one room, 8 clients)", n), Value: parallel, Unit: "ops/s",
			Baseline: "raw PutObject, same MinIO (1 client)", Base: rawOps, HigherIsBetter: true},
	}, nil
}
