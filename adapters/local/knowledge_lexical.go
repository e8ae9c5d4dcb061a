package local

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"pumasi/knowledge"
)

// Lexical finds entries by FTS5: the porter table (English stems; a Hangul
// term as a prefix, since unicode61 keeps Korean particles on the word) and
// the trigram table (substrings, for Korean compounds and identifiers with
// digits). Both lists are interleaved, best first, so neither drowns the
// other. Terms are quoted, never passed as FTS syntax.
//
// Ranking every entry that holds any of 30 words would sort most of the
// corpus on every query, so only the rarest few terms (searchTerms, each
// matching at most commonTerm entries) drive the search: they tell
// candidates apart, and the engine still weighs every term when it scores
// what was found.
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
		if i < maxTrigramTerms && utf8.RuneCountInString(t) >= 3 && (isHangulWord(t) || hasDigit(t)) {
			tri = append(tri, ftsQuote(t))
		}
	}
	porter = k.rarest(ctx, "knowledge_fts", porter, searchTerms)
	tri = k.rarest(ctx, "knowledge_fts_tri", tri, searchTerms/2)
	var a, b []string
	var err error
	if len(porter) > 0 {
		if a, err = k.ftsSearch(ctx, "knowledge_fts", strings.Join(porter, " OR "), hive, n); err != nil {
			return nil, wrapInternal("full-text search", err)
		}
	}
	if len(tri) > 0 {
		if b, err = k.ftsSearch(ctx, "knowledge_fts_tri", strings.Join(tri, " OR "), hive, n); err != nil {
			return nil, wrapInternal("trigram search", err)
		}
	}
	return knowledge.Interleave(n, a, b), nil
}

// Bounds of a full-text candidate search (see Lexical).
const (
	maxTrigramTerms = 8
	searchTerms     = 6
	commonTerm      = 500
	dfTTL           = 5 * time.Minute
	dfCacheMax      = 50000
)

// rarest returns up to max of the match expressions that match something
// but at most commonTerm entries, rarest first.
func (k *Knowledge) rarest(ctx context.Context, table string, matches []string, max int) []string {
	type tf struct {
		m  string
		df int
	}
	var ok, common []tf
	for _, m := range matches {
		switch df := k.df.count(ctx, k, table, m); {
		case df > commonTerm:
			common = append(common, tf{m, df})
		case df > 0:
			ok = append(ok, tf{m, df})
		}
	}
	if len(ok) == 0 {
		// Only common words: search by the two least common (the count is
		// capped, so they tie; the query's order decides).
		ok, max = common, min(max, 2)
	}
	sort.SliceStable(ok, func(i, j int) bool { return ok[i].df < ok[j].df })
	out := make([]string, 0, max)
	for _, t := range ok[:min(len(ok), max)] {
		out = append(out, t.m)
	}
	return out
}

// dfCache remembers how many entries a term matches (counted up to
// commonTerm + 1), for dfTTL: counts move slowly, and a stale one only
// shifts which terms drive the search.
type dfCache struct {
	mu sync.Mutex
	m  map[string]dfEntry
}

type dfEntry struct {
	n  int
	at time.Time
}

func (c *dfCache) count(ctx context.Context, k *Knowledge, table, match string) int {
	key := table + "\x00" + match
	now := time.Now()
	c.mu.Lock()
	e, ok := c.m[key]
	c.mu.Unlock()
	if ok && now.Sub(e.at) < dfTTL {
		return e.n
	}
	var n int
	// table is one of two constants, never user input.
	err := k.s.db.QueryRowContext(ctx, fmt.Sprintf(`SELECT COUNT(*) FROM (SELECT 1 FROM %[1]s WHERE %[1]s MATCH ? LIMIT ?)`, table),
		match, commonTerm+1).Scan(&n)
	if err != nil {
		return 1 // search by it; the search itself reports errors
	}
	if n == 0 {
		// Not cached: the next contribution may hold the word.
		return 0
	}
	c.mu.Lock()
	if c.m == nil || len(c.m) >= dfCacheMax {
		c.m = map[string]dfEntry{}
	}
	c.m[key] = dfEntry{n, now}
	c.mu.Unlock()
	return n
}

func hasDigit(t string) bool {
	for _, r := range t {
		if unicode.IsDigit(r) {
			return true
		}
	}
	return false
}

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
