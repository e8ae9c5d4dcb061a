package postgres

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/pgvector/pgvector-go"

	"pumasi"
	"pumasi/knowledge"
)

// Knowledge is the PostgreSQL knowledge driver: entries, attribution and
// counters in tables, candidates from a per-dimension HNSW index (pgvector)
// and from full-text and trigram indexes. Ranking and dedup are the engine's
// (knowledge.Engine). It keeps no state that another process could make
// stale: every answer comes from the database, so any number of processes
// and Lambda functions may share one.
type Knowledge struct {
	pool *pgxpool.Pool
	// indexed holds the dimensions whose HNSW index this process has seen
	// exist. Indexes are only ever created, so the cache cannot go stale; it
	// saves a catalog lookup per insert.
	indexed sync.Map
	// stats is what the planner's statistics say of common words
	// (knowledge_terms.go); being estimates, they can only be stale.
	stats termStats
	// size is the table's estimated rows, which sets how many index
	// candidates NearestScored re-ranks (knowledge_scored.go).
	size tableSize
}

var _ knowledge.Driver = (*Knowledge)(nil)

// NewKnowledgeDriver returns the driver over pool, which Migrate has
// brought up to date.
func NewKnowledgeDriver(pool *pgxpool.Pool) *Knowledge { return &Knowledge{pool: pool} }

// NewKnowledge returns the knowledge engine over pool, with broken
// connections retried where that is safe (retry.go).
func NewKnowledge(pool *pgxpool.Pool, opt knowledge.Options) *knowledge.Engine {
	return knowledge.New(Retrying(NewKnowledgeDriver(pool)), opt)
}

// seqLockKey is the advisory lock that makes entry seqs visible in order:
// every Insert holds it shared until commit, Since takes it exclusively
// before reading (see Since).
const seqLockKey int64 = 0x70756d617371

// wrap leaves a *pumasi.Error as it is and names op on anything else.
func wrap(op string, err error) error {
	var pe *pumasi.Error
	if errors.As(err, &pe) {
		return err
	}
	return fmt.Errorf("%s: %w", op, err)
}

func notFound(id string) error { return pumasi.Errorf(pumasi.ENotFound, "no knowledge entry %q", id) }

// FindExact finds hive's entry with the normalised hash, else the absorbed
// entry that had it.
func (k *Knowledge) FindExact(ctx context.Context, hive, normHash string) (string, error) {
	var id string
	err := k.pool.QueryRow(ctx, `SELECT id FROM (
			SELECT id, 0 AS absorbed FROM knowledge_entries WHERE hive = $1 AND norm_hash = $2
			UNION ALL SELECT entry_id, 1 FROM knowledge_absorbed WHERE hive = $1 AND norm_hash = $2 AND unmerged_at IS NULL) x
		ORDER BY absorbed LIMIT 1`, hive, normHash).Scan(&id)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", pumasi.Errorf(pumasi.ENotFound, "no exact duplicate")
	}
	if err != nil {
		return "", wrap("find exact duplicate", err)
	}
	return id, nil
}

