package local

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"pumasi"
	"pumasi/knowledge"
)

var _ knowledge.Porter = (*Knowledge)(nil)

// collect runs a query and scans its rows with dest.
func collect[T any](ctx context.Context, q interface {
	QueryContext(context.Context, string, ...any) (*sql.Rows, error)
}, op string, dest func(*T) []any, query string, args ...any) ([]T, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, wrapInternal(op, err)
	}
	defer rows.Close()
	out, err := knowledge.Collect(rows, dest)
	if err != nil {
		return nil, wrapInternal(op, err)
	}
	return out, nil
}

// PortDetails reads what an export needs beyond Since, ModStates and
// Events.
func (k *Knowledge) PortDetails(ctx context.Context, id string) (knowledge.PortDetails, error) {
	var d knowledge.PortDetails
	err := k.s.db.QueryRowContext(ctx, `SELECT norm_hash FROM knowledge_entries WHERE id = ?`, id).Scan(&d.NormHash)
	if errors.Is(err, sql.ErrNoRows) {
		return d, pumasi.Errorf(pumasi.ENotFound, "no knowledge entry %q", id)
	}
	if err != nil {
		return d, wrapInternal("read norm hash", err)
	}
	if d.Contributions, err = collect(ctx, k.s.db, "list contributions", knowledge.ContributionDest,
		`SELECT `+knowledge.ContributionCols+` FROM knowledge_contributions WHERE entry_id = ? ORDER BY seq`, id); err != nil {
		return d, err
	}
	if d.Contributors, err = collect(ctx, k.s.db, "list contributors", func(s *string) []any { return []any{s} },
		`SELECT agent FROM knowledge_contributors WHERE entry_id = ? ORDER BY agent`, id); err != nil {
		return d, err
	}
	if d.Endorsements, err = collect(ctx, k.s.db, "list endorsements", knowledge.EndorsementDest,
		`SELECT `+knowledge.EndorsementCols+` FROM knowledge_endorsements WHERE entry_id = ? ORDER BY at, agent, origin`, id); err != nil {
		return d, err
	}
	d.Cites, err = collect(ctx, k.s.db, "list cites", knowledge.CiteDest,
		`SELECT `+knowledge.CiteCols+` FROM knowledge_cites WHERE entry_id = ? ORDER BY day, agent, origin`, id)
	return d, err
}

// FlagRecords lists the flags kept against id, oldest first.
func (k *Knowledge) FlagRecords(ctx context.Context, id string) ([]knowledge.FlagRecord, error) {
	return collect(ctx, k.s.db, "list flags", knowledge.FlagDest,
		`SELECT `+knowledge.FlagCols+` FROM knowledge_flags WHERE entry_id = ? ORDER BY at, agent, origin`, id)
}

// MergeRecords pages through knowledge_absorbed by seq.
func (k *Knowledge) MergeRecords(ctx context.Context, seq int64, limit int) ([]knowledge.ExportedMerge, error) {
	type row struct {
		m      knowledge.ExportedMerge
		tags   string
		vector []byte
	}
	rows, err := collect(ctx, k.s.db, "list merge records", func(r *row) []any {
		return knowledge.MergeRecordDest(&r.m, &r.tags, &r.vector)
	}, `SELECT `+knowledge.MergeRecordCols+`, tags, vector FROM knowledge_absorbed WHERE seq > ? ORDER BY seq LIMIT ?`, seq, limit)
	if err != nil {
		return nil, err
	}
	out := make([]knowledge.ExportedMerge, len(rows))
	for i, r := range rows {
		out[i] = r.m
		if err := json.Unmarshal([]byte(r.tags), &out[i].Tags); err != nil {
			return nil, wrapInternal("decode merge record tags", err)
		}
		if out[i].Vector, err = knowDecodeVector(r.vector); err != nil {
			return nil, wrapInternal("decode merge record vector", err)
		}
	}
	return out, nil
}

// Redactions lists every tombstone, oldest first.
func (k *Knowledge) Redactions(ctx context.Context) ([]knowledge.Redaction, error) {
	return collect(ctx, k.s.db, "list redactions", knowledge.RedactionDest,
		`SELECT `+knowledge.RedactionCols+` FROM knowledge_redactions ORDER BY at, id`)
}

