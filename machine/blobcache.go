package machine

import "sync"

// blobCacheBytes bounds the daemon's memory of recently fetched content.
const blobCacheBytes = 32 << 20

// blobCache keeps recently fetched, already verified content by sha256, so
// that agents of one room on this machine fetch each file once, not once
// per agent. Oldest entries go first once the byte bound is reached.
type blobCache struct {
	mu       sync.Mutex
	max      int
	size     int
	order    []string
	blobs    map[string][]byte
	inflight map[string]*flight
}

// flight is one fetch in progress that others wanting the same sum join.
type flight struct {
	done chan struct{}
	body []byte
	err  error
}

func newBlobCache(max int) *blobCache {
	return &blobCache{max: max, blobs: map[string][]byte{}, inflight: map[string]*flight{}}
}

// fetch returns the content with sha256 sum from the cache, from a fetch of
// the same sum already in flight, or by calling get (which must verify the
// sum). A joined fetch that failed is retried with the caller's own get,
// since the failure may belong to another room's request.
func (c *blobCache) fetch(sum string, get func() ([]byte, error)) ([]byte, error) {
	c.mu.Lock()
	if b, ok := c.blobs[sum]; ok {
		c.mu.Unlock()
		return b, nil
	}
	if f, ok := c.inflight[sum]; ok {
		c.mu.Unlock()
		<-f.done
		if f.err == nil {
			return f.body, nil
		}
		return get()
	}
	f := &flight{done: make(chan struct{})}
	c.inflight[sum] = f
	c.mu.Unlock()
	f.body, f.err = get()
	c.mu.Lock()
	delete(c.inflight, sum)
	c.mu.Unlock()
	if f.err == nil {
		c.put(sum, f.body)
	}
	close(f.done)
	return f.body, f.err
}

func (c *blobCache) get(sum string) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	b, ok := c.blobs[sum]
	return b, ok
}

// put stores body under sum; the caller has verified that body hashes to sum.
func (c *blobCache) put(sum string, body []byte) {
	if len(body) > c.max {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.blobs[sum]; ok {
		return
	}
	for c.size+len(body) > c.max && len(c.order) > 0 {
		old := c.order[0]
		c.order = c.order[1:]
		c.size -= len(c.blobs[old])
		delete(c.blobs, old)
	}
	c.blobs[sum] = body
	c.order = append(c.order, sum)
	c.size += len(body)
}
