package knowledge

import (
	"context"
	"fmt"
	"sort"
	"time"

	"pumasi"
)

// maxAbsorbChain bounds how many absorptions resolve follows from an id to
// the live entry holding it.
const maxAbsorbChain = 32

// Event kinds of an entry's history (History): it absorbed another entry,
// it was merged into another, or one of those was undone.
const (
	EventAbsorbed   = "absorbed"
	EventMergedInto = "merged_into"
	EventUnmerged   = "unmerged"
)

// History is what happened to an entry, oldest first.
type History struct {
	EntryID string  `json:"entry_id"`
	Events  []Event `json:"events"`
}

// Bump is the answer to a cite or an endorsement: the entry it counted on
// and whether it counted (a repeat does not).
type Bump struct {
	Entry
	Counted bool `json:"counted"`
}

// current returns the absorption of id still in effect among ms, if any.
func current(id string, ms []Merge) (Merge, bool) {
	for _, m := range ms {
		if m.EntryID == id && m.UnmergedAt.IsZero() {
			return m, true
		}
	}
	return Merge{}, false
}

// resolve returns the live entry that holds id: id itself, or the entry
// its chain of absorptions ends in. Returns not_found when id is neither an
// entry nor absorbed.
func (k *Engine) resolve(ctx context.Context, id string) (StoredEntry, error) {
	for hop := 0; hop <= maxAbsorbChain; hop++ {
		ents, err := k.d.Entries(ctx, []string{id})
		if err != nil {
			return StoredEntry{}, fmt.Errorf("read entry %s: %w", id, err)
		}
		if e, ok := ents[id]; ok {
			return e, nil
		}
		ms, err := k.d.Merges(ctx, id)
		if err != nil {
			return StoredEntry{}, fmt.Errorf("read merges of %s: %w", id, err)
		}
		m, ok := current(id, ms)
		if !ok {
			break
		}
		// An absorbed entry redacted inside its survivor answers gone.
		if _, err := k.mod().Redaction(ctx, id); err == nil {
			return StoredEntry{}, k.goneIfRedacted(ctx, id, pumasi.Errorf(pumasi.ENotFound, "no knowledge entry %q", id))
		} else if pumasi.ErrorCode(err) != pumasi.ENotFound {
			return StoredEntry{}, fmt.Errorf("read redaction of %s: %w", id, err)
		}
		id = m.MergedInto
	}
	return StoredEntry{}, k.goneIfRedacted(ctx, id, pumasi.Errorf(pumasi.ENotFound, "no knowledge entry %q", id))
}

// live runs op on the live entry holding id (see resolve), again when an
// absorb moves it away in between. It returns that entry's id.
func (k *Engine) live(ctx context.Context, id string, op func(live string) error) (string, error) {
	for attempt := 0; ; attempt++ {
		e, err := k.resolve(ctx, id)
		if err != nil {
			return "", err
		}
		err = op(e.ID)
		if pumasi.ErrorCode(err) == pumasi.ENotFound && attempt < 3 {
			continue
		}
		return e.ID, err
	}
}

// answer is the public entry live, marked merged_into when asked for by
// another (absorbed) id.
func (k *Engine) answer(ctx context.Context, asked, live string) (Entry, error) {
	e, err := k.entry(ctx, live)
	if err != nil {
		return Entry{}, err
	}
	if live != asked {
		e.MergedInto = live
	}
	return e, nil
}

// citeDay is the key of at's UTC day: a cite counts once per agent, entry
// and day.
func citeDay(at time.Time) string { return at.UTC().Format(time.DateOnly) }

// Cite counts agent's citation of the entry id names (its survivor when id
// was absorbed) once per UTC day; a repeat the same day answers the entry
// unchanged, counted false, and does not mark it used.
func (k *Engine) Cite(ctx context.Context, id, agent string) (Bump, error) {
	if err := CheckHandle(agent); err != nil {
		return Bump{}, err
	}
	now := k.now().UTC()
	var counted bool
	live, err := k.live(ctx, id, func(live string) (err error) {
		counted, err = k.d.Cite(ctx, live, agent, citeDay(now), now)
		return err
	})
	if err != nil {
		return Bump{}, err
	}
	e, err := k.answer(ctx, id, live)
	return Bump{Entry: e, Counted: counted}, err
}

// Endorse counts agent's endorsement of the entry id names (its survivor
// when id was absorbed) once ever; every endorsement marks the entry used.
func (k *Engine) Endorse(ctx context.Context, id, agent string) (Bump, error) {
	if err := CheckHandle(agent); err != nil {
		return Bump{}, err
	}
	now := k.now().UTC()
	var counted bool
	live, err := k.live(ctx, id, func(live string) (err error) {
		counted, err = k.d.Endorse(ctx, live, agent, now)
		return err
	})
	if err != nil {
		return Bump{}, err
	}
	e, err := k.answer(ctx, id, live)
	return Bump{Entry: e, Counted: counted}, err
}

