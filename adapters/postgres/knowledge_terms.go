package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"

	"pumasi/knowledge"
)

// The counting statements of one term (see knowledge_lexical.go): the
// matches, up to a limit. Each is planned with its own term, so the
// planner's statistics decide how: the index for a rare term (a short
// posting list), a scan that stops at the limit for a common one.
const (
	countWordSQL = `SELECT count(*) FROM (SELECT 1 FROM knowledge_entries
		WHERE knowledge_search(title, content, tags) @@ to_tsquery('english', $1) LIMIT $2) m`
	countSubstringSQL = `SELECT count(*) FROM (SELECT 1 FROM knowledge_entries
		WHERE knowledge_text(title, content, tags) ILIKE $1 LIMIT $2) m`
)

// TermCounts counts, for each term, the entries it matches, up to limit
// + 1: one statement per term, all in one round trip.
func (k *Knowledge) TermCounts(ctx context.Context, terms []knowledge.Term, limit int) ([]int, error) {
	out := make([]int, len(terms))
	if len(terms) == 0 {
		return out, nil
	}
	batch := &pgx.Batch{}
	for i, t := range terms {
		q := countWordSQL
		if t.Substring {
			q = countSubstringSQL
		}
		batch.Queue(q, termArg(t), limit+1).QueryRow(func(row pgx.Row) error { return row.Scan(&out[i]) })
	}
	if err := k.pool.SendBatch(ctx, batch).Close(); err != nil {
		return nil, wrap("count terms", err)
	}
	return out, nil
}
