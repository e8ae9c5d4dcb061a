package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"pumasi"
	"pumasi/knowledge"
)

// The knowledge driver's moderation part (knowledge.Moderation): flags,
// quarantine, lineage and redaction, kept in the tables of migration 0003.
// Every decision is the engine's.

// lockEntry returns an entry's hive and holds its row (FOR SHARE) until
// the transaction ends, so Absorb or Redact cannot delete it meanwhile.
// Returns not_found.
func lockEntry(ctx context.Context, tx pgx.Tx, id string) (string, error) {
	hives, err := lockEntries(ctx, tx, id)
	return hives[id], err
}

// lockEntries locks the rows of ids FOR SHARE in one statement, in id
// order, as Absorb does, so that a supersession and a sweep's absorb of
// the same two entries cannot deadlock; it answers each id's hive, or
// not_found for the first id missing.
func lockEntries(ctx context.Context, tx pgx.Tx, ids ...string) (map[string]string, error) {
	rows, err := tx.Query(ctx, `SELECT id, hive FROM knowledge_entries WHERE id = ANY($1) ORDER BY id FOR SHARE`, ids)
	if err != nil {
		return nil, fmt.Errorf("read entries: %w", err)
	}
	hives := map[string]string{}
	var id, hive string
	if _, err := pgx.ForEachRow(rows, []any{&id, &hive}, func() error { hives[id] = hive; return nil }); err != nil {
		return nil, fmt.Errorf("read entries: %w", err)
	}
	for _, id := range ids {
		if _, ok := hives[id]; !ok {
			return nil, notFound(id)
		}
	}
	return hives, nil
}

func insertEvent(ctx context.Context, tx pgx.Tx, id string, ev knowledge.Event) error {
	_, err := tx.Exec(ctx, `INSERT INTO knowledge_events (entry_id, kind, at, by, other_id, reason, note)
		VALUES ($1, $2, $3, $4, $5, $6, $7)`, id, ev.Kind, ev.At, ev.By, ev.OtherID, ev.Reason, ev.Note)
	if err != nil {
		return fmt.Errorf("record %s event: %w", ev.Kind, err)
	}
	return nil
}

// recountFlagsSQL sets the moderation counts of entry $1 from its flag
// rows (whatever their origin): flags is its distinct flaggers, cleared
// those of them with no flag pending, flagged_at its last flag. A live
// entry flagged for the first time gets its row.
var recountFlagsSQL = []string{
	`INSERT INTO knowledge_moderation (entry_id, hive)
		SELECT id, hive FROM knowledge_entries WHERE id = $1
		AND EXISTS (SELECT 1 FROM knowledge_flags WHERE entry_id = $1)
		ON CONFLICT (entry_id) DO NOTHING`,
	`UPDATE knowledge_moderation SET
		flags = (SELECT count(DISTINCT agent) FROM knowledge_flags WHERE entry_id = $1),
		cleared = (SELECT count(DISTINCT agent) FROM knowledge_flags WHERE entry_id = $1) -
			(SELECT count(DISTINCT agent) FROM knowledge_flags WHERE entry_id = $1 AND NOT cleared),
		flagged_at = COALESCE((SELECT max(at) FROM knowledge_flags WHERE entry_id = $1), flagged_at)
		WHERE entry_id = $1`,
}

