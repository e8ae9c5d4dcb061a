package local

import (
	"context"
	"database/sql"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"

	"pumasi"
)

// Knowledge is the local backend's collective knowledge: rows in the home's
// SQLite database, plus an in-memory copy of the vectors so that dedup and
// query scan memory, not the disk. The copy is refreshed from the database
// before each use (new rows by seq, a full reload after a sweep removed
// rows), so several processes on one home see each other's entries.
type Knowledge struct {
	s     *Store
	cache knowCache
}

var _ pumasi.KnowledgeStore = (*Knowledge)(nil)

// NewKnowledge returns the knowledge store of s. Build one per Store and
// share it: each holds its own vector cache.
func NewKnowledge(s *Store) *Knowledge { return &Knowledge{s: s} }

// Contribute merges in into an exact or near duplicate of its hive, or writes
// a new entry. It runs in one write transaction, so contributions from every
// process on the home are serialised: the exact-duplicate lookup and the
// near-duplicate scan see every committed entry, and the unique key on
// (hive, norm_hash) backs the exact case up.
func (k *Knowledge) Contribute(ctx context.Context, in pumasi.ContributeInput) (pumasi.ContributeResult, error) {
	if err := in.Validate(); err != nil {
		return pumasi.ContributeResult{}, err
	}
	at := in.At
	if at.IsZero() {
		at = k.s.now()
	}
	tags, err := json.Marshal(nonNilTags(in.Tags))
	if err != nil {
		return pumasi.ContributeResult{}, fmt.Errorf("contribute: %w", err)
	}
	var res pumasi.ContributeResult
	err = k.s.writeTx(ctx, func(tx *sql.Tx) error {
		res = pumasi.ContributeResult{}
		var id string
		err := tx.QueryRowContext(ctx, `SELECT id FROM knowledge_entries WHERE hive = ? AND norm_hash = ?`,
			in.Hive, in.NormHash).Scan(&id)
		switch {
		case err == nil:
			return k.merge(ctx, tx, &res, id, 1, in, at)
		case !errors.Is(err, sql.ErrNoRows):
			return fmt.Errorf("find exact duplicate: %w", err)
		}
		if in.Threshold <= 1 {
			if err := k.cache.refresh(ctx, tx); err != nil {
				return err
			}
			if id, sim := k.cache.nearest(in.Hive, in.Model, in.Vector); id != "" && sim > in.Threshold {
				return k.merge(ctx, tx, &res, id, sim, in, at)
			}
		}
		newID := uuid.NewString()
		var count int64
		err = tx.QueryRowContext(ctx, `INSERT INTO knowledge_entries
			(id, hive, title, content, tags, norm_hash, model, vector, specificity, contribution_count, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?)
			ON CONFLICT (hive, norm_hash) DO UPDATE SET contribution_count = contribution_count + 1
			RETURNING id, contribution_count`,
			newID, in.Hive, in.Title, in.Content, string(tags), in.NormHash, in.Model, knowEncodeVector(in.Vector),
			in.Specificity, formatTime(at)).Scan(&id, &count)
		if err != nil {
			return fmt.Errorf("insert entry: %w", err)
		}
		sim, verdict := 1.0, pumasi.VerdictAccepted
		if id != newID || count > 1 {
			verdict = pumasi.VerdictMerged
		}
		if err := insertContribution(ctx, tx, id, in, sim, at); err != nil {
			return err
		}
		e, err := entryByID(ctx, tx, id)
		if err != nil {
			return err
		}
		res = pumasi.ContributeResult{Verdict: verdict, Entry: e, Similarity: sim}
		return nil
	})
	if err != nil {
		return pumasi.ContributeResult{}, wrapInternal("contribute", err)
	}
	return res, nil
}

// merge folds a contribution into entry id: contribution_count + 1 in the
// database (never read-modify-written here) and an attribution row.
func (k *Knowledge) merge(ctx context.Context, tx *sql.Tx, res *pumasi.ContributeResult, id string, sim float64, in pumasi.ContributeInput, at time.Time) error {
	r, err := tx.ExecContext(ctx, `UPDATE knowledge_entries SET contribution_count = contribution_count + 1 WHERE id = ?`, id)
	if err != nil {
		return fmt.Errorf("bump contribution_count: %w", err)
	}
	if n, _ := r.RowsAffected(); n != 1 {
		return fmt.Errorf("bump contribution_count: entry %s vanished", id)
	}
	if err := insertContribution(ctx, tx, id, in, sim, at); err != nil {
		return err
	}
	e, err := entryByID(ctx, tx, id)
	if err != nil {
		return err
	}
	*res = pumasi.ContributeResult{Verdict: pumasi.VerdictMerged, Entry: e, Similarity: sim}
	return nil
}

