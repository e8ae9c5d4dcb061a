package functions

import (
	"context"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"pumasi"
)

// readCounter is the real local store, counting blob reads.
type readCounter struct {
	pumasi.Store
	reads atomic.Int32
}

func (c *readCounter) ReadFile(ctx context.Context, room, name string) (pumasi.File, []byte, error) {
	c.reads.Add(1)
	return c.Store.ReadFile(ctx, room, name)
}

// TestGetNotModifiedReadsNoBlob checks that a GET whose If-None-Match holds
// the current ETag is answered 304 from the row alone, and that a stale or
// absent If-None-Match still reads and returns the body.
func TestGetNotModifiedReadsNoBlob(t *testing.T) {
	e := newTestEnv(t)
	up := e.upload("r1", "spec.md", []byte("v1\n"), nil)
	if up.status != 201 {
		t.Fatalf("upload = %d %s", up.status, up.body)
	}
	etag := up.header.Get("ETag")
	rc := &readCounter{Store: e.store}
	srv := httptest.NewServer((&API{Store: rc, Secret: testSecret}).Handler())
	t.Cleanup(srv.Close)
	e.srv = srv
	tests := []struct {
		inm       string
		status    int
		blobReads int32
	}{
		{etag, 304, 0},
		{`"other", ` + etag, 304, 0},
		{`"0000000000000000000000000000000000000000000000000000000000000000"`, 200, 1},
		{"", 200, 1},
	}
	for _, tt := range tests {
		rc.reads.Store(0)
		r := e.do("GET", "/rooms/r1/files/spec.md", e.admin, nil, map[string]string{"If-None-Match": tt.inm})
		if r.status != tt.status || rc.reads.Load() != tt.blobReads {
			t.Errorf("If-None-Match %q: status %d with %d blob reads, want %d with %d", tt.inm, r.status, rc.reads.Load(), tt.status, tt.blobReads)
		}
		if r.header.Get("ETag") != etag {
			t.Errorf("If-None-Match %q: ETag %q, want %q", tt.inm, r.header.Get("ETag"), etag)
		}
		if tt.status == 200 && string(r.body) != "v1\n" {
			t.Errorf("If-None-Match %q: body %q", tt.inm, r.body)
		}
	}
}
