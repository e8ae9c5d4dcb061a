package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"pumasi"
	"pumasi/knowledge"
)

// step is one statement of a multi-statement write.
type step struct {
	op, q string
	args  []any
}

func runSteps(ctx context.Context, tx pgx.Tx, what string, steps []step) error {
	for _, s := range steps {
		if _, err := tx.Exec(ctx, s.q, s.args...); err != nil {
			return fmt.Errorf("%s: %s: %w", what, s.op, err)
		}
	}
	return nil
}

// recountSQL sets the distinct counts of entry $1 from its rows:
// contributors, and endorsers whatever their rows' origin.
const recountSQL = `UPDATE knowledge_entries SET
	contribution_count = GREATEST(1, (SELECT count(*) FROM knowledge_contributors WHERE entry_id = $1)),
	endorsement_count = (SELECT count(DISTINCT agent) FROM knowledge_endorsements WHERE entry_id = $1)
	WHERE id = $1`

// lineageLinkedSQL answers whether $2 is linked to $1 or an entry of its
// tree (it and the entries absorbed into it, by absorptions in effect)
// through supersessions, either way, and absorptions in effect, either
// way, through any entries (Merge.Apart): an entry absorbed into, or the
// survivor of, an entry of the chain counts as the chain's. PostgreSQL lets
// the recursive term name lineage once, so each step's neighbours come from
// one LATERAL union of lookups by id on indexes (knowledge_moderation's
// key, its supersedes and superseded_by indexes, knowledge_absorbed's
// entry and merged_into ones): the cost grows with the lineage, not with
// the table.
const lineageLinkedSQL = `WITH RECURSIVE
	ktree(id) AS (SELECT $1::text UNION SELECT a.entry_id FROM knowledge_absorbed a JOIN ktree ON a.merged_into = ktree.id WHERE a.unmerged_at IS NULL),
	lineage(id) AS (SELECT $2::text
		UNION SELECT n.id FROM lineage l CROSS JOIN LATERAL (
			SELECT a.entry_id AS id FROM knowledge_absorbed a WHERE a.merged_into = l.id AND a.unmerged_at IS NULL
			UNION ALL SELECT a.merged_into FROM knowledge_absorbed a WHERE a.entry_id = l.id AND a.unmerged_at IS NULL
			UNION ALL SELECT m.supersedes FROM knowledge_moderation m WHERE m.entry_id = l.id AND m.supersedes <> ''
			UNION ALL SELECT m.superseded_by FROM knowledge_moderation m WHERE m.entry_id = l.id AND m.superseded_by <> ''
			UNION ALL SELECT m.entry_id FROM knowledge_moderation m WHERE m.supersedes = l.id AND m.supersedes <> ''
			UNION ALL SELECT m.entry_id FROM knowledge_moderation m WHERE m.superseded_by = l.id AND m.superseded_by <> '') n)
	SELECT EXISTS (SELECT 1 FROM lineage WHERE id IN (SELECT id FROM ktree))`