// idTaken reports whether id is an entry, a tombstone or absorbed.
func idTaken(ctx context.Context, tx *sql.Tx, id string) (bool, error) {
	var n int
	err := tx.QueryRowContext(ctx, `SELECT (SELECT COUNT(*) FROM knowledge_entries WHERE id = ?1) +
		(SELECT COUNT(*) FROM knowledge_redactions WHERE id = ?1) +
		(SELECT COUNT(*) FROM knowledge_absorbed WHERE entry_id = ?1 AND unmerged_at IS NULL)`, id).Scan(&n)
	return n > 0, err
}

// importLifecycle writes an imported id's flags, moderation state and
// events.
func importLifecycle(ctx context.Context, tx *sql.Tx, id, hive string, lc knowledge.Lifecycle) error {
	for _, f := range lc.Flags {
		if _, err := tx.ExecContext(ctx, `INSERT INTO knowledge_flags (entry_id, agent, reason, note, admin, at, origin, cleared)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`, id, f.Agent, f.Reason, f.Note, f.Admin, formatTime(f.At),
			cmp.Or(f.Origin, id), f.Cleared); err != nil {
			return fmt.Errorf("import flag: %w", err)
		}
	}
	if m := lc.Moderation; m != nil {
		flagged := ""
		if !m.FlaggedAt.IsZero() {
			flagged = formatTime(m.FlaggedAt)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO knowledge_moderation
			(entry_id, hive, flags, cleared, quarantined, superseded_by, supersedes, flagged_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
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

// ImportEntry writes an exported entry as it is, in one transaction. The
// full-text triggers index it, and every process's vector index picks it
// up by its seq, as after Insert.
func (k *Knowledge) ImportEntry(ctx context.Context, e knowledge.ExportedEntry) (bool, error) {
	if err := k.s.roomToGrow(); err != nil {
		return false, err
	}
	tags, err := json.Marshal(e.Tags)
	if err != nil {
		return false, fmt.Errorf("import entry: %w", err)
	}
	created := false
	err = k.s.writeTx(ctx, func(tx *sql.Tx) error {
		created = false
		if taken, err := idTaken(ctx, tx, e.ID); err != nil || taken {
			return err
		}
		r, err := tx.ExecContext(ctx, `INSERT INTO knowledge_entries
			(id, hive, title, content, tags, norm_hash, model, vector, specificity,
			 contribution_count, citation_count, endorsement_count, created_at, last_used_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (hive, norm_hash) DO NOTHING`,
			e.ID, e.Hive, e.Title, e.Content, string(tags), e.NormHash, e.Model, knowEncodeVector(e.Vector), e.Specificity,
			e.ContributionCount, e.CitationCount, e.EndorsementCount, formatTime(e.CreatedAt), formatTime(e.LastUsedAt))
		if err != nil {
			return fmt.Errorf("import entry: %w", err)
		}
		if n, _ := r.RowsAffected(); n == 0 {
			return nil
		}
		created = true
		for _, c := range e.Contributions {
			if _, err := tx.ExecContext(ctx, `INSERT INTO knowledge_contributions (entry_id, agent, title, content, similarity, at, origin)
				VALUES (?, ?, ?, ?, ?, ?, ?)`, e.ID, c.Agent, c.Title, c.Content, c.Similarity, formatTime(c.At), c.Origin); err != nil {
				return fmt.Errorf("import contribution: %w", err)
			}
		}
		for _, a := range e.Contributors {
			if _, err := tx.ExecContext(ctx, `INSERT INTO knowledge_contributors (entry_id, agent) VALUES (?, ?)
				ON CONFLICT DO NOTHING`, e.ID, a); err != nil {
				return fmt.Errorf("import contributor: %w", err)
			}
		}
		for _, en := range e.Endorsements {
			if _, err := tx.ExecContext(ctx, `INSERT INTO knowledge_endorsements (entry_id, agent, at, origin) VALUES (?, ?, ?, ?)
				ON CONFLICT DO NOTHING`, e.ID, en.Agent, formatTime(en.At), en.Origin); err != nil {
				return fmt.Errorf("import endorsement: %w", err)
			}
		}
		for _, c := range e.Cites {
			if _, err := tx.ExecContext(ctx, `INSERT INTO knowledge_cites (entry_id, agent, day, origin) VALUES (?, ?, ?, ?)
				ON CONFLICT DO NOTHING`, e.ID, c.Agent, c.Day, c.Origin); err != nil {
				return fmt.Errorf("import cite: %w", err)
			}
		}
		return importLifecycle(ctx, tx, e.ID, e.Hive, e.Lifecycle)
	})
	if err != nil {
		return false, wrapInternal("import entry", err)
	}
	return created, nil
}

// ImportMerge keeps an exported absorption record. The absorbed entry was
// never a row here, so no index needs a tombstone for it.
func (k *Knowledge) ImportMerge(ctx context.Context, m knowledge.ExportedMerge) (bool, error) {
	tags, err := json.Marshal(m.Tags)
	if err != nil {
		return false, fmt.Errorf("import merge record: %w", err)
	}
	var unAt, unBy any
	if !m.UnmergedAt.IsZero() {
		unAt, unBy = formatTime(m.UnmergedAt), m.UnmergedBy
	}
	created := false
	err = k.s.writeTx(ctx, func(tx *sql.Tx) error {
		created = false
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM knowledge_absorbed WHERE entry_id = ? AND at = ?`,
			m.EntryID, formatTime(m.At)).Scan(&n); err != nil || n > 0 {
			return err
		}
		if m.UnmergedAt.IsZero() {
			if taken, err := idTaken(ctx, tx, m.EntryID); err != nil || taken {
				return err
			}
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO knowledge_absorbed (entry_id, merged_into, hive, title, content, tags,
			norm_hash, model, vector, specificity, contribution_count, citation_count, endorsement_count, created_at, last_used_at,
			at, similarity, via, unmerged_at, unmerged_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			m.EntryID, m.MergedInto, m.Hive, m.Title, m.Content, string(tags), m.NormHash, m.Model, knowEncodeVector(m.Vector),
			m.Specificity, m.ContributionCount, m.CitationCount, m.EndorsementCount, formatTime(m.CreatedAt), formatTime(m.LastUsedAt),
			formatTime(m.At), m.Similarity, m.Via, unAt, unBy); err != nil {
			return fmt.Errorf("import merge record: %w", err)
		}
		created = true
		return importLifecycle(ctx, tx, m.EntryID, m.Hive, m.Lifecycle)
	})
	if err != nil {
		return false, wrapInternal("import merge record", err)
	}
	return created, nil
}

// ImportRedaction keeps an exported tombstone with its lifecycle.
func (k *Knowledge) ImportRedaction(ctx context.Context, t knowledge.Tombstone) (bool, error) {
	created := false
	err := k.s.writeTx(ctx, func(tx *sql.Tx) error {
		created = false
		if taken, err := idTaken(ctx, tx, t.ID); err != nil || taken {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO knowledge_redactions (id, hive, at, reason, by) VALUES (?, ?, ?, ?, ?)`,
			t.ID, t.Hive, formatTime(t.At), t.Reason, t.By); err != nil {
			return fmt.Errorf("import tombstone: %w", err)
		}
		created = true
		return importLifecycle(ctx, tx, t.ID, t.Hive, t.Lifecycle)
	})
	if err != nil {
		return false, wrapInternal("import tombstone", err)
	}
	return created, nil
}

var _ knowledge.CitePruner = (*Knowledge)(nil)

// PruneCites deletes old per-day citation rows, keeping those of
// survivors of absorptions in effect.
func (k *Knowledge) PruneCites(ctx context.Context, before string) (int64, error) {
	var n int64
	err := k.s.writeTx(ctx, func(tx *sql.Tx) error {
		r, err := tx.ExecContext(ctx, `DELETE FROM knowledge_cites WHERE day < ?
			AND entry_id NOT IN (SELECT merged_into FROM knowledge_absorbed WHERE unmerged_at IS NULL)`, before)
		if err != nil {
			return err
		}
		n, err = r.RowsAffected()
		return err
	})
	if err != nil {
		return 0, wrapInternal("prune cites", err)
	}
	return n, nil
}
