package knowledge

import (
	"context"
	"fmt"

	"pumasi"
)

// EventUnquarantined is the kind of the event that records a quarantine
// lifted because what brought it left the entry: the unmerge (or the
// redaction) of the entry whose merge quarantined it. Unlike a restore it
// clears no flags.
const EventUnquarantined = "unquarantined"

// quarantineMerged applies the threshold to a survivor that has just
// absorbed entry gone, whose flags now count on it: it is quarantined when
// its distinct flaggers with a flag pending reach the threshold, or when
// gone was quarantined (a near-duplicate of a quarantined entry says the
// same thing). The event names gone (OtherID): a quarantine a merge
// brought, which liftMerged takes back when the merge is undone.
func (k *Engine) quarantineMerged(ctx context.Context, keep, gone string) error {
	sts, err := k.mod().ModStates(ctx, []string{keep, gone})
	if err != nil {
		return fmt.Errorf("read moderation of %s: %w", keep, err)
	}
	st, was := sts[keep], sts[gone]
	pending := st.Flags - st.Cleared
	if st.Quarantined || (!was.Quarantined && pending < int64(k.quarantineFlags)) {
		return nil
	}
	ev := Event{Kind: EventQuarantined, At: k.now().UTC(), OtherID: gone,
		Note: fmt.Sprintf("merged %s: %d distinct flaggers", gone, pending)}
	if was.Quarantined {
		ev.Note = fmt.Sprintf("merged %s, which was quarantined", gone)
	}
	err = k.mod().SetQuarantine(ctx, keep, true, ev)
	if pumasi.ErrorCode(err) == pumasi.ENotFound {
		return nil // redacted or absorbed since: nothing left to hide
	}
	return err
}

// quarantinedByMerge reports whether entry id's quarantine in effect came
// from a merge (its quarantined event, the last since a restore, names the
// entry it absorbed) rather than from its own flaggers or an admin.
func (k *Engine) quarantinedByMerge(ctx context.Context, id string) (bool, error) {
	evs, err := k.mod().Events(ctx, id)
	if err != nil {
		return false, fmt.Errorf("read events of %s: %w", id, err)
	}
	byMerge := false
	for _, ev := range evs {
		switch ev.Kind {
		case EventQuarantined:
			byMerge = ev.OtherID != "" && ev.By == ""
		case EventRestored, EventUnquarantined:
			byMerge = false
		}
	}
	return byMerge, nil
}

// liftMerged is called when entry gone's rows have just left survivor keep
// (an unmerge or gone's redaction): a quarantine of keep that a merge
// brought is lifted when nothing that would quarantine keep is left — its
// pending distinct flaggers below the threshold, and no entry still
// absorbed into it quarantined. A quarantine from keep's own flaggers or
// an admin stays, and the lift clears no flag.
func (k *Engine) liftMerged(ctx context.Context, keep, gone, by, why string) error {
	inside, err := k.absorbedInto(ctx, keep)
	if err != nil {
		return err
	}
	sts, err := k.mod().ModStates(ctx, inside)
	if err != nil {
		return fmt.Errorf("read moderation of %s: %w", keep, err)
	}
	st := sts[keep]
	if !st.Quarantined || st.Flags-st.Cleared >= int64(k.quarantineFlags) {
		return nil
	}
	for _, id := range inside[1:] {
		if sts[id].Quarantined {
			return nil
		}
	}
	if byMerge, err := k.quarantinedByMerge(ctx, keep); err != nil || !byMerge {
		return err
	}
	err = k.mod().Unquarantine(ctx, keep, Event{Kind: EventUnquarantined, At: k.now().UTC(), By: by, OtherID: gone,
		Note: fmt.Sprintf("%s %s, whose merge brought the quarantine", why, gone)})
	if pumasi.ErrorCode(err) == pumasi.ENotFound {
		return nil
	}
	return err
}