// Flag records f once per agent and origin (a cleared one renewed with
// f.Renew); the distinct flaggers grow only with an agent who had no flag
// on the entry (one who flagged an entry it absorbed counts once).
func (k *Knowledge) Flag(ctx context.Context, id string, f knowledge.Flag) (bool, error) {
	counted := false
	err := pgx.BeginFunc(ctx, k.pool, func(tx pgx.Tx) error {
		counted = false
		// FOR UPDATE, not FOR SHARE: two flags of one entry recount its
		// row one after the other.
		var hive string
		err := tx.QueryRow(ctx, `SELECT hive FROM knowledge_entries WHERE id = $1 FOR UPDATE`, id).Scan(&hive)
		if errors.Is(err, pgx.ErrNoRows) {
			return notFound(id)
		}
		if err != nil {
			return fmt.Errorf("lock entry: %w", err)
		}
		var had bool
		if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM knowledge_flags WHERE entry_id = $1 AND agent = $2)`,
			id, f.Agent).Scan(&had); err != nil {
			return fmt.Errorf("read flags: %w", err)
		}
		tag, err := tx.Exec(ctx, `INSERT INTO knowledge_flags (entry_id, agent, reason, note, admin, at, origin)
			VALUES ($1, $2, $3, $4, $5, $6, $1) ON CONFLICT (entry_id, agent, origin) DO NOTHING`,
			id, f.Agent, f.Reason, f.Note, f.Admin, f.At)
		if err != nil {
			return fmt.Errorf("record flag: %w", err)
		}
		if tag.RowsAffected() == 0 && f.Renew {
			tag, err = tx.Exec(ctx, `UPDATE knowledge_flags SET reason = $3, note = $4, admin = $5, at = $6, cleared = false
				WHERE entry_id = $1 AND agent = $2 AND origin = $1 AND cleared`, id, f.Agent, f.Reason, f.Note, f.Admin, f.At)
			if err != nil {
				return fmt.Errorf("renew flag: %w", err)
			}
		}
		if tag.RowsAffected() == 0 {
			return nil
		}
		counted = !had
		for _, q := range recountFlagsSQL {
			if _, err := tx.Exec(ctx, q, id); err != nil {
				return fmt.Errorf("count flag: %w", err)
			}
		}
		return insertEvent(ctx, tx, id, knowledge.Event{Kind: knowledge.EventFlagged, At: f.At, By: f.Agent, Reason: f.Reason, Note: f.Note})
	})
	if err != nil {
		return false, wrap("flag entry", err)
	}
	return counted, nil
}

// SetQuarantine sets or lifts an entry's quarantine and records ev.
func (k *Knowledge) SetQuarantine(ctx context.Context, id string, on bool, ev knowledge.Event) error {
	err := pgx.BeginFunc(ctx, k.pool, func(tx pgx.Tx) error {
		hive, err := lockEntry(ctx, tx, id)
		if err != nil {
			return err
		}
		q := `INSERT INTO knowledge_moderation (entry_id, hive, quarantined) VALUES ($1, $2, true)
			ON CONFLICT (entry_id) DO UPDATE SET quarantined = true`
		if !on {
			q = `INSERT INTO knowledge_moderation AS m (entry_id, hive) VALUES ($1, $2)
				ON CONFLICT (entry_id) DO UPDATE SET quarantined = false, cleared = m.flags`
		}
		if _, err := tx.Exec(ctx, q, id, hive); err != nil {
			return fmt.Errorf("set quarantine: %w", err)
		}
		if !on {
			// Before the flags are cleared: the absorbed entries whose flags
			// (or quarantine) this lift reviews, and the id it was asked
			// through, say so in their histories.
			if _, err := tx.Exec(ctx, `INSERT INTO knowledge_events (entry_id, kind, at, by, other_id, reason, note)
				SELECT t.id, $2::text, $3::timestamptz, $4::text, $1, $5::text, $6::text FROM `+absorbedTreeSQL+` t WHERE t.id <> $1 AND (t.id = $7::text
					OR EXISTS (SELECT 1 FROM knowledge_flags f WHERE f.entry_id = $1 AND f.origin = t.id AND NOT f.cleared)
					OR EXISTS (SELECT 1 FROM knowledge_moderation m WHERE m.entry_id = t.id AND m.quarantined))`,
				id, ev.Kind, ev.At, ev.By, ev.Reason, ev.Note, ev.OtherID); err != nil {
				return fmt.Errorf("record %s events of absorbed entries: %w", ev.Kind, err)
			}
			if _, err := tx.Exec(ctx, `UPDATE knowledge_flags SET cleared = true WHERE entry_id = $1`, id); err != nil {
				return fmt.Errorf("clear flags: %w", err)
			}
			// The flags just cleared include those of the entries absorbed
			// into id: reviewed, they hold none of those quarantined either.
			if _, err := tx.Exec(ctx, `UPDATE knowledge_moderation SET quarantined = false
				WHERE quarantined AND entry_id IN `+absorbedTreeSQL, id); err != nil {
				return fmt.Errorf("lift absorbed quarantines: %w", err)
			}
		}
		return insertEvent(ctx, tx, id, ev)
	})
	if err != nil {
		return wrap("set quarantine", err)
	}
	return nil
}

// ModStates reads the moderation rows among ids.
func (k *Knowledge) ModStates(ctx context.Context, ids []string) (map[string]knowledge.ModState, error) {
	out := make(map[string]knowledge.ModState)
	if len(ids) == 0 {
		return out, nil
	}
	sts, err := collect(ctx, k.pool, "read moderation", knowledge.ModStateDest,
		`SELECT `+knowledge.ModStateCols+` FROM knowledge_moderation WHERE entry_id = ANY($1)`, ids)
	if err != nil {
		return nil, err
	}
	for _, st := range sts {
		out[st.ID] = st
	}
	return out, nil
}

// Moderated lists a page of flagged (a flag pending, not quarantined) or
// quarantined live entries, the last flagged first: filtered and ordered
// here (the first condition lets the review index serve), so that reviewed
// rows never fill a page. An entry never flagged (flagged_at NULL) sorts
// last.
func (k *Knowledge) Moderated(ctx context.Context, q knowledge.ModeratedQuery) ([]knowledge.ModState, error) {
	which := `NOT quarantined AND flags > cleared`
	if q.Quarantined {
		which = `quarantined`
	}
	var after *time.Time
	if !q.AfterAt.IsZero() {
		after = &q.AfterAt
	}
	return collect(ctx, k.pool, "list moderated entries", knowledge.ModStateDest, `SELECT `+knowledge.ModStateCols+` FROM knowledge_moderation m
		WHERE (flags > 0 OR quarantined) AND `+which+` AND ($1 = '' OR hive = $1)
		AND ($2 = '' OR CASE WHEN $3::timestamptz IS NULL THEN flagged_at IS NULL AND entry_id > $2
			ELSE flagged_at IS NULL OR flagged_at < $3 OR (flagged_at = $3 AND entry_id > $2) END)
		AND EXISTS (SELECT 1 FROM knowledge_entries e WHERE e.id = m.entry_id)
		ORDER BY flagged_at DESC NULLS LAST, entry_id LIMIT $4`, q.Hive, q.AfterID, after, q.Limit)
}

// Supersede records that newer supersedes older, with an event on each.
func (k *Knowledge) Supersede(ctx context.Context, older, newer string, at time.Time) error {
	err := pgx.BeginFunc(ctx, k.pool, func(tx pgx.Tx) error {
		hives, err := lockEntries(ctx, tx, older, newer)
		if err != nil {
			return err
		}
		oh, nh := hives[older], hives[newer]
		if _, err := tx.Exec(ctx, `INSERT INTO knowledge_moderation (entry_id, hive, superseded_by) VALUES ($1, $2, $3)
			ON CONFLICT (entry_id) DO UPDATE SET superseded_by = excluded.superseded_by`, older, oh, newer); err != nil {
			return fmt.Errorf("mark superseded: %w", err)
		}
		if _, err := tx.Exec(ctx, `INSERT INTO knowledge_moderation (entry_id, hive, supersedes) VALUES ($1, $2, $3)
			ON CONFLICT (entry_id) DO UPDATE SET supersedes = excluded.supersedes`, newer, nh, older); err != nil {
			return fmt.Errorf("mark superseding: %w", err)
		}
		if err := insertEvent(ctx, tx, older, knowledge.Event{Kind: knowledge.EventSuperseded, At: at, OtherID: newer}); err != nil {
			return err
		}
		return insertEvent(ctx, tx, newer, knowledge.Event{Kind: knowledge.EventSupersedes, At: at, OtherID: older})
	})
	if err != nil {
		return wrap("supersede", err)
	}
	return nil
}

// Redact deletes entry id, its attribution rows and endorsements, and
// blanks its flag notes, in one transaction. Deleted rows and their index
// entries (the full-text, trigram and HNSW indexes) are invisible to every
// query at once and reclaimed by (auto)vacuum.
func (k *Knowledge) Redact(ctx context.Context, id string, r knowledge.Redaction) error {
	err := pgx.BeginFunc(ctx, k.pool, func(tx pgx.Tx) error {
		var hive string
		err := tx.QueryRow(ctx, `SELECT hive FROM knowledge_entries WHERE id = $1 FOR UPDATE`, id).Scan(&hive)
		if errors.Is(err, pgx.ErrNoRows) {
			var n int
			if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM knowledge_redactions WHERE id = $1`, id).Scan(&n); err != nil {
				return fmt.Errorf("read redaction: %w", err)
			}
			if n == 0 {
				return notFound(id)
			}
			return nil // redacted already
		}
		if err != nil {
			return fmt.Errorf("lock entry: %w", err)
		}
		steps := []struct{ op, q string }{
			{"delete contributions", `DELETE FROM knowledge_contributions WHERE entry_id = $1`},
			{"delete contributors", `DELETE FROM knowledge_contributors WHERE entry_id = $1`},
			{"delete endorsements", `DELETE FROM knowledge_endorsements WHERE entry_id = $1`},
			{"delete cites", `DELETE FROM knowledge_cites WHERE entry_id = $1`},
			// The records of entries it absorbed (near-duplicates of its
			// text), of those they had absorbed, and its own: their ids
			// answer gone through it.
			{"blank merge records", `UPDATE knowledge_absorbed SET title = '', content = '', tags = '{}', norm_hash = '',
				embedding = '[0]' WHERE merged_into IN ` + absorbedTreeSQL + ` OR entry_id = $1`},
			{"blank flag notes", `UPDATE knowledge_flags SET note = '' WHERE entry_id = $1`},
			{"blank event notes", `UPDATE knowledge_events SET note = '' WHERE entry_id IN ` + absorbedTreeSQL},
			{"lift quarantine", `UPDATE knowledge_moderation SET quarantined = false WHERE entry_id = $1`},
			{"splice successor", spliceSQL[0]},
			{"splice predecessor", spliceSQL[1]},
			{"delete entry", `DELETE FROM knowledge_entries WHERE id = $1`},
		}
		for _, s := range steps {
			if _, err := tx.Exec(ctx, s.q, id); err != nil {
				return fmt.Errorf("redact %s: %s: %w", id, s.op, err)
			}
		}
		if _, err := tx.Exec(ctx, `INSERT INTO knowledge_redactions (id, hive, at, reason, by) VALUES ($1, $2, $3, $4, $5)`,
			id, hive, r.At, r.Reason, r.By); err != nil {
			return fmt.Errorf("redact %s: record: %w", id, err)
		}
		return insertEvent(ctx, tx, id, knowledge.Event{Kind: knowledge.EventRedacted, At: r.At, By: r.By, Reason: r.Reason})
	})
	if err != nil {
		return wrap("redact entry", err)
	}
	return nil
}

