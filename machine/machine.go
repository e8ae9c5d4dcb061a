// Package machine is the machine daemon's engine: it mirrors each agent's
// room into <home>/agents/<agent>/memory/shared/ on this host. It is
// level-triggered: the truth is the machine's assignments against the files
// on disk; WebSocket frames only make it converge sooner, and a missed
// frame, a crash or a reconnect delays convergence but never breaks it.
package machine

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"pumasi"
)

// DefaultPoll is how often assignments are polled when Config.Poll is unset.
const DefaultPoll = 30 * time.Second

// DefaultWSPing is how often a daemon on a separate WebSocket API (Config.WS)
// sends {"action":"ping"}: well inside API Gateway's 10-minute idle close.
const DefaultWSPing = 5 * time.Minute

// Backoff bounds while the server is down.
const (
	backoffBase = 250 * time.Millisecond
	backoffMax  = 10 * time.Second
)

// Config is what a daemon needs; main reads it from flags and env.
type Config struct {
	// Server is the API's base URL, e.g. http://127.0.0.1:8787.
	Server string
	// Machine is this host's machine id.
	Machine string
	// Token is a machine:<id> (or admin) bearer token.
	Token string
	// TokenFile, when set, holds the token instead: it is read again for
	// every request and every (re)connect, so a token replaced in the file
	// before the old one expires is picked up without a restart (the
	// server closes a WebSocket when its token expires, 1008).
	TokenFile string
	// Home holds agents/<agent>/memory/shared/ and the daemon's state.
	Home string
	// Poll is the fallback poll interval; DefaultPoll when zero.
	Poll time.Duration
	// WS is the WebSocket API's URL when it is not the server's own
	// /machines/{id}/ws: in AWS the stage URL
	// wss://<api>.execute-api.<region>.amazonaws.com/<stage>. The daemon
	// adds ?machine=<id>, sends the token in the Authorization header and
	// pings with {"action":"ping"} every WSPing. Empty means the server's.
	WS string
	// WSPing is the data-message ping interval on WS; DefaultWSPing when
	// zero. API Gateway closes a connection idle for 10 minutes.
	WSPing time.Duration
	// Log receives the daemon's log; slog.Default when nil.
	Log *slog.Logger
	// HTTPClient makes the API calls; a client with a 30s timeout when nil.
	HTTPClient *http.Client
}

// errAuth marks a refusal of the machine token: retrying cannot help.
var errAuth = errors.New("server refused the machine token")

// errRetry asks for another reconcile soon: frames were applied to an agent
// while its assignments were being read, so they may be stale for it.
var errRetry = errors.New("assignments raced with frames")

// Run runs the daemon until ctx is cancelled (which is not an error). It
// returns an error for a bad config, a *HeldError when another daemon runs
// for the same machine on the same home, or when the server refuses the
// token.
func Run(ctx context.Context, cfg Config) error {
	wait, err := Start(ctx, cfg)
	if err != nil {
		return err
	}
	return wait()
}

// Start checks cfg and takes the (home, machine) lock, then runs the daemon
// in the background; wait blocks until it stops and returns what Run would.
// The lock is held until the daemon stops. Returns a *HeldError at once
// when another daemon, in any process, runs for cfg.Machine on cfg.Home.
func Start(ctx context.Context, cfg Config) (wait func() error, err error) {
	d, err := newDaemon(cfg)
	if err != nil {
		return nil, err
	}
	lock, err := lockHome(d.cfg.Home, d.cfg.Machine)
	if err != nil {
		return nil, err
	}
	done := make(chan error, 1)
	go func() {
		defer lock.release()
		done <- d.run(ctx)
	}()
	return sync.OnceValue(func() error { return <-done }), nil
}

// agentState is what the daemon keeps per agent it serves. mu serialises
// every write to the agent's shared directory, so a frame and a reconcile
// never interleave on one file.
type agentState struct {
	mu sync.Mutex
	// seq counts frames applied; a reconcile that saw it move skips the
	// agent, since its assignments may predate those frames.
	seq atomic.Uint64
	// sums caches file hashes; guarded by mu.
	sums sumCache

	hmu  sync.Mutex
	held map[string]string // name -> sha256 on disk
}

func newAgentState() *agentState {
	return &agentState{held: map[string]string{}, sums: sumCache{}}
}

func (st *agentState) setHeld(h map[string]string) {
	st.hmu.Lock()
	st.held = h
	st.hmu.Unlock()
}

func (st *agentState) hold(name, sum string) {
	st.hmu.Lock()
	if sum == "" {
		delete(st.held, name)
	} else {
		st.held[name] = sum
	}
	st.hmu.Unlock()
}

