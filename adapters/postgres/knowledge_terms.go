package postgres

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
)

// termStatsTTL is how long a process reuses the planner's statistics it read
// for rareTerms. They are estimates ANALYZE refreshes (autovacuum repeats it
// as the table grows), so a view some seconds old picks the same rare terms;
// reading them on every query cost more than the searches they steer (about
// 20 ms at 10,000 entries, against 1 ms for the statistics' own row).
const termStatsTTL = 30 * time.Second

// maxStemCache bounds the stems remembered per process; past it the cache
// starts over.
const maxStemCache = 50000

// termStats is a process's copy of the statistics rareTerms estimates from:
// the table's row estimate, each lexeme's share of entries (the search
// column's most_common_elems) and the sampled texts of the trigram index's
// expression (histogram_bounds), lower-cased; and the English stems of the
// terms seen so far, which never change.
type termStats struct {
	mu     sync.Mutex
	at     time.Time
	rows   float64
	freq   map[string]float64
	sample []string
	stems  map[string][]string
}

// forget makes the next rareTerms read the statistics again (tests, after
// an ANALYZE).
func (s *termStats) forget() {
	s.mu.Lock()
	s.at = time.Time{}
	s.mu.Unlock()
}

// rareTerms returns, rarest first, up to searchTerms of terms for
// full-text search and up to searchTerms/2 of tri for substring search,
// leaving out those in more than commonTerm entries. Counting matches per
// term and query would cost more than the search, so the counts are the
// planner's estimates: a stem's share of entries from the search column's
// most_common_elems, a substring's share of the sampled texts the trigram
// index's statistics hold, each times the table's row estimate (a term
// with several stems counts as its most common one). Before the first
// ANALYZE every term counts as rare. Ties keep the terms' order.
func (k *Knowledge) rareTerms(ctx context.Context, terms, tri []string) (fts, sub []string, err error) {
	s := &k.terms
	s.mu.Lock()
	defer s.mu.Unlock()
	if time.Since(s.at) > termStatsTTL {
		if err := s.load(ctx, k); err != nil {
			return nil, nil, err
		}
	}
	if err := s.stem(ctx, k, terms); err != nil {
		return nil, nil, err
	}
	type cand struct {
		t   string
		est float64
		i   int
	}
	var a, b []cand
	for i, t := range terms {
		f := 0.0
		for _, lx := range s.stems[t] {
			f = max(f, s.freq[lx])
		}
		if est := s.rows * f; est <= commonTerm {
			a = append(a, cand{t, est, i})
		}
	}
	for i, t := range tri {
		held, lt := 0, strings.ToLower(t)
		for _, h := range s.sample {
			if strings.Contains(h, lt) {
				held++
			}
		}
		est := 0.0
		if len(s.sample) > 0 {
			est = s.rows * float64(held) / float64(len(s.sample))
		}
		if est <= commonTerm {
			b = append(b, cand{t, est, i})
		}
	}
	order := func(x, y cand) int { return cmp.Or(cmp.Compare(x.est, y.est), cmp.Compare(x.i, y.i)) }
	slices.SortFunc(a, order)
	slices.SortFunc(b, order)
	for _, c := range a[:min(len(a), searchTerms)] {
		fts = append(fts, c.t)
	}
	for _, c := range b[:min(len(b), searchTerms/2)] {
		sub = append(sub, c.t)
	}
	return fts, sub, nil
}

// load reads the statistics in one statement.
func (s *termStats) load(ctx context.Context, k *Knowledge) error {
	var (
		rows   float64
		elems  []string
		freqs  []float64
		sample []string
	)
	err := k.pool.QueryRow(ctx, `SELECT
		(SELECT greatest(reltuples, 0)::float8 FROM pg_class WHERE oid = 'knowledge_entries'::regclass),
		(SELECT most_common_elems::text::text[] FROM pg_stats
			WHERE schemaname = current_schema() AND tablename = 'knowledge_entries' AND attname = 'search'),
		(SELECT most_common_elem_freqs::float8[] FROM pg_stats
			WHERE schemaname = current_schema() AND tablename = 'knowledge_entries' AND attname = 'search'),
		(SELECT histogram_bounds::text::text[] FROM pg_stats
			WHERE schemaname = current_schema() AND tablename = 'knowledge_entries_trgm')`).
		Scan(&rows, &elems, &freqs, &sample)
	if err != nil {
		return err
	}
	s.rows = rows
	// most_common_elem_freqs ends with three more numbers (the least and
	// greatest frequency, and the share of nulls); pair only the elements.
	s.freq = make(map[string]float64, len(elems))
	for i, e := range elems {
		if i < len(freqs) {
			s.freq[e] = freqs[i]
		}
	}
	s.sample = s.sample[:0]
	for _, h := range sample {
		s.sample = append(s.sample, strings.ToLower(h))
	}
	s.at = time.Now()
	return nil
}

// stem learns the English stems (as to_tsvector makes them, the search
// column's) of the terms it has not seen, in one statement.
func (s *termStats) stem(ctx context.Context, k *Knowledge, terms []string) error {
	if s.stems == nil || len(s.stems) > maxStemCache {
		s.stems = map[string][]string{}
	}
	var todo []string
	for _, t := range terms {
		if _, ok := s.stems[t]; !ok {
			todo = append(todo, t)
		}
	}
	if len(todo) == 0 {
		return nil
	}
	rows, err := k.pool.Query(ctx, `SELECT u.t, tsvector_to_array(to_tsvector('english', u.t))
		FROM unnest($1::text[]) AS u(t)`, todo)
	if err != nil {
		return err
	}
	var t string
	var lx []string
	_, err = pgx.ForEachRow(rows, []any{&t, &lx}, func() error {
		s.stems[t] = slices.Clone(lx)
		return nil
	})
	return err
}
