// Package s3 is the storage backend for S3 and S3-compatible stores (MinIO,
// and anything else that honours conditional writes). It keeps no state of
// its own: every invariant lives in objects updated by compare-and-swap, so
// any number of processes may share one bucket without locks.
//
// Layout under the URL's prefix (DESIGN.md §3 "S3 layout"):
//
//	rooms/<room>/blobs/<sha256>    content-addressed file bodies
//	rooms/<room>/manifest.json     rev, files and placements of the room
//	rooms/<room>/snap/<rev>-<id>   immutable file lists a large room's manifest
//	                               builds on (manifest.go)
//	rooms/<room>/hist/<rev>-<id>   immutable segments of the room's history
//	                               (history.go)
//	agents/<agent>.json            where the agent is placed (the commit point)
//	machines/<machine>.json        the placements on that machine
//	status/<agent>.json            what the agent's daemon last reported
//
// Manifests, agent records and machine indexes are only ever written with
// If-Match on the ETag read before (If-None-Match: * to create) and retried on
// 412/409; status objects are last-writer-wins. Each of those CAS'd objects
// starts with a "_cas" mark (its version and the ids of its last writers),
// so a write whose answer was lost is recognised on reading back (see
// update in cas.go). Reads of these JSON objects
// are conditional GETs against a per-process copy, which saves bodies, never
// freshness.
//
// Every request has a deadline and every wait in the store ends (deadline.go,
// coalesce.go): a stalled reply fails its own call as unavailable, or as an
// unknown outcome when a write may have landed, and never holds up the rest
// of a room.
package s3

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/ratelimit"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"pumasi"
)

// DefaultRegion is used when neither the URL nor the AWS chain names one.
const DefaultRegion = "us-east-1"

// Options configures a Store. Zero values mean the defaults.
type Options struct {
	// Now is the clock for created_at, updated_at, placed_at, reported_at and
	// the sweep's cutoff.
	Now func() time.Time
	// Logger receives compare-and-swap retries (debug) and sweep notes.
	Logger *slog.Logger
	// MaxRoomFiles caps the files of one room (pumasi.DefaultMaxRoomFiles).
	MaxRoomFiles int
	// MaxRoomBytes caps the total size of one room (pumasi.DefaultMaxRoomBytes).
	MaxRoomBytes int64
	// History is how much of the rooms' past the store keeps; the zero
	// value keeps the defaults (pumasi.Retention).
	History pumasi.Retention
	// Credentials overrides the standard AWS credential chain; nil uses the
	// chain (env, shared config, IMDS, ...). Tests and embedders set it.
	Credentials aws.CredentialsProvider
	// Timeouts bound every request to S3 (deadline.go); zero fields take
	// the storage URL's values, then the defaults.
	Timeouts Timeouts
}

// Location is a parsed PUMASI_STORAGE URL:
// s3://bucket/prefix?endpoint=...&region=...&path_style=true&timeout=30s&
// header_timeout=10s&connect_timeout=5s.
type Location struct {
	Bucket    string
	Prefix    string // without leading or trailing slash; may be empty
	Endpoint  string // empty for AWS's own endpoints
	Region    string // empty to take it from the AWS chain
	PathStyle bool
	Timeouts  Timeouts // zero fields: the defaults
}

