package functions

import (
	"container/list"
	"math"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"pumasi"
)

// RateLimit is a token bucket: Rate tokens a second, up to Burst at once.
type RateLimit struct {
	Rate  float64
	Burst int
}

// RateLimits bound keyless knowledge writes (contribute, cite, endorse) per
// X-Hive-Agent handle and per client address (DESIGN.md §7). Buckets live in
// the process: in Lambda each warm instance keeps its own, so the limits are
// per instance there, which still blunts a flood from one client.
type RateLimits struct {
	PerHandle  RateLimit
	PerAddress RateLimit
	// Disabled turns both off (benchmarks, trusted deployments).
	Disabled bool
}

// Default knowledge write limits.
var (
	DefaultHandleLimit  = RateLimit{Rate: 1, Burst: 60}
	DefaultAddressLimit = RateLimit{Rate: 10, Burst: 120}
)

// maxBuckets bounds the buckets one limiter keeps (about 100 bytes each).
const maxBuckets = 50000

// evictScan is how many of the least recently used buckets a new key looks
// at for one that has refilled.
const evictScan = 64

// limiter holds one bucket per key, least recently used last. A bucket is
// forgotten only once it has refilled completely, when forgetting it
// changes nothing; a flood of new keys can neither grow the map past max nor
// reset a busy key's bucket. When the least recently used buckets are all
// still busy, a new key is charged to one shared overflow bucket instead of
// getting its own, so the flood is limited as one client.
type limiter struct {
	lim      RateLimit
	max      int
	mu       sync.Mutex
	m        map[string]*list.Element // of *bucket
	lru      list.List                // front: most recently used
	overflow *rate.Limiter
}

type bucket struct {
	key string
	b   *rate.Limiter
}

func newLimiter(l RateLimit) *limiter {
	return &limiter{lim: l, max: maxBuckets, m: map[string]*list.Element{}, overflow: rate.NewLimiter(rate.Limit(l.Rate), l.Burst)}
}

// reserve takes a token for key at now. It returns the reservation, to be
// cancelled if another bucket refuses the same request, and how long the
// caller must wait before a token is available (0 when allowed now).
func (l *limiter) reserve(key string, now time.Time) (*rate.Reservation, time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	b := l.bucket(key, now)
	r := b.ReserveN(now, 1)
	return r, r.DelayFrom(now)
}

// bucket returns key's bucket, marked most recently used; a new key evicts
// a refilled bucket when the limiter is full, or shares the overflow
// bucket when none of the least recently used has refilled.
func (l *limiter) bucket(key string, now time.Time) *rate.Limiter {
	if el, ok := l.m[key]; ok {
		l.lru.MoveToFront(el)
		return el.Value.(*bucket).b
	}
	if len(l.m) >= l.max && !l.evict(now) {
		return l.overflow
	}
	b := &bucket{key: key, b: rate.NewLimiter(rate.Limit(l.lim.Rate), l.lim.Burst)}
	l.m[key] = l.lru.PushFront(b)
	return b.b
}

// evict drops the least recently used bucket that has refilled, among the
// evictScan least recently used; it reports whether it dropped one.
func (l *limiter) evict(now time.Time) bool {
	el := l.lru.Back()
	for i := 0; el != nil && i < evictScan; i++ {
		b := el.Value.(*bucket)
		if b.b.TokensAt(now) >= float64(l.lim.Burst) {
			l.lru.Remove(el)
			delete(l.m, b.key)
			return true
		}
		el = el.Prev()
	}
	return false
}

// knowledgeLimiters are built once per API on first use.
type knowledgeLimiters struct {
	once    sync.Once
	handle  *limiter
	address *limiter
}

// allowKnowledgeWrite charges one write to the handle and to the client
// address. Returns rate_limited with the wait in seconds when either bucket
// is empty.
func (a *API) allowKnowledgeWrite(w http.ResponseWriter, r *http.Request, handle string) error {
	if a.RateLimits.Disabled {
		return nil
	}
	a.limiters.once.Do(func() {
		h, ad := a.RateLimits.PerHandle, a.RateLimits.PerAddress
		if h.Rate <= 0 || h.Burst <= 0 {
			h = DefaultHandleLimit
		}
		if ad.Rate <= 0 || ad.Burst <= 0 {
			ad = DefaultAddressLimit
		}
		a.limiters.handle, a.limiters.address = newLimiter(h), newLimiter(ad)
	})
	now := a.now()
	ra, waitA := a.limiters.address.reserve(clientAddress(r), now)
	rh, waitH := a.limiters.handle.reserve(handle, now)
	wait := max(waitA, waitH)
	if wait == 0 {
		return nil
	}
	// A refused write costs neither bucket anything.
	ra.CancelAt(now)
	rh.CancelAt(now)
	secs := int(math.Ceil(wait.Seconds()))
	w.Header().Set("Retry-After", strconv.Itoa(max(secs, 1)))
	return pumasi.Errorf(pumasi.ERateLimited, "too many knowledge writes; retry in %d s", max(secs, 1))
}

// clientAddress is the peer's IP. Forwarding headers are not trusted: the
// Lambda adapter sets RemoteAddr from API Gateway's sourceIp.
func clientAddress(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// ParseRateLimit reads "RATE,BURST" (tokens a second, bucket size), as in
// PUMASI_RATE_PER_HANDLE=1,60. "off" disables that bucket's limit by making
// it unbounded. Returns invalid_request.
func ParseRateLimit(s string) (RateLimit, error) {
	if s == "off" {
		return RateLimit{Rate: math.MaxFloat64, Burst: math.MaxInt32}, nil
	}
	r, b, ok := strings.Cut(s, ",")
	rt, err1 := strconv.ParseFloat(strings.TrimSpace(r), 64)
	bu, err2 := strconv.Atoi(strings.TrimSpace(b))
	if !ok || err1 != nil || err2 != nil || rt <= 0 || bu <= 0 {
		return RateLimit{}, pumasi.Errorf(pumasi.EInvalidRequest, "rate limit %q: want RATE,BURST such as 1,60, or off", s)
	}
	return RateLimit{Rate: rt, Burst: bu}, nil
}
