package postgres

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"

	"pumasi/knowledge"
)

// The counting statements (see knowledge_lexical.go): each term's matches,
// up to a limit ($2 or $3). A query's words are counted in one statement,
// planned once for any terms (the GIN index for each: the posting list of a
// rare word is short, and a common one is counted once an epoch, below);
// planning a statement per word with its own term cost 0.25-0.55 ms each,
// five times what running it did (EXPLAIN ANALYZE at 100,000 entries, 18
// words a query). A substring is counted by its own statement, planned
// with its pattern, so the planner decides whether the trigram index pays.
// A term knowledge_common_terms holds past the limit at the current epoch
// (migration 0010) is answered from there: no row can have left it since,
// and no plan counts a word held by most entries cheaply. Each row also
// answers the epoch it read and whether the table answered, so TermCounts
// records the terms it found common. A word's row also answers its
// lexemes, as the search index holds them, so the driver can tell which
// words the statistics show common (Match) without a round trip of its
// own.
const (
	countWordsSQL = `SELECT CASE WHEN c.at_least >= $3::bigint THEN $3::bigint ELSE (SELECT count(*) FROM (SELECT 1 FROM knowledge_entries
		WHERE knowledge_search(title, content, tags) @@ to_tsquery('english', t.q) LIMIT $3::bigint) m) END,
		tsvector_to_array(to_tsvector('english', knowledge_words(t.w))), e.epoch, coalesce(c.at_least >= $3::bigint, false)
		FROM unnest($1::text[], $2::text[]) WITH ORDINALITY t(q, w, i) CROSS JOIN knowledge_text_epoch e
		LEFT JOIN knowledge_common_terms c ON c.term = t.w AND NOT c.substring AND c.epoch = e.epoch
		ORDER BY t.i`
	countSubstringSQL = `SELECT CASE WHEN c.at_least >= $2::bigint THEN $2::bigint ELSE (SELECT count(*) FROM (SELECT 1 FROM knowledge_entries
		WHERE knowledge_text(title, content, tags) ILIKE $1 LIMIT $2::bigint) m) END,
		e.epoch, coalesce(c.at_least >= $2::bigint, false)
		FROM knowledge_text_epoch e LEFT JOIN knowledge_common_terms c ON c.term = $3 AND c.substring AND c.epoch = e.epoch`
	// rememberCommonSQL records terms found past the limit at an epoch;
	// a record of an older epoch gives way.
	rememberCommonSQL = `INSERT INTO knowledge_common_terms (term, substring, at_least, epoch)
		SELECT * FROM unnest($1::text[], $2::boolean[], $3::bigint[], $4::bigint[])
		ON CONFLICT (term, substring) DO UPDATE SET at_least = EXCLUDED.at_least, epoch = EXCLUDED.epoch
		WHERE knowledge_common_terms.epoch < EXCLUDED.epoch
			OR (knowledge_common_terms.epoch = EXCLUDED.epoch AND knowledge_common_terms.at_least < EXCLUDED.at_least)`
)

// A word matching more entries than a count's limit is common; how common
// comes from the statistics ANALYZE keeps on the search index's expression
// (pg_stats.most_common_elems: the lexemes of the most entries, with the
// share of entries holding each), which Match sizes its recent range by.
const (
	// commonFactor is how many times the limit a word's estimate must be
	// for Match to look for it among the newest entries first.
	commonFactor = 4
	// statsTTL is how long a process keeps the statistics it read: ANALYZE
	// moves them far less often.
	statsTTL = time.Minute
	// commonTermLimit bounds the words a process remembers as common.
	commonTermLimit = 50000
)

// termStatsSQL reads the search index's lexeme statistics and the table's
// row estimate. most_common_elem_freqs holds one share per lexeme, then
// three summary numbers.
const termStatsSQL = `SELECT s.most_common_elems::text::text[], s.most_common_elem_freqs, c.reltuples
	FROM pg_stats s JOIN pg_class c ON c.relname = 'knowledge_entries' AND c.relnamespace = to_regnamespace(s.schemaname)
	WHERE s.schemaname = current_schema() AND s.tablename = 'knowledge_entries_search' AND s.most_common_elems IS NOT NULL`

// termStats is what a driver knows of common words: the lexeme statistics
// (refreshed after statsTTL) and the words it found common by them, which
// Match then looks for among the newest entries first.
type termStats struct {
	mu     sync.Mutex
	at     time.Time
	rows   float64            // the table's estimated entries
	lex    map[string]float64 // lexeme → estimated entries holding it
	common map[string]float64 // word → estimated entries holding it
}

