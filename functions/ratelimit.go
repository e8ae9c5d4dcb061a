package functions

import (
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

// maxBuckets bounds the memory the limiter may hold; idle full buckets are
// dropped first when it is reached.
const maxBuckets = 50000

// limiter holds one bucket per key.
type limiter struct {
	lim RateLimit
	mu  sync.Mutex
	m   map[string]*rate.Limiter
}

func newLimiter(l RateLimit) *limiter {
	return &limiter{lim: l, m: map[string]*rate.Limiter{}}
}

// reserve takes a token for key at now. It returns the reservation, to be
// cancelled if another bucket refuses the same request, and how long the
// caller must wait before a token is available (0 when allowed now).
func (l *limiter) reserve(key string, now time.Time) (*rate.Reservation, time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	b, ok := l.m[key]
	if !ok {
		if len(l.m) >= maxBuckets {
			l.prune(now)
		}
		b = rate.NewLimiter(rate.Limit(l.lim.Rate), l.lim.Burst)
		l.m[key] = b
	}
	r := b.ReserveN(now, 1)
	return r, r.DelayFrom(now)
}

// prune drops buckets that have refilled completely: forgetting them changes
// nothing. If every bucket is busy, it drops them all rather than grow.
func (l *limiter) prune(now time.Time) {
	for k, b := range l.m {
		if b.TokensAt(now) >= float64(l.lim.Burst) {
			delete(l.m, k)
		}
	}
	if len(l.m) >= maxBuckets {
		clear(l.m)
	}
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
