package knowledge

import (
	"context"
	"time"
)

// citeRowDays is how many UTC days of per-day citation rows the sweep
// keeps: today's decide whether a cite counts, and yesterday's stay for a
// clock a little behind. Older rows serve only a merge's fold (a day both
// entries were cited by one agent counts once) and an unmerge's give-back;
// the sweep folds entries written since its last run, whose rows are all
// newer than its last prune, and the rows of every entry still holding an
// absorbed one are kept, so pruning changes no count of entries the sweep
// merges or unmerge restores. (An entry imported or unmerged later, with
// rows older than the window, may count such an old shared day twice.)
const citeRowDays = 2

// CitePruner is what a driver supplies, besides Driver, so that the sweep
// prunes per-day citation rows nothing needs any more.
type CitePruner interface {
	// PruneCites deletes the per-day citation rows of days before before
	// (YYYY-MM-DD), except those held by an entry that an absorption still
	// in effect merged into. It returns how many it deleted.
	PruneCites(ctx context.Context, before string) (int64, error)
}

// pruneCites has the driver drop the citation rows older than the window
// and returns how many it dropped.
func (k *Engine) pruneCites(ctx context.Context) (int64, error) {
	p, ok := k.d.(CitePruner)
	if !ok {
		return 0, nil
	}
	return p.PruneCites(ctx, citeDay(k.now().Add(-time.Duration(citeRowDays-1)*24*time.Hour)))
}
