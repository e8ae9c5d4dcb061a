package wire

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"pumasi"
	"pumasi/adapters/embed"
	"pumasi/adapters/local"
	"pumasi/adapters/postgres"
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

// KnowledgeConfig says where collective knowledge lives and how it ages.
type KnowledgeConfig struct {
	// URL is PUMASI_KNOWLEDGE: empty keeps knowledge with the file storage
	// (the local backend's SQLite database; with S3 file storage, the
	// SQLite database under Home), or postgres://… for PostgreSQL.
	URL string
	// Home is where knowledge lives when the file storage keeps none.
	Home string
	// HalfLife is the staleness half-life (PUMASI_KNOWLEDGE_HALF_LIFE).
	HalfLife time.Duration
	// VectorWeight is the share of cosine similarity in relevance
	// (PUMASI_KNOWLEDGE_VECTOR_WEIGHT; 0 takes the engine's default).
	VectorWeight float64
	// MinFree is the free-space floor of a database opened under Home
	// (local.Options.MinFree).
	MinFree int64
	Log     *slog.Logger
	Now     func() time.Time
}

// OpenKnowledge returns the knowledge engine over the configured driver and
// a function that releases what it opened. Build one per process and share
// it: the local driver keeps a vector index in memory.
func OpenKnowledge(ctx context.Context, store pumasi.Store, cfg KnowledgeConfig) (knowledge.Store, func() error, error) {
	opts := knowledge.Options{Now: cfg.Now, HalfLife: cfg.HalfLife, VectorWeight: cfg.VectorWeight}
	switch {
	case strings.HasPrefix(cfg.URL, "postgres://") || strings.HasPrefix(cfg.URL, "postgresql://"):
		return openPostgresKnowledge(ctx, cfg, opts)
	case cfg.URL != "":
		return nil, nil, fmt.Errorf("PUMASI_KNOWLEDGE must be empty or a postgres:// URL")
	}
	if s, ok := store.(*local.Store); ok {
		d := local.NewKnowledgeDriver(s)
		return knowledge.New(d, opts), d.Close, nil
	}
	if cfg.Home == "" {
		return nil, nil, fmt.Errorf("storage backend %T keeps no knowledge: set PUMASI_KNOWLEDGE=postgres://…", store)
	}
	s, err := local.Open(ctx, cfg.Home, local.Options{Logger: cfg.Log, Now: cfg.Now, MinFree: cfg.MinFree})
	if err != nil {
		return nil, nil, fmt.Errorf("open knowledge in %s: %w", cfg.Home, err)
	}
	d := local.NewKnowledgeDriver(s)
	return knowledge.New(d, opts), func() error { return errors.Join(d.Close(), s.Close()) }, nil
}

// openPostgresKnowledge opens the PostgreSQL driver: a pgx pool on cfg.URL
// (pgx's default size, or the URL's pool_max_conns), the schema migrated
// (safe when many processes start at once), and the engine over it. Only
// the URL with its password masked is ever logged or returned in errors.
func openPostgresKnowledge(ctx context.Context, cfg KnowledgeConfig, opts knowledge.Options) (knowledge.Store, func() error, error) {
	pool, err := postgres.Open(ctx, cfg.URL)
	if err != nil {
		return nil, nil, err
	}
	if err := postgres.Migrate(ctx, pool); err != nil {
		pool.Close()
		return nil, nil, fmt.Errorf("knowledge database %s: %w", postgres.Redact(cfg.URL), err)
	}
	if cfg.Log != nil {
		cfg.Log.Info("knowledge on postgres", "url", postgres.Redact(cfg.URL))
	}
	return postgres.NewKnowledge(pool, opts), func() error { pool.Close(); return nil }, nil
}
