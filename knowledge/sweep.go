package knowledge

import (
	"context"
	"fmt"
	"sort"
	"time"

	"pumasi"
)

// maxSweepRest caps the pause after each absorb (see sweepOne).
const maxSweepRest = 50 * time.Millisecond

// SweepKnowledge is the daily staleness/dedup pass. It walks the entries
// added since the last sweep in short batches (Driver.Since), finds
// each one's neighbours through the index, rescores them exactly, and of
// the entry and every neighbour of the same hive and model it may merge with
// (cosine above threshold, and for a bag-of-words model nested details)
// folds those mergeable with the oldest, by the same rule, into it (never
// a correction and the entry it supersedes into one, through any chain,
// which the driver checks inside the absorb: Merge.Apart) — one
// short atomic Absorb each, never one long transaction, so writers are not
// stalled. The mark advances after every batch, so an interrupted sweep resumes and a second
// run finds nothing to do. Pairs of entries both older than the mark are not
// compared again: an earlier sweep found them apart. Last it counts the
// entries unused for a half-life or more, prunes the per-day citation rows
// past their window (cites.go) and records the report.
func (k *Engine) SweepKnowledge(ctx context.Context, threshold float64) (SweepReport, error) {
	if threshold <= 0 {
		threshold = DefaultMergeThreshold
	}
	start := k.now()
	rep := SweepReport{At: start.UTC()}
	mark, err := k.d.SweepMark(ctx)
	if err != nil {
		return rep, fmt.Errorf("read sweep mark: %w", err)
	}
	gone := map[string]bool{}
	for {
		batch, err := k.d.Since(ctx, mark, sweepBatch)
		if err != nil {
			return rep, fmt.Errorf("read sweep batch: %w", err)
		}
		if len(batch) == 0 {
			break
		}
		rep.Batches++
		for _, e := range batch {
			if err := ctx.Err(); err != nil {
				return rep, err
			}
			rep.Scanned++
			if gone[e.ID] {
				continue
			}
			// A concurrent sweep may absorb the entry a cluster would keep;
			// then look at e's neighbourhood again before the mark passes it.
			for attempt := 0; ; attempt++ {
				n, retry, err := k.sweepOne(ctx, e, threshold, gone)
				if err != nil {
					return rep, err
				}
				rep.Merged += n
				if !retry || attempt == 2 {
					break
				}
			}
		}
		mark = batch[len(batch)-1].Seq
		if err := k.d.SetSweepMark(ctx, mark); err != nil {
			return rep, fmt.Errorf("write sweep mark: %w", err)
		}
	}
	// After the merges, which fold by the rows of the days they share.
	pruned, err := k.pruneCites(ctx)
	if err != nil {
		return rep, fmt.Errorf("prune citation rows: %w", err)
	}
	rep.CitesPruned = pruned
	aged, err := k.d.CountUnused(ctx, k.now().Add(-k.halfLife))
	if err != nil {
		return rep, fmt.Errorf("count unused entries: %w", err)
	}
	rep.Aged = aged
	rep.Took = k.now().Sub(start)
	if err := k.d.RecordSweep(ctx, rep); err != nil {
		return rep, fmt.Errorf("record sweep: %w", err)
	}
	return rep, nil
}

