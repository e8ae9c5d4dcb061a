package postgres

import (
	"context"
	"strconv"

	"github.com/jackc/pgx/v5"
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
// instead of its vector.
func (k *Knowledge) NearestScored(ctx context.Context, hive, model string, v []float32, n int) ([]knowledge.StoredEntry, error) {
	if n <= 0 || len(v) == 0 {
		return nil, nil
	}
	out, err := scanScored(ctx, k.pool, NearestScoredSQL(len(v)), model, hive, pgvector.NewVector(v), n)
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
