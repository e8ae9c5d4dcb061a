package postgres

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/pgvector/pgvector-go"

	"pumasi/knowledge"
)

var (
	_ knowledge.Porter = (*Knowledge)(nil)
	_ knowledge.Porter = retrying{}
)

// collect runs a query and scans its rows with dest.
func collect[T any](ctx context.Context, q querier, op string, dest func(*T) []any, query string, args ...any) ([]T, error) {
	rows, err := q.Query(ctx, query, args...)
	if err != nil {
		return nil, wrap(op, err)
	}
	defer rows.Close()
	out, err := knowledge.Collect(rows, dest)
	if err != nil {
		return nil, wrap(op, err)
	}
	return out, nil
}

// PortDetails reads what an export needs beyond Since, ModStates and
// Events.
func (k *Knowledge) PortDetails(ctx context.Context, id string) (knowledge.PortDetails, error) {
	var d knowledge.PortDetails
	err := k.pool.QueryRow(ctx, `SELECT norm_hash FROM knowledge_entries WHERE id = $1`, id).Scan(&d.NormHash)
	if errors.Is(err, pgx.ErrNoRows) {
		return d, notFound(id)
	}
	if err != nil {
		return d, wrap("read norm hash", err)
	}
	if d.Contributions, err = collect(ctx, k.pool, "list contributions", knowledge.ContributionDest,
		`SELECT `+knowledge.ContributionCols+` FROM knowledge_contributions WHERE entry_id = $1 ORDER BY seq`, id); err != nil {
		return d, err
	}
	if d.Contributors, err = collect(ctx, k.pool, "list contributors", func(s *string) []any { return []any{s} },
		`SELECT agent FROM knowledge_contributors WHERE entry_id = $1 ORDER BY agent`, id); err != nil {
		return d, err
	}
	if d.Endorsements, err = collect(ctx, k.pool, "list endorsements", knowledge.EndorsementDest,
		`SELECT `+knowledge.EndorsementCols+` FROM knowledge_endorsements WHERE entry_id = $1 ORDER BY at, agent, origin`, id); err != nil {
		return d, err
	}
	d.Cites, err = collect(ctx, k.pool, "list cites", knowledge.CiteDest,
		`SELECT `+knowledge.CiteCols+` FROM knowledge_cites WHERE entry_id = $1 ORDER BY day, agent, origin`, id)
	return d, err
}

// FlagRecords lists the flags kept against id, oldest first.
func (k *Knowledge) FlagRecords(ctx context.Context, id string) ([]knowledge.FlagRecord, error) {
	return collect(ctx, k.pool, "list flags", knowledge.FlagDest,
		`SELECT `+knowledge.FlagCols+` FROM knowledge_flags WHERE entry_id = $1 ORDER BY at, agent, origin`, id)
}

// MergeRecords pages through knowledge_absorbed by seq.
func (k *Knowledge) MergeRecords(ctx context.Context, seq int64, limit int) ([]knowledge.ExportedMerge, error) {
	type row struct {
		m      knowledge.ExportedMerge
		vector pgvector.Vector
	}
	rows, err := collect(ctx, k.pool, "list merge records", func(r *row) []any {
		return knowledge.MergeRecordDest(&r.m, &r.m.Tags, &r.vector)
	}, `SELECT `+knowledge.MergeRecordCols+`, tags, embedding FROM knowledge_absorbed WHERE seq > $1 ORDER BY seq LIMIT $2`, seq, limit)
	if err != nil {
		return nil, err
	}
	out := make([]knowledge.ExportedMerge, len(rows))
	for i, r := range rows {
		out[i] = r.m
		if r.m.NormHash != "" { // a blanked record keeps a placeholder vector
			out[i].Vector = r.vector.Slice()
		}
	}
	return out, nil
}

// Redactions lists every tombstone, oldest first.
func (k *Knowledge) Redactions(ctx context.Context) ([]knowledge.Redaction, error) {
	return collect(ctx, k.pool, "list redactions", knowledge.RedactionDest,
		`SELECT `+knowledge.RedactionCols+` FROM knowledge_redactions ORDER BY at, id`)
}

