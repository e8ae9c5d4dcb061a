package machine

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestOneFetchPerContent checks that agents of one room on one machine get
// a file that is too big to ride inline with a single fetch, through frames
// and through a backfill alike.
func TestOneFetchPerContent(t *testing.T) {
	s := newServer(t)
	var fetches atomic.Int32
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/rooms/") {
			fetches.Add(1)
		}
		s.srv.Config.Handler.ServeHTTP(w, r)
	}))
	defer front.Close()
	home := t.TempDir()
	const agents = 12
	for i := 0; i < agents; i++ {
		s.place("r1", "a"+string(rune('a'+i)), "m1")
	}
	big1 := strings.Repeat("backfill ", 20<<10)
	s.upload("r1", "big1.txt", big1)
	startDaemon(t, Config{Server: front.URL, Machine: "m1", Token: s.token("machine:m1"), Home: home, Poll: time.Hour, Log: quietLog()})
	for i := 0; i < agents; i++ {
		waitDir(t, home, "a"+string(rune('a'+i)), map[string]string{"big1.txt": big1})
	}
	if n := fetches.Load(); n != 1 {
		t.Fatalf("backfill of %d agents fetched %d times, want 1", agents, n)
	}
	big2 := strings.Repeat("frame ", 30<<10)
	s.upload("r1", "big2.txt", big2)
	for i := 0; i < agents; i++ {
		waitDir(t, home, "a"+string(rune('a'+i)), map[string]string{"big1.txt": big1, "big2.txt": big2})
	}
	if n := fetches.Load(); n != 2 {
		t.Fatalf("after a big upload fanned out to %d agents: %d fetches in all, want 2", agents, n)
	}
}

func TestBlobCacheBoundAndFailedFlight(t *testing.T) {
	c := newBlobCache(10)
	c.put("a", []byte("12345"))
	c.put("b", []byte("12345"))
	c.put("c", []byte("123"))
	if _, ok := c.get("a"); ok {
		t.Fatal("oldest entry kept past the bound")
	}
	if b, ok := c.get("c"); !ok || string(b) != "123" {
		t.Fatal("newest entry missing")
	}
	if c.size > 10 {
		t.Fatalf("size %d beyond bound", c.size)
	}
	// A failed fetch does not fail the one that joined it.
	start := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	var first error
	go func() {
		defer wg.Done()
		_, first = c.fetch("x", func() ([]byte, error) { <-start; return nil, errors.New("403 for that room") })
	}()
	time.Sleep(20 * time.Millisecond)
	go func() { time.Sleep(20 * time.Millisecond); close(start) }()
	b, err := c.fetch("x", func() ([]byte, error) { return []byte("ok"), nil })
	wg.Wait()
	if first == nil || err != nil || string(b) != "ok" {
		t.Fatalf("first %v; joined got %q, %v", first, b, err)
	}
}
