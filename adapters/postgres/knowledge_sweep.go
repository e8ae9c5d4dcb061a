package postgres

import (
	"context"
	"time"

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
	_, err := k.pool.Exec(ctx, `INSERT INTO knowledge_sweeps (at, scanned, merged, aged, batches, took_ms, cites_pruned)
		VALUES ($1, $2, $3, $4, $5, $6, $7)`, rep.At, rep.Scanned, rep.Merged, rep.Aged, rep.Batches, rep.Took.Milliseconds(), rep.CitesPruned)
	if err != nil {
		return wrap("record sweep", err)
	}
	return nil
}