// idTaken reports whether id is an entry, a tombstone or absorbed.
func idTaken(ctx context.Context, tx pgx.Tx, id string) (bool, error) {
	var taken bool
	err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM knowledge_entries WHERE id = $1)
		OR EXISTS (SELECT 1 FROM knowledge_redactions WHERE id = $1)
		OR EXISTS (SELECT 1 FROM knowledge_absorbed WHERE entry_id = $1 AND unmerged_at IS NULL)`, id).Scan(&taken)
	return taken, err
}

// importLifecycle writes an imported id's flags, moderation state and
// events.
func importLifecycle(ctx context.Context, tx pgx.Tx, id, hive string, lc knowledge.Lifecycle) error {
	for _, f := range lc.Flags {
		if _, err := tx.Exec(ctx, `INSERT INTO knowledge_flags (entry_id, agent, reason, note, admin, at, origin, cleared)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING`, id, f.Agent, f.Reason, f.Note, f.Admin, f.At,
			cmp.Or(f.Origin, id), f.Cleared); err != nil {
			return fmt.Errorf("import flag: %w", err)
		}
	}
	if m := lc.Moderation; m != nil {
		var flagged *time.Time
		if !m.FlaggedAt.IsZero() {
			flagged = &m.FlaggedAt
		}
		if _, err := tx.Exec(ctx, `INSERT INTO knowledge_moderation
			(entry_id, hive, flags, cleared, quarantined, superseded_by, supersedes, flagged_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING`,
			id, hive, m.Flags, m.Cleared, m.Quarantined, m.SupersededBy, m.Supersedes, flagged); err != nil {
			return fmt.Errorf("import moderation: %w", err)
		}
	}
	for _, ev := range lc.Events {
		if err := insertEvent(ctx, tx, id, ev); err != nil {
			return err
		}
	}
	return nil
}

// ImportEntry writes an exported entry as it is, in one transaction, under
// the seq lock like Insert.
func (k *Knowledge) ImportEntry(ctx context.Context, e knowledge.ExportedEntry) (bool, error) {
	if err := k.ensureIndex(ctx, len(e.Vector)); err != nil {
		return false, err
	}
	created := false
	err := pgx.BeginFunc(ctx, k.pool, func(tx pgx.Tx) error {
		created = false
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock_shared($1)`, seqLockKey); err != nil {
			return fmt.Errorf("take seq lock: %w", err)
		}
		if taken, err := idTaken(ctx, tx, e.ID); err != nil || taken {
			return err
		}
		tag, err := tx.Exec(ctx, `INSERT INTO knowledge_entries
			(id, hive, title, content, tags, norm_hash, model, embedding, specificity,
			 contribution_count, citation_count, endorsement_count, created_at, last_used_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) ON CONFLICT (hive, norm_hash) DO NOTHING`,
			e.ID, e.Hive, e.Title, e.Content, nonNilTags(e.Tags), e.NormHash, e.Model, pgvector.NewVector(e.Vector), e.Specificity,
			e.ContributionCount, e.CitationCount, e.EndorsementCount, e.CreatedAt, e.LastUsedAt)
		if err != nil {
			return fmt.Errorf("import entry: %w", err)
		}
		if tag.RowsAffected() == 0 {
			return nil
		}
		created = true
		for _, c := range e.Contributions {
			if _, err := tx.Exec(ctx, `INSERT INTO knowledge_contributions (entry_id, agent, title, content, similarity, at, origin)
				VALUES ($1, $2, $3, $4, $5, $6, $7)`, e.ID, c.Agent, c.Title, c.Content, c.Similarity, c.At, c.Origin); err != nil {
				return fmt.Errorf("import contribution: %w", err)
			}
		}
		for _, a := range e.Contributors {
			if _, err := tx.Exec(ctx, `INSERT INTO knowledge_contributors (entry_id, agent) VALUES ($1, $2)
				ON CONFLICT DO NOTHING`, e.ID, a); err != nil {
				return fmt.Errorf("import contributor: %w", err)
			}
		}
		for _, en := range e.Endorsements {
			if _, err := tx.Exec(ctx, `INSERT INTO knowledge_endorsements (entry_id, agent, at, origin) VALUES ($1, $2, $3, $4)
				ON CONFLICT DO NOTHING`, e.ID, en.Agent, en.At, en.Origin); err != nil {
				return fmt.Errorf("import endorsement: %w", err)
			}
		}
		for _, c := range e.Cites {
			if _, err := tx.Exec(ctx, `INSERT INTO knowledge_cites (entry_id, agent, day, origin) VALUES ($1, $2, $3, $4)
				ON CONFLICT DO NOTHING`, e.ID, c.Agent, c.Day, c.Origin); err != nil {
				return fmt.Errorf("import cite: %w", err)
			}
		}
		return importLifecycle(ctx, tx, e.ID, e.Hive, e.Lifecycle)
	})
	if err != nil {
		return false, wrap("import entry", err)
	}
	return created, nil
}

