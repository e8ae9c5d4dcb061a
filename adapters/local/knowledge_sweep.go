package local

import (
	"context"
	"database/sql"
	"slices"
	"strings"
	"time"

	"pumasi"
	"pumasi/knowledge"
)

// SweepMark returns the highest entry seq a finished sweep batch covered.
func (k *Knowledge) SweepMark(ctx context.Context) (int64, error) {
	var mark int64
	if err := k.s.db.QueryRowContext(ctx, `SELECT value FROM knowledge_meta WHERE key = 'sweep_seq'`).Scan(&mark); err != nil {
		return 0, wrapInternal("read sweep mark", err)
	}
	return mark, nil
}

// SetSweepMark records the sweep's progress; it never moves back.
func (k *Knowledge) SetSweepMark(ctx context.Context, seq int64) error {
	// Unsynced, like Absorb: RecordSweep syncs the whole run at its end.
	err := k.s.writeTxNoSync(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE knowledge_meta SET value = MAX(value, ?) WHERE key = 'sweep_seq'`, seq)
		return err
	})
	if err != nil {
		return wrapInternal("write sweep mark", err)
	}
	return nil
}

// CountUnused counts entries last used before t.
func (k *Knowledge) CountUnused(ctx context.Context, before time.Time) (int, error) {
	var n int
	err := k.s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM knowledge_entries WHERE last_used_at < ?`,
		formatTime(before)).Scan(&n)
	if err != nil {
		return 0, wrapInternal("count unused entries", err)
	}
	return n, nil
}

// RecordSweep keeps a sweep's report in knowledge_sweeps.
func (k *Knowledge) RecordSweep(ctx context.Context, rep knowledge.SweepReport) error {
	// Synced, and with it every merge of the run (durable covers all the
	// commits before it): the report it answers is then true after a crash.
	err := k.s.writeTx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO knowledge_sweeps (at, scanned, merged, aged, batches, took_ms, cites_pruned)
			VALUES (?, ?, ?, ?, ?, ?, ?)`, formatTime(rep.At), rep.Scanned, rep.Merged, rep.Aged, rep.Batches, rep.Took.Milliseconds(), rep.CitesPruned)
		return err
	})
	if err != nil {
		return wrapInternal("record sweep", err)
	}
	return nil
}

var _ knowledge.Reembedder = (*Knowledge)(nil)

// OtherModel lists entries embedded by another model, oldest first.
func (k *Knowledge) OtherModel(ctx context.Context, model string, limit int) ([]knowledge.StoredEntry, error) {
	got := map[string]knowledge.StoredEntry{}
	if err := k.scanEntries(ctx, got, `SELECT `+storedCols+` FROM knowledge_entries WHERE model != ? ORDER BY seq LIMIT ?`, model, limit); err != nil {
		return nil, wrapInternal("list entries of other models", err)
	}
	out := make([]knowledge.StoredEntry, 0, len(got))
	for _, e := range got {
		out = append(out, e)
	}
	sortBySeq(out)
	return out, nil
}

// SetVector stores a new embedding. The entry moves to a new seq (above
// every other, as AUTOINCREMENT would give) with a tombstone for the old
// one, so each process's index drops it from its old model's graph and adds
// it to the new one on its next refresh.
func (k *Knowledge) SetVector(ctx context.Context, id, model string, v []float32) error {
	// Unsynced: nobody is answered about a re-embedding, and one a power
	// loss undoes is simply done again (an fsync per entry made 100k
	// entries take minutes).
	err := k.s.writeTxNoSync(ctx, func(tx *sql.Tx) error {
		var seq int64
		var hive, old string
		err := tx.QueryRowContext(ctx, `SELECT seq, hive, model FROM knowledge_entries WHERE id = ?`, id).Scan(&seq, &hive, &old)
		if err == sql.ErrNoRows {
			return pumasi.Errorf(pumasi.ENotFound, "no knowledge entry %q", id)
		}
		if err != nil {
			return err
		}
		var next int64
		if err := tx.QueryRowContext(ctx, `SELECT MAX(COALESCE((SELECT seq FROM sqlite_sequence WHERE name = 'knowledge_entries'), 0),
			(SELECT MAX(seq) FROM knowledge_entries)) + 1`).Scan(&next); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE knowledge_entries SET seq = ?, model = ?, vector = ? WHERE id = ?`,
			next, model, knowEncodeVector(v), id); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE sqlite_sequence SET seq = ? WHERE name = 'knowledge_entries'`, next); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO knowledge_tombstones (id, entry_seq, hive, model) VALUES (?, ?, ?, ?)`, id, seq, hive, old)
		return err
	})
	if err != nil {
		return wrapInternal("set vector", err)
	}
	return nil
}

