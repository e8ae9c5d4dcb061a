package s3_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Kinds of injected faults. The first three follow a write that landed: the
// proxy forwards the PUT, MinIO applies it, and only the answer is lost. The
// last one resets the connection before the PUT reaches MinIO, so the store
// must also tell "not applied" from "applied" when it reads back.
const (
	faultStatus500 = iota // MinIO's 200 becomes a 500 InternalError
	faultReset            // the client's connection is reset (RST) instead
	faultTimeout          // the answer is held past the client's timeout, then the connection dropped
	faultDropped          // the connection is reset before the PUT is forwarded
	faultKinds
)

var faultNames = [faultKinds]string{"applied-then-500", "applied-then-reset", "applied-then-timeout", "dropped-unapplied"}

// faultProxy is a reverse proxy on 127.0.0.1 in front of a real S3 server.
// For PUTs whose path match accepts, it lets a fraction `rate` land and then
// loses the answer in one of the fault kinds; every other request passes.
type faultProxy struct {
	URL      string
	upstream *url.URL
	rp       *httputil.ReverseProxy
	match    func(path string) bool
	rate     float64
	hold     time.Duration // how long a timeout fault holds the answer
	enabled  atomic.Bool

	mu  sync.Mutex
	rnd *rand.Rand

	matched  atomic.Int64 // matching PUTs seen while enabled
	injected [faultKinds]atomic.Int64

	// intercept, when set, sees every request first; it returns true when
	// it has answered (or dropped) the request itself.
	intercept atomic.Pointer[func(w http.ResponseWriter, r *http.Request) bool]
}

// newFaultProxy starts a proxy to upstream (http://127.0.0.1:port) and stops
// it when t ends. Faults are off until Enable.
func newFaultProxy(t *testing.T, upstream string, seed uint64, rate float64, hold time.Duration, match func(string) bool) *faultProxy {
	t.Helper()
	u, err := url.Parse(upstream)
	if err != nil {
		t.Fatal(err)
	}
	p := &faultProxy{
		upstream: u,
		rp:       httputil.NewSingleHostReverseProxy(u),
		match:    match,
		rate:     rate,
		hold:     hold,
		rnd:      rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)),
	}
	// The client signed its request for the proxy's host; MinIO checks the
	// signature against the Host it receives, so the Host header passes as is.
	srv := httptest.NewServer(p)
	t.Cleanup(srv.Close)
	p.URL = srv.URL
	return p
}

// Enable turns fault injection on or off.
func (p *faultProxy) Enable(on bool) { p.enabled.Store(on) }

// Injected returns the number of faults injected of each kind.
func (p *faultProxy) Injected() [faultKinds]int64 {
	var out [faultKinds]int64
	for i := range out {
		out[i] = p.injected[i].Load()
	}
	return out
}

// Summary describes the injected faults for the test log.
func (p *faultProxy) Summary() string {
	var parts []string
	var total int64
	for i, n := range p.Injected() {
		parts = append(parts, fmt.Sprintf("%s=%d", faultNames[i], n))
		total += n
	}
	return fmt.Sprintf("%d of %d matching PUTs (%s)", total, p.matched.Load(), strings.Join(parts, ", "))
}

// roll decides whether this request gets a fault, and which.
func (p *faultProxy) roll() (int, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.rnd.Float64() >= p.rate {
		return 0, false
	}
	// Timeouts cost wall time: keep them rarer than the other kinds.
	switch x := p.rnd.IntN(20); {
	case x < 7:
		return faultStatus500, true
	case x < 13:
		return faultReset, true
	case x < 16:
		return faultTimeout, true
	default:
		return faultDropped, true
	}
}

// Intercept installs f as the proxy's first look at every request (see
// faultProxy.intercept); nil removes it.
func (p *faultProxy) Intercept(f func(w http.ResponseWriter, r *http.Request) bool) {
	if f == nil {
		p.intercept.Store(nil)
		return
	}
	p.intercept.Store(&f)
}

// Replay sends a request the proxy caught, with its body read before,
// to the upstream on the proxy's own account: it reaches S3 even though
// the client that sent it has given up. The client signed it for the
// proxy's host, so the Host header passes as is. It returns S3's status.
func (p *faultProxy) Replay(r *http.Request, body []byte) (int, error) {
	u := *p.upstream
	u.Path, u.RawPath, u.RawQuery = r.URL.Path, r.URL.RawPath, r.URL.RawQuery
	req, err := http.NewRequestWithContext(context.Background(), r.Method, u.String(), bytes.NewReader(body))
	if err != nil {
		return 0, err
	}
	req.Header = r.Header.Clone()
	req.Host = r.Host
	req.ContentLength = int64(len(body))
	tr := &http.Transport{}
	defer tr.CloseIdleConnections()
	resp, err := (&http.Client{Transport: tr}).Do(req)
	if err != nil {
		return 0, err
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode, nil
}

func (p *faultProxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if f := p.intercept.Load(); f != nil && (*f)(w, r) {
		return
	}
	if r.Method != http.MethodPut || !p.enabled.Load() || !p.match(r.URL.Path) {
		p.rp.ServeHTTP(w, r)
		return
	}
	p.matched.Add(1)
	kind, fault := p.roll()
	if !fault {
		p.rp.ServeHTTP(w, r)
		return
	}
	if kind == faultDropped {
		p.injected[kind].Add(1)
		resetConn(w)
		return
	}
	rec := httptest.NewRecorder()
	p.rp.ServeHTTP(rec, r)
	if rec.Code != http.StatusOK {
		// Refused (412, ...): the write did not land, so the answer is true;
		// pass it on. Only applied writes lose their answer here.
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.WriteHeader(rec.Code)
		_, _ = w.Write(rec.Body.Bytes())
		return
	}
	p.injected[kind].Add(1)
	switch kind {
	case faultStatus500:
		body := `<?xml version="1.0" encoding="UTF-8"?><Error><Code>InternalError</Code><Message>We encountered an internal error. Please try again.</Message></Error>`
		w.Header().Set("Content-Type", "application/xml")
		w.WriteHeader(http.StatusInternalServerError)
		_, _ = w.Write([]byte(body))
	case faultTimeout:
		select {
		case <-time.After(p.hold):
		case <-r.Context().Done():
		}
		resetConn(w)
	default:
		resetConn(w)
	}
}

// resetConn closes the client's connection with an RST instead of an answer.
func resetConn(w http.ResponseWriter) {
	conn, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		panic(http.ErrAbortHandler)
	}
	if tc, ok := conn.(*net.TCPConn); ok {
		_ = tc.SetLinger(0)
	}
	_ = conn.Close()
}