// spliceSQL takes redacted entry $1 out of the lineage it was part of, so
// no entry names a dead id: the entries it superseded are superseded by its
// successor (none when it had none), and its successor supersedes what it
// superseded.
var spliceSQL = [2]string{
	`UPDATE knowledge_moderation m SET superseded_by = COALESCE((SELECT CASE WHEN r.superseded_by = m.entry_id
		THEN '' ELSE r.superseded_by END FROM knowledge_moderation r WHERE r.entry_id = $1), '') WHERE m.superseded_by = $1`,
	`UPDATE knowledge_moderation m SET supersedes = COALESCE((SELECT CASE WHEN r.supersedes = m.entry_id
		THEN '' ELSE r.supersedes END FROM knowledge_moderation r WHERE r.entry_id = $1), '') WHERE m.supersedes = $1`,
}

// absorbedTreeSQL is the set of entry $1 and every entry an absorption in
// effect merged into it, through any chain.
const absorbedTreeSQL = `(WITH RECURSIVE tree(id) AS (SELECT $1::text
	UNION SELECT a.entry_id FROM knowledge_absorbed a JOIN tree ON a.merged_into = tree.id WHERE a.unmerged_at IS NULL)
	SELECT id FROM tree)`

// RedactAbsorbed deletes what absorbed entry r.ID brought to holder and
// blanks the records of origins, in one transaction that locks r.ID's
// record and the holder's row first (as Unmerge does).
func (k *Knowledge) RedactAbsorbed(ctx context.Context, holder string, origins []string, r knowledge.Redaction) error {
	if len(origins) == 0 {
		origins = []string{r.ID}
	}
	err := pgx.BeginFunc(ctx, k.pool, func(tx pgx.Tx) error {
		var n int
		if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM knowledge_redactions WHERE id = $1`, r.ID).Scan(&n); err != nil {
			return fmt.Errorf("read redaction: %w", err)
		}
		if n > 0 {
			return nil // redacted already
		}
		var rec int64
		var hive string
		err := tx.QueryRow(ctx, `SELECT seq, hive FROM knowledge_absorbed WHERE entry_id = $1 AND unmerged_at IS NULL FOR UPDATE`,
			r.ID).Scan(&rec, &hive)
		if errors.Is(err, pgx.ErrNoRows) {
			return pumasi.Errorf(pumasi.ENotFound, "knowledge entry %q is not merged", r.ID)
		}
		if err != nil {
			return fmt.Errorf("read merge record: %w", err)
		}
		var one int
		err = tx.QueryRow(ctx, `SELECT 1 FROM knowledge_entries WHERE id = $1 FOR UPDATE`, holder).Scan(&one)
		if errors.Is(err, pgx.ErrNoRows) {
			return notFound(holder)
		}
		if err != nil {
			return fmt.Errorf("lock holder: %w", err)
		}
		// The engine read holder and origins before this transaction: an
		// unmerge since (C in D in E, D unmerged; it locks E too, so it
		// committed before the lock above) moved the rows. Then the chain
		// from r.ID no longer ends in holder, or its tree is not origins,
		// and the engine looks again.
		var held bool
		var tree, known int
		if err := tx.QueryRow(ctx, `SELECT EXISTS (WITH RECURSIVE up(id) AS (
				SELECT merged_into FROM knowledge_absorbed WHERE entry_id = $1 AND unmerged_at IS NULL
				UNION SELECT a.merged_into FROM knowledge_absorbed a JOIN up ON a.entry_id = up.id WHERE a.unmerged_at IS NULL)
			SELECT 1 FROM up WHERE id = $2)`, r.ID, holder).Scan(&held); err != nil {
			return fmt.Errorf("redact %s in %s: read its chain: %w", r.ID, holder, err)
		}
		if err := tx.QueryRow(ctx, `SELECT count(*), count(*) FILTER (WHERE id = ANY($2)) FROM `+absorbedTreeSQL+` t`,
			r.ID, origins).Scan(&tree, &known); err != nil {
			return fmt.Errorf("redact %s in %s: read its tree: %w", r.ID, holder, err)
		}
		if !held || tree != len(origins) || known != len(origins) {
			return pumasi.Errorf(pumasi.ENotFound, "knowledge entry %q is no longer held by %q as read", r.ID, holder)
		}
		// Before the rows go: what the absorb added to the citations, given
		// back by the holder and by the records of the entries between (so
		// that unmerging one of those later gives back no more than is left).
		var back int64
		if err := tx.QueryRow(ctx, `SELECT (SELECT citation_count FROM knowledge_absorbed WHERE seq = $2) -
			(SELECT count(*) FROM (SELECT agent, day FROM knowledge_cites WHERE entry_id = $1 AND origin = ANY($3)
				INTERSECT SELECT agent, day FROM knowledge_cites WHERE entry_id = $1 AND origin <> ALL($3)) x)`,
			holder, rec, origins).Scan(&back); err != nil {
			return fmt.Errorf("redact %s in %s: count citations: %w", r.ID, holder, err)
		}
		out := []any{holder, origins}
		return runSteps(ctx, tx, "redact "+r.ID+" in "+holder, []step{
			{"give back citations", `UPDATE knowledge_entries SET citation_count = GREATEST(0, citation_count - $2) WHERE id = $1`,
				[]any{holder, back}},
			{"give back citations on the way", `UPDATE knowledge_absorbed SET citation_count = GREATEST(0, citation_count - $2)
				WHERE unmerged_at IS NULL AND entry_id IN (WITH RECURSIVE up(id) AS (
					SELECT merged_into FROM knowledge_absorbed WHERE entry_id = $1 AND unmerged_at IS NULL
					UNION SELECT a.merged_into FROM knowledge_absorbed a JOIN up ON a.entry_id = up.id WHERE a.unmerged_at IS NULL)
				SELECT id FROM up)`, []any{r.ID, back}},
			{"delete contributions", `DELETE FROM knowledge_contributions WHERE entry_id = $1 AND origin = ANY($2)`, out},
			{"delete endorsements", `DELETE FROM knowledge_endorsements WHERE entry_id = $1 AND origin = ANY($2)`, out},
			{"delete cites", `DELETE FROM knowledge_cites WHERE entry_id = $1 AND origin = ANY($2)`, out},
			{"delete flags", `DELETE FROM knowledge_flags WHERE entry_id = $1 AND origin = ANY($2)`, out},
			{"drop contributors", `DELETE FROM knowledge_contributors WHERE entry_id = $1`, []any{holder}},
			{"count contributors", `INSERT INTO knowledge_contributors (entry_id, agent)
				SELECT DISTINCT entry_id, agent FROM knowledge_contributions WHERE entry_id = $1`, []any{holder}},
			{"count holder", recountSQL, []any{holder}},
			{"count holder flags", recountFlagsSQL[1], []any{holder}},
			{"blank merge records", `UPDATE knowledge_absorbed SET title = '', content = '', tags = '{}', norm_hash = '',
				embedding = '[0]' WHERE entry_id = ANY($1)`, []any{origins}},
			{"blank flag notes", `UPDATE knowledge_flags SET note = '' WHERE entry_id = ANY($1)`, []any{origins}},
			{"blank event notes", `UPDATE knowledge_events SET note = '' WHERE entry_id = ANY($1)`, []any{origins}},
			{"lift quarantine", `UPDATE knowledge_moderation SET quarantined = false WHERE entry_id = ANY($1)`, []any{origins}},
			{"splice successor", spliceSQL[0], []any{r.ID}},
			{"splice predecessor", spliceSQL[1], []any{r.ID}},
			{"record", `INSERT INTO knowledge_redactions (id, hive, at, reason, by) VALUES ($1, $2, $3, $4, $5)`,
				[]any{r.ID, hive, r.At, r.Reason, r.By}},
			{"event", `INSERT INTO knowledge_events (entry_id, kind, at, by, other_id, reason, note) VALUES ($1, $2, $3, $4, $5, $6, '')`,
				[]any{r.ID, knowledge.EventRedacted, r.At, r.By, holder, r.Reason}},
		})
	})
	if err != nil {
		return wrap("redact absorbed entry", err)
	}
	return nil
}

// Unquarantine lifts an entry's quarantine, its flags left pending, and
// records ev.
func (k *Knowledge) Unquarantine(ctx context.Context, id string, ev knowledge.Event) error {
	err := pgx.BeginFunc(ctx, k.pool, func(tx pgx.Tx) error {
		if _, err := lockEntry(ctx, tx, id); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE knowledge_moderation SET quarantined = false WHERE entry_id = $1`, id); err != nil {
			return fmt.Errorf("lift quarantine: %w", err)
		}
		return insertEvent(ctx, tx, id, ev)
	})
	if err != nil {
		return wrap("lift quarantine", err)
	}
	return nil
}

// Redaction reads a redacted id's tombstone.
func (k *Knowledge) Redaction(ctx context.Context, id string) (knowledge.Redaction, error) {
	var r knowledge.Redaction
	err := k.pool.QueryRow(ctx, `SELECT `+knowledge.RedactionCols+` FROM knowledge_redactions WHERE id = $1`, id).
		Scan(knowledge.RedactionDest(&r)...)
	if errors.Is(err, pgx.ErrNoRows) {
		return knowledge.Redaction{ID: id}, pumasi.Errorf(pumasi.ENotFound, "knowledge entry %q was not redacted", id)
	}
	if err != nil {
		return r, wrap("read redaction", err)
	}
	return r, nil
}

// Events lists an entry's moderation events, oldest first.
func (k *Knowledge) Events(ctx context.Context, id string) ([]knowledge.Event, error) {
	return collect(ctx, k.pool, "list events", knowledge.EventDest, `SELECT `+knowledge.EventCols+` FROM knowledge_events
		WHERE entry_id = $1 ORDER BY seq`, id)
}
