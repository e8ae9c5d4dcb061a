package local

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"pumasi"
	"pumasi/knowledge"
)

// The knowledge driver's moderation part (knowledge.Moderation): flags,
// quarantine, lineage and redaction, kept in the tables of migration 0020.
// Every decision is the engine's.

// entryHive returns an entry's hive inside tx. Returns not_found.
func entryHive(ctx context.Context, tx *sql.Tx, id string) (string, error) {
	var hive string
	err := tx.QueryRowContext(ctx, `SELECT hive FROM knowledge_entries WHERE id = ?`, id).Scan(&hive)
	if errors.Is(err, sql.ErrNoRows) {
		return "", pumasi.Errorf(pumasi.ENotFound, "no knowledge entry %q", id)
	}
	if err != nil {
		return "", fmt.Errorf("read entry: %w", err)
	}
	return hive, nil
}

func insertEvent(ctx context.Context, tx *sql.Tx, id string, ev knowledge.Event) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO knowledge_events (entry_id, kind, at, by, other_id, reason, note)
		VALUES (?, ?, ?, ?, ?, ?, ?)`, id, ev.Kind, formatTime(ev.At), ev.By, ev.OtherID, ev.Reason, ev.Note)
	if err != nil {
		return fmt.Errorf("record %s event: %w", ev.Kind, err)
	}
	return nil
}

// recountFlagsSQL sets the moderation counts of the entry whose id is
// parameter ?n from its flag rows (whatever their origin): flags is its
// distinct flaggers, cleared those of them with no flag pending, flagged_at
// its last flag. A live entry flagged for the first time gets its row.
func recountFlagsSQL(n int) []string {
	return []string{
		fmt.Sprintf(`INSERT INTO knowledge_moderation (entry_id, hive)
			SELECT id, hive FROM knowledge_entries WHERE id = ?%[1]d
			AND EXISTS (SELECT 1 FROM knowledge_flags WHERE entry_id = ?%[1]d)
			ON CONFLICT (entry_id) DO NOTHING`, n),
		fmt.Sprintf(`UPDATE knowledge_moderation SET
			flags = (SELECT COUNT(DISTINCT agent) FROM knowledge_flags WHERE entry_id = ?%[1]d),
			cleared = (SELECT COUNT(DISTINCT agent) FROM knowledge_flags WHERE entry_id = ?%[1]d) -
				(SELECT COUNT(DISTINCT agent) FROM knowledge_flags WHERE entry_id = ?%[1]d AND cleared = 0),
			flagged_at = COALESCE((SELECT MAX(at) FROM knowledge_flags WHERE entry_id = ?%[1]d), flagged_at)
			WHERE entry_id = ?%[1]d`, n),
	}
}

// Flag records f once per agent and origin (a cleared one renewed with
// f.Renew); the distinct flaggers grow only with an agent who had no flag
// on the entry (one who flagged an entry it absorbed counts once).
func (k *Knowledge) Flag(ctx context.Context, id string, f knowledge.Flag) (bool, error) {
	counted := false
	err := k.s.writeTx(ctx, func(tx *sql.Tx) error {
		counted = false
		if _, err := entryHive(ctx, tx, id); err != nil {
			return err
		}
		var had int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM knowledge_flags WHERE entry_id = ? AND agent = ?`, id, f.Agent).Scan(&had); err != nil {
			return fmt.Errorf("read flags: %w", err)
		}
		r, err := tx.ExecContext(ctx, `INSERT INTO knowledge_flags (entry_id, agent, reason, note, admin, at, origin)
			VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?1) ON CONFLICT (entry_id, agent, origin) DO NOTHING`,
			id, f.Agent, f.Reason, f.Note, f.Admin, formatTime(f.At))
		if err != nil {
			return fmt.Errorf("record flag: %w", err)
		}
		if n, _ := r.RowsAffected(); n == 0 && f.Renew {
			r, err = tx.ExecContext(ctx, `UPDATE knowledge_flags SET reason = ?3, note = ?4, admin = ?5, at = ?6, cleared = 0
				WHERE entry_id = ?1 AND agent = ?2 AND origin = ?1 AND cleared = 1`, id, f.Agent, f.Reason, f.Note, f.Admin, formatTime(f.At))
			if err != nil {
				return fmt.Errorf("renew flag: %w", err)
			}
		}
		if n, _ := r.RowsAffected(); n == 0 {
			return nil
		}
		counted = had == 0
		for _, q := range recountFlagsSQL(1) {
			if _, err := tx.ExecContext(ctx, q, id); err != nil {
				return fmt.Errorf("count flag: %w", err)
			}
		}
		return insertEvent(ctx, tx, id, knowledge.Event{Kind: knowledge.EventFlagged, At: f.At, By: f.Agent, Reason: f.Reason, Note: f.Note})
	})
	if err != nil {
		return false, wrapInternal("flag entry", err)
	}
	return counted, nil
}

