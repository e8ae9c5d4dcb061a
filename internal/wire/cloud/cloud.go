// Package cloud is the half of the wiring root (internal/wire) that links
// no SQLite: the embedder, the S3 file store and the Postgres knowledge
// engine. internal/wire builds on it for localdev, the CLI and the bench;
// the Lambda functions (functions/lambdaapp) use it alone, so that their
// bootstraps stay small and start fast. Each backend is opened here once.
package cloud

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"pumasi"
	"pumasi/adapters/embed"
	"pumasi/adapters/postgres"
	"pumasi/adapters/s3"
	"pumasi/functions"
	"pumasi/knowledge"
)

// EmbedderConfig selects the embedder: the offline hashed one unless URL
// is set (PUMASI_EMBEDDINGS_URL, PUMASI_EMBEDDINGS_MODEL, PUMASI_EMBEDDINGS_KEY).
type EmbedderConfig struct {
	URL     string
	Model   string
	Key     string
	Timeout time.Duration
}

// OpenEmbedder returns the configured embedder.
func OpenEmbedder(cfg EmbedderConfig) (functions.Embedder, error) {
	if cfg.URL == "" {
		return embed.NewHashed(0), nil
	}
	if cfg.Model == "" {
		return nil, fmt.Errorf("PUMASI_EMBEDDINGS_URL is set but PUMASI_EMBEDDINGS_MODEL is not")
	}
	return embed.NewOpenAI(embed.OpenAIConfig{URL: cfg.URL, Model: cfg.Model, Key: cfg.Key, Timeout: cfg.Timeout})
}

// IsS3 reports whether storage names the S3 backend (s3://bucket/prefix…).
func IsS3(storage string) bool { return strings.HasPrefix(storage, "s3://") }

// S3Config is the S3 file store's configuration.
type S3Config struct {
	// URL is s3://bucket/prefix?endpoint=...&region=...&path_style=true.
	URL string
	Log *slog.Logger
	Now func() time.Time
	// History is the retention of room file history.
	History pumasi.Retention
}

// OpenS3 opens the S3 file store.
func OpenS3(ctx context.Context, cfg S3Config) (*s3.Store, error) {
	return s3.Open(ctx, cfg.URL, s3.Options{Logger: cfg.Log, Now: cfg.Now, History: cfg.History})
}

// IsPostgres reports whether url names a PostgreSQL database.
func IsPostgres(url string) bool {
	return strings.HasPrefix(url, "postgres://") || strings.HasPrefix(url, "postgresql://")
}

// PostgresConfig is the Postgres knowledge engine's configuration.
type PostgresConfig struct {
	// URL is the postgres:// URL (PUMASI_KNOWLEDGE).
	URL string
	// MaxConns caps the pool; 0 keeps pgx's default or the URL's
	// pool_max_conns.
	MaxConns int32
	Options  knowledge.Options
	Log      *slog.Logger
}

// OpenPostgres opens the PostgreSQL knowledge engine: a pgx pool on
// cfg.URL, the schema migrated (once per database, under an advisory lock,
// however many processes or cold starts race), and the engine over it, with
// a function that closes the pool. Only the URL with its password masked is
// ever logged or returned in errors.
func OpenPostgres(ctx context.Context, cfg PostgresConfig) (*knowledge.Engine, func() error, error) {
	pool, err := postgres.OpenWith(ctx, cfg.URL, postgres.Options{MaxConns: cfg.MaxConns})
	if err != nil {
		return nil, nil, err
	}
	if err := postgres.Migrate(ctx, pool); err != nil {
		pool.Close()
		return nil, nil, fmt.Errorf("knowledge database %s: %w", postgres.Redact(cfg.URL), err)
	}
	if cfg.Log != nil {
		cfg.Log.Info("knowledge on postgres", "url", postgres.Redact(cfg.URL), "max_conns", pool.Config().MaxConns,
			"half_life", cfg.Options.HalfLife.String(), "vector_weight", cfg.Options.VectorWeight)
	}
	return postgres.NewKnowledge(pool, cfg.Options), func() error { pool.Close(); return nil }, nil
}