// Unmerge restores absorbed entry id as a live entry with its own
// contributions, endorsements, citations, flags and counts, taking them
// back out of its survivor; the entries it had itself absorbed stay in it.
// A quarantine of the survivor that only this merge brought (id was
// quarantined, or its flaggers tipped the threshold) is lifted; one from
// the survivor's own flaggers or an admin stays. The restored entry comes
// back as quarantined as it went in, unless an admin restored the
// survivor (through either id) since: that restore reviewed its flags and
// lifted its quarantine too (Restore). It answers the restored entry; for a live entry (never merged, or restored already) it changes
// nothing and answers it. Returns not_found for an unknown id, gone when id
// or its survivor was redacted (its text went too), precondition_failed
// when the survivor was itself merged since (unmerge that one first),
// name_conflict when the hive took the entry's exact text meanwhile. The
// sweep never merges the two again.
func (k *Engine) Unmerge(ctx context.Context, id, by string) (Entry, error) {
	ms, err := k.d.Merges(ctx, id)
	if err != nil {
		return Entry{}, fmt.Errorf("read merges of %s: %w", id, err)
	}
	m, ok := current(id, ms)
	if !ok {
		// Restored already: the lift that follows the unmerge's commit may
		// have failed (the caller saw an error and retries), so it runs
		// again; it changes nothing when done.
		if last, ok := lastUndone(id, ms); ok {
			if err := k.liftMerged(ctx, last.MergedInto, id, by, "unmerged"); err != nil {
				return Entry{}, err
			}
		}
		return k.GetEntry(ctx, id)
	}
	// not_found (its chain broke: the survivor went since) is answered
	// below, naming the survivor.
	if _, err := k.resolve(ctx, id); pumasi.ErrorCode(err) == pumasi.EGone {
		return Entry{}, &pumasi.Error{Code: pumasi.EGone, Message: fmt.Sprintf(
			"knowledge entry %q cannot be unmerged: %s", id, pumasi.ErrorMessage(err))}
	} else if err != nil && pumasi.ErrorCode(err) != pumasi.ENotFound {
		return Entry{}, err
	}
	survivor, err := k.d.Entries(ctx, []string{m.MergedInto})
	if err != nil {
		return Entry{}, fmt.Errorf("read entry %s: %w", m.MergedInto, err)
	}
	if _, ok := survivor[m.MergedInto]; !ok {
		return Entry{}, pumasi.Errorf(pumasi.EPreconditionFailed,
			"entry %q was merged into %q, which was itself merged since: unmerge %q first", id, m.MergedInto, m.MergedInto)
	}
	origins, err := k.absorbedInto(ctx, id)
	if err != nil {
		return Entry{}, err
	}
	err = k.d.Unmerge(ctx, Unmerge{EntryID: id, Origins: origins, At: k.now().UTC(), By: by})
	if err != nil && pumasi.ErrorCode(err) != pumasi.ENotFound {
		return Entry{}, fmt.Errorf("unmerge %s: %w", id, err)
	}
	// not_found: a racing unmerge restored it first (the lift is
	// idempotent, whichever runs it).
	if err := k.liftMerged(ctx, m.MergedInto, id, by, "unmerged"); err != nil {
		return Entry{}, err
	}
	return k.GetEntry(ctx, id)
}

// lastUndone returns the latest undone absorption of id among ms, if any.
func lastUndone(id string, ms []Merge) (Merge, bool) {
	var last Merge
	found := false
	for _, m := range ms {
		if m.EntryID == id && !m.UnmergedAt.IsZero() {
			last, found = m, true
		}
	}
	return last, found
}

// redactAbsorbed redacts absorbed entry r.ID inside the live entry that
// holds its rows (see Redact); when that one was redacted, r.ID's text went
// with it and there is nothing left to do. Returns not_found when r.ID is
// not absorbed or its rows moved meanwhile (Redact looks again).
func (k *Engine) redactAbsorbed(ctx context.Context, r Redaction) error {
	ms, err := k.d.Merges(ctx, r.ID)
	if err != nil {
		return fmt.Errorf("read merges of %s: %w", r.ID, err)
	}
	m, ok := current(r.ID, ms)
	if !ok {
		return pumasi.Errorf(pumasi.ENotFound, "no knowledge entry %q", r.ID)
	}
	holder, err := k.resolve(ctx, m.MergedInto)
	if pumasi.ErrorCode(err) == pumasi.EGone {
		return nil // its survivor's redaction took its text already
	}
	if err != nil {
		return err
	}
	origins, err := k.absorbedInto(ctx, r.ID)
	if err != nil {
		return err
	}
	r.Hive = m.Hive
	if err := k.mod().RedactAbsorbed(ctx, holder.ID, origins, r); err != nil {
		return err
	}
	return k.liftMerged(ctx, holder.ID, r.ID, r.By, "redacted")
}