func insertContribution(ctx context.Context, tx *sql.Tx, id string, in pumasi.ContributeInput, sim float64, at time.Time) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO knowledge_contributions (entry_id, agent, title, content, similarity, at)
		VALUES (?, ?, ?, ?, ?, ?)`, id, in.Agent, in.Title, in.Content, sim, formatTime(at))
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

// Query ranks the entries of q.Hive (every hive when empty) embedded by
// q.Model by similarity × quality. It scores candidates in order of
// similarity and stops once no remaining candidate can beat the current
// last place (quality is at most 1, so a score never exceeds its
// similarity): exact, without loading every row.
func (k *Knowledge) Query(ctx context.Context, q pumasi.QueryInput) ([]pumasi.Hit, error) {
	if q.Hive != "" && !pumasi.ValidID(q.Hive) {
		return nil, pumasi.Errorf(pumasi.EInvalidRequest, "hive id must match ^[a-z0-9][a-z0-9._-]{0,62}$")
	}
	limit := q.Limit
	if limit <= 0 {
		limit = pumasi.DefaultQueryLimit
	}
	if err := k.cache.refresh(ctx, k.s.db); err != nil {
		return nil, wrapInternal("query knowledge", err)
	}
	batchSize := max(4*limit, 32)
	cands := k.cache.similar(q.Hive, q.Model, q.Vector, batchSize)
	var hits []pumasi.Hit
	for lo := 0; lo < len(cands); {
		if lo == batchSize {
			sortCands(cands[lo:]) // rare: quality reordered past the first batch
		}
		hi := min(len(cands), lo+batchSize)
		batch := cands[lo:hi]
		ids := make([]string, len(batch))
		for i, c := range batch {
			ids[i] = c.id
		}
		entries, err := entriesByID(ctx, k.s.db, ids)
		if err != nil {
			return nil, wrapInternal("query knowledge", err)
		}
		for _, c := range batch {
			e, ok := entries[c.id]
			if !ok {
				continue // swept away since the cache was read
			}
			hits = append(hits, pumasi.Hit{Entry: e, Similarity: c.sim, Score: c.sim * e.Quality})
		}
		hits = pumasi.RankHits(hits, limit)
		lo = hi
		if len(hits) == limit && lo < len(cands) && cands[lo].sim < hits[limit-1].Score {
			break
		}
	}
	if hits == nil {
		hits = []pumasi.Hit{}
	}
	return hits, nil
}

// GetEntry returns an entry with its contributions, oldest first.
func (k *Knowledge) GetEntry(ctx context.Context, id string) (pumasi.Entry, error) {
	var e pumasi.Entry
	err := k.s.readTx(ctx, func(tx *sql.Tx) error {
		var err error
		if e, err = entryByID(ctx, tx, id); err != nil {
			return err
		}
		rows, err := tx.QueryContext(ctx, `SELECT agent, title, content, similarity, at
			FROM knowledge_contributions WHERE entry_id = ? ORDER BY seq`, id)
		if err != nil {
			return fmt.Errorf("list contributions: %w", err)
		}
		defer rows.Close()
		e.Contributions = []pumasi.Contribution{}
		for rows.Next() {
			var c pumasi.Contribution
			var at string
			if err := rows.Scan(&c.Agent, &c.Title, &c.Content, &c.Similarity, &at); err != nil {
				return fmt.Errorf("scan contribution: %w", err)
			}
			if c.At, err = parseTime(at); err != nil {
				return err
			}
			e.Contributions = append(e.Contributions, c)
		}
		return rows.Err()
	})
	if err != nil {
		return pumasi.Entry{}, wrapInternal("get entry", err)
	}
	return e, nil
}

// Cite bumps citation_count atomically.
func (k *Knowledge) Cite(ctx context.Context, id, agent string) (pumasi.Entry, error) {
	var e pumasi.Entry
	err := k.s.writeTx(ctx, func(tx *sql.Tx) error {
		r, err := tx.ExecContext(ctx, `UPDATE knowledge_entries SET citation_count = citation_count + 1 WHERE id = ?`, id)
		if err != nil {
			return fmt.Errorf("bump citation_count: %w", err)
		}
		if n, _ := r.RowsAffected(); n == 0 {
			return pumasi.Errorf(pumasi.ENotFound, "no knowledge entry %q", id)
		}
		e, err = entryByID(ctx, tx, id)
		return err
	})
	if err != nil {
		return pumasi.Entry{}, wrapInternal("cite", err)
	}
	return e, nil
}

// Endorse bumps endorsement_count atomically, once per agent.
func (k *Knowledge) Endorse(ctx context.Context, id, agent string) (pumasi.Entry, error) {
	if err := pumasi.CheckHandle(agent); err != nil {
		return pumasi.Entry{}, err
	}
	var e pumasi.Entry
	err := k.s.writeTx(ctx, func(tx *sql.Tx) error {
		var err error
		if _, err = entryByID(ctx, tx, id); err != nil {
			return err
		}
		r, err := tx.ExecContext(ctx, `INSERT INTO knowledge_endorsements (entry_id, agent, at) VALUES (?, ?, ?)
			ON CONFLICT (entry_id, agent) DO NOTHING`, id, agent, formatTime(k.s.now()))
		if err != nil {
			return fmt.Errorf("record endorsement: %w", err)
		}
		if n, _ := r.RowsAffected(); n == 1 {
			if _, err := tx.ExecContext(ctx, `UPDATE knowledge_entries SET endorsement_count = endorsement_count + 1 WHERE id = ?`, id); err != nil {
				return fmt.Errorf("bump endorsement_count: %w", err)
			}
		}
		e, err = entryByID(ctx, tx, id)
		return err
	})
	if err != nil {
		return pumasi.Entry{}, wrapInternal("endorse", err)
	}
	return e, nil
}

// SweepKnowledge collapses near-duplicates in one write transaction: for
// each cluster pumasi.PlanSweep finds, the oldest entry takes the others'
// contribution and citation counts (summed) and their contributions and
// endorsements (endorsement_count becomes its distinct endorsers), and the
// others are deleted. Entries compared by an earlier sweep are not compared
// with each other again, which keeps a daily sweep proportional to what is new.
func (k *Knowledge) SweepKnowledge(ctx context.Context, threshold float64) (pumasi.KnowledgeSweepReport, error) {
	if threshold <= 0 {
		threshold = pumasi.DefaultMergeThreshold
	}
	var rep pumasi.KnowledgeSweepReport
	err := k.s.writeTx(ctx, func(tx *sql.Tx) error {
		rep = pumasi.KnowledgeSweepReport{}
		if err := k.cache.refresh(ctx, tx); err != nil {
			return err
		}
		var mark int64
		if err := tx.QueryRowContext(ctx, `SELECT value FROM knowledge_meta WHERE key = 'sweep_seq'`).Scan(&mark); err != nil {
			return fmt.Errorf("read sweep mark: %w", err)
		}
		cands, top := k.cache.candidates(mark)
		rep.Scanned = len(cands)
		plan := pumasi.PlanSweep(cands, threshold)
		for _, m := range plan {
			for _, gone := range m.Absorbed {
				if err := absorb(ctx, tx, m.Keep, gone); err != nil {
					return err
				}
				rep.Merged++
			}
		}
		if rep.Merged > 0 {
			if _, err := tx.ExecContext(ctx, `UPDATE knowledge_meta SET value = value + 1 WHERE key = 'del_gen'`); err != nil {
				return fmt.Errorf("bump del_gen: %w", err)
			}
		}
		if _, err := tx.ExecContext(ctx, `UPDATE knowledge_meta SET value = ? WHERE key = 'sweep_seq'`, top); err != nil {
			return fmt.Errorf("write sweep mark: %w", err)
		}
		return nil
	})
	if err != nil {
		return pumasi.KnowledgeSweepReport{}, wrapInternal("sweep knowledge", err)
	}
	return rep, nil
}

// absorb folds entry gone into keep.
func absorb(ctx context.Context, tx *sql.Tx, keep, gone string) error {
	steps := []struct{ op, q string }{
		{"sum counts", `UPDATE knowledge_entries SET
			contribution_count = contribution_count + (SELECT contribution_count FROM knowledge_entries WHERE id = ?2),
			citation_count = citation_count + (SELECT citation_count FROM knowledge_entries WHERE id = ?2)
			WHERE id = ?1`},
		{"move contributions", `UPDATE knowledge_contributions SET entry_id = ?1 WHERE entry_id = ?2`},
		{"move endorsements", `INSERT INTO knowledge_endorsements (entry_id, agent, at)
			SELECT ?1, agent, at FROM knowledge_endorsements WHERE entry_id = ?2
			ON CONFLICT (entry_id, agent) DO NOTHING`},
		{"drop endorsements", `DELETE FROM knowledge_endorsements WHERE entry_id = ?2`},
		{"count endorsements", `UPDATE knowledge_entries SET
			endorsement_count = (SELECT COUNT(*) FROM knowledge_endorsements WHERE entry_id = ?1) WHERE id = ?1`},
		{"delete entry", `DELETE FROM knowledge_entries WHERE id = ?2`},
	}
	for _, s := range steps {
		if _, err := tx.ExecContext(ctx, s.q, keep, gone); err != nil {
			return fmt.Errorf("absorb %s into %s: %s: %w", gone, keep, s.op, err)
		}
	}
	return nil
}

const entryCols = `id, hive, title, content, tags, specificity, contribution_count, citation_count, endorsement_count, created_at`

func scanEntry(r scanner) (pumasi.Entry, error) {
	var e pumasi.Entry
	var tags, created string
	if err := r.Scan(&e.ID, &e.Hive, &e.Title, &e.Content, &tags, &e.Specificity,
		&e.ContributionCount, &e.CitationCount, &e.EndorsementCount, &created); err != nil {
		return pumasi.Entry{}, err
	}
	if err := json.Unmarshal([]byte(tags), &e.Tags); err != nil {
		return pumasi.Entry{}, fmt.Errorf("decode tags of %s: %w", e.ID, err)
	}
	e.Tags = nonNilTags(e.Tags)
	var err error
	if e.CreatedAt, err = parseTime(created); err != nil {
		return pumasi.Entry{}, err
	}
	e.Quality = pumasi.Quality(e.Specificity, e.ContributionCount, e.CitationCount, e.EndorsementCount)
	return e, nil
}

func entryByID(ctx context.Context, q querier, id string) (pumasi.Entry, error) {
	e, err := scanEntry(q.QueryRowContext(ctx, `SELECT `+entryCols+` FROM knowledge_entries WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return pumasi.Entry{}, pumasi.Errorf(pumasi.ENotFound, "no knowledge entry %q", id)
	}
	if err != nil {
		return pumasi.Entry{}, fmt.Errorf("read entry %s: %w", id, err)
	}
	return e, nil
}

