package knowledge

import (
	"context"
	"fmt"

	"pumasi"
)

// reembedBatch is how many entries Reembed embeds per call of embed.
const reembedBatch = 64

// Reembed embeds again, with embed under model, every entry embedded by
// another model, so that a deployment that changed its embedder compares
// old and new entries again. It works in batches and can be interrupted and
// run again; it returns how many entries it changed. Drivers that are not a
// Reembedder change nothing.
func (k *Engine) Reembed(ctx context.Context, model string, embed func(ctx context.Context, texts []string) ([][]float32, error)) (int, error) {
	r, ok := k.d.(Reembedder)
	if !ok {
		return 0, nil
	}
	done := 0
	for {
		batch, err := r.OtherModel(ctx, model, reembedBatch)
		if err != nil {
			return done, fmt.Errorf("list entries to embed again: %w", err)
		}
		if len(batch) == 0 {
			return done, nil
		}
		texts := make([]string, len(batch))
		for i, e := range batch {
			texts[i] = EmbeddingText(e.Title, e.Content)
		}
		vecs, err := embed(ctx, texts)
		if err != nil {
			return done, fmt.Errorf("embed again: %w", err)
		}
		if len(vecs) != len(batch) {
			return done, fmt.Errorf("embed again: %d vectors for %d texts", len(vecs), len(batch))
		}
		for i, e := range batch {
			err := r.SetVector(ctx, e.ID, model, vecs[i])
			if err != nil && pumasi.ErrorCode(err) != pumasi.ENotFound {
				return done, fmt.Errorf("store new embedding of %s: %w", e.ID, err)
			}
			done++
		}
	}
}
