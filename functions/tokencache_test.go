package functions

import (
	"context"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"pumasi"
	"pumasi/adapters/local"
)

// TestTokenCacheHonoursExpiry uses a token until just before its expiry and
// once after, against an API whose clock moves: a verified token kept in
// memory must stop working exactly when the token says, and a tampered copy
// of a cached token must not pass.
func TestTokenCacheHonoursExpiry(t *testing.T) {
	st, err := local.Open(context.Background(), t.TempDir(), local.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	start := time.Now().Truncate(time.Second)
	var offset atomic.Int64
	api := &API{Store: st, Secret: testSecret, Now: func() time.Time { return start.Add(time.Duration(offset.Load())) }}
	srv := httptest.NewServer(api.Handler())
	t.Cleanup(srv.Close)
	e := &testEnv{t: t, store: st, srv: srv}
	tok, err := pumasi.SignToken(testSecret, "tester", []string{pumasi.ScopeRoom + "r1"}, time.Minute, start)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		at     time.Duration
		token  string
		status int
	}{
		{0, tok, 200},
		{30 * time.Second, tok, 200},
		{59 * time.Second, tok, 200},
		{30 * time.Second, tok[:len(tok)-2] + "xx", 401},
		{30 * time.Second, strings.Replace(tok, ".", ".e", 1), 401},
		{61 * time.Second, tok, 401},
	} {
		offset.Store(int64(tt.at))
		if r := e.do("GET", "/rooms/r1/files", tt.token, nil, nil); r.status != tt.status {
			t.Fatalf("at +%v: status %d, want %d", tt.at, r.status, tt.status)
		}
	}
}
