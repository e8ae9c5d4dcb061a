package local

import (
	"context"
	"fmt"
	"strings"

	"pumasi/knowledge"
)

// The lexical side of the driver: FTS5 finds the entries that hold a term
// (knowledge.Term), the porter table (English stems; a Hangul term as a
// prefix, since unicode61 keeps Korean particles on the word) for a word,
// the trigram table for a substring. Which terms to search and how to
// fuse what they find is the engine's (knowledge/candidates.go). Terms are
// quoted, never passed as FTS syntax.

// TermCounts counts, for each term, the entries it matches, up to limit
// + 1.
func (k *Knowledge) TermCounts(ctx context.Context, terms []knowledge.Term, limit int) ([]int, error) {
	out := make([]int, len(terms))
	for i, t := range terms {
		table, match := ftsMatch(t)
		// table is one of two constants, never user input.
		err := k.s.db.QueryRowContext(ctx, fmt.Sprintf(`SELECT COUNT(*) FROM (SELECT 1 FROM %[1]s WHERE %[1]s MATCH ? LIMIT ?)`, table),
			match, limit+1).Scan(&out[i])
		if err != nil {
			return nil, wrapInternal("count term", err)
		}
	}
	return out, nil
}

// Match lists, for each term, the ids of up to n entries of hive that hold
// it, newest first.
func (k *Knowledge) Match(ctx context.Context, hive string, terms []knowledge.Term, n int) ([][]string, error) {
	out := make([][]string, len(terms))
	if n <= 0 {
		return out, nil
	}
	for i, t := range terms {
		table, match := ftsMatch(t)
		ids, err := k.ftsSearch(ctx, table, match, hive, n)
		if err != nil {
			return nil, wrapInternal("full-text search", err)
		}
		out[i] = ids
	}
	return out, nil
}

// ftsMatch is the FTS5 table and match expression of t.
func ftsMatch(t knowledge.Term) (table, match string) {
	q := ftsQuote(t.Text)
	if t.Substring {
		return "knowledge_fts_tri", q
	}
	if knowledge.HangulOnly(t.Text) {
		q += " *"
	}
	return "knowledge_fts", q
}

func (k *Knowledge) ftsSearch(ctx context.Context, table, match, hive string, n int) ([]string, error) {
	// table is one of two constants above, never user input.
	rows, err := k.s.db.QueryContext(ctx, fmt.Sprintf(`SELECT e.id FROM %[1]s
		JOIN knowledge_entries e ON e.seq = %[1]s.rowid
		WHERE %[1]s MATCH ?1 AND (?2 = '' OR e.hive = ?2)
		ORDER BY %[1]s.rowid DESC LIMIT ?3`, table), match, hive, n)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		out = append(out, id)
	}
	return out, rows.Err()
}

// ftsQuote makes t one FTS5 string: double quotes doubled inside.
func ftsQuote(t string) string { return `"` + strings.ReplaceAll(t, `"`, `""`) + `"` }