// SetQuarantine sets or lifts an entry's quarantine and records ev.
func (k *Knowledge) SetQuarantine(ctx context.Context, id string, on bool, ev knowledge.Event) error {
	err := k.s.writeTx(ctx, func(tx *sql.Tx) error {
		hive, err := entryHive(ctx, tx, id)
		if err != nil {
			return err
		}
		q := `INSERT INTO knowledge_moderation (entry_id, hive, quarantined) VALUES (?1, ?2, 1)
			ON CONFLICT (entry_id) DO UPDATE SET quarantined = 1`
		if !on {
			q = `INSERT INTO knowledge_moderation (entry_id, hive) VALUES (?1, ?2)
				ON CONFLICT (entry_id) DO UPDATE SET quarantined = 0, cleared = flags`
		}
		if _, err := tx.ExecContext(ctx, q, id, hive); err != nil {
			return fmt.Errorf("set quarantine: %w", err)
		}
		if !on {
			// Before the flags are cleared: the absorbed entries whose flags
			// (or quarantine) this lift reviews, and the id it was asked
			// through, say so in their histories.
			if _, err := tx.ExecContext(ctx, `INSERT INTO knowledge_events (entry_id, kind, at, by, other_id, reason, note)
				SELECT t.id, ?2, ?3, ?4, ?1, ?5, ?6 FROM `+absorbedTreeSQL+` t WHERE t.id != ?1 AND (t.id = ?7
					OR EXISTS (SELECT 1 FROM knowledge_flags f WHERE f.entry_id = ?1 AND f.origin = t.id AND f.cleared = 0)
					OR EXISTS (SELECT 1 FROM knowledge_moderation m WHERE m.entry_id = t.id AND m.quarantined = 1))`,
				id, ev.Kind, formatTime(ev.At), ev.By, ev.Reason, ev.Note, ev.OtherID); err != nil {
				return fmt.Errorf("record %s events of absorbed entries: %w", ev.Kind, err)
			}
			if _, err := tx.ExecContext(ctx, `UPDATE knowledge_flags SET cleared = 1 WHERE entry_id = ?`, id); err != nil {
				return fmt.Errorf("clear flags: %w", err)
			}
			// The flags just cleared include those of the entries absorbed
			// into id: reviewed, they hold none of those quarantined either.
			if _, err := tx.ExecContext(ctx, `UPDATE knowledge_moderation SET quarantined = 0
				WHERE quarantined = 1 AND entry_id IN `+absorbedTreeSQL, id); err != nil {
				return fmt.Errorf("lift absorbed quarantines: %w", err)
			}
		}
		return insertEvent(ctx, tx, id, ev)
	})
	if err != nil {
		return wrapInternal("set quarantine", err)
	}
	return nil
}

// ModStates reads the moderation rows among ids.
func (k *Knowledge) ModStates(ctx context.Context, ids []string) (map[string]knowledge.ModState, error) {
	out := make(map[string]knowledge.ModState)
	for len(ids) > 0 {
		chunk := ids[:min(len(ids), 500)]
		ids = ids[len(chunk):]
		args := make([]any, len(chunk))
		for i, id := range chunk {
			args[i] = id
		}
		sts, err := collect(ctx, k.s.db, "read moderation", knowledge.ModStateDest, `SELECT `+knowledge.ModStateCols+
			` FROM knowledge_moderation WHERE entry_id IN (?`+strings.Repeat(",?", len(chunk)-1)+`)`, args...)
		if err != nil {
			return nil, err
		}
		for _, st := range sts {
			out[st.ID] = st
		}
	}
	return out, nil
}

