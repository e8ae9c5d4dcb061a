package local

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"pumasi"
	"pumasi/knowledge"
)

var _ knowledge.Porter = (*Knowledge)(nil)

// PortDetails reads what an export needs beyond Since, Contributions,
// ModStates and Events.
func (k *Knowledge) PortDetails(ctx context.Context, id string) (knowledge.PortDetails, error) {
	var d knowledge.PortDetails
	err := k.s.db.QueryRowContext(ctx, `SELECT norm_hash FROM knowledge_entries WHERE id = ?`, id).Scan(&d.NormHash)
	if errors.Is(err, sql.ErrNoRows) {
		return d, pumasi.Errorf(pumasi.ENotFound, "no knowledge entry %q", id)
	}
	if err != nil {
		return d, wrapInternal("read norm hash", err)
	}
	rows, err := k.s.db.QueryContext(ctx, `SELECT agent FROM knowledge_contributors WHERE entry_id = ? ORDER BY agent`, id)
	if err != nil {
		return d, wrapInternal("list contributors", err)
	}
	for rows.Next() {
		var a string
		if err := rows.Scan(&a); err != nil {
			rows.Close()
			return d, wrapInternal("list contributors", err)
		}
		d.Contributors = append(d.Contributors, a)
	}
	rows.Close()
	rows, err = k.s.db.QueryContext(ctx, `SELECT agent, MIN(at) AS at FROM knowledge_endorsements WHERE entry_id = ?
		GROUP BY agent ORDER BY at, agent`, id)
	if err != nil {
		return d, wrapInternal("list endorsements", err)
	}
	for rows.Next() {
		var e knowledge.Endorsement
		var at string
		if err := rows.Scan(&e.Agent, &at); err != nil {
			rows.Close()
			return d, wrapInternal("list endorsements", err)
		}
		if e.At, err = parseTime(at); err != nil {
			rows.Close()
			return d, wrapInternal("list endorsements", err)
		}
		d.Endorsements = append(d.Endorsements, e)
	}
	rows.Close()
	rows, err = k.s.db.QueryContext(ctx, `SELECT agent, reason, note, admin, at FROM knowledge_flags WHERE entry_id = ? ORDER BY at, agent`, id)
	if err != nil {
		return d, wrapInternal("list flags", err)
	}
	defer rows.Close()
	for rows.Next() {
		var f knowledge.FlagRecord
		var at string
		if err := rows.Scan(&f.Agent, &f.Reason, &f.Note, &f.Admin, &at); err != nil {
			return d, wrapInternal("list flags", err)
		}
		if f.At, err = parseTime(at); err != nil {
			return d, wrapInternal("list flags", err)
		}
		d.Flags = append(d.Flags, f)
	}
	if err := rows.Err(); err != nil {
		return d, wrapInternal("list flags", err)
	}
	return d, nil
}

// Redactions lists every tombstone, oldest first.
func (k *Knowledge) Redactions(ctx context.Context) ([]knowledge.Redaction, error) {
	rows, err := k.s.db.QueryContext(ctx, `SELECT id, hive, at, reason, by FROM knowledge_redactions ORDER BY at, id`)
	if err != nil {
		return nil, wrapInternal("list redactions", err)
	}
	defer rows.Close()
	var out []knowledge.Redaction
	for rows.Next() {
		var r knowledge.Redaction
		var at string
		if err := rows.Scan(&r.ID, &r.Hive, &at, &r.Reason, &r.By); err != nil {
			return nil, wrapInternal("list redactions", err)
		}
		if r.At, err = parseTime(at); err != nil {
			return nil, wrapInternal("list redactions", err)
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, wrapInternal("list redactions", err)
	}
	return out, nil
}

// idTaken reports whether id is an entry or a tombstone.
func idTaken(ctx context.Context, tx *sql.Tx, id string) (bool, error) {
	var n int
	err := tx.QueryRowContext(ctx, `SELECT (SELECT COUNT(*) FROM knowledge_entries WHERE id = ?) +
		(SELECT COUNT(*) FROM knowledge_redactions WHERE id = ?)`, id, id).Scan(&n)
	return n > 0, err
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
			if err := insertContribution(ctx, tx, e.ID, c); err != nil {
				return err
			}
		}
		for _, a := range e.Contributors {
			if _, err := tx.ExecContext(ctx, `INSERT INTO knowledge_contributors (entry_id, agent) VALUES (?, ?)
				ON CONFLICT DO NOTHING`, e.ID, a); err != nil {
				return fmt.Errorf("import contributor: %w", err)
			}
		}
		for _, en := range e.Endorsements {
			if _, err := tx.ExecContext(ctx, `INSERT INTO knowledge_endorsements (entry_id, agent, at, origin) VALUES (?1, ?2, ?3, ?1)
				ON CONFLICT DO NOTHING`, e.ID, en.Agent, formatTime(en.At)); err != nil {
				return fmt.Errorf("import endorsement: %w", err)
			}
		}
		for _, f := range e.Flags {
			if _, err := tx.ExecContext(ctx, `INSERT INTO knowledge_flags (entry_id, agent, reason, note, admin, at)
				VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`, e.ID, f.Agent, f.Reason, f.Note, f.Admin, formatTime(f.At)); err != nil {
				return fmt.Errorf("import flag: %w", err)
			}
		}
		if m := e.Moderation; m != nil {
			flagged := ""
			if !m.FlaggedAt.IsZero() {
				flagged = formatTime(m.FlaggedAt)
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO knowledge_moderation
				(entry_id, hive, flags, cleared, quarantined, superseded_by, supersedes, flagged_at)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
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
		return false, wrapInternal("import entry", err)
	}
	return created, nil
}

// ImportRedaction keeps an exported tombstone.
func (k *Knowledge) ImportRedaction(ctx context.Context, r knowledge.Redaction) (bool, error) {
	created := false
	err := k.s.writeTx(ctx, func(tx *sql.Tx) error {
		created = false
		if taken, err := idTaken(ctx, tx, r.ID); err != nil || taken {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO knowledge_redactions (id, hive, at, reason, by) VALUES (?, ?, ?, ?, ?)`,
			r.ID, r.Hive, formatTime(r.At), r.Reason, r.By); err != nil {
			return fmt.Errorf("import tombstone: %w", err)
		}
		created = true
		return insertEvent(ctx, tx, r.ID, knowledge.Event{Kind: knowledge.EventRedacted, At: r.At, By: r.By, Reason: r.Reason})
	})
	if err != nil {
		return false, wrapInternal("import tombstone", err)
	}
	return created, nil
}
