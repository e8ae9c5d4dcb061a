package postgres

import (
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

// PortDetails reads what an export needs beyond Since, Contributions,
// ModStates and Events.
func (k *Knowledge) PortDetails(ctx context.Context, id string) (knowledge.PortDetails, error) {
	var d knowledge.PortDetails
	err := k.pool.QueryRow(ctx, `SELECT norm_hash FROM knowledge_entries WHERE id = $1`, id).Scan(&d.NormHash)
	if errors.Is(err, pgx.ErrNoRows) {
		return d, notFound(id)
	}
	if err != nil {
		return d, wrap("read norm hash", err)
	}
	rows, err := k.pool.Query(ctx, `SELECT agent FROM knowledge_contributors WHERE entry_id = $1 ORDER BY agent`, id)
	if err != nil {
		return d, wrap("list contributors", err)
	}
	if d.Contributors, err = pgx.CollectRows(rows, pgx.RowTo[string]); err != nil {
		return d, wrap("list contributors", err)
	}
	rows, err = k.pool.Query(ctx, `SELECT agent, min(at) AS at FROM knowledge_endorsements WHERE entry_id = $1
		GROUP BY agent ORDER BY at, agent`, id)
	if err != nil {
		return d, wrap("list endorsements", err)
	}
	d.Endorsements, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (knowledge.Endorsement, error) {
		var e knowledge.Endorsement
		err := r.Scan(&e.Agent, &e.At)
		e.At = e.At.UTC()
		return e, err
	})
	if err != nil {
		return d, wrap("list endorsements", err)
	}
	rows, err = k.pool.Query(ctx, `SELECT agent, reason, note, admin, at FROM knowledge_flags WHERE entry_id = $1 ORDER BY at, agent`, id)
	if err != nil {
		return d, wrap("list flags", err)
	}
	d.Flags, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (knowledge.FlagRecord, error) {
		var f knowledge.FlagRecord
		err := r.Scan(&f.Agent, &f.Reason, &f.Note, &f.Admin, &f.At)
		f.At = f.At.UTC()
		return f, err
	})
	if err != nil {
		return d, wrap("list flags", err)
	}
	return d, nil
}

// Redactions lists every tombstone, oldest first.
func (k *Knowledge) Redactions(ctx context.Context) ([]knowledge.Redaction, error) {
	rows, err := k.pool.Query(ctx, `SELECT id, hive, at, reason, by FROM knowledge_redactions ORDER BY at, id`)
	if err != nil {
		return nil, wrap("list redactions", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (knowledge.Redaction, error) {
		var x knowledge.Redaction
		err := r.Scan(&x.ID, &x.Hive, &x.At, &x.Reason, &x.By)
		x.At = x.At.UTC()
		return x, err
	})
	if err != nil {
		return nil, wrap("list redactions", err)
	}
	return out, nil
}

// idTaken reports whether id is an entry or a tombstone.
func idTaken(ctx context.Context, tx pgx.Tx, id string) (bool, error) {
	var taken bool
	err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM knowledge_entries WHERE id = $1)
		OR EXISTS (SELECT 1 FROM knowledge_redactions WHERE id = $1)`, id).Scan(&taken)
	return taken, err
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
			if err := insertContribution(ctx, tx, e.ID, c); err != nil {
				return err
			}
		}
		for _, a := range e.Contributors {
			if _, err := tx.Exec(ctx, `INSERT INTO knowledge_contributors (entry_id, agent) VALUES ($1, $2)
				ON CONFLICT DO NOTHING`, e.ID, a); err != nil {
				return fmt.Errorf("import contributor: %w", err)
			}
		}
		for _, en := range e.Endorsements {
			if _, err := tx.Exec(ctx, `INSERT INTO knowledge_endorsements (entry_id, agent, at, origin) VALUES ($1, $2, $3, $1)
				ON CONFLICT DO NOTHING`, e.ID, en.Agent, en.At); err != nil {
				return fmt.Errorf("import endorsement: %w", err)
			}
		}
		for _, f := range e.Flags {
			if _, err := tx.Exec(ctx, `INSERT INTO knowledge_flags (entry_id, agent, reason, note, admin, at)
				VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING`, e.ID, f.Agent, f.Reason, f.Note, f.Admin, f.At); err != nil {
				return fmt.Errorf("import flag: %w", err)
			}
		}
		if m := e.Moderation; m != nil {
			var flagged *time.Time
			if !m.FlaggedAt.IsZero() {
				flagged = &m.FlaggedAt
			}
			if _, err := tx.Exec(ctx, `INSERT INTO knowledge_moderation
				(entry_id, hive, flags, cleared, quarantined, superseded_by, supersedes, flagged_at)
				VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING`,
				e.ID, e.Hive, m.Flags, m.Cleared, m.Quarantined, m.SupersededBy, m.Supersedes, flagged); err != nil {
				return fmt.Errorf("import moderation: %w", err)
			}
		}
		for _, ev := range e.Events {
			if err := insertEvent(ctx, tx, e.ID, ev); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return false, wrap("import entry", err)
	}
	return created, nil
}

// ImportRedaction keeps an exported tombstone.
func (k *Knowledge) ImportRedaction(ctx context.Context, r knowledge.Redaction) (bool, error) {
	created := false
	err := pgx.BeginFunc(ctx, k.pool, func(tx pgx.Tx) error {
		created = false
		if taken, err := idTaken(ctx, tx, r.ID); err != nil || taken {
			return err
		}
		if _, err := tx.Exec(ctx, `INSERT INTO knowledge_redactions (id, hive, at, reason, by) VALUES ($1, $2, $3, $4, $5)`,
			r.ID, r.Hive, r.At, r.Reason, r.By); err != nil {
			return fmt.Errorf("import tombstone: %w", err)
		}
		created = true
		return insertEvent(ctx, tx, r.ID, knowledge.Event{Kind: knowledge.EventRedacted, At: r.At, By: r.By, Reason: r.Reason})
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

func (r retrying) Redactions(ctx context.Context) (rs []knowledge.Redaction, err error) {
	err = retry(ctx, read, func(ctx context.Context) error { rs, err = r.Knowledge.Redactions(ctx); return err })
	return rs, err
}

func (r retrying) ImportEntry(ctx context.Context, e knowledge.ExportedEntry) (created bool, err error) {
	err = retry(ctx, idempotent, func(ctx context.Context) error { created, err = r.Knowledge.ImportEntry(ctx, e); return err })
	return created, err
}

func (r retrying) ImportRedaction(ctx context.Context, x knowledge.Redaction) (created bool, err error) {
	err = retry(ctx, idempotent, func(ctx context.Context) error { created, err = r.Knowledge.ImportRedaction(ctx, x); return err })
	return created, err
}