// Moderated lists a page of flagged (a flag pending, not quarantined) or
// quarantined live entries, the last flagged first: filtered and ordered
// here (the first condition lets the review index serve), so that
// reviewed rows never fill a page. An entry never flagged
// has flagged_at ” and sorts last; the time layout is fixed-width, so
// text order is time order.
func (k *Knowledge) Moderated(ctx context.Context, q knowledge.ModeratedQuery) ([]knowledge.ModState, error) {
	which := `quarantined = 0 AND flags > cleared`
	if q.Quarantined {
		which = `quarantined = 1`
	}
	after := ""
	if !q.AfterAt.IsZero() {
		after = formatTime(q.AfterAt)
	}
	return collect(ctx, k.s.db, "list moderated entries", knowledge.ModStateDest, `SELECT `+knowledge.ModStateCols+` FROM knowledge_moderation
		WHERE (flags > 0 OR quarantined = 1) AND `+which+` AND (?1 = '' OR hive = ?1)
		AND (?2 = '' OR flagged_at < ?3 OR (flagged_at = ?3 AND entry_id > ?2))
		AND entry_id IN (SELECT id FROM knowledge_entries)
		ORDER BY flagged_at DESC, entry_id LIMIT ?4`, q.Hive, q.AfterID, after, q.Limit)
}

// Supersede records that newer supersedes older, with an event on each.
func (k *Knowledge) Supersede(ctx context.Context, older, newer string, at time.Time) error {
	err := k.s.writeTx(ctx, func(tx *sql.Tx) error {
		oh, err := entryHive(ctx, tx, older)
		if err != nil {
			return err
		}
		nh, err := entryHive(ctx, tx, newer)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO knowledge_moderation (entry_id, hive, superseded_by) VALUES (?, ?, ?)
			ON CONFLICT (entry_id) DO UPDATE SET superseded_by = excluded.superseded_by`, older, oh, newer); err != nil {
			return fmt.Errorf("mark superseded: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO knowledge_moderation (entry_id, hive, supersedes) VALUES (?, ?, ?)
			ON CONFLICT (entry_id) DO UPDATE SET supersedes = excluded.supersedes`, newer, nh, older); err != nil {
			return fmt.Errorf("mark superseding: %w", err)
		}
		if err := insertEvent(ctx, tx, older, knowledge.Event{Kind: knowledge.EventSuperseded, At: at, OtherID: newer}); err != nil {
			return err
		}
		return insertEvent(ctx, tx, newer, knowledge.Event{Kind: knowledge.EventSupersedes, At: at, OtherID: older})
	})
	if err != nil {
		return wrapInternal("supersede", err)
	}
	return nil
}

