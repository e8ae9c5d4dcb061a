package localdev

import (
	"context"
	"log/slog"
	"net/http"
	"runtime"
	"runtime/debug"
	"sync/atomic"
	"time"

	"pumasi/knowledge"
)

// idleRelease is how long localdev must go without a request, after a
// busy spell, before it hands its free memory back to the operating
// system. The Go runtime keeps freed heap for reuse and returns it only
// slowly (the forced GC comes every 2 minutes, the scavenger trickles):
// after a burst of 50 clients localdev stayed at 2.4 times its idle RSS.
const idleRelease = 10 * time.Second

// idleMemory counts requests and frees memory once they stop.
type idleMemory struct {
	requests atomic.Int64
}

// count wraps next, counting every request.
func (m *idleMemory) count(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		m.requests.Add(1)
		next.ServeHTTP(w, r)
	})
}

// run frees the process's unused memory (three GCs, then every free page
// returned: debug.FreeOSMemory) once no request came for idleRelease after
// some did, and calls release first (the store's caches). It returns when
// ctx ends.
func (m *idleMemory) run(ctx context.Context, log *slog.Logger, release func()) {
	t := time.NewTicker(idleRelease / 2)
	defer t.Stop()
	var seen int64
	busy := false
	quietSince := time.Now()
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-t.C:
			n := m.requests.Load()
			switch {
			case n != seen:
				seen, busy, quietSince = n, true, now
			case busy && now.Sub(quietSince) >= idleRelease:
				busy = false
				if release != nil {
					release()
				}
				// Three collections: the first only moves what sync.Pools
				// hold (regexp machines, bufio buffers of 50 clients) to
				// their victim caches, the second frees it, and each
				// shrinks the goroutine stacks the load grew; then every
				// free page goes back.
				runtime.GC()
				runtime.GC()
				debug.FreeOSMemory()
				log.Debug("idle: returned free memory to the operating system")
			}
		}
	}
}

// releaseMemory asks the file store and the knowledge driver to let go of
// their caches, where they can (the local store's idle SQLite connections).
func releaseMemory(parts ...any) {
	for _, p := range parts {
		if k, ok := p.(interface{ Driver() knowledge.Driver }); ok {
			p = k.Driver()
		}
		if r, ok := p.(interface{ ReleaseMemory() }); ok {
			r.ReleaseMemory()
		}
	}
}
