package knowledge

import (
	"context"
	"fmt"

	"pumasi"
)

// maxLineage bounds how far a supersession chain is followed.
const maxLineage = 8

// screened is a query's candidates after moderation: quarantined entries
// left out, successors added, with every candidate's state and which
// older entries give their place to which newer ones.
type screened struct {
	cands      []StoredEntry
	states     map[string]ModState
	replacedBy map[string]string
}

// screen applies moderation to a query's candidates, in their order, given
// the moderation states of (at least) every candidate. A
// quarantined entry is left out unless include. An entry superseded by a
// live entry (there, and not quarantined) is replaced by the newest live
// entry of its chain, which joins the candidates when it was not one.
func (k *Engine) screen(ctx context.Context, cands []StoredEntry, sts map[string]ModState, include bool) (screened, error) {
	out := screened{states: map[string]ModState{}, replacedBy: map[string]string{}}
	if len(cands) == 0 {
		out.cands = cands
		return out, nil
	}
	known := make(map[string]StoredEntry, len(cands))
	ids := make([]string, len(cands))
	for i, e := range cands {
		known[e.ID] = e
		ids[i] = e.ID
	}
	out.states = make(map[string]ModState, len(ids))
	for _, id := range ids {
		if st, ok := sts[id]; ok {
			out.states[id] = st
		}
	}
	live := func(id string) bool {
		_, ok := known[id]
		return ok && (include || !out.states[id].Quarantined)
	}
	// Read the successors of superseded candidates, a level at a time.
	frontier := []string{}
	for _, id := range ids {
		if s := sts[id].SupersededBy; s != "" {
			frontier = append(frontier, s)
		}
	}
	tried := map[string]bool{}
	for depth := 0; depth < maxLineage && len(frontier) > 0; depth++ {
		var need []string
		for _, id := range frontier {
			if _, ok := known[id]; !ok && !tried[id] {
				tried[id] = true
				need = append(need, id)
			}
		}
		if len(need) == 0 {
			break
		}
		ents, err := k.d.Entries(ctx, need)
		if err != nil {
			return out, fmt.Errorf("read successors: %w", err)
		}
		// A driver whose entry reads carry their states was asked already.
		var more map[string]ModState
		if readsStates(k.d) {
			more = statesOf(ents)
		} else if more, err = k.mod().ModStates(ctx, need); err != nil {
			return out, fmt.Errorf("read moderation of successors: %w", err)
		}
		frontier = frontier[:0]
		for _, id := range need {
			if e, ok := ents[id]; ok {
				known[id] = e
				out.states[id] = more[id]
				if s := more[id].SupersededBy; s != "" {
					frontier = append(frontier, s)
				}
			}
		}
	}
	inCands := map[string]bool{}
	for _, e := range cands {
		if live(e.ID) {
			inCands[e.ID] = true
		}
	}
	var added []StoredEntry
	for _, e := range cands {
		if !live(e.ID) {
			continue
		}
		out.cands = append(out.cands, e)
		succ, seen := "", map[string]bool{e.ID: true}
		for next := out.states[e.ID].SupersededBy; next != "" && !seen[next] && len(seen) <= maxLineage; next = out.states[next].SupersededBy {
			seen[next] = true
			if _, ok := known[next]; !ok {
				break
			}
			if live(next) {
				succ = next
			}
		}
		if succ == "" {
			continue
		}
		out.replacedBy[e.ID] = succ
		if !inCands[succ] {
			inCands[succ] = true
			added = append(added, known[succ])
		}
	}
	out.cands = append(out.cands, added...)
	return out, nil
}

// checkSupersedes validates what a contribution supersedes and returns the
// entry to record: an entry that exists (not_found; gone when redacted) —
// for an absorbed id, the live entry that holds it, as GET answers it — in
// the contribution's hive (invalid_request), that the contribution does
// not merely repeat (invalid_request). A quarantined entry may be
// superseded: a newer finding in place of one taken out is a correction.
func (k *Engine) checkSupersedes(ctx context.Context, in ContributeInput) (string, error) {
	old, err := k.resolve(ctx, in.Supersedes)
	if err != nil {
		switch pumasi.ErrorCode(err) {
		case pumasi.ENotFound:
			err = pumasi.Errorf(pumasi.ENotFound, "supersedes: no knowledge entry %q", in.Supersedes)
		case pumasi.EGone:
			err = &pumasi.Error{Code: pumasi.EGone, Message: "supersedes: " + pumasi.ErrorMessage(err)}
		}
		return "", err
	}
	if old.Hive != in.Hive {
		return "", pumasi.Errorf(pumasi.EInvalidRequest, "supersedes: entry %q is in hive %q, not %q", in.Supersedes, old.Hive, in.Hive)
	}
	id, err := k.d.FindExact(ctx, in.Hive, in.NormHash)
	if err == nil && id != old.ID {
		// The exact text of an entry absorbed into old goes to old too.
		if e, rerr := k.resolve(ctx, id); rerr == nil {
			id = e.ID
		}
	}
	if err == nil && id == old.ID {
		return "", pumasi.Errorf(pumasi.EInvalidRequest, "supersedes: the contribution repeats entry %q; an entry cannot supersede itself", old.ID)
	}
	return old.ID, nil
}

// supersede records, after a contribution landed in entry newer, that it
// supersedes in.Supersedes, unless it landed in that very entry or the
// older entry already (through its chain) supersedes newer, which would
// make a loop. It returns newer read again.
func (k *Engine) supersede(ctx context.Context, older string, newer Entry) (Entry, error) {
	if older == "" || older == newer.ID {
		return newer, nil
	}
	// Would newer → … → older already hold? Then older supersedes newer.
	for id, n := newer.SupersededBy, 0; id != "" && n < maxLineage; n++ {
		if id == older {
			return newer, nil
		}
		sts, err := k.mod().ModStates(ctx, []string{id})
		if err != nil {
			return newer, err
		}
		id = sts[id].SupersededBy
	}
	if err := k.mod().Supersede(ctx, older, newer.ID, k.now().UTC()); err != nil {
		// Not not_found (%v): the contribution landed, and Contribute
		// must not retry it into a second count.
		return newer, fmt.Errorf("record that %s supersedes %s: %v", newer.ID, older, err)
	}
	return k.entry(ctx, newer.ID)
}
