// Package wire is the wiring root: it opens the outside world from
// configuration for the places that only wire — localdev, the CLI, the
// bench and, through its SQLite-free half internal/wire/cloud, every
// Lambda function (functions/lambdaapp). No other package opens a store,
// a knowledge engine or an embedder from configuration.
package wire

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"pumasi"
	"pumasi/adapters/local"
	"pumasi/internal/wire/cloud"
)

// StoreConfig names a backend: "local" (disk + SQLite under Home) or an
// s3://bucket/prefix?endpoint=...&region=...&path_style=true URL.
type StoreConfig struct {
	Storage string
	Home    string
	Grace   time.Duration
	// MinFree is the home's free-space floor (local.Options.MinFree).
	MinFree int64
	Log     *slog.Logger
	Now     func() time.Time
	// History is the retention of room file history (ReadRetention).
	History pumasi.Retention
}

// ReadRetention reads the history retention from the environment
// (pumasi.HistoryEnv), as localdev, pumasi sweep and every Lambda do.
// Returns invalid_request for a bad value.
func ReadRetention(getenv func(string) string) (pumasi.Retention, error) {
	return pumasi.RetentionFromEnv(getenv)
}

// OpenStore opens the configured backend.
func OpenStore(ctx context.Context, cfg StoreConfig) (pumasi.Store, error) {
	switch {
	case cfg.Storage == "" || cfg.Storage == "local":
		if cfg.Home == "" {
			return nil, fmt.Errorf("local storage needs a home folder (PUMASI_HOME)")
		}
		return local.Open(ctx, cfg.Home, local.Options{Logger: cfg.Log, Grace: cfg.Grace, Now: cfg.Now, History: cfg.History, MinFree: cfg.MinFree})
	case cloud.IsS3(cfg.Storage):
		return cloud.OpenS3(ctx, cloud.S3Config{URL: cfg.Storage, Log: cfg.Log, Now: cfg.Now, History: cfg.History})
	default:
		return nil, fmt.Errorf("PUMASI_STORAGE %q: want local or s3://bucket/prefix?endpoint=...", cfg.Storage)
	}
}

// ParseMinFree reads PUMASI_MIN_FREE (--min-free) for StoreConfig.MinFree:
// bytes or a size like 64MiB, "off" for no floor.
func ParseMinFree(v string) (int64, error) { return local.ParseMinFree(v) }