// ParseURL parses an s3:// storage URL. Unknown query parameters are refused
// so that a typo does not silently point at AWS. Returns invalid_request.
func ParseURL(raw string) (Location, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return Location{}, pumasi.Errorf(pumasi.EInvalidRequest, "storage url: %v", err)
	}
	if u.Scheme != "s3" {
		return Location{}, pumasi.Errorf(pumasi.EInvalidRequest, "storage url %q: scheme must be s3", raw)
	}
	if u.Host == "" {
		return Location{}, pumasi.Errorf(pumasi.EInvalidRequest, "storage url %q: missing bucket", raw)
	}
	loc := Location{Bucket: u.Host, Prefix: strings.Trim(u.Path, "/")}
	for key, vals := range u.Query() {
		v := vals[len(vals)-1]
		switch key {
		case "endpoint":
			e, err := url.Parse(v)
			if err != nil || (e.Scheme != "http" && e.Scheme != "https") || e.Host == "" {
				return Location{}, pumasi.Errorf(pumasi.EInvalidRequest, "storage url: endpoint %q must be an http(s) URL", v)
			}
			loc.Endpoint = strings.TrimRight(v, "/")
		case "region":
			loc.Region = v
		case "path_style":
			b, err := strconv.ParseBool(v)
			if err != nil {
				return Location{}, pumasi.Errorf(pumasi.EInvalidRequest, "storage url: path_style %q is not a boolean", v)
			}
			loc.PathStyle = b
		case "timeout", "header_timeout", "connect_timeout":
			d, err := parseTimeout(key, v)
			if err != nil {
				return Location{}, err
			}
			switch key {
			case "timeout":
				loc.Timeouts.Request = d
			case "header_timeout":
				loc.Timeouts.Header = d
			default:
				loc.Timeouts.Connect = d
			}
		default:
			return Location{}, pumasi.Errorf(pumasi.EInvalidRequest, "storage url: unknown parameter %q", key)
		}
	}
	return loc, nil
}

// Store is the S3 backend. It is safe for concurrent use, also by other
// processes holding their own Store on the same bucket and prefix.
type Store struct {
	client   *s3.Client
	bucket   string
	prefix   string // "" or ends with "/"
	now      func() time.Time
	log      *slog.Logger
	maxFiles int
	maxBytes int64
	history  pumasi.Retention
	timeouts Timeouts

	// conflicts counts compare-and-swap attempts that lost a race (412/409)
	// and were retried; tests and logs read it.
	conflicts atomic.Int64
	// maxLosses is the most conflicts one update met before it won.
	maxLosses atomic.Int64
	// landed counts writes whose answer was lost and that update found
	// applied when it read the object back.
	landed atomic.Int64

	// cache holds the last seen copy of each JSON object (see update).
	cache objCache
	// snaps holds decoded manifest snapshots, which never change (manifest.go).
	snaps snapCache
	// segs holds decoded history segments, which never change (history.go).
	segs segCache
	// coalesce joins concurrent changes to one manifest (coalesce.go).
	coalesce coalescer

	// writeTimeout bounds one conditional write, and each read of the
	// compare-and-swap loop, so that an answer lost in the network is
	// settled by reading the object instead of by waiting.
	writeTimeout time.Duration
	// stallPatience is how long a manifest batch may run before the next
	// changes to that manifest start their own (coalesce.go).
	stallPatience time.Duration

	// beforeBlobDelete, when set by tests, runs in the sweep between the
	// check of a blob and its DELETE.
	beforeBlobDelete func(room, sum string)

	// afterBlob, when set by tests, runs between the blob PUT and the
	// manifest update of PutFile.
	afterBlob func()
}

var _ pumasi.Store = (*Store)(nil)