// Insert writes e with its first contribution unless (hive, norm_hash) is
// taken: INSERT ... ON CONFLICT DO NOTHING RETURNING lets the unique key
// decide, across processes.
func (k *Knowledge) Insert(ctx context.Context, e knowledge.NewEntry, first knowledge.Contribution) (string, bool, error) {
	if err := k.ensureIndex(ctx, len(e.Vector)); err != nil {
		return "", false, err
	}
	// One statement, so one round trip and its own transaction: the seq
	// lock is taken (shared) in the subquery the row is made from, so
	// before the INSERT draws a seq, and held until the statement commits;
	// the first contribution and its contributor are written only when the
	// entry is.
	var id string
	err := k.pool.QueryRow(ctx, `WITH ins AS (
			INSERT INTO knowledge_entries
				(id, hive, title, content, tags, norm_hash, model, embedding, specificity, created_at, last_used_at, analysis, details)
			SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10, $17, $18 FROM (SELECT pg_advisory_xact_lock_shared($11)) AS seq_lock
			ON CONFLICT (hive, norm_hash) DO NOTHING RETURNING id),
		contribution AS (
			INSERT INTO knowledge_contributions (entry_id, agent, title, content, similarity, at, origin)
			SELECT id, $12, $13, $14, $15, $16, id FROM ins),
		contributor AS (
			INSERT INTO knowledge_contributors (entry_id, agent) SELECT id, $12 FROM ins)
		SELECT id FROM ins`,
		e.ID, e.Hive, e.Title, e.Content, nonNilTags(e.Tags), e.NormHash, e.Model,
		pgvector.NewVector(e.Vector), e.Specificity, e.At, seqLockKey,
		first.Agent, first.Title, first.Content, first.Similarity, first.At, e.Analysis, e.Details).Scan(&id)
	if err == nil {
		return id, true, nil
	}
	if !errors.Is(err, pgx.ErrNoRows) {
		return "", false, wrap("insert entry", err)
	}
	// The key is taken; a new statement sees the winner, which committed
	// before ON CONFLICT gave way.
	err = k.pool.QueryRow(ctx, `SELECT id FROM knowledge_entries WHERE hive = $1 AND norm_hash = $2`,
		e.Hive, e.NormHash).Scan(&id)
	if errors.Is(err, pgx.ErrNoRows) { // the winner was swept away since
		return "", false, pumasi.Errorf(pumasi.ENotFound, "exact duplicate of %q gone", e.Title)
	}
	if err != nil {
		return "", false, wrap("insert entry", err)
	}
	// Our own id: a retry of this very insert, whose commit landed though
	// its answer was lost (retry.go).
	return id, id == e.ID, nil
}

// ensureIndex creates the HNSW index of dims before its first entry. Past
// MaxIndexedDims there is none: Nearest then scans exactly.
func (k *Knowledge) ensureIndex(ctx context.Context, dims int) error {
	if dims < 1 || dims > MaxIndexedDims {
		return nil
	}
	if _, ok := k.indexed.Load(dims); ok {
		return nil
	}
	if err := EnsureVectorIndex(ctx, k.pool, dims); err != nil {
		return err
	}
	k.indexed.Store(dims, true)
	return nil
}

// AddContribution records c; the count moves only for a new contributor.
func (k *Knowledge) AddContribution(ctx context.Context, id string, c knowledge.Contribution) (bool, error) {
	counted := false
	err := pgx.BeginFunc(ctx, k.pool, func(tx pgx.Tx) error {
		counted = false
		if err := touchEntry(ctx, tx, id, c.At); err != nil {
			return err
		}
		if err := insertContribution(ctx, tx, id, c); err != nil {
			return err
		}
		tag, err := tx.Exec(ctx, `INSERT INTO knowledge_contributors (entry_id, agent) VALUES ($1, $2)
			ON CONFLICT (entry_id, agent) DO NOTHING`, id, c.Agent)
		if err != nil {
			return fmt.Errorf("record contributor: %w", err)
		}
		if tag.RowsAffected() == 1 {
			counted = true
			if _, err := tx.Exec(ctx, `UPDATE knowledge_entries SET contribution_count = contribution_count + 1 WHERE id = $1`, id); err != nil {
				return fmt.Errorf("bump contribution_count: %w", err)
			}
		}
		return nil
	})
	if err != nil {
		return false, wrap("add contribution", err)
	}
	return counted, nil
}

