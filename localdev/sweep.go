package localdev

import (
	"context"
	"log/slog"
	"time"

	"pumasi"
)

// nextSweep is the next 02:00 UTC strictly after now: the sweep's schedule in
// AWS and here.
func nextSweep(now time.Time) time.Time {
	now = now.UTC()
	t := time.Date(now.Year(), now.Month(), now.Day(), 2, 0, 0, 0, time.UTC)
	if !t.After(now) {
		t = t.AddDate(0, 0, 1)
	}
	return t
}

// runSweeps runs the sweep daily at 02:00 UTC until ctx ends.
func runSweeps(ctx context.Context, log *slog.Logger, store pumasi.FileStore, grace time.Duration) {
	for {
		timer := time.NewTimer(time.Until(nextSweep(time.Now())))
		select {
		case <-ctx.Done():
			timer.Stop()
			return
		case <-timer.C:
		}
		rep, err := store.Sweep(ctx, grace)
		if err != nil {
			log.Error("sweep", "err", err)
			continue
		}
		log.Info("sweep", "temp_files", rep.TempFiles, "blobs", rep.Blobs)
	}
}