// Redact deletes entry id with its attribution rows, endorsements and flag
// notes in one transaction. The store's connections run with
// secure_delete, so SQLite zeroes the freed cells and pages; the full-text
// tables are optimized, so that no segment keeps the entry's terms; the
// tombstone makes every process's vector index drop its vector; and a
// TRUNCATE checkpoint empties the WAL, which held earlier versions of those
// pages.
func (k *Knowledge) Redact(ctx context.Context, id string, r knowledge.Redaction) error {
	done := false
	err := k.s.writeTx(ctx, func(tx *sql.Tx) error {
		done = false
		var seq int64
		var hive, model string
		err := tx.QueryRowContext(ctx, `SELECT seq, hive, model FROM knowledge_entries WHERE id = ?`, id).Scan(&seq, &hive, &model)
		if errors.Is(err, sql.ErrNoRows) {
			var n int
			if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM knowledge_redactions WHERE id = ?`, id).Scan(&n); err != nil {
				return fmt.Errorf("read redaction: %w", err)
			}
			if n == 0 {
				return pumasi.Errorf(pumasi.ENotFound, "no knowledge entry %q", id)
			}
			done = true
			return nil
		}
		if err != nil {
			return fmt.Errorf("read entry: %w", err)
		}
		steps := []struct{ op, q string }{
			{"delete contributions", `DELETE FROM knowledge_contributions WHERE entry_id = ?`},
			{"delete contributors", `DELETE FROM knowledge_contributors WHERE entry_id = ?`},
			{"delete endorsements", `DELETE FROM knowledge_endorsements WHERE entry_id = ?`},
			{"delete cites", `DELETE FROM knowledge_cites WHERE entry_id = ?1`},
			// The records of entries it absorbed (near-duplicates of its
			// text), of those they had absorbed, and its own: their ids
			// answer gone through it.
			{"blank merge records", `UPDATE knowledge_absorbed SET title = '', content = '', tags = '[]', norm_hash = '',
				vector = x'' WHERE merged_into IN ` + absorbedTreeSQL + ` OR entry_id = ?1`},
			{"blank flag notes", `UPDATE knowledge_flags SET note = '' WHERE entry_id = ?`},
			{"blank event notes", `UPDATE knowledge_events SET note = '' WHERE entry_id IN ` + absorbedTreeSQL},
			{"lift quarantine", `UPDATE knowledge_moderation SET quarantined = 0 WHERE entry_id = ?`},
			{"splice successor", spliceSQL[0]},
			{"splice predecessor", spliceSQL[1]},
			{"delete entry", `DELETE FROM knowledge_entries WHERE id = ?`},
		}
		for _, s := range steps {
			if _, err := tx.ExecContext(ctx, s.q, id); err != nil {
				return fmt.Errorf("redact %s: %s: %w", id, s.op, err)
			}
		}
		for _, t := range []string{"knowledge_fts", "knowledge_fts_tri"} {
			if _, err := tx.ExecContext(ctx, `INSERT INTO `+t+` (`+t+`) VALUES ('optimize')`); err != nil {
				return fmt.Errorf("redact %s: optimize %s: %w", id, t, err)
			}
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO knowledge_tombstones (id, entry_seq, hive, model) VALUES (?, ?, ?, ?)`,
			id, seq, hive, model); err != nil {
			return fmt.Errorf("redact %s: tombstone: %w", id, err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO knowledge_redactions (id, hive, at, reason, by) VALUES (?, ?, ?, ?, ?)`,
			id, hive, formatTime(r.At), r.Reason, r.By); err != nil {
			return fmt.Errorf("redact %s: record: %w", id, err)
		}
		return insertEvent(ctx, tx, id, knowledge.Event{Kind: knowledge.EventRedacted, At: r.At, By: r.By, Reason: r.Reason})
	})
	if err != nil {
		return wrapInternal("redact entry", err)
	}
	if done {
		return nil
	}
	if err := k.s.truncateWAL(ctx); err != nil {
		// The rows are gone and their pages zeroed in the database; only
		// the WAL's older frames remain until a later checkpoint.
		k.s.log.Warn("redaction: truncate the WAL (a later checkpoint does)", "err", err)
	}
	return nil
}

// spliceSQL takes redacted entry ?1 out of the lineage it was part of, so
// no entry names a dead id: the entries it superseded are superseded by its
// successor (none when it had none), and its successor supersedes what it
// superseded.
var spliceSQL = [2]string{
	`UPDATE knowledge_moderation SET superseded_by = COALESCE((SELECT CASE WHEN r.superseded_by = knowledge_moderation.entry_id
		THEN '' ELSE r.superseded_by END FROM knowledge_moderation r WHERE r.entry_id = ?1), '') WHERE superseded_by = ?1`,
	`UPDATE knowledge_moderation SET supersedes = COALESCE((SELECT CASE WHEN r.supersedes = knowledge_moderation.entry_id
		THEN '' ELSE r.supersedes END FROM knowledge_moderation r WHERE r.entry_id = ?1), '') WHERE supersedes = ?1`,
}

// absorbedTreeSQL is the set of entry ?1 and every entry an absorption in
// effect merged into it, through any chain.
const absorbedTreeSQL = `(WITH RECURSIVE tree(id) AS (SELECT ?1
	UNION SELECT a.entry_id FROM knowledge_absorbed a JOIN tree ON a.merged_into = tree.id WHERE a.unmerged_at IS NULL)
	SELECT id FROM tree)`

// RedactAbsorbed deletes what absorbed entry r.ID brought to holder and
// blanks the records of origins, in one transaction, cleaned as Redact
// cleans (secure_delete, the full-text tables optimized, the WAL
// truncated).
func (k *Knowledge) RedactAbsorbed(ctx context.Context, holder string, origins []string, r knowledge.Redaction) error {
	done := false
	err := k.s.writeTx(ctx, func(tx *sql.Tx) error {
		done = false
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM knowledge_redactions WHERE id = ?`, r.ID).Scan(&n); err != nil {
			return fmt.Errorf("read redaction: %w", err)
		}
		if n > 0 {
			done = true
			return nil
		}
		var rec int64
		var hive string
		err := tx.QueryRowContext(ctx, `SELECT seq, hive FROM knowledge_absorbed WHERE entry_id = ? AND unmerged_at IS NULL`, r.ID).Scan(&rec, &hive)
		if errors.Is(err, sql.ErrNoRows) {
			return pumasi.Errorf(pumasi.ENotFound, "knowledge entry %q is not merged", r.ID)
		}
		if err != nil {
			return fmt.Errorf("read merge record: %w", err)
		}
		if _, err := entryHive(ctx, tx, holder); err != nil {
			return err
		}
		if len(origins) == 0 {
			origins = []string{r.ID}
		}
		// ?1 holder, ?2 the redacted entry, ?3 its record, ?4... origins.
		args := []any{holder, r.ID, rec}
		in := make([]string, len(origins))
		for i, o := range origins {
			args = append(args, o)
			in[i] = fmt.Sprintf("?%d", i+4)
		}
		set := "(" + strings.Join(in, ",") + ")"
		// The engine read holder and origins before this transaction: an
		// unmerge since (C in D in E, D unmerged) moved the rows. Then the
		// chain from r.ID no longer ends in holder, or its tree is not
		// origins, and the engine looks again.
		var held, tree, known int
		if err := tx.QueryRowContext(ctx, `SELECT (SELECT COUNT(*) FROM (WITH RECURSIVE up(id) AS (
				SELECT merged_into FROM knowledge_absorbed WHERE entry_id = ?2 AND unmerged_at IS NULL
				UNION SELECT a.merged_into FROM knowledge_absorbed a JOIN up ON a.entry_id = up.id WHERE a.unmerged_at IS NULL)
			SELECT id FROM up) WHERE id = ?1)`, args...).Scan(&held); err != nil {
			return fmt.Errorf("redact %s in %s: read its chain: %w", r.ID, holder, err)
		}
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*), COALESCE(SUM(id IN `+set+`), 0) FROM `+
			strings.ReplaceAll(absorbedTreeSQL, "?1", "?2"), args...).Scan(&tree, &known); err != nil {
			return fmt.Errorf("redact %s in %s: read its tree: %w", r.ID, holder, err)
		}
		if held == 0 || tree != len(origins) || known != len(origins) {
			return pumasi.Errorf(pumasi.ENotFound, "knowledge entry %q is no longer held by %q as read", r.ID, holder)
		}
		// Before the rows go: what the absorb added to the citations, given
		// back by the holder and by the records of the entries between (so
		// that unmerging one of those later gives back no more than is left).
		var back int64
		if err := tx.QueryRowContext(ctx, `SELECT (SELECT citation_count FROM knowledge_absorbed WHERE seq = ?3) -
			(SELECT COUNT(*) FROM (SELECT agent, day FROM knowledge_cites WHERE entry_id = ?1 AND origin IN `+set+`
				INTERSECT SELECT agent, day FROM knowledge_cites WHERE entry_id = ?1 AND origin NOT IN `+set+`))`, args...).Scan(&back); err != nil {
			return fmt.Errorf("redact %s in %s: count citations: %w", r.ID, holder, err)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE knowledge_entries SET citation_count = MAX(0, citation_count - ?2) WHERE id = ?1`, holder, back); err != nil {
			return fmt.Errorf("redact %s in %s: give back citations: %w", r.ID, holder, err)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE knowledge_absorbed SET citation_count = MAX(0, citation_count - ?2)
			WHERE unmerged_at IS NULL AND entry_id IN (WITH RECURSIVE up(id) AS (
				SELECT merged_into FROM knowledge_absorbed WHERE entry_id = ?1 AND unmerged_at IS NULL
				UNION SELECT a.merged_into FROM knowledge_absorbed a JOIN up ON a.entry_id = up.id WHERE a.unmerged_at IS NULL)
			SELECT id FROM up)`, r.ID, back); err != nil {
			return fmt.Errorf("redact %s in %s: give back citations on the way: %w", r.ID, holder, err)
		}
		steps := []struct{ op, q string }{
			{"delete contributions", `DELETE FROM knowledge_contributions WHERE entry_id = ?1 AND origin IN ` + set},
			{"delete endorsements", `DELETE FROM knowledge_endorsements WHERE entry_id = ?1 AND origin IN ` + set},
			{"delete cites", `DELETE FROM knowledge_cites WHERE entry_id = ?1 AND origin IN ` + set},
			{"delete flags", `DELETE FROM knowledge_flags WHERE entry_id = ?1 AND origin IN ` + set},
			{"drop contributors", `DELETE FROM knowledge_contributors WHERE entry_id = ?1`},
			{"count contributors", `INSERT INTO knowledge_contributors (entry_id, agent)
				SELECT DISTINCT entry_id, agent FROM knowledge_contributions WHERE entry_id = ?1`},
			{"count holder", recountSQL(1)},
			{"count holder flags", recountFlagsSQL(1)[1]},
			{"blank merge records", `UPDATE knowledge_absorbed SET title = '', content = '', tags = '[]', norm_hash = '',
				vector = x'' WHERE entry_id IN ` + set},
			{"blank flag notes", `UPDATE knowledge_flags SET note = '' WHERE entry_id IN ` + set},
			{"blank event notes", `UPDATE knowledge_events SET note = '' WHERE entry_id IN ` + set},
			{"lift quarantine", `UPDATE knowledge_moderation SET quarantined = 0 WHERE entry_id IN ` + set},
			{"splice successor", strings.ReplaceAll(spliceSQL[0], "?1", "?2")},
			{"splice predecessor", strings.ReplaceAll(spliceSQL[1], "?1", "?2")},
		}
		for _, s := range steps {
			if _, err := tx.ExecContext(ctx, s.q, args...); err != nil {
				return fmt.Errorf("redact %s in %s: %s: %w", r.ID, holder, s.op, err)
			}
		}
		for _, t := range []string{"knowledge_fts", "knowledge_fts_tri"} {
			if _, err := tx.ExecContext(ctx, `INSERT INTO `+t+` (`+t+`) VALUES ('optimize')`); err != nil {
				return fmt.Errorf("redact %s: optimize %s: %w", r.ID, t, err)
			}
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO knowledge_redactions (id, hive, at, reason, by) VALUES (?, ?, ?, ?, ?)`,
			r.ID, hive, formatTime(r.At), r.Reason, r.By); err != nil {
			return fmt.Errorf("redact %s: record: %w", r.ID, err)
		}
		return insertEvent(ctx, tx, r.ID, knowledge.Event{Kind: knowledge.EventRedacted, At: r.At, By: r.By, Reason: r.Reason, OtherID: holder})
	})
	if err != nil {
		return wrapInternal("redact absorbed entry", err)
	}
	if done {
		return nil
	}
	if err := k.s.truncateWAL(ctx); err != nil {
		k.s.log.Warn("redaction: truncate the WAL (a later checkpoint does)", "err", err)
	}
	return nil
}

