package local

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"pumasi"
	"pumasi/knowledge"
)

// Absorb folds m.EntryID into m.MergedInto in one short write transaction,
// keeps the absorbed row in knowledge_absorbed and leaves a tombstone so
// every process's vector index drops it.
func (k *Knowledge) Absorb(ctx context.Context, m knowledge.Merge) error {
	keep, gone := m.MergedInto, m.EntryID
	if keep == gone {
		return pumasi.Errorf(pumasi.EInvalidRequest, "cannot absorb entry %q into itself", keep)
	}
	// Unsynced: the sweep answers nobody until RecordSweep, whose sync makes
	// every merge before it durable; a merge a power loss undoes (whole,
	// being one transaction) is made again by the next sweep. A sync per
	// merge competed with uploads for the disk.
	err := k.s.writeTxNoSync(ctx, func(tx *sql.Tx) error {
		var seq int64
		var hive, model string
		err := tx.QueryRowContext(ctx, `SELECT seq, hive, model FROM knowledge_entries WHERE id = ?`, gone).Scan(&seq, &hive, &model)
		if errors.Is(err, sql.ErrNoRows) {
			return pumasi.Errorf(pumasi.ENotFound, "no knowledge entry %q", gone)
		}
		if err != nil {
			return fmt.Errorf("read absorbed entry: %w", err)
		}
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM knowledge_entries WHERE id = ?`, keep).Scan(&n); err != nil {
			return fmt.Errorf("read kept entry: %w", err)
		}
		if n == 0 {
			return pumasi.Errorf(pumasi.ENotFound, "no knowledge entry %q", keep)
		}
		if m.Apart {
			var linked bool
			if err := tx.QueryRowContext(ctx, lineageLinkedSQL, keep, gone).Scan(&linked); err != nil {
				return fmt.Errorf("read lineage: %w", err)
			}
			if linked {
				return pumasi.Errorf(pumasi.EPreconditionFailed, "entry %q and %q are linked by supersession: kept apart", gone, keep)
			}
		}
		steps := []struct{ op, q string }{
			{"record", `INSERT INTO knowledge_absorbed (entry_id, merged_into, hive, title, content, tags, norm_hash, model,
				vector, specificity, contribution_count, citation_count, endorsement_count, created_at, last_used_at, at, similarity, via)
				SELECT id, ?1, hive, title, content, tags, norm_hash, model, vector, specificity, contribution_count,
				citation_count, endorsement_count, created_at, last_used_at, ?3, ?4, ?5 FROM knowledge_entries WHERE id = ?2`},
			// Before the rows move: a day both were cited by one agent counts once.
			{"fold citations", `UPDATE knowledge_entries SET
				citation_count = MAX(0, citation_count + (SELECT citation_count FROM knowledge_entries WHERE id = ?2) -
					(SELECT COUNT(*) FROM (SELECT agent, day FROM knowledge_cites WHERE entry_id = ?2
						INTERSECT SELECT agent, day FROM knowledge_cites WHERE entry_id = ?1))),
				last_used_at = MAX(last_used_at, (SELECT last_used_at FROM knowledge_entries WHERE id = ?2))
				WHERE id = ?1`},
			{"move contributions", `UPDATE knowledge_contributions SET entry_id = ?1 WHERE entry_id = ?2`},
			{"move contributors", `INSERT INTO knowledge_contributors (entry_id, agent)
				SELECT ?1, agent FROM knowledge_contributors WHERE entry_id = ?2 ON CONFLICT (entry_id, agent) DO NOTHING`},
			{"drop contributors", `DELETE FROM knowledge_contributors WHERE entry_id = ?2`},
			{"move endorsements", `UPDATE knowledge_endorsements SET entry_id = ?1 WHERE entry_id = ?2`},
			{"move cites", `UPDATE knowledge_cites SET entry_id = ?1 WHERE entry_id = ?2`},
			{"move flags", `UPDATE knowledge_flags SET entry_id = ?1 WHERE entry_id = ?2`},
			{"count", recountSQL(1)},
			{"count flags", recountFlagsSQL(1)[0]},
			{"count flags", recountFlagsSQL(1)[1]},
			{"count absorbed flags", recountFlagsSQL(2)[1]},
			{"delete entry", `DELETE FROM knowledge_entries WHERE id = ?2`},
		}
		for _, s := range steps {
			if _, err := tx.ExecContext(ctx, s.q, keep, gone, formatTime(m.At), m.Similarity, m.Via); err != nil {
				return fmt.Errorf("absorb %s into %s: %s: %w", gone, keep, s.op, err)
			}
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO knowledge_tombstones (id, entry_seq, hive, model) VALUES (?, ?, ?, ?)`,
			gone, seq, hive, model)
		return err
	})
	if err != nil {
		return wrapInternal("absorb", err)
	}
	return nil
}

