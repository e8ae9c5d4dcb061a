package local

import (
	"context"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Lexical finds entries by FTS5: the porter table (English stems; a Hangul
// term as a prefix, since unicode61 keeps Korean particles on the word) and
// the trigram table (substrings of three or more characters, for
// identifiers and Korean). Both lists are interleaved, best first, so
// neither drowns the other. Terms are quoted, never passed as FTS syntax.
func (k *Knowledge) Lexical(ctx context.Context, hive string, terms []string, n int) ([]string, error) {
	if len(terms) == 0 || n <= 0 {
		return nil, nil
	}
	var porter, tri []string
	for i, t := range terms {
		q := ftsQuote(t)
		if isHangulWord(t) {
			q += " *"
		}
		porter = append(porter, q)
		// Substring search costs a lookup per trigram: only the query's
		// own first words, not every thesaurus expansion.
		if i < maxTrigramTerms && utf8.RuneCountInString(t) >= 3 {
			tri = append(tri, ftsQuote(t))
		}
	}
	a, err := k.ftsSearch(ctx, "knowledge_fts", strings.Join(porter, " OR "), hive, n)
	if err != nil {
		return nil, wrapInternal("full-text search", err)
	}
	var b []string
	if len(tri) > 0 {
		if b, err = k.ftsSearch(ctx, "knowledge_fts_tri", strings.Join(tri, " OR "), hive, n); err != nil {
			return nil, wrapInternal("trigram search", err)
		}
	}
	seen := map[string]bool{}
	out := make([]string, 0, n)
	for i := 0; len(out) < n && (i < len(a) || i < len(b)); i++ {
		for _, list := range [][]string{a, b} {
			if i < len(list) && !seen[list[i]] && len(out) < n {
				seen[list[i]] = true
				out = append(out, list[i])
			}
		}
	}
	return out, nil
}

// maxTrigramTerms bounds the terms a trigram search looks up.
const maxTrigramTerms = 8

func (k *Knowledge) ftsSearch(ctx context.Context, table, match, hive string, n int) ([]string, error) {
	// table is one of two constants above, never user input.
	rows, err := k.s.db.QueryContext(ctx, fmt.Sprintf(`SELECT e.id FROM %[1]s
		JOIN knowledge_entries e ON e.seq = %[1]s.rowid
		WHERE %[1]s MATCH ?1 AND (?2 = '' OR e.hive = ?2)
		ORDER BY %[1]s.rank LIMIT ?3`, table), match, hive, n)
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

func isHangulWord(t string) bool {
	for _, r := range t {
		if !unicode.Is(unicode.Hangul, r) {
			return false
		}
	}
	return t != ""
}
