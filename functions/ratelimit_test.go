package functions

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"pumasi"
	"pumasi/adapters/embed"
	"pumasi/adapters/local"
)

// fakeClock is a settable clock for rate limit tests.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) now() time.Time      { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *fakeClock) add(d time.Duration) { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }

func TestKnowledgeRateLimits(t *testing.T) {
	st, err := local.Open(context.Background(), t.TempDir(), local.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	clock := &fakeClock{t: time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)}
	api := &API{
		Store: st, Secret: testSecret, Knowledge: local.NewKnowledge(st), Embedder: embed.NewHashed(0),
		Now:        clock.now,
		RateLimits: RateLimits{PerHandle: RateLimit{Rate: 1, Burst: 3}, PerAddress: RateLimit{Rate: 2, Burst: 5}},
	}
	h := api.Handler()
	// A bad JSON body answers 400 when the write is let through and 429 when
	// it is not, so the limiter is seen without the gate in the way.
	post := func(handle, addr string) *httptest.ResponseRecorder {
		r := httptest.NewRequest("POST", "/knowledge/contribute", strings.NewReader("{"))
		r.RemoteAddr = addr + ":4000"
		if handle != "" {
			r.Header.Set(HeaderAgent, handle)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w
	}
	code := func(w *httptest.ResponseRecorder) string {
		return w.Result().Status + " " + strings.TrimSpace(w.Body.String())
	}

	for i := range 3 {
		if w := post("agent-a", "10.0.0.1"); w.Code != 400 {
			t.Fatalf("write %d within the handle burst = %s", i, code(w))
		}
	}
	w := post("agent-a", "10.0.0.1")
	if w.Code != http.StatusTooManyRequests || !strings.Contains(w.Body.String(), pumasi.ERateLimited) || w.Header().Get("Retry-After") != "1" {
		t.Fatalf("4th write of one handle = %s Retry-After %q, want 429 rate_limited, Retry-After 1", code(w), w.Header().Get("Retry-After"))
	}
	// Another handle from another address is not affected.
	if w := post("agent-b", "10.0.0.2"); w.Code != 400 {
		t.Fatalf("other handle = %s", code(w))
	}
	clock.add(time.Second)
	if w := post("agent-a", "10.0.0.1"); w.Code != 400 {
		t.Fatalf("after a second the handle has a token again: %s", code(w))
	}

	// Per address: many handles from one address share its bucket: burst 5,
	// 3 used at once, 2 back after a second, 1 used since, so 3 are left.
	allowed := 0
	for i := range 10 {
		if w := post("many-"+string(rune('a'+i))+"xx", "10.0.0.1"); w.Code == 400 {
			allowed++
		} else if w.Code != 429 {
			t.Fatalf("unexpected %s", code(w))
		}
	}
	if allowed != 3 {
		t.Fatalf("address bucket let %d more writes through, want 3", allowed)
	}

	// Missing handle is 401 before any rate limit; reads are never limited.
	if w := post("", "10.0.0.9"); w.Code != 401 || !strings.Contains(w.Body.String(), pumasi.EAgentRequired) {
		t.Fatalf("no handle = %s", code(w))
	}
	for range 20 {
		r := httptest.NewRequest("GET", "/knowledge/query?q=postgres", nil)
		r.RemoteAddr = "10.0.0.1:4000"
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != 200 {
			t.Fatalf("query = %s", code(w))
		}
	}

	// Disabled lets everything through.
	api2 := &API{Store: st, Secret: testSecret, Knowledge: local.NewKnowledge(st), Embedder: embed.NewHashed(0), RateLimits: RateLimits{Disabled: true}}
	for range 200 {
		r := httptest.NewRequest("POST", "/knowledge/contribute", strings.NewReader("{"))
		r.Header.Set(HeaderAgent, "agent-a")
		w := httptest.NewRecorder()
		api2.Handler().ServeHTTP(w, r)
		if w.Code != 400 {
			t.Fatalf("disabled limiter answered %d", w.Code)
		}
	}
}

// TestLimiterFloodKeepsBusyBuckets: a flood of distinct keys can neither
// reset a busy key's bucket nor grow the limiter past its bound; buckets
// that have refilled make room for new keys, least recently used first.
func TestLimiterFloodKeepsBusyBuckets(t *testing.T) {
	t0 := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	l := newLimiter(RateLimit{Rate: 0.01, Burst: 3}) // a token every 100 s
	l.max = 100
	allowed := func(key string, now time.Time) int {
		n := 0
		for range 10 {
			r, wait := l.reserve(key, now)
			if wait > 0 {
				r.CancelAt(now)
				break
			}
			n++
		}
		return n
	}
	if got := allowed("busy", t0); got != 3 {
		t.Fatalf("busy key first burst = %d, want 3", got)
	}
	flood := func(prefix string, n int, now time.Time) {
		for i := range n {
			r, wait := l.reserve(prefix+strconv.Itoa(i), now)
			if wait > 0 {
				r.CancelAt(now)
			}
		}
	}
	// Every flooded bucket is busy too: the limiter stays at its bound and
	// the keys past it share one overflow bucket.
	flood("a", 5*l.max, t0)
	if len(l.m) > l.max || l.lru.Len() != len(l.m) {
		t.Fatalf("%d buckets (%d in the list), want at most %d", len(l.m), l.lru.Len(), l.max)
	}
	if got := allowed("busy", t0); got != 0 {
		t.Fatalf("busy key after a flood = %d writes, want 0 (its bucket was reset)", got)
	}
	// 200 s on, the flood's buckets (1 token used) have refilled and make
	// room for a second flood; the busy key (3 used) has 2 tokens back,
	// not 3: its bucket was kept, not forgotten.
	t1 := t0.Add(200 * time.Second)
	flood("b", 5*l.max, t1)
	if len(l.m) > l.max {
		t.Fatalf("%d buckets, want at most %d", len(l.m), l.max)
	}
	if _, ok := l.m["b0"]; !ok {
		t.Fatalf("a new key found no room though refilled buckets could go")
	}
	if got := allowed("busy", t1); got != 2 {
		t.Fatalf("busy key at +200 s = %d writes, want 2 (3 means its bucket was reset)", got)
	}
}
