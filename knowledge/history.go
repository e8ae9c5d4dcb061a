package knowledge

import (
	"context"
	"sort"
)

// History is what happened to an entry, oldest first.
type History struct {
	EntryID string  `json:"entry_id"`
	Events  []Event `json:"events"`
}

// History lists entry id's lifecycle oldest first: its flags, quarantines
// and restores, its lineage (superseded, supersedes) and its redaction. A
// redacted id still answers, with its tombstone's event. Returns not_found
// for an id that is neither an entry nor in any event.
func (k *Engine) History(ctx context.Context, id string) (History, error) {
	evs, err := k.mod().Events(ctx, id)
	if err != nil {
		return History{}, err
	}
	if len(evs) == 0 {
		if _, err := k.entry(ctx, id); err != nil {
			return History{}, err
		}
	}
	sort.SliceStable(evs, func(a, b int) bool { return evs[a].At.Before(evs[b].At) })
	return History{EntryID: id, Events: evs}, nil
}