// touchEntry moves an entry's last use forward to at, and locks its row
// until the transaction ends, so Absorb cannot delete the entry under a
// write that refers to it. Returns not_found.
func touchEntry(ctx context.Context, tx pgx.Tx, id string, at time.Time) error {
	tag, err := tx.Exec(ctx, `UPDATE knowledge_entries SET last_used_at = GREATEST(last_used_at, $2) WHERE id = $1`, id, at)
	if err != nil {
		return fmt.Errorf("touch entry: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return notFound(id)
	}
	return nil
}

func insertContribution(ctx context.Context, tx pgx.Tx, id string, c knowledge.Contribution) error {
	_, err := tx.Exec(ctx, `INSERT INTO knowledge_contributions (entry_id, agent, title, content, similarity, at, origin)
		VALUES ($1, $2, $3, $4, $5, $6, $1)`, id, c.Agent, c.Title, c.Content, c.Similarity, c.At)
	if err != nil {
		return fmt.Errorf("insert contribution: %w", err)
	}
	return nil
}

func nonNilTags(t []string) []string {
	if t == nil {
		return []string{}
	}
	return t
}

// Cite counts agent's cite of id on day once. It locks the entry's row
// first, so cites, endorsements and Absorb on one entry take turns.
func (k *Knowledge) Cite(ctx context.Context, id, agent, day string, at time.Time) (bool, error) {
	counted := false
	err := pgx.BeginFunc(ctx, k.pool, func(tx pgx.Tx) error {
		counted = false
		var one int
		err := tx.QueryRow(ctx, `SELECT 1 FROM knowledge_entries WHERE id = $1 FOR UPDATE`, id).Scan(&one)
		if errors.Is(err, pgx.ErrNoRows) {
			return notFound(id)
		}
		if err != nil {
			return fmt.Errorf("lock entry: %w", err)
		}
		tag, err := tx.Exec(ctx, `INSERT INTO knowledge_cites (entry_id, agent, day, origin) SELECT $1, $2, $3, $1
			WHERE NOT EXISTS (SELECT 1 FROM knowledge_cites WHERE entry_id = $1 AND agent = $2 AND day = $3)
			ON CONFLICT DO NOTHING`, id, agent, day)
		if err != nil {
			return fmt.Errorf("record cite: %w", err)
		}
		if tag.RowsAffected() == 0 {
			return nil
		}
		counted = true
		_, err = tx.Exec(ctx, `UPDATE knowledge_entries SET citation_count = citation_count + 1,
			last_used_at = GREATEST(last_used_at, $2) WHERE id = $1`, id, at)
		return err
	})
	if err != nil {
		return false, wrap("cite", err)
	}
	return counted, nil
}

// Endorse bumps endorsement_count atomically, once per agent whatever the
// origin of its row (see Absorb).
func (k *Knowledge) Endorse(ctx context.Context, id, agent string, at time.Time) (bool, error) {
	counted := false
	err := pgx.BeginFunc(ctx, k.pool, func(tx pgx.Tx) error {
		counted = false
		if err := touchEntry(ctx, tx, id, at); err != nil {
			return err
		}
		tag, err := tx.Exec(ctx, `INSERT INTO knowledge_endorsements (entry_id, agent, at, origin) SELECT $1, $2, $3, $1
			WHERE NOT EXISTS (SELECT 1 FROM knowledge_endorsements WHERE entry_id = $1 AND agent = $2)
			ON CONFLICT DO NOTHING`, id, agent, at)
		if err != nil {
			return fmt.Errorf("record endorsement: %w", err)
		}
		if tag.RowsAffected() == 1 {
			counted = true
			if _, err := tx.Exec(ctx, `UPDATE knowledge_entries SET endorsement_count = endorsement_count + 1 WHERE id = $1`, id); err != nil {
				return fmt.Errorf("bump endorsement_count: %w", err)
			}
		}
		return nil
	})
	if err != nil {
		return false, wrap("endorse", err)
	}
	return counted, nil
}

// Contributions lists an entry's attribution rows, oldest first. One
// statement reads the entry and its rows, so a concurrent Absorb is seen
// wholly or not at all.
func (k *Knowledge) Contributions(ctx context.Context, id string) ([]knowledge.Contribution, error) {
	rows, err := k.pool.Query(ctx, `SELECT c.agent, c.title, c.content, c.similarity, c.at
		FROM knowledge_entries e LEFT JOIN knowledge_contributions c ON c.entry_id = e.id
		WHERE e.id = $1 ORDER BY c.seq`, id)
	if err != nil {
		return nil, wrap("list contributions", err)
	}
	defer rows.Close()
	found := false
	out := []knowledge.Contribution{}
	for rows.Next() {
		found = true
		var agent, title, content *string
		var sim *float64
		var at *time.Time
		if err := rows.Scan(&agent, &title, &content, &sim, &at); err != nil {
			return nil, wrap("scan contribution", err)
		}
		if agent == nil { // the entry, without contributions
			continue
		}
		out = append(out, knowledge.Contribution{Agent: *agent, Title: *title, Content: *content, Similarity: *sim, At: at.UTC()})
	}
	if err := rows.Err(); err != nil {
		return nil, wrap("list contributions", err)
	}
	if !found {
		return nil, notFound(id)
	}
	return out, nil
}

const storedCols = `seq, id, hive, title, content, tags, specificity, contribution_count, citation_count,
	endorsement_count, created_at, last_used_at, model, embedding`

// stateCols are an entry's moderation state beside its row e: a LEFT
// JOIN of its knowledge_moderation row m, the zero state when it has none
// (knowledge.ModStateDest's order, without the id: the row's).
const stateCols = `coalesce(m.flags, 0), coalesce(m.cleared, 0), coalesce(m.quarantined, false),
	coalesce(m.superseded_by, ''), coalesce(m.supersedes, ''), m.flagged_at`

// statedCols are storedCols of e with the entry's stored analysis and
// details and its moderation state.
const statedCols = `e.seq, e.id, e.hive, e.title, e.content, e.tags, e.specificity, e.contribution_count, e.citation_count,
	e.endorsement_count, e.created_at, e.last_used_at, e.model, e.embedding, e.analysis, e.details, ` + stateCols

var _ knowledge.StateReader = (*Knowledge)(nil)

// ReadsStates says that Entries and NearestEntries read each entry's
// moderation state in the statement that reads its row, so the engine asks
// no ModStates beside them.
func (k *Knowledge) ReadsStates() bool { return true }

// entriesSQL is Entries' statement: the rows of the ids in $1, each with
// its moderation state.
const entriesSQL = `SELECT ` + statedCols + ` FROM knowledge_entries e
	LEFT JOIN knowledge_moderation m ON m.entry_id = e.id WHERE e.id = ANY($1)`

// Entries reads the entries among ids, with their vectors and moderation
// states.
func (k *Knowledge) Entries(ctx context.Context, ids []string) (map[string]knowledge.StoredEntry, error) {
	out := make(map[string]knowledge.StoredEntry, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	es, err := scanStated(ctx, k.pool, entriesSQL, ids)
	if err != nil {
		return nil, wrap("read entries", err)
	}
	for _, e := range es {
		out[e.ID] = e
	}
	return out, nil
}

// Since returns up to limit entries above seq, in seq order. A seq is
// drawn when an INSERT runs but seen when its transaction commits, so a
// smaller seq can appear after a larger one and the sweep mark would pass
// it by. Every Insert holds seqLockKey shared until it commits; taking it
// exclusively here waits out those in flight, and an Insert that starts
// later draws a larger seq than any this read can see.
func (k *Knowledge) Since(ctx context.Context, seq int64, limit int) ([]knowledge.StoredEntry, error) {
	var out []knowledge.StoredEntry
	err := pgx.BeginFunc(ctx, k.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, seqLockKey); err != nil {
			return fmt.Errorf("take seq lock: %w", err)
		}
		var err error
		out, err = scanEntries(ctx, tx, `SELECT `+storedCols+` FROM knowledge_entries WHERE seq > $1 ORDER BY seq LIMIT $2`, seq, limit)
		return err
	})
	if err != nil {
		return nil, wrap("read entries since", err)
	}
	return out, nil
}