// lineageLinkedSQL answers whether ?2 is linked to ?1 or an entry of its
// tree (it and the entries absorbed into it, by absorptions in effect)
// through supersessions, either way, and absorptions in effect, either
// way, through any entries (Merge.Apart): an entry absorbed into, or the
// survivor of, an entry of the chain counts as the chain's. Each step is a
// lookup by id on an index (knowledge_moderation's key, its supersedes and
// superseded_by indexes, knowledge_absorbed's entry and merged_into ones),
// so the cost grows with the lineage, not with the table.
const lineageLinkedSQL = `WITH RECURSIVE
	ktree(id) AS (SELECT ?1 UNION SELECT a.entry_id FROM knowledge_absorbed a JOIN ktree ON a.merged_into = ktree.id WHERE a.unmerged_at IS NULL),
	lineage(id) AS (SELECT ?2
		UNION SELECT a.entry_id FROM knowledge_absorbed a JOIN lineage l ON a.merged_into = l.id WHERE a.unmerged_at IS NULL
		UNION SELECT a.merged_into FROM knowledge_absorbed a JOIN lineage l ON a.entry_id = l.id WHERE a.unmerged_at IS NULL
		UNION SELECT m.supersedes FROM knowledge_moderation m JOIN lineage l ON m.entry_id = l.id WHERE m.supersedes != ''
		UNION SELECT m.superseded_by FROM knowledge_moderation m JOIN lineage l ON m.entry_id = l.id WHERE m.superseded_by != ''
		UNION SELECT m.entry_id FROM knowledge_moderation m JOIN lineage l ON m.supersedes = l.id AND m.supersedes != ''
		UNION SELECT m.entry_id FROM knowledge_moderation m JOIN lineage l ON m.superseded_by = l.id AND m.superseded_by != '')
	SELECT EXISTS (SELECT 1 FROM lineage WHERE id IN (SELECT id FROM ktree))`

// recountSQL sets the distinct counts of the entry whose id is parameter
// ?n from its rows: contributors, and endorsers whatever their rows' origin.
func recountSQL(n int) string {
	return fmt.Sprintf(`UPDATE knowledge_entries SET
		contribution_count = MAX(1, (SELECT COUNT(*) FROM knowledge_contributors WHERE entry_id = ?%[1]d)),
		endorsement_count = (SELECT COUNT(DISTINCT agent) FROM knowledge_endorsements WHERE entry_id = ?%[1]d)
		WHERE id = ?%[1]d`, n)
}

// Merges lists the absorptions id took part in, oldest first.
func (k *Knowledge) Merges(ctx context.Context, id string) ([]knowledge.Merge, error) {
	return collect(ctx, k.s.db, "list merges", knowledge.MergeDest, `SELECT `+knowledge.MergeCols+` FROM knowledge_absorbed
		WHERE entry_id = ?1 OR merged_into = ?1 ORDER BY seq`, id)
}

// RecentMerges lists a page of the absorptions an unmerge can undo: in
// effect, their record not blanked by a redaction, newest first.
func (k *Knowledge) RecentMerges(ctx context.Context, q knowledge.MergeQuery) ([]knowledge.SeqMerge, error) {
	return collect(ctx, k.s.db, "list recent merges", func(m *knowledge.SeqMerge) []any {
		return append([]any{&m.Seq}, knowledge.MergeDest(&m.Merge)...)
	}, `SELECT seq, `+knowledge.MergeCols+` FROM knowledge_absorbed
		WHERE unmerged_at IS NULL AND title != '' AND (?1 = '' OR hive = ?1) AND (?2 = 0 OR seq < ?2)
		ORDER BY seq DESC LIMIT ?3`, q.Hive, q.Before, q.Limit)
}

