package knowledge

import (
	"context"
	"fmt"
	"slices"

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

// Reanalyser is what a driver supplies, besides Driver, so that entries
// whose stored analysis is missing or was made by another lexicon (written
// before analyses were stored, rewritten from a record by an unmerge, or
// analysed before the thesaurus, glossary or stemmer changed) get the
// current one (Engine.Reanalyse). Without it such entries are analysed
// again by every query that reads them, as they were before analyses were
// stored: right, but slower.
type Reanalyser interface {
	// StaleAnalyses returns up to limit entries whose id sorts after after,
	// in id order, whose stored analysis is missing or does not begin with
	// current (AnalysisHeader).
	StaleAnalyses(ctx context.Context, current []byte, after string, limit int) ([]StoredEntry, error)
	// SetAnalysis stores an entry's analysis. Returns not_found when the
	// entry is gone.
	SetAnalysis(ctx context.Context, id string, analysis []byte) error
}

// AnalysisHeader is how every analysis of the current lexicon begins: the
// format byte and the first bytes of LexiconDigest.
func AnalysisHeader() []byte { return slices.Clone(analysisHeader()) }

// Reanalyse stores the current lexicon's analysis with every entry whose
// stored one is missing or another lexicon's, in batches by id; it can be
// interrupted and run again, and returns how many entries it changed.
// Drivers that are not a Reanalyser change nothing.
func (k *Engine) Reanalyse(ctx context.Context) (int, error) {
	r, ok := k.d.(Reanalyser)
	if !ok {
		return 0, nil
	}
	current := AnalysisHeader()
	done, after := 0, ""
	for {
		batch, err := r.StaleAnalyses(ctx, current, after, reembedBatch)
		if err != nil {
			return done, fmt.Errorf("list entries to analyse again: %w", err)
		}
		if len(batch) == 0 {
			return done, nil
		}
		for _, e := range batch {
			err := r.SetAnalysis(ctx, e.ID, Analysis(e.Title, e.Content, e.Tags))
			if err != nil && pumasi.ErrorCode(err) != pumasi.ENotFound {
				return done, fmt.Errorf("store new analysis of %s: %w", e.ID, err)
			}
			if err == nil { // not one absorbed or redacted meanwhile
				done++
			}
			after = e.ID
		}
	}
}

// Redetailer is what a driver supplies, besides Driver, so that entries
// whose stored details (NewEntry.Details) are missing or were made by
// another extractor or lexicon get the current ones (Engine.Redetail).
// Without it the merge decision parses such entries' texts on every
// contribution that weighs them, as it did before details were stored:
// right, but slower.
type Redetailer interface {
	// StaleDetails returns up to limit entries whose id sorts after after,
	// in id order, whose stored details are missing or do not begin with
	// current (DetailsHeader).
	StaleDetails(ctx context.Context, current []byte, after string, limit int) ([]StoredEntry, error)
	// SetDetails stores an entry's details. Returns not_found when the
	// entry is gone.
	SetDetails(ctx context.Context, id string, details []byte) error
}

// Redetail stores the current details with every entry whose stored ones
// are missing or another extractor's or lexicon's, in batches by id; it
// can be interrupted and run again, and returns how many entries it
// changed. Drivers that are not a Redetailer change nothing.
func (k *Engine) Redetail(ctx context.Context) (int, error) {
	r, ok := k.d.(Redetailer)
	if !ok {
		return 0, nil
	}
	current := DetailsHeader()
	done, after := 0, ""
	for {
		batch, err := r.StaleDetails(ctx, current, after, reembedBatch)
		if err != nil {
			return done, fmt.Errorf("list entries to parse again: %w", err)
		}
		if len(batch) == 0 {
			return done, nil
		}
		for _, e := range batch {
			err := r.SetDetails(ctx, e.ID, Details(e.Title, e.Content))
			if err != nil && pumasi.ErrorCode(err) != pumasi.ENotFound {
				return done, fmt.Errorf("store new details of %s: %w", e.ID, err)
			}
			if err == nil { // not one absorbed or redacted meanwhile
				done++
			}
			after = e.ID
		}
	}
}
