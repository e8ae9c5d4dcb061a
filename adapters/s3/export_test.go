package s3

import (
	"time"

	"github.com/aws/aws-sdk-go-v2/service/s3"
)

// SetAfterBlob installs a hook that PutFile runs between its blob PUT and
// its manifest update, so tests can kill the process at that point.
func SetAfterBlob(s *Store, fn func()) { s.afterBlob = fn }

// MaxLosses returns the most compare-and-swap conflicts one update of s met
// before it won.
func MaxLosses(s *Store) int64 { return s.maxLosses.Load() }

// WrapHTTPClient rebuilds s's S3 client around wrap(its HTTP client), so a
// test can lose answers the way a network or S3 itself does.
func WrapHTTPClient(s *Store, wrap func(s3.HTTPClient) s3.HTTPClient) {
	s.client = s3.New(s.client.Options(), func(o *s3.Options) { o.HTTPClient = wrap(o.HTTPClient) })
}

// SetWriteTimeout bounds each conditional write of s, so a test can hold an
// answer past it.
func SetWriteTimeout(s *Store, d time.Duration) { s.writeTimeout = d }

// Landed returns how many writes of s lost their answer and were found
// applied.
func Landed(s *Store) int64 { return s.landed.Load() }

// SetBeforeBlobDelete installs a hook the sweep runs after deciding to
// delete a blob and before deleting it, so a test can race an upload there.
func SetBeforeBlobDelete(s *Store, fn func(room, sum string)) { s.beforeBlobDelete = fn }

// SetStallPatience sets how long a batch of manifest changes of s may run
// before the changes queued behind it start their own.
func SetStallPatience(s *Store, d time.Duration) { s.stallPatience = d }

// RequestTimeouts returns the timeouts s runs its requests under.
func RequestTimeouts(s *Store) Timeouts { return s.timeouts }
