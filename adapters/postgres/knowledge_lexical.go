package postgres

import (
	"context"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"

	"pumasi/knowledge"
)

// Lexical finds entries two ways and interleaves the lists, best first, so
// neither drowns the other (pumasi.Interleave, as the local driver does
// with its porter and trigram tables):
//
//   - full-text search over the stored `search` tsvector (English stems,
//     title above content and tags), ranked by ts_rank; a Hangul term
//     matches as a prefix, since the parser keeps Korean particles on the
//     word;
//   - substring matches over knowledge_text(title, content, tags), which the
//     trigram index answers, for the terms stemming misses: Korean words and
//     identifiers with digits (three characters or more, among the first
//     maxTrigramTerms), ranked by how many of them the text holds, then
//     shorter texts first.
//
// As in the local driver, ranking every entry that holds any of 30 words
// would sort most of the corpus on every query, so only the rarest few
// terms (searchTerms, each in at most commonTerm entries by the planner's
// statistics: see rareTerms) drive each search; the engine still weighs
// every term when it scores what was found.
//
// Terms are quoted lexemes and escaped LIKE patterns, passed as parameters:
// never query syntax of the caller's.
func (k *Knowledge) Lexical(ctx context.Context, hive string, terms []string, n int) ([]string, error) {
	if len(terms) == 0 || n <= 0 {
		return nil, nil
	}
	var tri []string
	for i, t := range terms {
		if i < maxTrigramTerms && utf8.RuneCountInString(t) >= 3 && (isHangulWord(t) || hasDigit(t)) {
			tri = append(tri, t)
		}
	}
	ftsTerms, subTerms, err := k.rareTerms(ctx, terms, tri)
	if err != nil {
		return nil, wrap("term statistics", err)
	}
	var lexemes, patterns, words []string
	for _, t := range ftsTerms {
		q := tsQuote(t)
		if isHangulWord(t) {
			q += ":*"
		}
		lexemes = append(lexemes, q)
	}
	for _, t := range subTerms {
		patterns = append(patterns, "%"+likeEscape(t)+"%")
		words = append(words, strings.ToLower(t))
	}
	// Both searches go in one round trip.
	var a, b []string
	batch := &pgx.Batch{}
	if len(lexemes) > 0 {
		batch.Queue(`SELECT id FROM knowledge_entries, to_tsquery('english', $1) q
		WHERE search @@ q AND ($2 = '' OR hive = $2)
		ORDER BY ts_rank(search, q) DESC, seq LIMIT $3`, strings.Join(lexemes, " | "), hive, n).Query(func(rows pgx.Rows) error {
			var err error
			if a, err = pgx.CollectRows(rows, pgx.RowTo[string]); err != nil {
				return wrap("full-text search", err)
			}
			return nil
		})
	}
	if len(patterns) > 0 {
		// The WHERE clause must call knowledge_text exactly as the trigram
		// index does, or the planner scans the table.
		// Ranking lowers each matching text once (OFFSET 0 keeps the
		// planner from folding the inner query in, which would lower it
		// again for every term) and finds the already case-folded terms
		// with strpos.
		batch.Queue(`SELECT id FROM (
				SELECT id, seq, lower(knowledge_text(title, content, tags)) AS txt FROM knowledge_entries
				WHERE knowledge_text(title, content, tags) ILIKE ANY ($1) AND ($2 = '' OR hive = $2)
				OFFSET 0) m
			ORDER BY (SELECT count(*) FROM unnest($4::text[]) w WHERE strpos(m.txt, w) > 0) DESC, length(m.txt), seq
			LIMIT $3`, patterns, hive, n, words).Query(func(rows pgx.Rows) error {
			var err error
			if b, err = pgx.CollectRows(rows, pgx.RowTo[string]); err != nil {
				return wrap("trigram search", err)
			}
			return nil
		})
	}
	if batch.Len() > 0 {
		if err := k.pool.SendBatch(ctx, batch).Close(); err != nil {
			return nil, wrap("lexical search", err)
		}
	}
	return knowledge.Interleave(n, a, b), nil
}

// Bounds of a lexical candidate search (see Lexical), the local driver's.
const (
	maxTrigramTerms = 8
	searchTerms     = 6
	commonTerm      = 500
)

func hasDigit(t string) bool {
	for _, r := range t {
		if unicode.IsDigit(r) {
			return true
		}
	}
	return false
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

func isHangulWord(t string) bool {
	for _, r := range t {
		if !unicode.Is(unicode.Hangul, r) {
			return false
		}
	}
	return t != ""
}
