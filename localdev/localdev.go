// Package localdev is the offline emulator behind `make localdev`: every
// function on one net/http mux, the WebSocket gateway, the sweep scheduler and
// an in-process machine daemon, over disk + SQLite (or any PUMASI_STORAGE).
package localdev

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"pumasi"
	"pumasi/adapters/push"
	"pumasi/functions"
	"pumasi/internal/wire"
	"pumasi/localdev/dashboard"
)

// DefaultAddr is where localdev listens unless told otherwise.
const DefaultAddr = "127.0.0.1:8787"

// Config is localdev's configuration, read from env and flags by main.
type Config struct {
	// Home is the data folder (PUMASI_HOME, default ~/.pumasi).
	Home string
	// Addr is the listen address (PUMASI_ADDR).
	Addr string
	// Storage is "local" or an s3:// URL (PUMASI_STORAGE).
	Storage string
	// Secret signs tokens (PUMASI_SECRET); empty means <home>/secret.
	Secret []byte
	// NoMachine turns off the in-process daemon for machine "local".
	NoMachine bool
	// GatewayPush sends frames through localdev's own @connections endpoint
	// with the API Gateway push adapter, to the connections recorded in the
	// store's registry as daemons connect and disconnect: the code path AWS
	// runs.
	GatewayPush bool
	// Poll is the in-process daemon's poll interval.
	Poll time.Duration
	// SweepGrace is how old an unreferenced blob must be before the sweep
	// removes it.
	SweepGrace time.Duration
	// MinFree is the free space the home keeps (PUMASI_MIN_FREE; zero:
	// local.DefaultMinFree, negative: none). Below it uploads and
	// contributions answer 507 and GET /healthz 503.
	MinFree int64
	Log     *slog.Logger
	// Embeddings selects the knowledge embedder (PUMASI_EMBEDDINGS_*); the
	// zero value is the offline hashed one.
	Embeddings wire.EmbedderConfig
	// Knowledge says where collective knowledge lives (PUMASI_KNOWLEDGE)
	// and its staleness half-life; the zero value keeps it with the file
	// storage, or in the home's SQLite database when that is S3.
	Knowledge wire.KnowledgeConfig
	// History is the retention of room file history (PUMASI_HISTORY_*);
	// the zero value keeps the defaults.
	History pumasi.Retention
	// MergeThreshold overrides the embedder's merge threshold
	// (PUMASI_MERGE_THRESHOLD); zero keeps the embedder's own.
	MergeThreshold float64
	// RateLimits bound keyless knowledge writes (zero: the defaults).
	RateLimits functions.RateLimits
	// CORS opens routes to browsers on other origins (zero: the public
	// knowledge reads to every origin).
	CORS functions.CORS
	// AllowedHosts are the host names served besides loopback and the
	// listen address (PUMASI_ALLOWED_HOSTS); any other Host is refused.
	AllowedHosts functions.AllowedHosts
	// OfflineAfter is how long an agent's machine may go without reporting
	// before the agent shows offline (PUMASI_OFFLINE_AFTER; zero: the
	// default, three of the daemon's default polls).
	OfflineAfter time.Duration
	// Out receives the banner: address, admin token, examples.
	Out io.Writer
	// ReadHeaderTimeout, ReadTimeout and IdleTimeout bound slow and idle
	// clients; zero means the defaults (10 s, 2 min, 2 min). Tests shorten
	// them.
	ReadHeaderTimeout time.Duration
	ReadTimeout       time.Duration
	IdleTimeout       time.Duration
}

// Server limits of localdev's HTTP server.
const (
	DefaultReadHeaderTimeout = 10 * time.Second
	DefaultReadTimeout       = 2 * time.Minute
	DefaultIdleTimeout       = 2 * time.Minute
	// MaxHeaderBytes bounds a request's head (request line, header fields
	// and the blank line), counted as sent; one byte more answers 431.
	MaxHeaderBytes = 64 << 10
)

func orDefault(d, def time.Duration) time.Duration {
	if d > 0 {
		return d
	}
	return def
}

