package s3

import (
	"context"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"pumasi"
)

// healthTimeout bounds the bucket probe of a health check.
const healthTimeout = 3 * time.Second

// HealthChecks reports whether the bucket answers (durable: S3 makes what
// it acknowledges durable, so answering is what a write needs).
func (s *Store) HealthChecks(ctx context.Context) []pumasi.HealthCheck {
	ctx, cancel := context.WithTimeout(ctx, healthTimeout)
	defer cancel()
	c := pumasi.HealthCheck{Name: pumasi.CheckDurable, OK: true}
	if _, err := s.client.HeadBucket(ctx, &s3.HeadBucketInput{Bucket: aws.String(s.bucket)}); err != nil {
		c.OK, c.Message = false, "the S3 bucket does not answer"
		s.log.Warn("health: S3 bucket", "bucket", s.bucket, "err", err)
	}
	return []pumasi.HealthCheck{c}
}