// sweepOne collapses e's cluster: of e and its near-duplicates, the oldest
// survives, and each of the others goes into it only when it is mergeable
// with that survivor itself, never because both are near e. It returns how many entries were absorbed, and retry
// when the entry to keep vanished under it (another sweep absorbed it), so
// the rest of the cluster is still to be looked at.
func (k *Engine) sweepOne(ctx context.Context, e StoredEntry, threshold float64, gone map[string]bool) (merged int, retry bool, err error) {
	ids, err := k.d.Nearest(ctx, e.Hive, e.Model, e.Vector, dedupCandidates)
	if err != nil {
		return 0, false, fmt.Errorf("sweep neighbours of %s: %w", e.ID, err)
	}
	ents, err := k.d.Entries(ctx, ids)
	if err != nil {
		return 0, false, fmt.Errorf("sweep neighbours of %s: %w", e.ID, err)
	}
	cluster := []StoredEntry{e}
	for _, id := range ids {
		n, ok := ents[id]
		if !ok || id == e.ID || gone[id] || n.Hive != e.Hive || n.Model != e.Model {
			continue
		}
		if mergeableInto(e, n, threshold) {
			cluster = append(cluster, n)
		}
	}
	if len(cluster) < 2 {
		return 0, false, nil
	}
	sort.Slice(cluster, func(a, b int) bool { return olderEntry(cluster[a], cluster[b]) })
	survivor := cluster[0]
	keep := survivor.ID
	for _, g := range cluster[1:] {
		// Each merge is decided against the entry that survives, by the rule
		// a contribution of g's text would meet: a neighbour mergeable with
		// e only (A and B both near a bridging C, not near each other) stays.
		if !mergeableInto(g, survivor, threshold) {
			continue
		}
		// Two merged again once an admin undid their merge.
		if apart, err := k.keptApart(ctx, g.ID, keep); err != nil || apart {
			if err != nil {
				return merged, false, err
			}
			continue
		}
		start := time.Now()
		// A correction and the entry it supersedes stay apart, as
		// contribute keeps them (its near-duplicate probe skips the target):
		// through chains of supersessions, and of merges (g may supersede an
		// entry keep absorbed a moment ago). The driver checks it inside the
		// absorb (Apart), so a supersede committed since any read is seen.
		err := k.d.Absorb(ctx, Merge{EntryID: g.ID, MergedInto: keep, Hive: g.Hive, Title: g.Title,
			At: k.now().UTC(), Similarity: Cosine(g.Vector, survivor.Vector), Via: MergeViaSweep, Apart: true})
		// Pace the writes: rest as long as the write took (up to
		// maxSweepRest), so the sweep holds the store's write side at most
		// half the time and a writer waits for one absorb at most.
		if rest := min(time.Since(start), maxSweepRest); rest > 0 {
			select {
			case <-ctx.Done():
				return merged, false, ctx.Err()
			case <-time.After(rest):
			}
		}
		switch {
		case pumasi.ErrorCode(err) == pumasi.EPreconditionFailed:
			continue // a correction and its target, kept apart
		case pumasi.ErrorCode(err) == pumasi.ENotFound:
			// Another sweep got there first: it absorbed g (fine), or keep
			// (then the cluster must be looked at again).
			still, rerr := k.d.Entries(ctx, []string{keep})
			if rerr != nil {
				return merged, false, fmt.Errorf("sweep: read %s: %w", keep, rerr)
			}
			if _, ok := still[keep]; !ok {
				return merged, true, nil
			}
			continue
		case err != nil:
			return merged, false, fmt.Errorf("absorb %s into %s: %w", g.ID, keep, err)
		}
		gone[g.ID] = true
		merged++
		if err := k.quarantineMerged(ctx, keep, g.ID); err != nil {
			return merged, false, err
		}
	}
	return merged, false, nil
}

// olderEntry orders a cluster: the oldest entry (by creation, then
// insertion, then id) is the one kept.
func olderEntry(a, b StoredEntry) bool {
	if !a.CreatedAt.Equal(b.CreatedAt) {
		return a.CreatedAt.Before(b.CreatedAt)
	}
	if a.Seq != b.Seq {
		return a.Seq < b.Seq
	}
	return a.ID < b.ID
}

// mergeableInto reports whether g merges into survivor by contribute's rule
// (see mergeable): g's text as the contribution, survivor's as the entry.
func mergeableInto(g, survivor StoredEntry, threshold float64) bool {
	return entryProbe(survivor.Model, threshold, g).mergeableEntry(Cosine(g.Vector, survivor.Vector), survivor)
}