func (k *Knowledge) scanEntries(ctx context.Context, q string, args ...any) ([]knowledge.StoredEntry, error) {
	return scanEntries(ctx, k.pool, q, args...)
}

func scanEntries(ctx context.Context, db querier, q string, args ...any) ([]knowledge.StoredEntry, error) {
	rows, err := db.Query(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	return collectEntries(rows, false)
}

// scanStated reads entries as statedCols spells them.
func scanStated(ctx context.Context, db querier, q string, args ...any) ([]knowledge.StoredEntry, error) {
	rows, err := db.Query(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	return collectEntries(rows, true)
}

// collectEntries scans rows of storedCols, or of statedCols when stated.
func collectEntries(rows pgx.Rows, stated bool) ([]knowledge.StoredEntry, error) {
	var out []knowledge.StoredEntry
	for rows.Next() {
		var e knowledge.StoredEntry
		var v pgvector.Vector
		dest := []any{&e.Seq, &e.ID, &e.Hive, &e.Title, &e.Content, &e.Tags, &e.Specificity,
			&e.ContributionCount, &e.CitationCount, &e.EndorsementCount, &e.CreatedAt, &e.LastUsedAt, &e.Model, &v}
		var st knowledge.ModState
		if stated {
			dest = append(dest, &e.Analysis, &e.Details)
			dest = append(dest, knowledge.ModStateDest(&st)[1:]...)
		}
		if err := rows.Scan(dest...); err != nil {
			return nil, err
		}
		e.Tags = nonNilTags(e.Tags)
		e.CreatedAt, e.LastUsedAt = e.CreatedAt.UTC(), e.LastUsedAt.UTC()
		e.Vector = v.Slice()
		if stated {
			st.ID = e.ID
			e.State = &st
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

// Nearest asks the HNSW index of v's dimension. The statement repeats the
// index's expression and predicate (dims = N, embedding::vector(N)) or the
// planner cannot use it; hive and model filter the index's output, and
// iterative scanning (pgvector 0.8) goes on until n rows pass the filter.
// ef_search stays at the connection's 40 whatever n (sessionSettings): the
// iterative scan returns n rows anyway, and pgvector's cost estimate grows
// with ef_search, so at ef_search 100 the planner chose a sequential scan and
// a sort at 10,000 entries (30 ms against 2 ms from the index).
func (k *Knowledge) Nearest(ctx context.Context, hive, model string, v []float32, n int) ([]string, error) {
	dims := len(v)
	if n <= 0 || dims == 0 {
		return nil, nil
	}
	// One statement: the HNSW settings are the connection's (sessionSettings).
	out, err := k.ids(ctx, NearestSQL(dims, "id"), model, hive, pgvector.NewVector(v), n)
	if err != nil {
		return nil, wrap("nearest entries", err)
	}
	return out, nil
}

var _ knowledge.NearestReader = (*Knowledge)(nil)

// NearestEntries is Nearest reading the entries' columns in the same index
// scan: the scan fetches each row it returns to filter hive and model
// anyway, so a query's vector candidates cost no second round trip and no
// second lookup by id (Entries).
func (k *Knowledge) NearestEntries(ctx context.Context, hive, model string, v []float32, n int) ([]knowledge.StoredEntry, error) {
	dims := len(v)
	if n <= 0 || dims == 0 {
		return nil, nil
	}
	out, err := scanStated(ctx, k.pool, NearestEntriesSQL(dims), model, hive, pgvector.NewVector(v), n)
	if err != nil {
		return nil, wrap("nearest entries", err)
	}
	return out, nil
}

// NearestSQL is the statement of Nearest (cols "id") and NearestEntries
// for dims-dimensional vectors ($1 model, $2 hive or empty, $3 the vector,
// $4 how many). dims is a length, safe to spell into the statement; the
// cast must be a literal type for the planner to match the index
// expression.
func NearestSQL(dims int, cols string) string {
	d := strconv.Itoa(dims)
	return `SELECT ` + cols + ` FROM knowledge_entries WHERE dims = ` + d + ` AND model = $1 AND ($2 = '' OR hive = $2)
		ORDER BY embedding::vector(` + d + `) <=> $3::vector(` + d + `) LIMIT $4`
}

// NearestEntriesSQL is NearestEntries' statement: Nearest's (see
// NearestSQL) reading the rows' columns, numbered in the index's order,
// then each row's moderation state (statedCols), nearest first. The numbering
// and the outer ORDER BY keep the index's order whatever join the planner
// picks.
func NearestEntriesSQL(dims int) string {
	return `SELECT ` + statedCols + ` FROM (SELECT n.*, row_number() OVER () AS rank FROM (` +
		NearestSQL(dims, storedCols+", analysis, details") + `) n) e
		LEFT JOIN knowledge_moderation m ON m.entry_id = e.id ORDER BY e.rank`
}

// Pool returns the driver's connection pool.
func (k *Knowledge) Pool() *pgxpool.Pool { return k.pool }
