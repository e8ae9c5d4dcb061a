package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"

	"pumasi"
	"pumasi/machine"
)

func init() {
	register(command{
		name:    "machine run",
		summary: "run the machine daemon: machine run --server URL --machine ID [--token T | --token-file F] [--home DIR] [--poll 30s] [--ws URL [--ws-ping 5m]] [--metrics ADDR]",
		run:     runMachine,
	})
}

// runMachine runs the daemon that mirrors each agent's room into
// <home>/agents/<agent>/memory/shared/ until a signal stops it.
func runMachine(ctx context.Context, env *cliEnv, args []string) error {
	fs := newFlags("machine run")
	server := fs.String("server", envOr(env, "PUMASI_SERVER", defaultServer), "server URL (env PUMASI_SERVER)")
	id := fs.String("machine", "", "this machine's id (required)")
	token := fs.String("token", "", "machine:<id> token (env PUMASI_TOKEN, else <home>/admin.token)")
	tokenFile := fs.String("token-file", "", "a file holding the machine token, read again at every request and reconnect, so a token replaced before it expires is used (default <home>/admin.token when no --token or PUMASI_TOKEN)")
	home := fs.String("home", "", "folder holding agents/<agent>/memory (env PUMASI_HOME, default ~/.pumasi)")
	poll := fs.Duration("poll", machine.DefaultPoll, "fallback poll interval for assignments")
	ws := fs.String("ws", env.getenv("PUMASI_WS_URL"), "WebSocket API URL when it is not the server's, e.g. wss://ID.execute-api.REGION.amazonaws.com/STAGE (env PUMASI_WS_URL)")
	wsPing := fs.Duration("ws-ping", machine.DefaultWSPing, "with --ws: how often to send {\"action\":\"ping\"} (the gateway closes idle connections after 10m)")
	verbose := fs.BoolP("verbose", "v", false, "log debug messages")
	metricsAddr := fs.String("metrics", "", "serve this daemon's Prometheus metrics on ADDR, e.g. 127.0.0.1:9101 (no auth: keep it on loopback)")
	pos, err := parseFlags(env, fs, args)
	if err != nil {
		return err
	}
	if err := noArgs(pos); err != nil {
		return err
	}
	if *id == "" {
		return usagef("--machine is required")
	}
	if err := pumasi.CheckID("machine", *id); err != nil {
		return asUsage(err)
	}
	if *poll <= 0 {
		return usagef("--poll must be positive")
	}
	if *wsPing <= 0 {
		return usagef("--ws-ping must be positive")
	}
	h, err := homeDir(env, *home)
	if err != nil {
		return err
	}
	tok := *token
	if tok == "" {
		tok = env.getenv("PUMASI_TOKEN")
	}
	file := *tokenFile
	if tok == "" && file == "" {
		file = filepath.Join(h, "admin.token")
	}
	if file != "" {
		// Read again on every request and reconnect: a token replaced in
		// the file before the old one expires is picked up.
		b, err := os.ReadFile(file)
		if err != nil || strings.TrimSpace(string(b)) == "" {
			return fmt.Errorf("machine run: no token: pass --token or --token-file (pumasi token --machine %s), or set PUMASI_TOKEN", *id)
		}
		tok = strings.TrimSpace(string(b))
	}
	level := slog.LevelInfo
	if *verbose {
		level = slog.LevelDebug
	}
	log := slog.New(slog.NewTextHandler(env.stderr, &slog.HandlerOptions{Level: level}))
	if *metricsAddr != "" {
		if _, err := serveDaemonMetrics(ctx, *metricsAddr, h, log); err != nil {
			return err
		}
	}
	return machine.Run(ctx, machine.Config{
		Server:    *server,
		Machine:   *id,
		Token:     tok,
		TokenFile: file,
		Home:      h,
		Poll:      *poll,
		WS:        *ws,
		WSPing:    *wsPing,
		Log:       log,
	})
}