// Absorb folds m.EntryID into m.MergedInto in one transaction and keeps
// the absorbed row in knowledge_absorbed. It first locks both rows (in id
// order, so two sweeps cannot deadlock); a contribution, citation or
// endorsement racing it locks the same row first, so none can refer to the
// absorbed entry once it is deleted: it waits, then finds it not_found and
// the engine follows the record to the survivor.
func (k *Knowledge) Absorb(ctx context.Context, m knowledge.Merge) error {
	keep, gone := m.MergedInto, m.EntryID
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
		// Under the row locks, so a supersede of either entry waits; any
		// other that committed before this statement is seen.
		if m.Apart {
			var linked bool
			if err := tx.QueryRow(ctx, lineageLinkedSQL, keep, gone).Scan(&linked); err != nil {
				return fmt.Errorf("read lineage: %w", err)
			}
			if linked {
				return pumasi.Errorf(pumasi.EPreconditionFailed, "entry %q and %q are linked by supersession: kept apart", gone, keep)
			}
		}
		both, onlyGone, onlyKeep := []any{keep, gone}, []any{gone}, []any{keep}
		return runSteps(ctx, tx, "absorb "+gone+" into "+keep, []step{
			{"record", `INSERT INTO knowledge_absorbed (entry_id, merged_into, hive, title, content, tags, norm_hash, model,
				embedding, specificity, contribution_count, citation_count, endorsement_count, created_at, last_used_at, at, similarity, via)
				SELECT id, $1, hive, title, content, tags, norm_hash, model, embedding, specificity, contribution_count,
				citation_count, endorsement_count, created_at, last_used_at, $3, $4, $5 FROM knowledge_entries WHERE id = $2`,
				[]any{keep, gone, m.At, m.Similarity, m.Via}},
			// Before the rows move: a day both were cited by one agent counts once.
			{"fold citations", `UPDATE knowledge_entries k SET
				citation_count = GREATEST(0, k.citation_count + g.citation_count -
					(SELECT count(*) FROM (SELECT agent, day FROM knowledge_cites WHERE entry_id = $2
						INTERSECT SELECT agent, day FROM knowledge_cites WHERE entry_id = $1) x)),
				last_used_at = GREATEST(k.last_used_at, g.last_used_at)
				FROM knowledge_entries g WHERE k.id = $1 AND g.id = $2`, both},
			{"move contributions", `UPDATE knowledge_contributions SET entry_id = $1 WHERE entry_id = $2`, both},
			{"move contributors", `INSERT INTO knowledge_contributors (entry_id, agent)
				SELECT $1, agent FROM knowledge_contributors WHERE entry_id = $2 ON CONFLICT (entry_id, agent) DO NOTHING`, both},
			{"drop contributors", `DELETE FROM knowledge_contributors WHERE entry_id = $1`, onlyGone},
			{"move endorsements", `UPDATE knowledge_endorsements SET entry_id = $1 WHERE entry_id = $2`, both},
			{"move cites", `UPDATE knowledge_cites SET entry_id = $1 WHERE entry_id = $2`, both},
			{"move flags", `UPDATE knowledge_flags SET entry_id = $1 WHERE entry_id = $2`, both},
			{"count", recountSQL, onlyKeep},
			{"count flags", recountFlagsSQL[0], onlyKeep},
			{"count flags", recountFlagsSQL[1], onlyKeep},
			{"count absorbed flags", recountFlagsSQL[1], onlyGone},
			{"delete entry", `DELETE FROM knowledge_entries WHERE id = $1`, onlyGone},
		})
	})
	if err != nil {
		return wrap("absorb", err)
	}
	return nil
}

// Merges lists the absorptions id took part in, oldest first.
func (k *Knowledge) Merges(ctx context.Context, id string) ([]knowledge.Merge, error) {
	return collect(ctx, k.pool, "list merges", knowledge.MergeDest, `SELECT `+knowledge.MergeCols+` FROM knowledge_absorbed
		WHERE entry_id = $1 OR merged_into = $1 ORDER BY seq`, id)
}

// RecentMerges lists a page of the absorptions an unmerge can undo: in
// effect, their record not blanked by a redaction, newest first.
func (k *Knowledge) RecentMerges(ctx context.Context, q knowledge.MergeQuery) ([]knowledge.SeqMerge, error) {
	return collect(ctx, k.pool, "list recent merges", func(m *knowledge.SeqMerge) []any {
		return append([]any{&m.Seq}, knowledge.MergeDest(&m.Merge)...)
	}, `SELECT seq, `+knowledge.MergeCols+` FROM knowledge_absorbed
		WHERE unmerged_at IS NULL AND title <> '' AND ($1 = '' OR hive = $1) AND ($2 = 0 OR seq < $2)
		ORDER BY seq DESC LIMIT $3`, q.Hive, q.Before, q.Limit)
}