// Unquarantine lifts an entry's quarantine, its flags left pending, and
// records ev.
func (k *Knowledge) Unquarantine(ctx context.Context, id string, ev knowledge.Event) error {
	err := k.s.writeTx(ctx, func(tx *sql.Tx) error {
		if _, err := entryHive(ctx, tx, id); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE knowledge_moderation SET quarantined = 0 WHERE entry_id = ?`, id); err != nil {
			return fmt.Errorf("lift quarantine: %w", err)
		}
		return insertEvent(ctx, tx, id, ev)
	})
	if err != nil {
		return wrapInternal("lift quarantine", err)
	}
	return nil
}

// Redaction reads a redacted id's tombstone.
func (k *Knowledge) Redaction(ctx context.Context, id string) (knowledge.Redaction, error) {
	var r knowledge.Redaction
	err := k.s.db.QueryRowContext(ctx, `SELECT `+knowledge.RedactionCols+` FROM knowledge_redactions WHERE id = ?`, id).
		Scan(knowledge.RedactionDest(&r)...)
	if errors.Is(err, sql.ErrNoRows) {
		return knowledge.Redaction{ID: id}, pumasi.Errorf(pumasi.ENotFound, "knowledge entry %q was not redacted", id)
	}
	if err != nil {
		return r, wrapInternal("read redaction", err)
	}
	return r, nil
}

// Events lists an entry's moderation events, oldest first.
func (k *Knowledge) Events(ctx context.Context, id string) ([]knowledge.Event, error) {
	return collect(ctx, k.s.db, "list events", knowledge.EventDest, `SELECT `+knowledge.EventCols+` FROM knowledge_events
		WHERE entry_id = ? ORDER BY seq`, id)
}
