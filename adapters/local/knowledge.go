package local

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"pumasi"
	"pumasi/knowledge"
)

// Knowledge is the local backend's knowledge driver: entries, attribution
// and counters in the home's SQLite database, full-text search by FTS5, and
// an in-memory vector index per process (knowIndex) kept in step with the
// database, so several processes on one home see each other's entries.
// Ranking and dedup are the engine's (knowledge.Engine).
type Knowledge struct {
	s   *Store
	idx *knowIndex
}

var _ knowledge.Driver = (*Knowledge)(nil)

// NewKnowledgeDriver returns the knowledge driver of s. Build one per Store
// and share it: each holds its own vector index.
func NewKnowledgeDriver(s *Store) *Knowledge {
	return &Knowledge{s: s, idx: newKnowIndex(s)}
}

// Close stops the vector index's background catch-up, if one runs. It
// leaves the Store open.
func (k *Knowledge) Close() error {
	k.idx.close()
	return nil
}

// Healthy reports the store's health (see Store.Healthy), so that /healthz
// sees a knowledge store kept apart from the file storage.
func (k *Knowledge) Healthy() error { return k.s.Healthy() }

// NewKnowledge returns the knowledge engine over s with default options.
func NewKnowledge(s *Store) *knowledge.Engine {
	return knowledge.New(NewKnowledgeDriver(s), knowledge.Options{Now: s.now})
}

// FindExact finds hive's entry with the normalised hash, else the absorbed
// entry that had it.
func (k *Knowledge) FindExact(ctx context.Context, hive, normHash string) (string, error) {
	var id string
	err := k.s.db.QueryRowContext(ctx, `SELECT id FROM (
			SELECT id, 0 AS absorbed FROM knowledge_entries WHERE hive = ?1 AND norm_hash = ?2
			UNION ALL SELECT entry_id, 1 FROM knowledge_absorbed WHERE hive = ?1 AND norm_hash = ?2 AND unmerged_at IS NULL)
		ORDER BY absorbed LIMIT 1`, hive, normHash).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return "", pumasi.Errorf(pumasi.ENotFound, "no exact duplicate")
	}
	if err != nil {
		return "", wrapInternal("find exact duplicate", err)
	}
	return id, nil
}