// Unmerge writes u.EntryID again from its record, with a new seq (visible
// in order to Since, like Insert's), and moves its rows back from the
// survivor by origin, in one transaction that locks the record and the
// survivor's row first.
func (k *Knowledge) Unmerge(ctx context.Context, u knowledge.Unmerge) error {
	err := pgx.BeginFunc(ctx, k.pool, func(tx pgx.Tx) error {
		var rec int64
		var keep string
		err := tx.QueryRow(ctx, `SELECT seq, merged_into FROM knowledge_absorbed WHERE entry_id = $1 AND unmerged_at IS NULL FOR UPDATE`,
			u.EntryID).Scan(&rec, &keep)
		if errors.Is(err, pgx.ErrNoRows) {
			return pumasi.Errorf(pumasi.ENotFound, "knowledge entry %q is not merged", u.EntryID)
		}
		if err != nil {
			return fmt.Errorf("read merge record: %w", err)
		}
		// Redacted inside its survivor (RedactAbsorbed, which locks the
		// record first): its record is blank.
		var n int
		if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM knowledge_redactions WHERE id = $1`, u.EntryID).Scan(&n); err != nil {
			return fmt.Errorf("read redaction: %w", err)
		}
		if n > 0 {
			return pumasi.Errorf(pumasi.EGone, "knowledge entry %q was redacted", u.EntryID)
		}
		var one int
		err = tx.QueryRow(ctx, `SELECT 1 FROM knowledge_entries WHERE id = $1 FOR UPDATE`, keep).Scan(&one)
		if errors.Is(err, pgx.ErrNoRows) {
			return pumasi.Errorf(pumasi.ENotFound, "the survivor %q of %q is not a live entry", keep, u.EntryID)
		}
		if err != nil {
			return fmt.Errorf("lock survivor: %w", err)
		}
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock_shared($1)`, seqLockKey); err != nil {
			return fmt.Errorf("take seq lock: %w", err)
		}
		tag, err := tx.Exec(ctx, `INSERT INTO knowledge_entries (id, hive, title, content, tags, norm_hash, model, embedding,
			specificity, contribution_count, citation_count, endorsement_count, created_at, last_used_at)
			SELECT entry_id, hive, title, content, tags, norm_hash, model, embedding, specificity, contribution_count,
			citation_count, endorsement_count, created_at, last_used_at FROM knowledge_absorbed WHERE seq = $1
			ON CONFLICT (hive, norm_hash) DO NOTHING`, rec)
		if err != nil {
			return fmt.Errorf("restore entry: %w", err)
		}
		if tag.RowsAffected() == 0 {
			return pumasi.Errorf(pumasi.ENameConflict, "another entry of the hive holds the exact text of %q", u.EntryID)
		}
		moveBack := []any{keep, u.EntryID, u.Origins}
		return runSteps(ctx, tx, "unmerge "+u.EntryID+" from "+keep, []step{
			// Before the rows move back: give back what the absorb added.
			{"give back citations", `UPDATE knowledge_entries SET citation_count = GREATEST(0, citation_count -
				(SELECT citation_count FROM knowledge_absorbed WHERE seq = $2) +
				(SELECT count(*) FROM (SELECT agent, day FROM knowledge_cites WHERE entry_id = $1 AND origin = ANY($3)
					INTERSECT SELECT agent, day FROM knowledge_cites WHERE entry_id = $1 AND origin <> ALL($3)) x))
				WHERE id = $1`, []any{keep, rec, u.Origins}},
			{"move contributions", `UPDATE knowledge_contributions SET entry_id = $2 WHERE entry_id = $1 AND origin = ANY($3)`, moveBack},
			{"move endorsements", `UPDATE knowledge_endorsements SET entry_id = $2 WHERE entry_id = $1 AND origin = ANY($3)`, moveBack},
			{"move cites", `UPDATE knowledge_cites SET entry_id = $2 WHERE entry_id = $1 AND origin = ANY($3)`, moveBack},
			{"drop contributors", `DELETE FROM knowledge_contributors WHERE entry_id = ANY($1)`, []any{[]string{keep, u.EntryID}}},
			{"count contributors", `INSERT INTO knowledge_contributors (entry_id, agent)
				SELECT DISTINCT entry_id, agent FROM knowledge_contributions WHERE entry_id = ANY($1)`, []any{[]string{keep, u.EntryID}}},
			{"move flags", `UPDATE knowledge_flags SET entry_id = $2 WHERE entry_id = $1 AND origin = ANY($3)`, moveBack},
			{"count survivor", recountSQL, []any{keep}},
			{"count restored", recountSQL, []any{u.EntryID}},
			{"count survivor flags", recountFlagsSQL[1], []any{keep}},
			{"count restored flags", recountFlagsSQL[0], []any{u.EntryID}},
			{"count restored flags", recountFlagsSQL[1], []any{u.EntryID}},
			{"mark undone", `UPDATE knowledge_absorbed SET unmerged_at = $2, unmerged_by = $3 WHERE seq = $1`, []any{rec, u.At, u.By}},
		})
	})
	if err != nil {
		return wrap("unmerge", err)
	}
	return nil
}
