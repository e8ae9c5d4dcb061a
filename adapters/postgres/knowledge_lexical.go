package postgres

import (
	"context"
	"strings"

	"github.com/jackc/pgx/v5"

	"pumasi/knowledge"
)

// The lexical side of the driver finds the entries that hold a term
// (knowledge.Term):
//
//   - a word through the knowledge_search(title, content, tags) tsvector
//     (English stems), which the knowledge_entries_search index answers; a
//     Hangul term matches as a prefix, since the parser keeps Korean
//     particles on the word;
//   - a substring through knowledge_text(title, content, tags) ILIKE, which
//     the trigram index answers.
//
// Which terms to search and how to fuse what they find is the engine's
// (knowledge/candidates.go). Terms are quoted lexemes and escaped LIKE
// patterns, passed as parameters: never query syntax of the caller's.

// The statements of one term. They must call knowledge_search and
// knowledge_text exactly as their indexes do, or the planner scans the
// table. The word statement finds its matches before it orders them (a
// materialized CTE): given the LIMIT, the planner would walk seq backwards
// and compute each row's tsvector until enough matched, which for a term
// rarer than it guessed read most of the table (Match p99 113 ms at 100k
// entries in the bench, 38 ms this way).
const (
	matchWordSQL = `WITH m AS MATERIALIZED (SELECT id, seq FROM knowledge_entries
		WHERE knowledge_search(title, content, tags) @@ to_tsquery('english', $1) AND ($2 = '' OR hive = $2))
		SELECT id FROM m ORDER BY seq DESC LIMIT $3`
	matchSubstringSQL = `SELECT id FROM knowledge_entries WHERE knowledge_text(title, content, tags) ILIKE $1
		AND ($2 = '' OR hive = $2) ORDER BY seq DESC LIMIT $3`
)

// matchRecentSQL is matchWordSQL among the entries whose seq is within $4
// of the newest: for a common word (commonWord), whose matches the whole
// posting list would make tens of thousands of rows to read and sort (226
// ms at 100,000 entries for a word in 18% of them), the newest n lie in a
// short range that the search index answers in one scan, since it holds
// each entry's seq beside its words (migration 0011): GIN intersects the
// word's posting list with the range, skipping through the list. A
// BitmapAnd of the seq index and a search index of words alone decoded the
// word's whole list first: 59 ms a statement at 1,000,000 entries, 2.4-2.7
// ms this way (pg_stat_statements, bench knowledge-postgres-1m). When the
// range holds fewer than n, Match asks again without it, so the answer is
// the same.
const matchRecentSQL = `WITH m AS MATERIALIZED (SELECT id, seq FROM knowledge_entries
		WHERE knowledge_search(title, content, tags) @@ to_tsquery('english', $1) AND ($2 = '' OR hive = $2)
		AND seq > (SELECT max(seq) FROM knowledge_entries) - $4)
		SELECT id FROM m ORDER BY seq DESC LIMIT $3`

// recentMargin is how many times n matches the range of matchRecentSQL is
// sized to hold, by the word's estimated share of the entries.
const recentMargin = 4

// Match lists, for each term, the ids of up to n entries of hive that hold
// it, newest first: one statement per term, all in one round trip (and
// one more for a common word whose recent range held too few).
func (k *Knowledge) Match(ctx context.Context, hive string, terms []knowledge.Term, n int) ([][]string, error) {
	out := make([][]string, len(terms))
	if n <= 0 || len(terms) == 0 {
		return out, nil
	}
	batch := &pgx.Batch{}
	windowed := make([]bool, len(terms))
	for i, t := range terms {
		q, args := matchWordSQL, []any{termArg(t), hive, n}
		if t.Substring {
			q = matchSubstringSQL
		} else if est, rows := k.commonWord(t.Text); est > 0 {
			if w := int64(recentMargin * float64(n) * rows / est); w < int64(rows/2) {
				q, args, windowed[i] = matchRecentSQL, append(args, w), true
			}
		}
		batch.Queue(q, args...).Query(func(rows pgx.Rows) error {
			var err error
			out[i], err = pgx.CollectRows(rows, pgx.RowTo[string])
			return err
		})
	}
	if err := k.pool.SendBatch(ctx, batch).Close(); err != nil {
		return nil, wrap("lexical search", err)
	}
	again := &pgx.Batch{}
	for i, t := range terms {
		if windowed[i] && len(out[i]) < n {
			again.Queue(matchWordSQL, termArg(t), hive, n).Query(func(rows pgx.Rows) error {
				var err error
				out[i], err = pgx.CollectRows(rows, pgx.RowTo[string])
				return err
			})
		}
	}
	if again.Len() > 0 {
		if err := k.pool.SendBatch(ctx, again).Close(); err != nil {
			return nil, wrap("lexical search", err)
		}
	}
	return out, nil
}

// termArg is the parameter of t's statements: a tsquery lexeme for a word,
// a LIKE pattern for a substring.
func termArg(t knowledge.Term) string {
	if t.Substring {
		return "%" + likeEscape(t.Text) + "%"
	}
	q := tsQuote(t.Text)
	if knowledge.HangulOnly(t.Text) {
		q += ":*"
	}
	return q
}

func (k *Knowledge) ids(ctx context.Context, q string, args ...any) ([]string, error) {
	rows, err := k.pool.Query(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowTo[string])
}

// tsQuote makes t one tsquery lexeme: single-quoted, with quotes and
// backslashes escaped, so no character of t is an operator.
func tsQuote(t string) string {
	t = strings.ReplaceAll(t, `\`, `\\`)
	return "'" + strings.ReplaceAll(t, "'", "''") + "'"
}

// likeEscape escapes LIKE's wildcards and its escape character.
func likeEscape(t string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(t)
}
