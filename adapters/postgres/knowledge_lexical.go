package postgres

import (
	"context"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"
)

// Lexical finds entries two ways and interleaves the lists, best first, so
// neither drowns the other (as the local driver does with its porter and
// trigram tables):
//
//   - full-text search over the stored `search` tsvector (English stems,
//     title above content and tags), ranked by ts_rank; a Hangul term
//     matches as a prefix, since the parser keeps Korean particles on the
//     word;
//   - substring matches of terms of three or more characters over
//     knowledge_text(title, content, tags), which the trigram index answers:
//     identifiers and Korean words that stemming misses, ranked by how many
//     terms the text holds, then shorter texts first.
//
// In a large table, terms whose stem most entries hold are dropped first
// (rareTerms): they would make both searches rank nearly every row, and
// they pick no candidates the rarer terms and the vector side miss. The
// engine still scores every candidate on all the terms.
//
// Terms are quoted lexemes and escaped LIKE patterns, passed as parameters:
// never query syntax of the caller's.
func (k *Knowledge) Lexical(ctx context.Context, hive string, terms []string, n int) ([]string, error) {
	if len(terms) == 0 || n <= 0 {
		return nil, nil
	}
	ftsTerms, subTerms, err := k.rareTerms(ctx, terms)
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
		if utf8.RuneCountInString(t) >= 3 {
			patterns = append(patterns, "%"+likeEscape(t)+"%")
			words = append(words, strings.ToLower(t))
		}
	}
	a, err := k.ids(ctx, `SELECT id FROM knowledge_entries, to_tsquery('english', $1) q
		WHERE search @@ q AND ($2 = '' OR hive = $2)
		ORDER BY ts_rank(search, q) DESC, seq LIMIT $3`, strings.Join(lexemes, " | "), hive, n)
	if err != nil {
		return nil, wrap("full-text search", err)
	}
	var b []string
	if len(patterns) > 0 {
		// The WHERE clause must call knowledge_text exactly as the trigram
		// index does, or the planner scans the table.
		// Ranking lowers each matching text once (OFFSET 0 keeps the
		// planner from folding the inner query in, which would lower it
		// again for every term) and finds the already case-folded terms
		// with strpos.
		b, err = k.ids(ctx, `SELECT id FROM (
				SELECT id, seq, lower(knowledge_text(title, content, tags)) AS txt FROM knowledge_entries
				WHERE knowledge_text(title, content, tags) ILIKE ANY ($1) AND ($2 = '' OR hive = $2)
				OFFSET 0) m
			ORDER BY (SELECT count(*) FROM unnest($4::text[]) w WHERE strpos(m.txt, w) > 0) DESC, length(m.txt), seq
			LIMIT $3`, patterns, hive, n, words)
		if err != nil {
			return nil, wrap("trigram search", err)
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

// Common-term pruning, only in a table of at least commonFloor entries,
// where ranking every matching row costs: a term is common for full-text
// search when its English stem is in more than commonShare of the entries
// by the planner's statistics of the search column (pg_stats
// most_common_elems), and common as a substring when more than commonShare
// of the sampled texts the trigram index's statistics keep (its
// histogram_bounds) hold it. Both come from ANALYZE, which autovacuum
// repeats as the table grows. When every term is common, all are kept.
const (
	commonShare = 0.1
	commonFloor = 10000
)

// rareTerms returns terms less the common ones: for full-text search
// (fts) and for substring search (sub).
func (k *Knowledge) rareTerms(ctx context.Context, terms []string) (fts, sub []string, err error) {
	rows, err := k.pool.Query(ctx, `WITH big AS (
			SELECT reltuples >= $2 AS yes FROM pg_class WHERE oid = 'knowledge_entries'::regclass),
		lexemes AS (
			SELECT s.elem, s.freq FROM pg_stats st,
				unnest(st.most_common_elems::text::text[], st.most_common_elem_freqs) AS s(elem, freq)
			WHERE st.schemaname = current_schema() AND st.tablename = 'knowledge_entries' AND st.attname = 'search'),
		sample AS (
			SELECT h FROM pg_stats st, unnest(st.histogram_bounds::text::text[]) AS h
			WHERE st.schemaname = current_schema() AND st.tablename = 'knowledge_entries_trgm')
		SELECT t,
			NOT (SELECT yes FROM big) OR NOT EXISTS (
				SELECT 1 FROM lexemes, unnest(tsvector_to_array(to_tsvector('english', t))) AS lx
				WHERE lexemes.elem = lx AND lexemes.freq > $3),
			NOT (SELECT yes FROM big) OR coalesce((
				SELECT avg((strpos(lower(h), t) > 0)::int) FROM sample), 0) <= $3
		FROM unnest($1::text[]) WITH ORDINALITY AS u(t, i) ORDER BY i`, terms, commonFloor, commonShare)
	if err != nil {
		return nil, nil, err
	}
	var t string
	var rareFTS, rareSub bool
	_, err = pgx.ForEachRow(rows, []any{&t, &rareFTS, &rareSub}, func() error {
		if rareFTS {
			fts = append(fts, t)
		}
		if rareSub {
			sub = append(sub, t)
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	if len(fts) == 0 {
		fts = terms
	}
	if len(sub) == 0 {
		sub = terms
	}
	return fts, sub, nil
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