var _ knowledge.Reanalyser = (*Knowledge)(nil)

// StaleAnalyses lists entries whose stored analysis is missing or does not
// begin with current, by id.
func (k *Knowledge) StaleAnalyses(ctx context.Context, current []byte, after string, limit int) ([]knowledge.StoredEntry, error) {
	es, err := k.staleIn(ctx, "analysis", current, after, limit)
	if err != nil {
		return nil, wrapInternal("list entries to analyse again", err)
	}
	return es, nil
}

// SetAnalysis stores an entry's analysis. Unsynced, as SetVector: one a
// power loss undoes is made again by the next run.
func (k *Knowledge) SetAnalysis(ctx context.Context, id string, analysis []byte) error {
	if err := k.setIn(ctx, "analysis", id, analysis); err != nil {
		return wrapInternal("set analysis", err)
	}
	return nil
}

var _ knowledge.Redetailer = (*Knowledge)(nil)

// StaleDetails lists entries whose stored details are missing or do not
// begin with current, by id.
func (k *Knowledge) StaleDetails(ctx context.Context, current []byte, after string, limit int) ([]knowledge.StoredEntry, error) {
	es, err := k.staleIn(ctx, "details", current, after, limit)
	if err != nil {
		return nil, wrapInternal("list entries to parse again", err)
	}
	return es, nil
}

// SetDetails stores an entry's details. Unsynced, as SetAnalysis: one a
// power loss undoes is made again by the next run.
func (k *Knowledge) SetDetails(ctx context.Context, id string, details []byte) error {
	if err := k.setIn(ctx, "details", id, details); err != nil {
		return wrapInternal("set details", err)
	}
	return nil
}

// staleIn lists, by id, the entries after after whose versioned column col
// (analysis or details, a constant of this file) is missing or does not
// begin with current.
func (k *Knowledge) staleIn(ctx context.Context, col string, current []byte, after string, limit int) ([]knowledge.StoredEntry, error) {
	got := map[string]knowledge.StoredEntry{}
	if err := k.scanEntries(ctx, got, `SELECT `+storedCols+` FROM knowledge_entries
		WHERE id > ? AND (`+col+` IS NULL OR substr(`+col+`, 1, ?) != ?) ORDER BY id LIMIT ?`,
		after, len(current), current, limit); err != nil {
		return nil, err
	}
	out := make([]knowledge.StoredEntry, 0, len(got))
	for _, e := range got {
		out = append(out, e)
	}
	slices.SortFunc(out, func(a, b knowledge.StoredEntry) int { return strings.Compare(a.ID, b.ID) })
	return out, nil
}

// setIn stores value in entry id's column col (analysis or details),
// unsynced; ENotFound when there is no such entry.
func (k *Knowledge) setIn(ctx context.Context, col, id string, value []byte) error {
	return k.s.writeTxNoSync(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE knowledge_entries SET `+col+` = ? WHERE id = ?`, value, id)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			if err != nil {
				return err
			}
			return pumasi.Errorf(pumasi.ENotFound, "no knowledge entry %q", id)
		}
		return nil
	})
}
