package knowledge

import (
	"context"
	"fmt"
	"sort"
	"time"

	"pumasi"
)

// Import loads one exported record. An entry, record or tombstone already
// there (an entry's id, or its text in its hive under another id; a
// record of the same entry at the same time; a tombstone's id) is left as
// it is, so importing a corpus twice changes nothing and counts are never
// added twice. It reports whether it wrote. Returns invalid_request for a
// record that is not one.
func (k *Engine) Import(ctx context.Context, r Record) (bool, error) {
	p, ok := k.d.(Porter)
	if !ok {
		return false, fmt.Errorf("knowledge driver %T cannot import", k.d)
	}
	n := 0
	for _, set := range []bool{r.Entry != nil, r.Merge != nil, r.Tombstone != nil} {
		if set {
			n++
		}
	}
	if n != 1 {
		return false, pumasi.Errorf(pumasi.EInvalidRequest, "a record holds exactly one of entry, merge and tombstone")
	}
	switch {
	case r.Entry != nil:
		x := *r.Entry
		if err := checkExported(x); err != nil {
			return false, err
		}
		if x.NormHash == "" {
			x.NormHash = Hash(x.Title, x.Content)
		}
		x.Tags = nonNil(x.Tags)
		for i := range x.Contributions {
			x.Contributions[i].Origin = originOr(x.Contributions[i].Origin, x.ID)
		}
		for i := range x.Endorsements {
			x.Endorsements[i].Origin = originOr(x.Endorsements[i].Origin, x.ID)
		}
		for i := range x.Cites {
			x.Cites[i].Origin = originOr(x.Cites[i].Origin, x.ID)
		}
		x.Lifecycle = importedLifecycle(x.Lifecycle, x.ID)
		return p.ImportEntry(ctx, x)
	case r.Merge != nil:
		m := *r.Merge
		if err := checkMerge(m); err != nil {
			return false, err
		}
		m.Tags = nonNil(m.Tags)
		m.Lifecycle = importedLifecycle(m.Lifecycle, m.EntryID)
		return p.ImportMerge(ctx, m)
	}
	t := *r.Tombstone
	if t.ID == "" || pumasi.CheckID("hive", t.Hive) != nil {
		return false, pumasi.Errorf(pumasi.EInvalidRequest, "tombstone %q: want an id and a valid hive", t.ID)
	}
	t.Lifecycle = importedLifecycle(t.Lifecycle, t.ID)
	if len(t.Events) == 0 {
		t.Events = []Event{{Kind: EventRedacted, At: t.At, By: t.By, Reason: t.Reason}}
	}
	return p.ImportRedaction(ctx, t)
}

// importedLifecycle gives id's flags their origin (empty: id) and, for an
// export written before flags carried it, their cleared mark: the first
// moderation.cleared flags (oldest first) are the ones the last restore
// counted.
func importedLifecycle(lc Lifecycle, id string) Lifecycle {
	flags := make([]FlagRecord, len(lc.Flags))
	copy(flags, lc.Flags)
	marked := false
	for i := range flags {
		flags[i].Origin = originOr(flags[i].Origin, id)
		marked = marked || flags[i].Cleared
	}
	if m := lc.Moderation; m != nil && m.Cleared > 0 && !marked {
		order := make([]int, len(flags))
		for i := range order {
			order[i] = i
		}
		sort.SliceStable(order, func(a, b int) bool {
			fa, fb := flags[order[a]], flags[order[b]]
			if !fa.At.Equal(fb.At) {
				return fa.At.Before(fb.At)
			}
			return fa.Agent < fb.Agent
		})
		for n, i := range order {
			flags[i].Cleared = int64(n) < m.Cleared
		}
	}
	lc.Flags = flags
	return lc
}

func originOr(origin, id string) string {
	if origin == "" {
		return id
	}
	return origin
}

// checkExported refuses an entry no backend could hold.
func checkExported(x ExportedEntry) error {
	switch {
	case x.ID == "":
		return pumasi.Errorf(pumasi.EInvalidRequest, "entry without an id")
	case pumasi.CheckID("hive", x.Hive) != nil:
		return pumasi.Errorf(pumasi.EInvalidRequest, "entry %s: hive %q is not a hive id", x.ID, x.Hive)
	case x.Title == "" || x.Content == "":
		return pumasi.Errorf(pumasi.EInvalidRequest, "entry %s: title and content are required", x.ID)
	case len(x.Vector) == 0 || x.Model == "":
		return pumasi.Errorf(pumasi.EInvalidRequest, "entry %s: vector and model are required", x.ID)
	case len(x.Contributions) == 0:
		return pumasi.Errorf(pumasi.EInvalidRequest, "entry %s: no contribution", x.ID)
	case x.ContributionCount < 1 || x.CitationCount < 0 || x.EndorsementCount < 0:
		return pumasi.Errorf(pumasi.EInvalidRequest, "entry %s: counts out of range", x.ID)
	case x.CreatedAt.IsZero():
		return pumasi.Errorf(pumasi.EInvalidRequest, "entry %s: no created_at", x.ID)
	}
	for _, c := range x.Cites {
		if _, err := time.Parse(time.DateOnly, c.Day); err != nil {
			return pumasi.Errorf(pumasi.EInvalidRequest, "entry %s: cite day %q is not YYYY-MM-DD", x.ID, c.Day)
		}
	}
	return nil
}

// checkMerge refuses an absorption record no backend could hold. A record
// whose survivor was redacted is blank (no text, no vector), so only its
// ids, hive and times are required.
func checkMerge(m ExportedMerge) error {
	switch {
	case m.EntryID == "" || m.MergedInto == "" || m.EntryID == m.MergedInto:
		return pumasi.Errorf(pumasi.EInvalidRequest, "merge record %q into %q: want two different ids", m.EntryID, m.MergedInto)
	case pumasi.CheckID("hive", m.Hive) != nil:
		return pumasi.Errorf(pumasi.EInvalidRequest, "merge record %s: hive %q is not a hive id", m.EntryID, m.Hive)
	case m.At.IsZero() || m.CreatedAt.IsZero():
		return pumasi.Errorf(pumasi.EInvalidRequest, "merge record %s: no at or created_at", m.EntryID)
	case m.ContributionCount < 0 || m.CitationCount < 0 || m.EndorsementCount < 0:
		return pumasi.Errorf(pumasi.EInvalidRequest, "merge record %s: counts out of range", m.EntryID)
	case !m.UnmergedAt.IsZero() && m.UnmergedAt.Before(m.At):
		return pumasi.Errorf(pumasi.EInvalidRequest, "merge record %s: undone before it was made", m.EntryID)
	}
	return nil
}
