package s3

import (
	"context"
	"fmt"
	"slices"

	"pumasi"
)

// applyRetention drops what falls out of retention from one room's history
// and returns how many changes it dropped: the segments read are rewritten
// as one and swapped in by compare-and-swap, only while the manifest still
// starts with them (else another sweep got there first; the next run
// retries).
func (s *Store) applyRetention(ctx context.Context, room string) (int, error) {
	m, all, err := s.readHistory(ctx, room)
	if err != nil {
		return 0, err
	}
	if len(all) == 0 && len(m.Deleted) == 0 {
		return 0, nil
	}
	live := make(map[string]string, len(m.Files))
	for _, f := range m.Files {
		live[f.Name] = f.SHA256
	}
	drop := map[int64]bool{}
	for _, rev := range pumasi.PlanRetention(all, live, s.history, s.now()) {
		drop[rev] = true
	}
	oldSegs := slices.Clone(m.Segs)
	var inSegs []pumasi.Change
	segDrops := 0
	for _, key := range oldSegs {
		cs, err := s.segmentChanges(ctx, key)
		if err != nil {
			return 0, err
		}
		for _, c := range cs {
			if drop[c.Rev] {
				segDrops++
			} else {
				inSegs = append(inSegs, c)
			}
		}
	}
	kept := map[string]bool{}
	for _, c := range all {
		if !drop[c.Rev] && c.Name != "" {
			kept[c.Name] = true
		}
	}
	staleDeleted := false
	for name := range m.Deleted {
		if !kept[name] {
			staleDeleted = true
		}
	}
	if len(drop) == 0 && len(oldSegs) <= 1 && !staleDeleted {
		return 0, nil
	}
	var newSegs []string
	if segDrops > 0 || len(oldSegs) > 1 {
		if len(inSegs) > 0 {
			key, err := s.putSegment(ctx, room, m.Rev, inSegs)
			if err != nil {
				return 0, err
			}
			newSegs = []string{key}
		}
	} else {
		newSegs = oldSegs
	}
	dropped := 0
	_, err = s.updateManifest(ctx, s.manifestKey(room), func(m *manifest, _ bool) (bool, error) {
		dropped = 0
		if len(m.Segs) < len(oldSegs) || !slices.Equal(m.Segs[:len(oldSegs)], oldSegs) {
			return false, nil // Compacted by another sweep meanwhile.
		}
		wrote := false
		if !slices.Equal(newSegs, oldSegs) {
			m.Segs = append(slices.Clone(newSegs), m.Segs[len(oldSegs):]...)
			dropped += segDrops
			wrote = true
		}
		keep := m.Changes[:0:0]
		for _, c := range m.Changes {
			if drop[c.Rev] {
				dropped++
				wrote = true
				continue
			}
			keep = append(keep, c)
		}
		m.Changes = keep
		if len(m.Segs) == len(newSegs) { // No segment newer than the plan.
			for name := range m.Deleted {
				if !kept[name] && m.findFile(name) < 0 && !slices.ContainsFunc(m.Changes, func(c pumasi.Change) bool { return c.Name == name }) {
					m.forget(name)
					wrote = true
				}
			}
		}
		return wrote, nil
	})
	if err != nil {
		return 0, fmt.Errorf("retention %s: %w", room, err)
	}
	return dropped, nil
}