// Insert writes e with its first contribution unless (hive, norm_hash) is
// taken; the unique key decides across processes.
func (k *Knowledge) Insert(ctx context.Context, e knowledge.NewEntry, first knowledge.Contribution) (string, bool, error) {
	if err := k.s.roomToGrow(); err != nil {
		return "", false, err
	}
	tags, err := json.Marshal(nonNilTags(e.Tags))
	if err != nil {
		return "", false, fmt.Errorf("insert entry: %w", err)
	}
	var id string
	created := false
	err = k.s.writeTx(ctx, func(tx *sql.Tx) error {
		err := tx.QueryRowContext(ctx, `INSERT INTO knowledge_entries
			(id, hive, title, content, tags, norm_hash, model, vector, specificity, contribution_count, created_at, last_used_at, analysis, details)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?)
			ON CONFLICT (hive, norm_hash) DO NOTHING RETURNING id`,
			e.ID, e.Hive, e.Title, e.Content, string(tags), e.NormHash, e.Model, knowEncodeVector(e.Vector),
			e.Specificity, formatTime(e.At), formatTime(e.At), e.Analysis, e.Details).Scan(&id)
		if errors.Is(err, sql.ErrNoRows) {
			created = false
			return tx.QueryRowContext(ctx, `SELECT id FROM knowledge_entries WHERE hive = ? AND norm_hash = ?`,
				e.Hive, e.NormHash).Scan(&id)
		}
		if err != nil {
			return fmt.Errorf("insert entry: %w", err)
		}
		created = true
		if err := insertContribution(ctx, tx, id, first); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO knowledge_contributors (entry_id, agent) VALUES (?, ?)`, id, first.Agent)
		return err
	})
	if err != nil {
		return "", false, wrapInternal("insert entry", err)
	}
	return id, created, nil
}

// AddContribution records c; the count moves only for a new contributor.
func (k *Knowledge) AddContribution(ctx context.Context, id string, c knowledge.Contribution) (bool, error) {
	if err := k.s.roomToGrow(); err != nil {
		return false, err
	}
	counted := false
	err := k.s.writeTx(ctx, func(tx *sql.Tx) error {
		counted = false
		if err := touchEntry(ctx, tx, id, c.At); err != nil {
			return err
		}
		if err := insertContribution(ctx, tx, id, c); err != nil {
			return err
		}
		r, err := tx.ExecContext(ctx, `INSERT INTO knowledge_contributors (entry_id, agent) VALUES (?, ?)
			ON CONFLICT (entry_id, agent) DO NOTHING`, id, c.Agent)
		if err != nil {
			return fmt.Errorf("record contributor: %w", err)
		}
		if n, _ := r.RowsAffected(); n == 1 {
			counted = true
			if _, err := tx.ExecContext(ctx, `UPDATE knowledge_entries SET contribution_count = contribution_count + 1 WHERE id = ?`, id); err != nil {
				return fmt.Errorf("bump contribution_count: %w", err)
			}
		}
		return nil
	})
	if err != nil {
		return false, wrapInternal("add contribution", err)
	}
	return counted, nil
}

// touchEntry moves an entry's last use forward to at. Returns not_found.
func touchEntry(ctx context.Context, tx *sql.Tx, id string, at time.Time) error {
	r, err := tx.ExecContext(ctx, `UPDATE knowledge_entries SET last_used_at = MAX(last_used_at, ?) WHERE id = ?`,
		formatTime(at), id)
	if err != nil {
		return fmt.Errorf("touch entry: %w", err)
	}
	if n, _ := r.RowsAffected(); n == 0 {
		return pumasi.Errorf(pumasi.ENotFound, "no knowledge entry %q", id)
	}
	return nil
}

func insertContribution(ctx context.Context, tx *sql.Tx, id string, c knowledge.Contribution) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO knowledge_contributions (entry_id, agent, title, content, similarity, at, origin)
		VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?1)`, id, c.Agent, c.Title, c.Content, c.Similarity, formatTime(c.At))
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

// Cite counts agent's cite of id on day once, in one transaction.
func (k *Knowledge) Cite(ctx context.Context, id, agent, day string, at time.Time) (bool, error) {
	counted := false
	err := k.s.writeTx(ctx, func(tx *sql.Tx) error {
		counted = false
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM knowledge_entries WHERE id = ?`, id).Scan(&n); err != nil {
			return fmt.Errorf("find entry: %w", err)
		}
		if n == 0 {
			return pumasi.Errorf(pumasi.ENotFound, "no knowledge entry %q", id)
		}
		r, err := tx.ExecContext(ctx, `INSERT INTO knowledge_cites (entry_id, agent, day, origin) SELECT ?1, ?2, ?3, ?1
			WHERE NOT EXISTS (SELECT 1 FROM knowledge_cites WHERE entry_id = ?1 AND agent = ?2 AND day = ?3)`, id, agent, day)
		if err != nil {
			return fmt.Errorf("record cite: %w", err)
		}
		if n, _ := r.RowsAffected(); n == 0 {
			return nil
		}
		counted = true
		if err := touchEntry(ctx, tx, id, at); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `UPDATE knowledge_entries SET citation_count = citation_count + 1 WHERE id = ?`, id)
		return err
	})
	if err != nil {
		return false, wrapInternal("cite", err)
	}
	return counted, nil
}

// Endorse bumps endorsement_count atomically, once per agent: an agent
// counts once whatever the origin of its row (see Absorb).
func (k *Knowledge) Endorse(ctx context.Context, id, agent string, at time.Time) (bool, error) {
	counted := false
	err := k.s.writeTx(ctx, func(tx *sql.Tx) error {
		counted = false
		if err := touchEntry(ctx, tx, id, at); err != nil {
			return err
		}
		r, err := tx.ExecContext(ctx, `INSERT INTO knowledge_endorsements (entry_id, agent, at, origin) SELECT ?1, ?2, ?3, ?1
			WHERE NOT EXISTS (SELECT 1 FROM knowledge_endorsements WHERE entry_id = ?1 AND agent = ?2)`, id, agent, formatTime(at))
		if err != nil {
			return fmt.Errorf("record endorsement: %w", err)
		}
		if n, _ := r.RowsAffected(); n == 1 {
			counted = true
			if _, err := tx.ExecContext(ctx, `UPDATE knowledge_entries SET endorsement_count = endorsement_count + 1 WHERE id = ?`, id); err != nil {
				return fmt.Errorf("bump endorsement_count: %w", err)
			}
		}
		return nil
	})
	if err != nil {
		return false, wrapInternal("endorse", err)
	}
	return counted, nil
}

// Contributions lists an entry's attribution rows, oldest first.
func (k *Knowledge) Contributions(ctx context.Context, id string) ([]knowledge.Contribution, error) {
	var out []knowledge.Contribution
	err := k.s.readTx(ctx, func(tx *sql.Tx) error {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM knowledge_entries WHERE id = ?`, id).Scan(&n); err != nil {
			return fmt.Errorf("find entry: %w", err)
		}
		if n == 0 {
			return pumasi.Errorf(pumasi.ENotFound, "no knowledge entry %q", id)
		}
		rows, err := tx.QueryContext(ctx, `SELECT agent, title, content, similarity, at
			FROM knowledge_contributions WHERE entry_id = ? ORDER BY seq`, id)
		if err != nil {
			return fmt.Errorf("list contributions: %w", err)
		}
		defer rows.Close()
		out = []knowledge.Contribution{}
		for rows.Next() {
			var c knowledge.Contribution
			var at string
			if err := rows.Scan(&c.Agent, &c.Title, &c.Content, &c.Similarity, &at); err != nil {
				return fmt.Errorf("scan contribution: %w", err)
			}
			if c.At, err = parseTime(at); err != nil {
				return err
			}
			out = append(out, c)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, wrapInternal("list contributions", err)
	}
	return out, nil
}

// Entries reads the entries among ids, with their vectors.
func (k *Knowledge) Entries(ctx context.Context, ids []string) (map[string]knowledge.StoredEntry, error) {
	out := make(map[string]knowledge.StoredEntry, len(ids))
	for len(ids) > 0 {
		chunk := ids[:min(len(ids), 500)]
		ids = ids[len(chunk):]
		args := make([]any, len(chunk))
		for i, id := range chunk {
			args[i] = id
		}
		err := k.scanEntries(ctx, out, `SELECT `+storedCols+` FROM knowledge_entries WHERE id IN (?`+
			strings.Repeat(",?", len(chunk)-1)+`)`, args...)
		if err != nil {
			return nil, wrapInternal("read entries", err)
		}
	}
	return out, nil
}

// Since returns up to limit entries above seq, in seq order.
func (k *Knowledge) Since(ctx context.Context, seq int64, limit int) ([]knowledge.StoredEntry, error) {
	got := map[string]knowledge.StoredEntry{}
	if err := k.scanEntries(ctx, got, `SELECT `+storedCols+` FROM knowledge_entries WHERE seq > ? ORDER BY seq LIMIT ?`, seq, limit); err != nil {
		return nil, wrapInternal("read entries since", err)
	}
	out := make([]knowledge.StoredEntry, 0, len(got))
	for _, e := range got {
		out = append(out, e)
	}
	sortBySeq(out)
	return out, nil
}

func sortBySeq(es []knowledge.StoredEntry) {
	slices.SortFunc(es, func(a, b knowledge.StoredEntry) int { return cmp.Compare(a.Seq, b.Seq) })
}

// storedCols are an entry's columns as scanEntries reads them: the row,
// its vector and the engine's stored analysis and details
// (knowledge.NewEntry.Analysis, Details).
const storedCols = `seq, id, hive, title, content, tags, specificity, contribution_count, citation_count,
	endorsement_count, created_at, last_used_at, model, vector, analysis, details`

func (k *Knowledge) scanEntries(ctx context.Context, out map[string]knowledge.StoredEntry, q string, args ...any) error {
	rows, err := k.s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var e knowledge.StoredEntry
		var tags, created, used string
		var blob []byte
		if err := rows.Scan(&e.Seq, &e.ID, &e.Hive, &e.Title, &e.Content, &tags, &e.Specificity,
			&e.ContributionCount, &e.CitationCount, &e.EndorsementCount, &created, &used, &e.Model, &blob, &e.Analysis, &e.Details); err != nil {
			return err
		}
		if err := json.Unmarshal([]byte(tags), &e.Tags); err != nil {
			return fmt.Errorf("decode tags of %s: %w", e.ID, err)
		}
		e.Tags = nonNilTags(e.Tags)
		if e.CreatedAt, err = parseTime(created); err != nil {
			return err
		}
		e.LastUsedAt = e.CreatedAt
		if used != "" {
			if e.LastUsedAt, err = parseTime(used); err != nil {
				return err
			}
		}
		if e.Vector, err = knowDecodeVector(blob); err != nil {
			return fmt.Errorf("vector of %s: %w", e.ID, err)
		}
		out[e.ID] = e
	}
	return rows.Err()
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

// Import writes entries in bulk, each with its first contribution, in
// transactions of up to 5,000: a corpus moved from elsewhere, or a
// benchmark's seed. An entry whose (hive, norm_hash) is taken is skipped.
// It returns how many entries it wrote.
func (k *Knowledge) Import(ctx context.Context, entries []knowledge.NewEntry, agent string) (int, error) {
	written := 0
	for len(entries) > 0 {
		chunk := entries[:min(len(entries), 5000)]
		entries = entries[len(chunk):]
		err := k.s.writeTx(ctx, func(tx *sql.Tx) error {
			for _, e := range chunk {
				tags, err := json.Marshal(nonNilTags(e.Tags))
				if err != nil {
					return err
				}
				r, err := tx.ExecContext(ctx, `INSERT INTO knowledge_entries
					(id, hive, title, content, tags, norm_hash, model, vector, specificity, contribution_count, created_at, last_used_at, analysis, details)
					VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?) ON CONFLICT (hive, norm_hash) DO NOTHING`,
					e.ID, e.Hive, e.Title, e.Content, string(tags), e.NormHash, e.Model, knowEncodeVector(e.Vector),
					e.Specificity, formatTime(e.At), formatTime(e.At), e.Analysis, e.Details)
				if err != nil {
					return fmt.Errorf("import entry: %w", err)
				}
				if n, _ := r.RowsAffected(); n == 0 {
					continue
				}
				c := knowledge.Contribution{Agent: agent, Title: e.Title, Content: e.Content, At: e.At, Similarity: 1}
				if err := insertContribution(ctx, tx, e.ID, c); err != nil {
					return err
				}
				if _, err := tx.ExecContext(ctx, `INSERT INTO knowledge_contributors (entry_id, agent) VALUES (?, ?)`, e.ID, agent); err != nil {
					return err
				}
				written++
			}
			return nil
		})
		if err != nil {
			return written, wrapInternal("import entries", err)
		}
	}
	return written, nil
}
