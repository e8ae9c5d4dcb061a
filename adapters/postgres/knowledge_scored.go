package postgres

import (
	"context"
	"strconv"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/pgvector/pgvector-go"

	"pumasi/knowledge"
)

// A query's candidates come back scored (knowledge.ScoringReader): each
// row's cosine to the query's vector is computed where the vector is
// stored, and the vector itself (2 KB at 512 dimensions, read from TOAST)
// is not sent. The rows still carry their moderation states (statedCols).

var _ knowledge.ScoringReader = (*Knowledge)(nil)

// scoredCols are statedCols without the vector, the similarity in its
// place.
const scoredCols = `e.seq, e.id, e.hive, e.title, e.content, e.tags, e.specificity, e.contribution_count, e.citation_count,
	e.endorsement_count, e.created_at, e.last_used_at, e.model, e.similarity, e.analysis, ` + stateCols

// A query's vector candidates come from a harder HNSW search in a large
// table: at ef_search 40 (sessionSettings) an iterative scan misses more of
// the truly nearest the larger the graph. On the bench's hashed
// 512-dimension vectors, the top 10 by exact similarity of a query's 100
// candidates held 0.999 of the exact top 10 at 100,000 entries, but 0.950-
// 0.956 at 1,000,000 (the index alone, Nearest(10): 0.902); there ef_search
// 200 gave 0.950, 300 gave 0.969-0.975 for about 2 ms more a statement
// (4.6 → 6.8 ms p50, warm). Reading 300 candidates at ef_search 40 and
// keeping the 100 nearest by exact distance reached the same recall for
// twice the time (8.0 ms; 14 ms with its 300 rows' pages not yet in
// shared buffers), the heap rows being the cost. ef_search is set for the
// one statement (SET LOCAL in a transaction sent in one round trip with
// it), so a contribution's dedup probe keeps 40; it grows with the table
// only, because pgvector's cost estimate grows with it and in a small
// table the planner then leaves the index (Nearest).
// Session 15 measured the top at 1M again on a quiet machine, over HTTP in
// the same runs as the exact scan: ef_search 300 gave recall 0.983 at
// 20.9 ms p50 (NearestScored 11.4 ms), 200 gave 0.981 at 18.5 ms (9.0
// ms), so the top is 200.

// ScoredEFSearch is the ef_search of NearestScored in a table of about rows
// entries (0 when unknown): the connection's 40 up to scoredEFFrom entries,
// then in proportion up to scoredEFMax at scoredEFAt and more.
func ScoredEFSearch(rows float64) int {
	if rows <= scoredEFFrom {
		return sessionEFSearch
	}
	f := min((rows-scoredEFFrom)/(scoredEFAt-scoredEFFrom), 1)
	return sessionEFSearch + int(f*(scoredEFMax-sessionEFSearch))
}

const (
	// sessionEFSearch is every connection's hnsw.ef_search (sessionSettings).
	sessionEFSearch = 40
	scoredEFFrom    = 300000
	scoredEFAt      = 900000
	scoredEFMax     = 200
)

// tableSize is the planner's estimate of knowledge_entries' rows
// (pg_class.reltuples, which VACUUM and ANALYZE keep), read again after
// statsTTL; an estimate, so it can only be stale.
type tableSize struct {
	mu  sync.Mutex
	at  time.Time
	est float64
}