// reliftRedacted runs again, for an absorbed id redacted already, the lift
// of its holder's quarantine that follows the redaction's commit (it may
// have failed, and the caller retries); it changes nothing when done.
func (k *Engine) reliftRedacted(ctx context.Context, id, by string) error {
	ms, err := k.d.Merges(ctx, id)
	if err != nil {
		return fmt.Errorf("read merges of %s: %w", id, err)
	}
	m, ok := current(id, ms)
	if !ok {
		return nil // redacted as a live entry: no holder
	}
	holder, err := k.resolve(ctx, m.MergedInto)
	switch pumasi.ErrorCode(err) {
	case pumasi.EGone, pumasi.ENotFound:
		return nil // the holder went too
	}
	if err != nil {
		return err
	}
	return k.liftMerged(ctx, holder.ID, id, by, "redacted")
}

// absorbedInto returns id and every entry whose absorption still in effect
// leads into id: the origins of the rows that are id's own.
func (k *Engine) absorbedInto(ctx context.Context, id string) ([]string, error) {
	out := []string{id}
	seen := map[string]bool{id: true}
	for i := 0; i < len(out); i++ {
		ms, err := k.d.Merges(ctx, out[i])
		if err != nil {
			return nil, fmt.Errorf("read merges of %s: %w", out[i], err)
		}
		for _, m := range ms {
			if m.MergedInto == out[i] && m.UnmergedAt.IsZero() && !seen[m.EntryID] {
				seen[m.EntryID] = true
				out = append(out, m.EntryID)
			}
		}
	}
	return out, nil
}

// History lists what happened to entry id (live, absorbed or redacted),
// oldest first: the merges it took part in and their undoing, and its
// moderation (flags, quarantine, lineage, redaction). Returns not_found for
// an id that is neither an entry nor in any record.
func (k *Engine) History(ctx context.Context, id string) (History, error) {
	ms, err := k.d.Merges(ctx, id)
	if err != nil {
		return History{}, fmt.Errorf("read merges of %s: %w", id, err)
	}
	mod, err := k.mod().Events(ctx, id)
	if err != nil {
		return History{}, fmt.Errorf("read events of %s: %w", id, err)
	}
	if len(ms) == 0 && len(mod) == 0 {
		if _, err := k.entry(ctx, id); err != nil {
			return History{}, err
		}
	}
	h := History{EntryID: id, Events: append(mergeEvents(id, ms), mod...)}
	sort.SliceStable(h.Events, func(a, b int) bool { return h.Events[a].At.Before(h.Events[b].At) })
	return h, nil
}

// mergeEvents are the events of id's merge records.
func mergeEvents(id string, ms []Merge) []Event {
	events := []Event{}
	for _, m := range ms {
		kind, other := EventAbsorbed, m.EntryID
		if m.EntryID == id {
			kind, other = EventMergedInto, m.MergedInto
		}
		events = append(events, Event{Kind: kind, At: m.At, OtherID: other, Similarity: m.Similarity, Via: m.Via})
		if !m.UnmergedAt.IsZero() {
			events = append(events, Event{Kind: EventUnmerged, At: m.UnmergedAt, OtherID: other, Similarity: m.Similarity, Via: m.Via, By: m.UnmergedBy})
		}
	}
	return events
}

// RecentMerges lists up to limit merges in hive (every hive when empty)
// that an unmerge can undo, newest first: what a moderator may want to
// undo. A merge whose text a redaction took (of the absorbed entry or of
// the one holding it) is not among them: unmerge answers gone for it, and
// its record, blank, is in the history of both ids.
func (k *Engine) RecentMerges(ctx context.Context, hive string, limit int) ([]Merge, error) {
	if limit <= 0 || limit > MaxQueryLimit {
		limit = MaxQueryLimit
	}
	ms, _, err := k.mergesPage(ctx, ModerationQuery{Hive: hive, Limit: limit})
	return ms, err
}

// keptApart reports whether a and b were merged once and an admin undid
// it: the sweep does not merge them again.
func (k *Engine) keptApart(ctx context.Context, a, b string) (bool, error) {
	ms, err := k.d.Merges(ctx, a)
	if err != nil {
		return false, fmt.Errorf("read merges of %s: %w", a, err)
	}
	for _, m := range ms {
		if !m.UnmergedAt.IsZero() && (m.EntryID == a && m.MergedInto == b || m.EntryID == b && m.MergedInto == a) {
			return true, nil
		}
	}
	return false, nil
}