// Unmerge writes u.EntryID again from its record, with a new seq (so every
// process's index and the full-text tables add it), and moves its rows
// back from the survivor by origin, in one transaction.
func (k *Knowledge) Unmerge(ctx context.Context, u knowledge.Unmerge) error {
	if err := k.s.roomToGrow(); err != nil {
		return err
	}
	err := k.s.writeTx(ctx, func(tx *sql.Tx) error {
		var rec int64
		var keep string
		err := tx.QueryRowContext(ctx, `SELECT seq, merged_into FROM knowledge_absorbed WHERE entry_id = ? AND unmerged_at IS NULL`,
			u.EntryID).Scan(&rec, &keep)
		if errors.Is(err, sql.ErrNoRows) {
			return pumasi.Errorf(pumasi.ENotFound, "knowledge entry %q is not merged", u.EntryID)
		}
		if err != nil {
			return fmt.Errorf("read merge record: %w", err)
		}
		var n int
		// Redacted inside its survivor (RedactAbsorbed): its record is blank.
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM knowledge_redactions WHERE id = ?`, u.EntryID).Scan(&n); err != nil {
			return fmt.Errorf("read redaction: %w", err)
		}
		if n > 0 {
			return pumasi.Errorf(pumasi.EGone, "knowledge entry %q was redacted", u.EntryID)
		}
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM knowledge_entries WHERE id = ?`, keep).Scan(&n); err != nil {
			return fmt.Errorf("read survivor: %w", err)
		}
		if n == 0 {
			return pumasi.Errorf(pumasi.ENotFound, "the survivor %q of %q is not a live entry", keep, u.EntryID)
		}
		r, err := tx.ExecContext(ctx, `INSERT INTO knowledge_entries (id, hive, title, content, tags, norm_hash, model, vector,
			specificity, contribution_count, citation_count, endorsement_count, created_at, last_used_at)
			SELECT entry_id, hive, title, content, tags, norm_hash, model, vector, specificity, contribution_count,
			citation_count, endorsement_count, created_at, last_used_at FROM knowledge_absorbed WHERE seq = ?
			ON CONFLICT (hive, norm_hash) DO NOTHING`, rec)
		if err != nil {
			return fmt.Errorf("restore entry: %w", err)
		}
		if n, _ := r.RowsAffected(); n == 0 {
			return pumasi.Errorf(pumasi.ENameConflict, "another entry of the hive holds the exact text of %q", u.EntryID)
		}
		// ?1 survivor, ?2 restored entry, ?3 record, ?4... origins.
		args := []any{keep, u.EntryID, rec}
		in := make([]string, len(u.Origins))
		for i, o := range u.Origins {
			args = append(args, o)
			in[i] = fmt.Sprintf("?%d", i+4)
		}
		origins := "(" + strings.Join(in, ",") + ")"
		steps := []struct{ op, q string }{
			// Before the rows move back: give back what the absorb added.
			{"give back citations", `UPDATE knowledge_entries SET citation_count = MAX(0, citation_count -
				(SELECT citation_count FROM knowledge_absorbed WHERE seq = ?3) +
				(SELECT COUNT(*) FROM (SELECT agent, day FROM knowledge_cites WHERE entry_id = ?1 AND origin IN ` + origins + `
					INTERSECT SELECT agent, day FROM knowledge_cites WHERE entry_id = ?1 AND origin NOT IN ` + origins + `)))
				WHERE id = ?1`},
			{"move contributions", `UPDATE knowledge_contributions SET entry_id = ?2 WHERE entry_id = ?1 AND origin IN ` + origins},
			{"move endorsements", `UPDATE knowledge_endorsements SET entry_id = ?2 WHERE entry_id = ?1 AND origin IN ` + origins},
			{"move cites", `UPDATE knowledge_cites SET entry_id = ?2 WHERE entry_id = ?1 AND origin IN ` + origins},
			{"drop contributors", `DELETE FROM knowledge_contributors WHERE entry_id IN (?1, ?2)`},
			{"count contributors", `INSERT INTO knowledge_contributors (entry_id, agent)
				SELECT DISTINCT entry_id, agent FROM knowledge_contributions WHERE entry_id IN (?1, ?2)`},
			{"move flags", `UPDATE knowledge_flags SET entry_id = ?2 WHERE entry_id = ?1 AND origin IN ` + origins},
			{"count survivor", recountSQL(1)},
			{"count restored", recountSQL(2)},
			{"count survivor flags", recountFlagsSQL(1)[1]},
			{"count restored flags", recountFlagsSQL(2)[0]},
			{"count restored flags", recountFlagsSQL(2)[1]},
		}
		for _, s := range steps {
			if _, err := tx.ExecContext(ctx, s.q, args...); err != nil {
				return fmt.Errorf("unmerge %s from %s: %s: %w", u.EntryID, keep, s.op, err)
			}
		}
		_, err = tx.ExecContext(ctx, `UPDATE knowledge_absorbed SET unmerged_at = ?, unmerged_by = ? WHERE seq = ?`,
			formatTime(u.At), u.By, rec)
		return err
	})
	if err != nil {
		return wrapInternal("unmerge", err)
	}
	return nil
}
