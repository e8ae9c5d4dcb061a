package postgres

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/pgvector/pgvector-go"

	"pumasi"
	"pumasi/knowledge"
)

var _ knowledge.Reembedder = (*Knowledge)(nil)

// OtherModel lists entries embedded by another model, oldest seq first.
// Entries embedded again take a new seq (see SetVector), so walking seq
// from the bottom meets the ones still to do first.
func (k *Knowledge) OtherModel(ctx context.Context, model string, limit int) ([]knowledge.StoredEntry, error) {
	es, err := k.scanEntries(ctx, `SELECT `+storedCols+` FROM knowledge_entries WHERE model <> $1 ORDER BY seq LIMIT $2`, model, limit)
	if err != nil {
		return nil, wrap("list entries of other models", err)
	}
	return es, nil
}

// SetVector stores a new embedding and model. dims is generated from the
// embedding, so the row moves to the HNSW index of its new dimension,
// which is made first if this is the dimension's first entry; the index is
// the database's, so every process's Nearest sees the change at commit.
//
// The entry also takes a new seq, as the local driver does, so the next
// sweep compares it with its neighbours under the new model (those it was
// blind to until now). The seq is drawn like an Insert's, under seqLockKey
// held shared until commit, so Since still sees seqs in order.
func (k *Knowledge) SetVector(ctx context.Context, id, model string, v []float32) error {
	if model == "" || len(v) == 0 {
		return pumasi.Errorf(pumasi.EInvalidRequest, "an embedding and its model are required")
	}
	if err := k.ensureIndex(ctx, len(v)); err != nil {
		return wrap("set vector", err)
	}
	err := pgx.BeginFunc(ctx, k.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock_shared($1)`, seqLockKey); err != nil {
			return fmt.Errorf("take seq lock: %w", err)
		}
		// seq is GENERATED ALWAYS: DEFAULT is the one value an UPDATE may
		// give it, and draws the next from its sequence.
		tag, err := tx.Exec(ctx, `UPDATE knowledge_entries SET seq = DEFAULT, model = $2, embedding = $3 WHERE id = $1`,
			id, model, pgvector.NewVector(v))
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 { // absorbed since OtherModel listed it
			return notFound(id)
		}
		return nil
	})
	if err != nil {
		return wrap("set vector", err)
	}
	return nil
}

var _ knowledge.Reanalyser = (*Knowledge)(nil)

// StaleAnalyses lists entries whose stored analysis is missing or does not
// begin with current, by id.
func (k *Knowledge) StaleAnalyses(ctx context.Context, current []byte, after string, limit int) ([]knowledge.StoredEntry, error) {
	es, err := k.scanEntries(ctx, `SELECT `+storedCols+` FROM knowledge_entries
		WHERE id > $1 AND (analysis IS NULL OR substring(analysis FROM 1 FOR $2) <> $3) ORDER BY id LIMIT $4`,
		after, len(current), current, limit)
	if err != nil {
		return nil, wrap("list entries to analyse again", err)
	}
	return es, nil
}

// SetAnalysis stores an entry's analysis.
func (k *Knowledge) SetAnalysis(ctx context.Context, id string, analysis []byte) error {
	tag, err := k.pool.Exec(ctx, `UPDATE knowledge_entries SET analysis = $2 WHERE id = $1`, id, analysis)
	if err != nil {
		return wrap("set analysis", err)
	}
	if tag.RowsAffected() == 0 {
		return notFound(id)
	}
	return nil
}

var _ knowledge.Redetailer = (*Knowledge)(nil)

// StaleDetails lists entries whose stored details are missing or do not
// begin with current, by id.
func (k *Knowledge) StaleDetails(ctx context.Context, current []byte, after string, limit int) ([]knowledge.StoredEntry, error) {
	es, err := k.scanEntries(ctx, `SELECT `+storedCols+` FROM knowledge_entries
		WHERE id > $1 AND (details IS NULL OR substring(details FROM 1 FOR $2) <> $3) ORDER BY id LIMIT $4`,
		after, len(current), current, limit)
	if err != nil {
		return nil, wrap("list entries to parse again", err)
	}
	return es, nil
}

// SetDetails stores an entry's details.
func (k *Knowledge) SetDetails(ctx context.Context, id string, details []byte) error {
	tag, err := k.pool.Exec(ctx, `UPDATE knowledge_entries SET details = $2 WHERE id = $1`, id, details)
	if err != nil {
		return wrap("set details", err)
	}
	if tag.RowsAffected() == 0 {
		return notFound(id)
	}
	return nil
}