// ImportMerge keeps an exported absorption record. A blank one (its
// survivor redacted) keeps Redact's placeholder vector.
func (k *Knowledge) ImportMerge(ctx context.Context, m knowledge.ExportedMerge) (bool, error) {
	vec := m.Vector
	if len(vec) == 0 {
		vec = []float32{0}
	}
	var unAt *time.Time
	var unBy *string
	if !m.UnmergedAt.IsZero() {
		unAt, unBy = &m.UnmergedAt, &m.UnmergedBy
	}
	created := false
	err := pgx.BeginFunc(ctx, k.pool, func(tx pgx.Tx) error {
		created = false
		var there bool
		if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM knowledge_absorbed WHERE entry_id = $1 AND at = $2)`,
			m.EntryID, m.At).Scan(&there); err != nil || there {
			return err
		}
		if m.UnmergedAt.IsZero() {
			if taken, err := idTaken(ctx, tx, m.EntryID); err != nil || taken {
				return err
			}
		}
		if _, err := tx.Exec(ctx, `INSERT INTO knowledge_absorbed (entry_id, merged_into, hive, title, content, tags,
			norm_hash, model, embedding, specificity, contribution_count, citation_count, endorsement_count, created_at, last_used_at,
			at, similarity, via, unmerged_at, unmerged_by)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20)`,
			m.EntryID, m.MergedInto, m.Hive, m.Title, m.Content, nonNilTags(m.Tags), m.NormHash, m.Model, pgvector.NewVector(vec),
			m.Specificity, m.ContributionCount, m.CitationCount, m.EndorsementCount, m.CreatedAt, m.LastUsedAt,
			m.At, m.Similarity, m.Via, unAt, unBy); err != nil {
			return fmt.Errorf("import merge record: %w", err)
		}
		created = true
		return importLifecycle(ctx, tx, m.EntryID, m.Hive, m.Lifecycle)
	})
	if err != nil {
		return false, wrap("import merge record", err)
	}
	return created, nil
}

// ImportRedaction keeps an exported tombstone with its lifecycle.
func (k *Knowledge) ImportRedaction(ctx context.Context, t knowledge.Tombstone) (bool, error) {
	created := false
	err := pgx.BeginFunc(ctx, k.pool, func(tx pgx.Tx) error {
		created = false
		if taken, err := idTaken(ctx, tx, t.ID); err != nil || taken {
			return err
		}
		if _, err := tx.Exec(ctx, `INSERT INTO knowledge_redactions (id, hive, at, reason, by) VALUES ($1, $2, $3, $4, $5)`,
			t.ID, t.Hive, t.At, t.Reason, t.By); err != nil {
			return fmt.Errorf("import tombstone: %w", err)
		}
		created = true
		return importLifecycle(ctx, tx, t.ID, t.Hive, t.Lifecycle)
	})
	if err != nil {
		return false, wrap("import tombstone", err)
	}
	return created, nil
}

// The retrying driver retries the reads, and the imports, which their ids
// make idempotent: a retry after a lost commit finds the id taken.
func (r retrying) PortDetails(ctx context.Context, id string) (d knowledge.PortDetails, err error) {
	err = retry(ctx, read, func(ctx context.Context) error { d, err = r.Knowledge.PortDetails(ctx, id); return err })
	return d, err
}

func (r retrying) FlagRecords(ctx context.Context, id string) (fs []knowledge.FlagRecord, err error) {
	err = retry(ctx, read, func(ctx context.Context) error { fs, err = r.Knowledge.FlagRecords(ctx, id); return err })
	return fs, err
}

func (r retrying) MergeRecords(ctx context.Context, seq int64, limit int) (ms []knowledge.ExportedMerge, err error) {
	err = retry(ctx, read, func(ctx context.Context) error { ms, err = r.Knowledge.MergeRecords(ctx, seq, limit); return err })
	return ms, err
}

func (r retrying) Redactions(ctx context.Context) (rs []knowledge.Redaction, err error) {
	err = retry(ctx, read, func(ctx context.Context) error { rs, err = r.Knowledge.Redactions(ctx); return err })
	return rs, err
}

func (r retrying) ImportEntry(ctx context.Context, e knowledge.ExportedEntry) (created bool, err error) {
	err = retry(ctx, idempotent, func(ctx context.Context) error { created, err = r.Knowledge.ImportEntry(ctx, e); return err })
	return created, err
}

func (r retrying) ImportMerge(ctx context.Context, m knowledge.ExportedMerge) (created bool, err error) {
	err = retry(ctx, idempotent, func(ctx context.Context) error { created, err = r.Knowledge.ImportMerge(ctx, m); return err })
	return created, err
}

func (r retrying) ImportRedaction(ctx context.Context, t knowledge.Tombstone) (created bool, err error) {
	err = retry(ctx, idempotent, func(ctx context.Context) error { created, err = r.Knowledge.ImportRedaction(ctx, t); return err })
	return created, err
}

var (
	_ knowledge.CitePruner = (*Knowledge)(nil)
	_ knowledge.CitePruner = retrying{}
)

// PruneCites deletes old per-day citation rows, keeping those of
// survivors of absorptions in effect.
func (k *Knowledge) PruneCites(ctx context.Context, before string) (int64, error) {
	tag, err := k.pool.Exec(ctx, `DELETE FROM knowledge_cites WHERE day < $1
		AND entry_id NOT IN (SELECT merged_into FROM knowledge_absorbed WHERE unmerged_at IS NULL)`, before)
	if err != nil {
		return 0, wrap("prune cites", err)
	}
	return tag.RowsAffected(), nil
}

// PruneCites is idempotent: a retry deletes what is left of the same rows.
func (r retrying) PruneCites(ctx context.Context, before string) (n int64, err error) {
	err = retry(ctx, idempotent, func(ctx context.Context) error { n, err = r.Knowledge.PruneCites(ctx, before); return err })
	return n, err
}
