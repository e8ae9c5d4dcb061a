package s3

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/smithy-go/middleware"

	"pumasi"
)

// Every call to S3 ends: each request runs under a deadline (its SDK
// retries and, for a GET, the reading of its body included), each HTTP
// attempt waits a bounded time for its answer's headers, and dialing and
// the TLS handshake are bounded too. A request that runs out of time, or
// that S3 answers with a 5xx after the SDK's retries, fails as unavailable
// (503 with Retry-After): the object store did not answer. A write whose
// answer was lost that way is settled by reading the object back (update,
// cas.go) or answered as an unknown outcome, never as unavailable.

// Timeouts bound the store's calls to S3; zero fields take the defaults.
// The storage URL sets them with timeout=, header_timeout= and
// connect_timeout= (Go durations).
type Timeouts struct {
	// Request bounds one S3 request, its SDK retries included
	// (DefaultRequestTimeout). A manifest change, which may take several
	// requests, runs under twice this.
	Request time.Duration
	// Header bounds how long one HTTP attempt waits for the answer's
	// headers once the request is sent (DefaultHeaderTimeout): a stalled
	// reply fails there, and the SDK retries a read.
	Header time.Duration
	// Connect bounds dialing, and separately the TLS handshake
	// (DefaultConnectTimeout).
	Connect time.Duration
}

// Default timeouts. S3 answers small requests in tens of milliseconds and
// bodies here are at most pumasi.MaxFileSize, so these only ever end calls
// that would otherwise hang.
const (
	DefaultRequestTimeout = 30 * time.Second
	DefaultHeaderTimeout  = 10 * time.Second
	DefaultConnectTimeout = 5 * time.Second
)

// withDefaults fills zero fields of t from fallback, then the defaults.
func (t Timeouts) withDefaults(fallback Timeouts) Timeouts {
	pick := func(v, f, d time.Duration) time.Duration {
		switch {
		case v > 0:
			return v
		case f > 0:
			return f
		}
		return d
	}
	return Timeouts{
		Request: pick(t.Request, fallback.Request, DefaultRequestTimeout),
		Header:  pick(t.Header, fallback.Header, DefaultHeaderTimeout),
		Connect: pick(t.Connect, fallback.Connect, DefaultConnectTimeout),
	}
}

// batch bounds one manifest change (a compare-and-swap loop of a few
// requests) as a whole.
func (t Timeouts) batch() time.Duration { return 2 * t.Request }

// httpClient is the SDK's HTTP client with t's header, dial and TLS bounds.
func (t Timeouts) httpClient() *awshttp.BuildableClient {
	return awshttp.NewBuildableClient().
		WithDialerOptions(func(d *net.Dialer) { d.Timeout = t.Connect }).
		WithTransportOptions(func(tr *http.Transport) {
			tr.TLSHandshakeTimeout = t.Connect
			tr.ResponseHeaderTimeout = t.Header
		})
}

// objectStore names S3 in the errors clients see.
const objectStore = "the object store"

// deadline returns the SDK stack option that runs each operation under d
// and maps a request that ran out of time, could not be sent or got a 5xx
// to unavailable. A GetObject's deadline ends when its body is closed.
func deadline(d time.Duration) func(*middleware.Stack) error {
	return func(st *middleware.Stack) error {
		return st.Initialize.Add(middleware.InitializeMiddlewareFunc("pumasiDeadline",
			func(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
				parent := ctx
				ctx, cancel := context.WithTimeout(ctx, d)
				out, md, err := next.HandleInitialize(ctx, in)
				if err != nil {
					cancel()
					return out, md, unanswered(parent, err)
				}
				if g, ok := out.Result.(*s3.GetObjectOutput); ok && g.Body != nil {
					g.Body = &cancelOnClose{ReadCloser: g.Body, cancel: cancel}
				} else {
					cancel()
				}
				return out, md, nil
			}), middleware.Before)
	}
}

// unanswered marks err unavailable when S3 gave no answer about the request
// (a timeout, a reset, a refused connection) or a 5xx, while the caller
// still waits; the caller's own cancellation and S3's 4xx stay as they are.
func unanswered(parent context.Context, err error) error {
	if parent.Err() != nil {
		return err
	}
	if st := statusOf(err); st != 0 && st < 500 {
		return err
	}
	return pumasi.Unavailable(objectStore, err)
}

// cancelOnClose ends a GetObject's deadline when its body is closed.
type cancelOnClose struct {
	io.ReadCloser
	cancel context.CancelFunc
}

func (c *cancelOnClose) Close() error {
	err := c.ReadCloser.Close()
	c.cancel()
	return err
}

// parseTimeout reads a positive Go duration from a storage URL parameter.
func parseTimeout(key, v string) (time.Duration, error) {
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		return 0, pumasi.Errorf(pumasi.EInvalidRequest, "storage url: %s %q is not a positive duration (like 30s)", key, v)
	}
	return d, nil
}

// outcomeUnknown is the error of an update whose write lost its answer
// when reading the object back could not tell whether it landed.
func outcomeUnknown(key string, err error) error {
	return pumasi.OutcomeUnknown(fmt.Errorf("update %s: %w (after %w)", key, errOutcomeUnknown, err))
}
