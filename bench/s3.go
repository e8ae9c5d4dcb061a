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
)

func init() {
	register(scenario{name: "s3", run: benchS3})
}

// benchS3 measures uploads/s of 4 KiB files through the s3 backend (blob PUT
// + manifest compare-and-swap) against a real MinIO, beside raw PutObjects
// of the same bodies to the same MinIO in the same run and beside the floor
// of that shape (the same two conditional PUTs done by the raw client).
func benchS3(ctx context.Context, cfg config) ([]row, error) {
	n := 500
	if cfg.quick {
		n = 100
	}
	srv, bucket, err := startBucket(ctx)
	if err != nil {
		return nil, err
	}
	defer srv.Stop()
	content := make([]byte, 2048)
	rand.Read(content)
	text := []byte(hex.EncodeToString(content))
	body := func(i int) []byte { return append([]byte(fmt.Sprintf("%08d", i)), text[8:]...) }

	st, err := s3store.Open(ctx, srv.URL(bucket, "bench"), s3store.Options{
		Credentials: srv.Credentials(), Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	if err != nil {
		return nil, err
	}
	defer st.Close()
	// Each upload sits between a raw PutObject and the floor, one of each
	// in turn, so that on a shared machine the noise falls on all three
	// alike; rates are taken per fifth of the room's growth, so a cost that
	// grows with the room shows as a falling ratio. The floor is the least
	// this shape can cost: one If-None-Match PUT of the body to a new key
	// and one If-Match PUT (an overwrite) of a body the size the room's
	// manifest has just then, back to back.
	c := srv.Client()
	fifth := n / 5
	rawRate := make([]float64, 5)
	floorRate := make([]float64, 5)
	manifestSize := make([]int64, 5)
	upRate := make([]float64, 5)
	var rawTotal time.Duration
	manifestKey := "bench/rooms/bench/manifest.json"
	floorKey := aws.String("floor/manifest")
	out, err := c.PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String(bucket), Key: floorKey, Body: bytes.NewReader(nil)})
	if err != nil {
		return nil, fmt.Errorf("floor put: %w", err)
	}
	floorETag := out.ETag
	for r := 0; r < 5; r++ {
		var rawTime, upTime, floorTime time.Duration
		var sizes int64
		for i := r * fifth; i < (r+1)*fifth; i++ {
			start := time.Now()
			if _, err := c.PutObject(ctx, &s3.PutObjectInput{
				Bucket: aws.String(bucket), Key: aws.String(fmt.Sprintf("raw/%05d", i)), Body: bytes.NewReader(body(i)),
			}); err != nil {
				return nil, fmt.Errorf("raw put: %w", err)
			}
			rawTime += time.Since(start)

			start = time.Now()
			if _, err := st.PutFile(ctx, pumasi.PutFileInput{
				Room: "bench", Name: fmt.Sprintf("f%05d.txt", i), Body: body(i), ContentType: "text/plain",
			}); err != nil {
				return nil, fmt.Errorf("s3 upload: %w", err)
			}
			upTime += time.Since(start)

			// Untimed: the manifest's size as this upload left it.
			h, err := c.HeadObject(ctx, &s3.HeadObjectInput{Bucket: aws.String(bucket), Key: aws.String(manifestKey)})
			if err != nil {
				return nil, fmt.Errorf("head manifest: %w", err)
			}
			size := aws.ToInt64(h.ContentLength)
			sizes += size
			mbody := bytes.Repeat([]byte("m"), int(size))

			start = time.Now()
			if _, err := c.PutObject(ctx, &s3.PutObjectInput{
				Bucket: aws.String(bucket), Key: aws.String(fmt.Sprintf("floor/%05d", i)), Body: bytes.NewReader(body(i)), IfNoneMatch: aws.String("*"),
			}); err != nil {
				return nil, fmt.Errorf("floor blob put: %w", err)
			}
			out, err := c.PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String(bucket), Key: floorKey, Body: bytes.NewReader(mbody), IfMatch: floorETag})
			if err != nil {
				return nil, fmt.Errorf("floor manifest put: %w", err)
			}
			floorTime += time.Since(start)
			floorETag = out.ETag
		}
		rawTotal += rawTime
		rawRate[r] = float64(fifth) / rawTime.Seconds()
		upRate[r] = float64(fifth) / upTime.Seconds()
		floorRate[r] = float64(fifth) / floorTime.Seconds()
		manifestSize[r] = sizes / int64(fifth)
	}
	rawOps := float64(5*fifth) / rawTotal.Seconds()

	// 8 clients at once into one room: their manifest changes join.
	var next atomic.Int64
	errs := make(chan error, 8)
	start := time.Now()
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
		{Metric: fmt.Sprintf("s3 backend uploads (4 KiB, files 1-%d of one room)", fifth), Value: upRate[0], Unit: "ops/s",
			Baseline: "raw PutObject, same MinIO, interleaved", Base: rawRate[0], HigherIsBetter: true},
		{Metric: fmt.Sprintf("s3 backend uploads (4 KiB, files %d-%d of one room)", n-fifth+1, n), Value: upRate[4], Unit: "ops/s",
			Baseline: "raw PutObject, same MinIO, interleaved", Base: rawRate[4], HigherIsBetter: true},
		{Metric: fmt.Sprintf("s3 backend uploads (4 KiB, files 1-%d of one room)", fifth), Value: upRate[0], Unit: "ops/s",
			Baseline: fmt.Sprintf("floor: If-None-Match PUT + If-Match PUT of ~%d B, interleaved", manifestSize[0]), Base: floorRate[0], HigherIsBetter: true},
		{Metric: fmt.Sprintf("s3 backend uploads (4 KiB, files %d-%d of one room)", n-fifth+1, n), Value: upRate[4], Unit: "ops/s",
			Baseline: fmt.Sprintf("floor: If-None-Match PUT + If-Match PUT of ~%d B, interleaved", manifestSize[4]), Base: floorRate[4], HigherIsBetter: true},
		{Metric: fmt.Sprintf("s3 backend uploads (4 KiB, %d into one room, 8 clients)", n), Value: parallel, Unit: "ops/s",
			Baseline: "raw PutObject, same MinIO (1 client)", Base: rawOps, HigherIsBetter: true},
	}, nil
}
