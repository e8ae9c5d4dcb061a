package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"pumasi"
	"pumasi/knowledge"
)

// SweepMark returns the highest entry seq a finished sweep batch covered.
func (k *Knowledge) SweepMark(ctx context.Context) (int64, error) {
	var mark int64
	if err := k.pool.QueryRow(ctx, `SELECT value FROM knowledge_meta WHERE key = 'sweep_seq'`).Scan(&mark); err != nil {
		return 0, wrap("read sweep mark", err)
	}
	return mark, nil
}

// SetSweepMark records the sweep's progress; it never moves back, so two
// sweeps at once cannot undo each other.
func (k *Knowledge) SetSweepMark(ctx context.Context, seq int64) error {
	if _, err := k.pool.Exec(ctx, `UPDATE knowledge_meta SET value = GREATEST(value, $1) WHERE key = 'sweep_seq'`, seq); err != nil {
		return wrap("write sweep mark", err)
	}
	return nil
}

// Absorb folds gone into keep in one transaction. It first locks both rows
// (in id order, so two sweeps cannot deadlock); a contribution, citation or
// endorsement racing it locks the same row first (touchEntry), so none can
// refer to gone once it is deleted: it waits, then finds gone not_found and
// the engine decides again.
func (k *Knowledge) Absorb(ctx context.Context, keep, gone string) error {
	if keep == gone {
		return pumasi.Errorf(pumasi.EInvalidRequest, "cannot absorb entry %q into itself", keep)
	}
	err := pgx.BeginFunc(ctx, k.pool, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, `SELECT id FROM knowledge_entries WHERE id = ANY($1) ORDER BY id FOR UPDATE`,
			[]string{keep, gone})
		if err != nil {
			return fmt.Errorf("lock entries: %w", err)
		}
		locked, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			return fmt.Errorf("lock entries: %w", err)
		}
		if len(locked) < 2 {
			missing := gone
			if len(locked) == 1 && locked[0] == gone {
				missing = keep
			}
			return notFound(missing)
		}
		both, onlyGone := []any{keep, gone}, []any{gone}
		steps := []struct {
			op, q string
			args  []any
		}{
			{"move contributions", `UPDATE knowledge_contributions SET entry_id = $1 WHERE entry_id = $2`, both},
			{"move contributors", `INSERT INTO knowledge_contributors (entry_id, agent)
				SELECT $1, agent FROM knowledge_contributors WHERE entry_id = $2 ON CONFLICT (entry_id, agent) DO NOTHING`, both},
			{"drop contributors", `DELETE FROM knowledge_contributors WHERE entry_id = $1`, onlyGone},
			{"move endorsements", `INSERT INTO knowledge_endorsements (entry_id, agent, at)
				SELECT $1, agent, at FROM knowledge_endorsements WHERE entry_id = $2 ON CONFLICT (entry_id, agent) DO NOTHING`, both},
			{"drop endorsements", `DELETE FROM knowledge_endorsements WHERE entry_id = $1`, onlyGone},
			{"fold counts", `UPDATE knowledge_entries k SET
				contribution_count = GREATEST(1, (SELECT count(*) FROM knowledge_contributors WHERE entry_id = $1)),
				endorsement_count = (SELECT count(*) FROM knowledge_endorsements WHERE entry_id = $1),
				citation_count = k.citation_count + g.citation_count,
				last_used_at = GREATEST(k.last_used_at, g.last_used_at)
				FROM knowledge_entries g WHERE k.id = $1 AND g.id = $2`, both},
			{"delete entry", `DELETE FROM knowledge_entries WHERE id = $1`, onlyGone},
		}
		for _, s := range steps {
			if _, err := tx.Exec(ctx, s.q, s.args...); err != nil {
				return fmt.Errorf("%s into %s: %s: %w", gone, keep, s.op, err)
			}
		}
		return nil
	})
	if err != nil {
		return wrap("absorb", err)
	}
	return nil
}

// CountUnused counts entries last used before t.
func (k *Knowledge) CountUnused(ctx context.Context, before time.Time) (int, error) {
	var n int
	if err := k.pool.QueryRow(ctx, `SELECT count(*) FROM knowledge_entries WHERE last_used_at < $1`, before).Scan(&n); err != nil {
		return 0, wrap("count unused entries", err)
	}
	return n, nil
}

// RecordSweep keeps a sweep's report in knowledge_sweeps.
func (k *Knowledge) RecordSweep(ctx context.Context, rep knowledge.SweepReport) error {
	_, err := k.pool.Exec(ctx, `INSERT INTO knowledge_sweeps (at, scanned, merged, aged, batches, took_ms)
		VALUES ($1, $2, $3, $4, $5, $6)`, rep.At, rep.Scanned, rep.Merged, rep.Aged, rep.Batches, rep.Took.Milliseconds())
	if err != nil {
		return wrap("record sweep", err)
	}
	return nil
}