// lexemes returns the current statistics, reading them again when stale.
// Without statistics (never analyzed, or unreadable) every word is counted.
func (k *Knowledge) lexemes(ctx context.Context) (map[string]float64, float64) {
	s := &k.stats
	s.mu.Lock()
	if time.Since(s.at) < statsTTL {
		defer s.mu.Unlock()
		return s.lex, s.rows
	}
	s.mu.Unlock()
	var elems []string
	var freqs []float32
	var rows float64
	lex := map[string]float64{}
	err := k.pool.QueryRow(ctx, termStatsSQL).Scan(&elems, &freqs, &rows)
	if err == nil && rows > 0 {
		for i, e := range elems {
			if i < len(freqs) {
				lex[e] = float64(freqs[i]) * rows
			}
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.at, s.lex, s.rows = time.Now(), lex, rows
	return lex, rows
}

// commonWord returns the estimated entries holding word when the
// statistics showed it far more common than a count's limit, else 0.
func (k *Knowledge) commonWord(word string) (est, rows float64) {
	s := &k.stats
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.common[word], s.rows
}

// TermCounts counts, for each term, the entries it matches, up to limit
// + 1: one statement for the words and one per substring, all in one
// round trip. A term past limit
// is recorded in knowledge_common_terms for every process's next count (one
// more round trip, only when a count found one); a word past limit that
// the statistics show far more common is remembered for Match.
func (k *Knowledge) TermCounts(ctx context.Context, terms []knowledge.Term, limit int) ([]int, error) {
	out := make([]int, len(terms))
	if len(terms) == 0 {
		return out, nil
	}
	stems := make([][]string, len(terms))
	epochs := make([]int64, len(terms))
	known := make([]bool, len(terms))
	batch := &pgx.Batch{}
	var wordAt []int
	var qs, ws []string
	for i, t := range terms {
		if t.Substring {
			batch.Queue(countSubstringSQL, termArg(t), limit+1, t.Text).QueryRow(func(row pgx.Row) error {
				return row.Scan(&out[i], &epochs[i], &known[i])
			})
			continue
		}
		wordAt, qs, ws = append(wordAt, i), append(qs, termArg(t)), append(ws, t.Text)
	}
	if len(wordAt) > 0 {
		batch.Queue(countWordsSQL, qs, ws, limit+1).Query(func(rows pgx.Rows) error {
			j := 0
			for rows.Next() {
				if j == len(wordAt) {
					return fmt.Errorf("%d rows for %d words", j+1, len(wordAt))
				}
				i := wordAt[j]
				if err := rows.Scan(&out[i], &stems[i], &epochs[i], &known[i]); err != nil {
					return err
				}
				j++
			}
			if err := rows.Err(); err != nil {
				return err
			}
			if j != len(wordAt) {
				return fmt.Errorf("%d rows for %d words", j, len(wordAt))
			}
			return nil
		})
	}
	if err := k.pool.SendBatch(ctx, batch).Close(); err != nil {
		return nil, wrap("count terms", err)
	}
	if err := k.rememberCommon(ctx, terms, out, epochs, known, limit); err != nil {
		return nil, err
	}
	var lex map[string]float64
	for i, t := range terms {
		if t.Substring || out[i] <= limit || len(stems[i]) != 1 || knowledge.HangulOnly(t.Text) { // a Hangul word matches as a prefix
			continue
		}
		if lex == nil {
			lex, _ = k.lexemes(ctx)
		}
		if est := lex[stems[i][0]]; est > float64(commonFactor*limit) {
			k.stats.remember(t.Text, est)
		}
	}
	return out, nil
}

// rememberCommon records the terms counted past limit that the table did
// not answer, once each and in key order, so two queries recording the
// same terms take their row locks in one order and cannot deadlock.
func (k *Knowledge) rememberCommon(ctx context.Context, terms []knowledge.Term, counts []int, epochs []int64, known []bool, limit int) error {
	var found []int
	for i := range terms {
		if counts[i] > limit && !known[i] {
			found = append(found, i)
		}
	}
	if len(found) == 0 {
		return nil
	}
	slices.SortFunc(found, func(a, b int) int {
		return cmp.Or(cmp.Compare(terms[a].Text, terms[b].Text), cmp.Compare(b2i(terms[a].Substring), b2i(terms[b].Substring)))
	})
	var words []string
	var subs []bool
	var n, at []int64
	for j, i := range found {
		if j > 0 && terms[i] == terms[found[j-1]] {
			continue
		}
		words, subs, n, at = append(words, terms[i].Text), append(subs, terms[i].Substring), append(n, int64(counts[i])), append(at, epochs[i])
	}
	if _, err := k.pool.Exec(ctx, rememberCommonSQL, words, subs, n, at); err != nil {
		return wrap("record common terms", err)
	}
	return nil
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// remember notes word as common, held by about est entries.
func (s *termStats) remember(word string, est float64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.common == nil || len(s.common) >= commonTermLimit {
		s.common = map[string]float64{}
	}
	s.common[word] = est
}