func (st *agentState) holdings() []pumasi.Holding {
	st.hmu.Lock()
	defer st.hmu.Unlock()
	out := make([]pumasi.Holding, 0, len(st.held))
	for n, s := range st.held {
		out = append(out, pumasi.Holding{Name: n, SHA256: s})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

type daemon struct {
	cfg    Config
	server string // base URL without trailing slash
	log    *slog.Logger
	// tok is the token last read from Config.TokenFile (under tokMu).
	tokMu sync.Mutex
	tok   string
	hc    *http.Client
	blobs *blobCache

	syncCh    chan struct{}
	statusCh  chan struct{}
	confirmCh chan struct{}
	fatal     chan error

	mu       sync.Mutex
	assigned map[string]string // agent -> room, from the last assignments
	agents   map[string]*agentState
	managed  map[string]string // agent -> room, persisted: whose shared/ we own
	etag     string
	cached   *assignmentsDoc
}

func newDaemon(cfg Config) (*daemon, error) {
	if !pumasi.ValidID(cfg.Machine) {
		return nil, fmt.Errorf("machine id %q must match ^[a-z0-9][a-z0-9._-]{0,62}$", cfg.Machine)
	}
	u, err := url.Parse(cfg.Server)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("server %q is not an http(s) URL", cfg.Server)
	}
	if cfg.Home == "" {
		return nil, errors.New("home directory is not set")
	}
	if cfg.Token == "" && cfg.TokenFile == "" {
		return nil, errors.New("machine token is not set")
	}
	if cfg.Poll <= 0 {
		cfg.Poll = DefaultPoll
	}
	if cfg.WS != "" {
		w, err := url.Parse(cfg.WS)
		if err != nil || w.Host == "" || (w.Scheme != "ws" && w.Scheme != "wss" && w.Scheme != "http" && w.Scheme != "https") {
			return nil, fmt.Errorf("websocket URL %q is not a ws(s) URL", cfg.WS)
		}
	}
	if cfg.WSPing <= 0 {
		cfg.WSPing = DefaultWSPing
	}
	log := cfg.Log
	if log == nil {
		log = slog.Default()
	}
	hc := cfg.HTTPClient
	if hc == nil {
		hc = &http.Client{Timeout: 30 * time.Second}
	}
	return &daemon{
		cfg:       cfg,
		server:    strings.TrimRight(cfg.Server, "/"),
		log:       log.With("machine", cfg.Machine),
		hc:        hc,
		blobs:     newBlobCache(blobCacheBytes),
		syncCh:    make(chan struct{}, 1),
		statusCh:  make(chan struct{}, 1),
		confirmCh: make(chan struct{}, 1),
		fatal:     make(chan error, 1),
		assigned:  map[string]string{},
		agents:    map[string]*agentState{},
		managed:   map[string]string{},
	}, nil
}

func (d *daemon) run(parent context.Context) error {
	if err := d.loadState(); err != nil {
		return err
	}
	d.removeTemps()
	ctx, cancel := context.WithCancel(parent)
	defer cancel()
	var wg sync.WaitGroup
	queues := d.startWorkers(ctx, &wg)
	wg.Add(3)
	go func() { defer wg.Done(); d.socketLoop(ctx, queues) }()
	go func() { defer wg.Done(); d.statusLoop(ctx) }()
	go func() { defer wg.Done(); d.confirmLoop(ctx) }()
	d.log.Info("machine daemon started", "server", d.server, "ws", d.socketURL(), "home", d.cfg.Home, "poll", d.cfg.Poll)
	err := d.syncLoop(ctx)
	cancel()
	wg.Wait()
	if parent.Err() != nil {
		return nil
	}
	return err
}

// requestSync asks for a full reconcile: assignments re-read, every agent
// compared with its directory.
func (d *daemon) requestSync() {
	select {
	case d.syncCh <- struct{}{}:
	default:
	}
}

// requestStatus asks for a status report soon; requests coalesce.
func (d *daemon) requestStatus() {
	select {
	case d.statusCh <- struct{}{}:
	default:
	}
}

// syncLoop reconciles at start, when asked (a connect, an assignments
// change, a frame it could not apply, the confirmation after frames) and
// every Poll; it backs off with jitter while the server fails. Every
// reconcile asks for the assignments with If-None-Match: the etag hashes the
// whole answer, so a 304 means the cached copy is current.
func (d *daemon) syncLoop(ctx context.Context) error {
	bo := newBackoff()
	for {
		err := d.sync(ctx)
		var wait time.Duration
		switch {
		case ctx.Err() != nil:
			return nil
		case err == nil:
			bo.reset()
			wait = d.cfg.Poll
		case errors.Is(err, errAuth):
			return err
		case errors.Is(err, errRetry):
			bo.reset()
			wait = d.cfg.Poll
			d.requestConfirm()
		default:
			wait = bo.next()
			d.log.Warn("reconcile failed; will retry", "in", wait.Round(time.Millisecond), "err", err)
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil
		case err := <-d.fatal:
			t.Stop()
			return err
		case <-d.syncCh:
			t.Stop()
		case <-t.C:
		}
	}
}

// confirmDelay is how long after frames a confirming reconcile runs.
const confirmDelay = time.Second

// requestConfirm asks for a reconcile shortly after frames were applied:
// frames of concurrent uploads can arrive out of order, and the assignments
// settle which content is current.
func (d *daemon) requestConfirm() {
	select {
	case d.confirmCh <- struct{}{}:
	default:
	}
}

// confirmLoop turns confirmation requests into at most one reconcile per
// confirmDelay, so a stream of frames costs one assignments read a second.
func (d *daemon) confirmLoop(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-d.confirmCh:
		}
		if !sleep(ctx, confirmDelay) {
			return
		}
		d.requestSync()
	}
}

// backoff grows exponentially with jitter: each wait is uniformly drawn from
// the upper half of base·2ⁿ, capped at backoffMax.
type backoff struct{ n int }

func newBackoff() *backoff { return &backoff{} }

func (b *backoff) reset() { b.n = 0 }

func (b *backoff) next() time.Duration {
	d := backoffBase << min(b.n, 16)
	if d > backoffMax || d <= 0 {
		d = backoffMax
	}
	b.n++
	return d/2 + rand.N(d/2+1)
}