// Run serves until ctx is cancelled; cancellation is a clean stop.
func Run(ctx context.Context, cfg Config) error {
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	if cfg.Out == nil {
		cfg.Out = io.Discard
	}
	if cfg.Addr == "" {
		cfg.Addr = DefaultAddr
	}
	if cfg.SweepGrace == 0 {
		cfg.SweepGrace = 10 * time.Minute
	}
	// Where files and knowledge live is settled before anything opens: a
	// value that does not parse stops here, naming its variable, and never
	// falls back to the local disk.
	storageWhere, err := wire.DescribeStorage(cfg.Storage, cfg.Home)
	if err != nil {
		return err
	}
	kcfg := cfg.Knowledge
	if kcfg.Home == "" {
		kcfg.Home = cfg.Home
	}
	knowledgeWhere, err := wire.DescribeKnowledge(kcfg.URL, kcfg.Home)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(cfg.Home, 0o700); err != nil {
		return fmt.Errorf("create home: %w", err)
	}
	secret := cfg.Secret
	if len(secret) == 0 {
		var err error
		if secret, err = LoadOrCreateSecret(cfg.Home); err != nil {
			return err
		}
	}
	adminToken, err := ensureAdminToken(cfg.Home, secret, time.Now())
	if err != nil {
		return err
	}
	store, err := wire.OpenStore(ctx, wire.StoreConfig{Storage: cfg.Storage, Home: cfg.Home, Grace: cfg.SweepGrace, MinFree: cfg.MinFree, Log: cfg.Log, History: cfg.History})
	if err != nil {
		return err
	}
	defer store.Close()

	embedder, err := wire.OpenEmbedder(cfg.Embeddings)
	if err != nil {
		return err
	}
	if kcfg.Log == nil {
		kcfg.Log = cfg.Log
	}
	if kcfg.MinFree == 0 {
		kcfg.MinFree = cfg.MinFree
	}
	know, closeKnow, err := wire.OpenKnowledge(ctx, store, kcfg)
	if err != nil {
		return err
	}
	defer closeKnow()
	hub := push.NewHub(cfg.Log)
	api := &functions.API{Store: store, Secret: secret, Log: cfg.Log, Pusher: hub, Socket: hub, Knowledge: know, Embedder: embedder, MergeThreshold: cfg.MergeThreshold, RateLimits: cfg.RateLimits, CORS: cfg.CORS,
		OfflineAfter: cfg.OfflineAfter, Metrics: functions.NewMetrics()}
	hub.OnSlowDrop = api.Metrics.SlowDrop
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", cfg.Addr, err)
	}
	base := "http://" + ln.Addr().String()
	api.Serving = &pumasi.Serving{Addr: base, Storage: storageWhere, Knowledge: knowledgeWhere, Embedder: wire.DescribeEmbedder(embedder, cfg.Embeddings)}
	if cfg.GatewayPush {
		RecordConnections(hub, store, cfg.Log)
		if api.Pusher, err = GatewayPusher(ctx, base, store, adminToken, cfg.Log); err != nil {
			ln.Close()
			return err
		}
	}
	mem := &idleMemory{}
	srv := &http.Server{
		Handler:           mem.count(edge(ln.Addr(), cfg).Wrap(limitHead(ConnectionsHandler(hub, secret, api.MetricsHandler(dashboard.Wrap(api.Handler())))))),
		ReadHeaderTimeout: orDefault(cfg.ReadHeaderTimeout, DefaultReadHeaderTimeout),
		ReadTimeout:       orDefault(cfg.ReadTimeout, DefaultReadTimeout),
		IdleTimeout:       orDefault(cfg.IdleTimeout, DefaultIdleTimeout),
		MaxHeaderBytes:    MaxHeaderBytes - headerSlack,
		ErrorLog:          slog.NewLogLogger(cfg.Log.Handler(), slog.LevelWarn),
	}
	if err := writeFileAtomic(filepath.Join(cfg.Home, "localdev.addr"), []byte(base+"\n"), 0o600); err != nil {
		return err
	}
	printBanner(cfg.Out, api.Serving, cfg.Home, adminToken)

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go runSweeps(ctx, func(ctx context.Context) { sweepOnce(ctx, cfg.Log, api, cfg.SweepGrace) })
	go mem.run(ctx, cfg.Log, func() { releaseMemory(store, know) })

	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	// Entries an earlier embedder made are embedded again in the background
	// (after an upgrade, or a change of PUMASI_EMBEDDINGS_*); until then
	// they are found by their words.
	go func() {
		if err := api.Reembed(ctx); err != nil && ctx.Err() == nil {
			cfg.Log.Warn("embed knowledge entries again", "err", err)
		}
	}()
	waitMachine := startMachine(ctx, cfg, secret, base)
	defer waitMachine()
	defer cancel()
	select {
	case err := <-errc:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	// Shutdown does not close hijacked WebSocket connections; the hub does.
	_ = hub.Close()
	shutdownCtx, stop := context.WithTimeout(context.Background(), 5*time.Second)
	defer stop()
	if err := srv.Shutdown(shutdownCtx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("shutdown: %w", err)
	}
	return nil
}

// edge is the Host and Origin check in front of everything localdev serves:
// loopback names, the listen address and the configured names; an Origin
// of a loopback name counts as ours only at the listen port.
func edge(addr net.Addr, cfg Config) functions.Edge {
	e := functions.Edge{Hosts: cfg.AllowedHosts, CORS: cfg.CORS}
	if ta, ok := addr.(*net.TCPAddr); ok {
		e.Port = strconv.Itoa(ta.Port)
		if !ta.IP.IsUnspecified() && !ta.IP.IsLoopback() {
			e.Self = []string{ta.IP.String()}
		}
	}
	return e
}

// printBanner says where localdev is: its address, home, file storage,
// knowledge store and embedder (GET /healthz's "serving"), then how to
// sign in.
func printBanner(w io.Writer, sv *pumasi.Serving, home, token string) {
	base := sv.Addr
	fmt.Fprintf(w, "pumasi localdev listening on %s\n", base)
	fmt.Fprintf(w, "home: %s\n", home)
	fmt.Fprintf(w, "files: %s\n", sv.Storage)
	fmt.Fprintf(w, "knowledge: %s\n", sv.Knowledge)
	if sv.Embedder != nil {
		fmt.Fprintf(w, "embedder: %s\n", sv.Embedder)
	}
	fmt.Fprintf(w, "admin token (also in %s):\n%s\n", filepath.Join(home, "admin.token"), token)
	fmt.Fprintf(w, "dashboard (one click, signs in as admin): %s/#token=%s\n", base, token)
	fmt.Fprintf(w, "try: curl -H \"Authorization: Bearer $(cat %s)\" %s/rooms/r1/files\n",
		shellQuote(filepath.Join(home, "admin.token")), base)
}

func shellQuote(s string) string {
	if strings.ContainsAny(s, " '\"$`\\") {
		return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
	}
	return s
}
