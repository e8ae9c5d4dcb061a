package local

import (
	"cmp"
	"context"
	"math"
	"slices"
	"strings"

	"pumasi/knowledge"
)

// vecHit is one neighbour: an entry seq and its cosine to the query.
type vecHit struct {
	seq int64
	sim float64
}

// Nearest returns the ids of up to n entries of hive (every hive when
// empty) and model nearest v, best first. It never waits for a long
// catch-up: what the in-memory index lacks (entries written since it was
// last brought up to date) is scanned exactly from the database, and what
// it holds but the database has since tombstoned is left out.
func (k *Knowledge) Nearest(ctx context.Context, hive, model string, v []float32, n int) ([]string, error) {
	if knowledge.Norm(v) == 0 || n <= 0 {
		return nil, nil
	}
	current, err := k.idx.refresh(ctx)
	if err != nil {
		return nil, wrapInternal("refresh vector index", err)
	}
	var hits []vecHit
	if current {
		hits = k.idx.search(hive, model, v, n, nil)
	} else {
		if hits, err = k.nearestBehind(ctx, hive, model, v, n); err != nil {
			return nil, err
		}
	}
	return k.idsOf(ctx, hits)
}

// nearestBehind answers while the index is behind the database: the index
// for what it holds, minus entries tombstoned after its state, plus an
// exact scan of the entries above its state.
func (k *Knowledge) nearestBehind(ctx context.Context, hive, model string, v []float32, n int) ([]vecHit, error) {
	x := k.idx
	x.mu.RLock()
	maxSeq, tombSeq := x.maxSeq, x.tombSeq
	x.mu.RUnlock()
	gone := map[int64]bool{}
	if maxSeq > 0 {
		rows, err := k.s.db.QueryContext(ctx, `SELECT entry_seq FROM knowledge_tombstones WHERE seq > ? AND entry_seq <= ?`, tombSeq, maxSeq)
		if err != nil {
			return nil, wrapInternal("read tombstones", err)
		}
		for rows.Next() {
			var s int64
			if err := rows.Scan(&s); err != nil {
				rows.Close()
				return nil, wrapInternal("read tombstones", err)
			}
			gone[s] = true
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, wrapInternal("read tombstones", err)
		}
	}
	hits := x.search(hive, model, v, n+len(gone), gone)
	scanned, err := k.exactAbove(ctx, hive, model, v, n, maxSeq)
	if err != nil {
		return nil, err
	}
	// The index may have caught up past maxSeq meanwhile: an entry found
	// both ways counts once.
	seen := make(map[int64]bool, len(hits))
	for _, h := range hits {
		seen[h.seq] = true
	}
	for _, h := range scanned {
		if !seen[h.seq] {
			hits = append(hits, h)
		}
	}
	sortHits(hits)
	return hits[:min(n, len(hits))], nil
}

func sortHits(hits []vecHit) {
	slices.SortFunc(hits, func(a, b vecHit) int {
		if c := cmp.Compare(b.sim, a.sim); c != 0 {
			return c
		}
		return cmp.Compare(a.seq, b.seq)
	})
}

// search returns up to n entries of hive (every hive when empty) and model
// nearest v from the index, best first, leaving out the seqs in skip.
func (x *knowIndex) search(hive, model string, v []float32, n int, skip map[int64]bool) []vecHit {
	x.mu.RLock()
	defer x.mu.RUnlock()
	var all []vecHit
	for key, set := range x.sets {
		if key.model != model || (hive != "" && key.hive != hive) || key.dim != len(v) {
			continue
		}
		for _, r := range set.Search(v, n) {
			if !skip[int64(r.Key)] {
				all = append(all, vecHit{int64(r.Key), float64(r.Similarity)})
			}
		}
	}
	sortHits(all)
	return all[:min(n, len(all))]
}

// exactAbove is the nearest n entries above seq by an exact scan of their
// stored vectors.
func (k *Knowledge) exactAbove(ctx context.Context, hive, model string, v []float32, n int, seq int64) ([]vecHit, error) {
	rows, err := k.s.db.QueryContext(ctx, `SELECT seq, vector FROM knowledge_entries
		WHERE seq > ? AND model = ? AND (? = '' OR hive = ?)`, seq, model, hive, hive)
	if err != nil {
		return nil, wrapInternal("scan vectors", err)
	}
	defer rows.Close()
	var hits []vecHit
	for rows.Next() {
		var h vecHit
		var blob []byte
		if err := rows.Scan(&h.seq, &blob); err != nil {
			return nil, wrapInternal("scan vectors", err)
		}
		u, err := knowDecodeVector(blob)
		if err != nil || len(u) != len(v) || knowledge.Norm(u) == 0 {
			continue // unreadable, another dimension, or similar to nothing
		}
		if h.sim = knowledge.Cosine(v, u); math.IsNaN(h.sim) {
			continue // NaN in the stored vector
		}
		hits = append(hits, h)
		if len(hits) >= 4*n+1024 {
			sortHits(hits)
			hits = hits[:n]
		}
	}
	if err := rows.Err(); err != nil {
		return nil, wrapInternal("scan vectors", err)
	}
	sortHits(hits)
	return hits[:min(n, len(hits))], nil
}

// idsOf resolves hits to entry ids in their order; a seq whose entry is
// gone by now is left out.
func (k *Knowledge) idsOf(ctx context.Context, hits []vecHit) ([]string, error) {
	if len(hits) == 0 {
		return nil, nil
	}
	args := make([]any, len(hits))
	for i, h := range hits {
		args[i] = h.seq
	}
	rows, err := k.s.db.QueryContext(ctx, `SELECT seq, id FROM knowledge_entries WHERE seq IN (?`+
		strings.Repeat(",?", len(hits)-1)+`)`, args...)
	if err != nil {
		return nil, wrapInternal("resolve neighbours", err)
	}
	defer rows.Close()
	byseq := make(map[int64]string, len(hits))
	for rows.Next() {
		var s int64
		var id string
		if err := rows.Scan(&s, &id); err != nil {
			return nil, wrapInternal("resolve neighbours", err)
		}
		byseq[s] = id
	}
	if err := rows.Err(); err != nil {
		return nil, wrapInternal("resolve neighbours", err)
	}
	out := make([]string, 0, len(hits))
	for _, h := range hits {
		if id, ok := byseq[h.seq]; ok {
			out = append(out, id)
		}
	}
	return out, nil
}
