package wire

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"pumasi"
	"pumasi/adapters/local"
	"pumasi/functions"
	"pumasi/internal/wire/cloud"
	"pumasi/knowledge"
)

// EmbedderConfig selects the embedder: the offline hashed one unless URL
// is set (PUMASI_EMBEDDINGS_URL, PUMASI_EMBEDDINGS_MODEL, PUMASI_EMBEDDINGS_KEY).
type EmbedderConfig = cloud.EmbedderConfig

// OpenEmbedder returns the configured embedder.
func OpenEmbedder(cfg EmbedderConfig) (functions.Embedder, error) { return cloud.OpenEmbedder(cfg) }

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
	// QuarantineFlags is how many distinct flaggers quarantine an entry
	// (PUMASI_KNOWLEDGE_QUARANTINE_FLAGS; 0 takes the engine's default).
	QuarantineFlags int
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
	opts := knowledge.Options{Now: cfg.Now, HalfLife: cfg.HalfLife, VectorWeight: cfg.VectorWeight, QuarantineFlags: cfg.QuarantineFlags}
	switch {
	case cloud.IsPostgres(cfg.URL):
		return cloud.OpenPostgres(ctx, cloud.PostgresConfig{URL: cfg.URL, Options: opts, Log: cfg.Log})
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