// Open connects to the bucket named by rawURL with credentials from
// opts.Credentials or the standard AWS chain and checks that the bucket is
// reachable.
func Open(ctx context.Context, rawURL string, opts Options) (*Store, error) {
	loc, err := ParseURL(rawURL)
	if err != nil {
		return nil, err
	}
	timeouts := opts.Timeouts.withDefaults(loc.Timeouts)
	loadOpts := []func(*config.LoadOptions) error{
		config.WithHTTPClient(timeouts.httpClient()),
		// Conditional writes and MinIO both want plain requests: no trailing
		// checksums the server may not know.
		config.WithRequestChecksumCalculation(aws.RequestChecksumCalculationWhenRequired),
		config.WithResponseChecksumValidation(aws.ResponseChecksumValidationWhenRequired),
		// The client-side retry quota would turn a burst of server errors into
		// local failures; compare-and-swap conflicts are retried by us anyway.
		config.WithRetryer(func() aws.Retryer {
			return retry.NewStandard(func(o *retry.StandardOptions) { o.RateLimiter = ratelimit.None })
		}),
	}
	if loc.Region != "" {
		loadOpts = append(loadOpts, config.WithRegion(loc.Region))
	}
	if opts.Credentials != nil {
		loadOpts = append(loadOpts, config.WithCredentialsProvider(opts.Credentials))
	}
	cfg, err := config.LoadDefaultConfig(ctx, loadOpts...)
	if err != nil {
		return nil, fmt.Errorf("open s3 store: load aws config: %w", err)
	}
	if cfg.Region == "" {
		cfg.Region = DefaultRegion
	}
	client := s3.NewFromConfig(cfg, func(o *s3.Options) {
		o.UsePathStyle = loc.PathStyle
		o.APIOptions = append(o.APIOptions, deadline(timeouts.Request))
		if loc.Endpoint != "" {
			o.BaseEndpoint = aws.String(loc.Endpoint)
		}
	})
	s := &Store{
		client:   client,
		bucket:   loc.Bucket,
		now:      opts.Now,
		log:      opts.Logger,
		maxFiles: opts.MaxRoomFiles,
		maxBytes: opts.MaxRoomBytes,
		history:  opts.History.WithDefaults(),
		timeouts: timeouts,
	}
	if loc.Prefix != "" {
		s.prefix = loc.Prefix + "/"
	}
	if s.now == nil {
		s.now = time.Now
	}
	if s.log == nil {
		s.log = slog.Default()
	}
	if s.maxFiles <= 0 {
		s.maxFiles = pumasi.DefaultMaxRoomFiles
	}
	if s.maxBytes <= 0 {
		s.maxBytes = pumasi.DefaultMaxRoomBytes
	}
	s.stallPatience = defaultStallPatience
	s.writeTimeout = min(casWriteTimeout, timeouts.Request)
	if _, err := client.HeadBucket(ctx, &s3.HeadBucketInput{Bucket: aws.String(s.bucket)}); err != nil {
		if statusOf(err) == 404 {
			return nil, fmt.Errorf("open s3 store: bucket %q does not exist: %w", s.bucket, err)
		}
		return nil, fmt.Errorf("open s3 store: bucket %q: %w", s.bucket, err)
	}
	return s, nil
}

// Close releases nothing: the client holds only pooled connections.
func (s *Store) Close() error { return nil }

// Conflicts returns how many compare-and-swap attempts of this Store lost a
// race and were retried since it was opened.
func (s *Store) Conflicts() int64 { return s.conflicts.Load() }

func (s *Store) manifestKey(room string) string {
	return s.prefix + "rooms/" + room + "/manifest.json"
}

func (s *Store) blobKey(room, sum string) string {
	return s.prefix + "rooms/" + room + "/blobs/" + sum
}

func (s *Store) agentKey(agent string) string { return s.prefix + "agents/" + agent + ".json" }

func (s *Store) machineKey(machine string) string {
	return s.prefix + "machines/" + machine + ".json"
}

func (s *Store) statusKey(agent string) string { return s.prefix + "status/" + agent + ".json" }

// errOutcomeUnknown ends an update whose write lost its answer when reading
// the object back could not tell whether it landed.
var errOutcomeUnknown = errors.New("outcome of a write whose answer was lost is unknown")

// casWriteTimeout bounds one conditional write of a JSON object (they are
// small); past it the write is settled by reading the object back.
const casWriteTimeout = 20 * time.Second

// errTooBusy ends a compare-and-swap loop that kept losing.
var errTooBusy = errors.New("too many concurrent writers")

// Describe says where rawURL keeps room files, for GET /healthz and
// localdev's banner. Returns invalid_request when rawURL does not parse.
func Describe(rawURL string) (pumasi.StorageWhere, error) {
	loc, err := ParseURL(rawURL)
	if err != nil {
		return pumasi.StorageWhere{}, err
	}
	return pumasi.StorageWhere{Kind: pumasi.StorageS3, Bucket: loc.Bucket, Prefix: loc.Prefix, Endpoint: loc.Endpoint}, nil
}
