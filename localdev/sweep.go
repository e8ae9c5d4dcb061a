package localdev

import (
	"context"
	"log/slog"
	"time"

	"pumasi/functions"
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

// runSweeps runs sweep daily at 02:00 UTC until ctx ends.
func runSweeps(ctx context.Context, sweep func(context.Context)) {
	for {
		timer := time.NewTimer(time.Until(nextSweep(time.Now())))
		select {
		case <-ctx.Done():
			timer.Stop()
			return
		case <-timer.C:
		}
		sweep(ctx)
	}
}

// sweepOnce runs one sweep; failures are logged and retried the next day.
func sweepOnce(ctx context.Context, log *slog.Logger, api *functions.API, grace time.Duration) {
	rep, err := api.Sweep(ctx, grace)
	if err != nil {
		log.Error("sweep", "err", err)
		return
	}
	log.Info("sweep", "temp_files", rep.Files.TempFiles, "blobs", rep.Files.Blobs, "knowledge", rep.Knowledge)
}
