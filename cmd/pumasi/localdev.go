package main

import (
	"context"
	"fmt"
	"log/slog"
	"strconv"
	"time"

	"pumasi/functions"
	"pumasi/internal/wire"
	"pumasi/localdev"
)

func init() {
	register(command{name: "localdev", summary: "run the offline server (disk + SQLite) on 127.0.0.1:8787", run: runLocaldev})
}

func runLocaldev(ctx context.Context, env *cliEnv, args []string) error {
	fs := newFlags("localdev")
	home := fs.String("home", "", "data folder (env PUMASI_HOME, default ~/.pumasi)")
	addr := fs.String("addr", envOr(env, "PUMASI_ADDR", localdev.DefaultAddr), "listen address (env PUMASI_ADDR)")
	storage := fs.String("storage", envOr(env, "PUMASI_STORAGE", "local"), "local or s3://bucket/prefix?endpoint=... (env PUMASI_STORAGE)")
	noMachine := fs.Bool("no-machine", false, "do not run the in-process daemon for machine \"local\"")
	gatewayPushEnv, err := envBool(env, "PUMASI_GATEWAY_PUSH")
	if err != nil {
		return &exitCodeError{2, err}
	}
	gatewayPush := fs.Bool("gateway-push", gatewayPushEnv, "push frames through the own @connections endpoint with the API Gateway adapter and the store's connection registry, as in AWS (env PUMASI_GATEWAY_PUSH=1)")
	poll := fs.Duration("poll", 30*time.Second, "the in-process daemon's poll interval")
	minFree := fs.String("min-free", envOr(env, "PUMASI_MIN_FREE", "64MiB"), "free space the home keeps: below it uploads and contributions answer 507 and /healthz 503; bytes, 64MiB, 1GiB or off (env PUMASI_MIN_FREE)")
	offlineAfter := fs.String("offline-after", envOr(env, functions.EnvOfflineAfter, ""), "an agent whose machine has not reported for this long shows offline, e.g. 90s or 5m (env PUMASI_OFFLINE_AFTER, default 90s: three of the daemon's default 30s polls)")
	verbose := fs.BoolP("verbose", "v", false, "log debug messages")
	perHandle := fs.String("rate-per-handle", envOr(env, "PUMASI_RATE_PER_HANDLE", "1,60"), "knowledge writes per X-Hive-Agent handle: RATE,BURST or off (env PUMASI_RATE_PER_HANDLE)")
	perAddr := fs.String("rate-per-address", envOr(env, "PUMASI_RATE_PER_ADDRESS", "10,120"), "knowledge writes per client address: RATE,BURST or off (env PUMASI_RATE_PER_ADDRESS)")
	corsOrigins := fs.String("cors-origins", envOr(env, "PUMASI_CORS_ORIGINS", "*"), "browser origins allowed on the CORS routes: *, a comma-separated list, or off (env PUMASI_CORS_ORIGINS)")
	corsRoutes := fs.String("cors-routes", envOr(env, "PUMASI_CORS_ROUTES", functions.CORSReads), "routes open to those origins: reads (public knowledge reads), knowledge (and its writes, with X-Hive-Agent) or all (env PUMASI_CORS_ROUTES)")
	allowedHosts := fs.String("allowed-hosts", envOr(env, "PUMASI_ALLOWED_HOSTS", ""), "host names served besides loopback, comma-separated (pumasi.example.com, *.example.com, or * for any); other Host headers are refused (env PUMASI_ALLOWED_HOSTS)")
	// No env default in the flag itself: -h prints defaults, and the URL may
	// hold a password.
	knowledge := fs.String("knowledge", "", "where knowledge lives: empty keeps it with the file storage, or postgres://user:pass@host/db (env PUMASI_KNOWLEDGE)")
	// The knobs stay strings here: functions.ReadKnowledgeTuning parses
	// them (flag, else env) exactly as the knowledge Lambdas parse their env.
	tune := map[string]*string{
		functions.EnvKnowledgeHalfLife:     fs.String("knowledge-half-life", envOr(env, functions.EnvKnowledgeHalfLife, ""), "staleness half-life of knowledge entries, e.g. 4320h (env PUMASI_KNOWLEDGE_HALF_LIFE, default 180 days)"),
		functions.EnvMergeThreshold:        fs.String("merge-threshold", envOr(env, functions.EnvMergeThreshold, ""), "cosine above which a contribution merges into its nearest entry, in [0, 1.01]; 0 takes the embedder's own (hashed 0.80, OpenAI-compatible 0.94) (env PUMASI_MERGE_THRESHOLD)"),
		functions.EnvQuarantineFlags:       fs.String("knowledge-quarantine-flags", envOr(env, functions.EnvQuarantineFlags, ""), "distinct flaggers that quarantine a knowledge entry (out of queries, MCP and hooks until an admin restores it), 1 to 1000; empty takes 3 (env PUMASI_KNOWLEDGE_QUARANTINE_FLAGS)"),
		functions.EnvKnowledgeVectorWeight: fs.String("knowledge-vector-weight", envOr(env, functions.EnvKnowledgeVectorWeight, ""), "share of cosine similarity in a hit's relevance, in [0, 1], the rest being the lexical match; 0 takes the default 0.4 (env PUMASI_KNOWLEDGE_VECTOR_WEIGHT)"),
	}
	pos, err := parseFlags(env, fs, args)
	if err != nil {
		return err
	}
	if err := noArgs(pos); err != nil {
		return err
	}
	tuning, err := functions.ReadKnowledgeTuning(func(k string) string { return *tune[k] })
	if err != nil {
		return &exitCodeError{2, fmt.Errorf("knowledge tuning (the flag or its env): %w", err)}
	}
	if *knowledge == "" {
		*knowledge = env.getenv("PUMASI_KNOWLEDGE")
	}
	cors, err := functions.ParseCORS(*corsOrigins, *corsRoutes)
	if err != nil {
		return err
	}
	hosts, err := functions.ParseAllowedHosts(*allowedHosts)
	if err != nil {
		return err
	}
	var limits functions.RateLimits
	if limits.PerHandle, err = functions.ParseRateLimit(*perHandle); err != nil {
		return err
	}
	if limits.PerAddress, err = functions.ParseRateLimit(*perAddr); err != nil {
		return err
	}
	floor, err := wire.ParseMinFree(*minFree)
	if err != nil {
		return &exitCodeError{2, err}
	}
	offline, err := functions.ParseOfflineAfter(*offlineAfter)
	if err != nil {
		return &exitCodeError{2, err}
	}
	history, err := wire.ReadRetention(env.getenv)
	if err != nil {
		return &exitCodeError{2, err}
	}
	h, err := homeDir(env, *home)
	if err != nil {
		return err
	}
	// A storage or knowledge value that does not parse is a usage error
	// (exit 2) naming its variable, before anything opens or listens.
	if _, err := wire.DescribeStorage(*storage, h); err != nil {
		return &exitCodeError{2, err}
	}
	if _, err := wire.DescribeKnowledge(*knowledge, h); err != nil {
		return &exitCodeError{2, err}
	}
	level := slog.LevelInfo
	if *verbose {
		level = slog.LevelDebug
	}
	log := slog.New(slog.NewTextHandler(env.stderr, &slog.HandlerOptions{Level: level}))
	return localdev.Run(ctx, localdev.Config{
		Home:         h,
		Addr:         *addr,
		Storage:      *storage,
		Secret:       []byte(env.getenv("PUMASI_SECRET")),
		NoMachine:    *noMachine,
		GatewayPush:  *gatewayPush,
		Poll:         *poll,
		MinFree:      floor,
		Log:          log,
		Out:          env.stdout,
		RateLimits:   limits,
		CORS:         cors,
		AllowedHosts: hosts,
		Knowledge: wire.KnowledgeConfig{URL: *knowledge, HalfLife: tuning.HalfLife, VectorWeight: tuning.VectorWeight,
			QuarantineFlags: tuning.QuarantineFlags},
		MergeThreshold: tuning.MergeThreshold,
		History:        history,
		OfflineAfter:   offline,
		Embeddings: wire.EmbedderConfig{
			URL:   env.getenv("PUMASI_EMBEDDINGS_URL"),
			Model: env.getenv("PUMASI_EMBEDDINGS_MODEL"),
			Key:   env.getenv("PUMASI_EMBEDDINGS_KEY"),
		},
	})
}

// envBool reads a boolean env var (1, true, 0, false, ...); unset is false.
func envBool(env *cliEnv, key string) (bool, error) {
	v := env.getenv(key)
	if v == "" {
		return false, nil
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		return false, fmt.Errorf("%s=%q: want 1 or 0", key, v)
	}
	return b, nil
}
