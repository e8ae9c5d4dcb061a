package wire

import (
	"fmt"
	"time"

	"pumasi"
	"pumasi/adapters/embed"
	"pumasi/adapters/local"
	"pumasi/functions"
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

// OpenKnowledge returns the knowledge store of an opened backend: the local
// store's companion, or the backend itself when it implements
// pumasi.KnowledgeStore. Build one per process and share it.
func OpenKnowledge(store pumasi.Store) (pumasi.KnowledgeStore, error) {
	switch s := store.(type) {
	case *local.Store:
		return local.NewKnowledge(s), nil
	case pumasi.KnowledgeStore:
		return s, nil
	}
	return nil, fmt.Errorf("storage backend %T has no knowledge store yet", store)
}