// rows returns the estimate, 0 when unknown (never analyzed, unreadable).
// One caller reads it again when stale; the others go on with the old one
// meanwhile rather than wait on the database behind the lock.
func (s *tableSize) rows(ctx context.Context, db *pgxpool.Pool) float64 {
	s.mu.Lock()
	if time.Since(s.at) < statsTTL {
		defer s.mu.Unlock()
		return s.est
	}
	s.at = time.Now()
	old := s.est
	s.mu.Unlock()
	var est float64
	if err := db.QueryRow(ctx, `SELECT reltuples FROM pg_class WHERE oid = to_regclass('knowledge_entries')`).Scan(&est); err != nil || est < 0 {
		est = old
		if err == nil {
			est = 0
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.est = est
	return est
}

// NearestScoredSQL is NearestScored's statement for dims-dimensional
// vectors (the parameters of NearestSQL): NearestEntriesSQL with each
// row's cosine similarity to $3 in place of its vector.
func NearestScoredSQL(dims int) string {
	d := strconv.Itoa(dims)
	inner := NearestSQL(dims, `seq, id, hive, title, content, tags, specificity, contribution_count, citation_count,
	endorsement_count, created_at, last_used_at, model, 1 - (embedding::vector(`+d+`) <=> $3::vector(`+d+`)) AS similarity, analysis`)
	return `SELECT ` + scoredCols + ` FROM (SELECT n.*, row_number() OVER () AS rank FROM (` + inner + `) n) e
		LEFT JOIN knowledge_moderation m ON m.entry_id = e.id ORDER BY e.rank`
}

// entriesScoredSQL is EntriesScored's statement: the rows of the ids in
// $1, each scored against $3 when of model $2 and $4 dimensions, else 0.
const entriesScoredSQL = `SELECT ` + scoredCols + ` FROM (SELECT *, CASE WHEN model = $2 AND dims = $4
		THEN 1 - (embedding <=> $3) ELSE 0 END AS similarity FROM knowledge_entries WHERE id = ANY($1)) e
	LEFT JOIN knowledge_moderation m ON m.entry_id = e.id`

// NearestScored is NearestEntries answering each entry's cosine to v
// instead of its vector, its index scan at ScoredEFSearch for the table's
// estimated size.
func (k *Knowledge) NearestScored(ctx context.Context, hive, model string, v []float32, n int) ([]knowledge.StoredEntry, error) {
	if n <= 0 || len(v) == 0 {
		return nil, nil
	}
	args := []any{model, hive, pgvector.NewVector(v), n}
	ef := ScoredEFSearch(k.size.rows(ctx, k.pool))
	if ef <= sessionEFSearch {
		out, err := scanScored(ctx, k.pool, NearestScoredSQL(len(v)), args...)
		if err != nil {
			return nil, wrap("nearest entries", err)
		}
		return out, nil
	}
	// One round trip: the batch is sent at once. A failure leaves the
	// connection in a transaction, which the pool then discards.
	b := &pgx.Batch{}
	b.Queue(`BEGIN`)
	b.Queue(`SELECT set_config('hnsw.ef_search', $1, true)`, strconv.Itoa(ef))
	b.Queue(NearestScoredSQL(len(v)), args...)
	b.Queue(`COMMIT`)
	br := k.pool.SendBatch(ctx, b)
	out, err := func() ([]knowledge.StoredEntry, error) {
		for i := 0; i < 2; i++ {
			if _, err := br.Exec(); err != nil {
				return nil, err
			}
		}
		rows, err := br.Query()
		if err != nil {
			return nil, err
		}
		out, err := collectScored(rows)
		if err != nil {
			return nil, err
		}
		_, err = br.Exec()
		return out, err
	}()
	if cerr := br.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, wrap("nearest entries", err)
	}
	return out, nil
}

// EntriesScored is Entries answering each entry's cosine to v (0 for
// another model's entry) instead of its vector.
func (k *Knowledge) EntriesScored(ctx context.Context, ids []string, model string, v []float32) (map[string]knowledge.StoredEntry, error) {
	out := make(map[string]knowledge.StoredEntry, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	es, err := scanScored(ctx, k.pool, entriesScoredSQL, ids, model, pgvector.NewVector(v), len(v))
	if err != nil {
		return nil, wrap("read entries", err)
	}
	for _, e := range es {
		out[e.ID] = e
	}
	return out, nil
}

// scanScored reads entries as scoredCols spells them.
func scanScored(ctx context.Context, db querier, q string, args ...any) ([]knowledge.StoredEntry, error) {
	rows, err := db.Query(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	return collectScored(rows)
}

// collectScored reads rows of scoredCols.
func collectScored(rows pgx.Rows) ([]knowledge.StoredEntry, error) {
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (knowledge.StoredEntry, error) {
		var e knowledge.StoredEntry
		st := &knowledge.ModState{}
		dest := append([]any{&e.Seq, &e.ID, &e.Hive, &e.Title, &e.Content, &e.Tags, &e.Specificity,
			&e.ContributionCount, &e.CitationCount, &e.EndorsementCount, &e.CreatedAt, &e.LastUsedAt, &e.Model, &e.Similarity, &e.Analysis},
			knowledge.ModStateDest(st)[1:]...)
		if err := row.Scan(dest...); err != nil {
			return e, err
		}
		e.Tags = nonNilTags(e.Tags)
		e.CreatedAt, e.LastUsedAt = e.CreatedAt.UTC(), e.LastUsedAt.UTC()
		e.Scored = true
		st.ID = e.ID
		e.State = st
		return e, nil
	})
}

func (r retrying) NearestScored(ctx context.Context, hive, model string, v []float32, n int) (es []knowledge.StoredEntry, err error) {
	err = retry(ctx, read, func(ctx context.Context) error {
		es, err = r.Knowledge.NearestScored(ctx, hive, model, v, n)
		return err
	})
	return es, err
}

func (r retrying) EntriesScored(ctx context.Context, ids []string, model string, v []float32) (m map[string]knowledge.StoredEntry, err error) {
	err = retry(ctx, read, func(ctx context.Context) error {
		m, err = r.Knowledge.EntriesScored(ctx, ids, model, v)
		return err
	})
	return m, err
}