func entriesByID(ctx context.Context, q querier, ids []string) (map[string]pumasi.Entry, error) {
	out := make(map[string]pumasi.Entry, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	args := make([]any, len(ids))
	for i, id := range ids {
		args[i] = id
	}
	rows, err := q.QueryContext(ctx, `SELECT `+entryCols+` FROM knowledge_entries WHERE id IN (?`+
		strings.Repeat(",?", len(ids)-1)+`)`, args...)
	if err != nil {
		return nil, fmt.Errorf("read entries: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		e, err := scanEntry(rows)
		if err != nil {
			return nil, fmt.Errorf("read entries: %w", err)
		}
		out[e.ID] = e
	}
	return out, rows.Err()
}

func knowEncodeVector(v []float32) []byte {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return b
}

func knowDecodeVector(b []byte) ([]float32, error) {
	if len(b)%4 != 0 {
		return nil, fmt.Errorf("vector blob of %d bytes", len(b))
	}
	v := make([]float32, len(b)/4)
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return v, nil
}

// knowItem is one entry's vector as the cache holds it.
type knowItem struct {
	seq     int64
	id      string
	hive    string
	model   string
	created time.Time
	vec     []float32
	norm    float64
}

// knowCache mirrors (seq, id, hive, model, created_at, vector) of every
// entry. Rows only ever appear with a growing seq or disappear in a sweep
// (which bumps del_gen), so (max seq, del_gen) tells whether it is current.
type knowCache struct {
	mu     sync.RWMutex
	loaded bool
	maxSeq int64
	delGen int64
	items  []knowItem
}

func (c *knowCache) refresh(ctx context.Context, q querier) error {
	var maxSeq, delGen int64
	err := q.QueryRowContext(ctx, `SELECT COALESCE((SELECT MAX(seq) FROM knowledge_entries), 0),
		(SELECT value FROM knowledge_meta WHERE key = 'del_gen')`).Scan(&maxSeq, &delGen)
	if err != nil {
		return fmt.Errorf("read knowledge state: %w", err)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.loaded && c.delGen == delGen && c.maxSeq >= maxSeq {
		return nil
	}
	from := c.maxSeq
	if !c.loaded || c.delGen != delGen {
		from = 0
		c.items = nil
	}
	rows, err := q.QueryContext(ctx, `SELECT seq, id, hive, model, created_at, vector FROM knowledge_entries
		WHERE seq > ? AND seq <= ? ORDER BY seq`, from, maxSeq)
	if err != nil {
		c.loaded = false
		return fmt.Errorf("load vectors: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var it knowItem
		var created string
		var blob []byte
		if err := rows.Scan(&it.seq, &it.id, &it.hive, &it.model, &created, &blob); err != nil {
			c.loaded = false
			return fmt.Errorf("load vectors: %w", err)
		}
		if it.created, err = parseTime(created); err != nil {
			c.loaded = false
			return err
		}
		if it.vec, err = knowDecodeVector(blob); err != nil {
			c.loaded = false
			return fmt.Errorf("load vector of %s: %w", it.id, err)
		}
		it.norm = pumasi.Norm(it.vec)
		c.items = append(c.items, it)
	}
	if err := rows.Err(); err != nil {
		c.loaded = false
		return fmt.Errorf("load vectors: %w", err)
	}
	c.loaded, c.maxSeq, c.delGen = true, maxSeq, delGen
	return nil
}

type knowCand struct {
	id  string
	sim float64
}

// scan calls fn with the cosine of v to every cached vector of hive (all
// hives when empty) and model.
func (c *knowCache) scan(hive, model string, v []float32, fn func(it *knowItem, sim float64)) {
	qn := pumasi.Norm(v)
	if qn == 0 {
		return
	}
	c.mu.RLock()
	defer c.mu.RUnlock()
	for i := range c.items {
		it := &c.items[i]
		if it.model != model || (hive != "" && it.hive != hive) || len(it.vec) != len(v) || it.norm == 0 {
			continue
		}
		fn(it, float64(pumasi.Dot(v, it.vec))/(qn*it.norm))
	}
}

// nearest returns the most similar entry of hive and model.
func (c *knowCache) nearest(hive, model string, v []float32) (string, float64) {
	best, bestSim := "", math.Inf(-1)
	c.scan(hive, model, v, func(it *knowItem, sim float64) {
		if sim > bestSim {
			best, bestSim = it.id, sim
		}
	})
	return best, bestSim
}

// similar returns the entries with positive similarity. The first top of
// them are the most similar, in order; the rest follow unsorted, for a
// caller that needs to look further (sortCands sorts them).
func (c *knowCache) similar(hive, model string, v []float32, top int) []knowCand {
	var out []knowCand
	c.scan(hive, model, v, func(it *knowItem, sim float64) {
		if sim > 0 {
			out = append(out, knowCand{it.id, sim})
		}
	})
	selectTop(out, top)
	return out
}

// selectTop moves the top k candidates to the front of cs, sorted, in
// O(n log k): a min-heap of the best k seen so far.
func selectTop(cs []knowCand, k int) {
	if k >= len(cs) {
		sortCands(cs)
		return
	}
	if k <= 0 {
		return
	}
	less := func(a, b knowCand) bool { // a ranks below b
		if a.sim != b.sim {
			return a.sim < b.sim
		}
		return a.id > b.id
	}
	h := cs[:k]
	down := func(i int) {
		for {
			l := 2*i + 1
			if l >= k {
				return
			}
			m := l
			if r := l + 1; r < k && less(h[r], h[l]) {
				m = r
			}
			if !less(h[m], h[i]) {
				return
			}
			h[i], h[m] = h[m], h[i]
			i = m
		}
	}
	for i := k/2 - 1; i >= 0; i-- {
		down(i)
	}
	for i := k; i < len(cs); i++ {
		if less(h[0], cs[i]) {
			h[0], cs[i] = cs[i], h[0]
			down(0)
		}
	}
	sortCands(h)
}

func sortCands(cs []knowCand) {
	slices.SortFunc(cs, func(a, b knowCand) int {
		if a.sim != b.sim {
			if a.sim > b.sim {
				return -1
			}
			return 1
		}
		return strings.Compare(a.id, b.id)
	})
}

// candidates lists the cache as sweep candidates, marking entries above mark
// as new, and returns the highest seq.
func (c *knowCache) candidates(mark int64) ([]pumasi.SweepCandidate, int64) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	out := make([]pumasi.SweepCandidate, len(c.items))
	for i, it := range c.items {
		out[i] = pumasi.SweepCandidate{ID: it.id, Hive: it.hive, Model: it.model, CreatedAt: it.created,
			Seq: it.seq, Vector: it.vec, New: it.seq > mark}
	}
	return out, c.maxSeq
}
