package postgres

import (
	"context"
	"time"

	"pumasi/knowledge"
)

// The moderation calls under retry (retry.go): reads, a flag (once per
// agent by its key) and a redaction (a no-op once done) are safe to
// repeat; quarantine and lineage changes only when nothing was applied.

func (r retrying) Flag(ctx context.Context, id string, f knowledge.Flag) (counted bool, err error) {
	err = retry(ctx, idempotent, func(ctx context.Context) error { counted, err = r.Knowledge.Flag(ctx, id, f); return err })
	return counted, err
}

func (r retrying) SetQuarantine(ctx context.Context, id string, on bool, ev knowledge.Event) error {
	return retry(ctx, write, func(ctx context.Context) error { return r.Knowledge.SetQuarantine(ctx, id, on, ev) })
}

func (r retrying) Unquarantine(ctx context.Context, id string, ev knowledge.Event) error {
	return retry(ctx, write, func(ctx context.Context) error { return r.Knowledge.Unquarantine(ctx, id, ev) })
}

func (r retrying) RedactAbsorbed(ctx context.Context, holder string, origins []string, red knowledge.Redaction) error {
	return retry(ctx, idempotent, func(ctx context.Context) error { return r.Knowledge.RedactAbsorbed(ctx, holder, origins, red) })
}

func (r retrying) ModStates(ctx context.Context, ids []string) (m map[string]knowledge.ModState, err error) {
	err = retry(ctx, read, func(ctx context.Context) error { m, err = r.Knowledge.ModStates(ctx, ids); return err })
	return m, err
}

func (r retrying) Moderated(ctx context.Context, q knowledge.ModeratedQuery) (sts []knowledge.ModState, err error) {
	err = retry(ctx, read, func(ctx context.Context) error { sts, err = r.Knowledge.Moderated(ctx, q); return err })
	return sts, err
}

func (r retrying) Supersede(ctx context.Context, older, newer string, at time.Time) error {
	return retry(ctx, write, func(ctx context.Context) error { return r.Knowledge.Supersede(ctx, older, newer, at) })
}

func (r retrying) Redact(ctx context.Context, id string, red knowledge.Redaction) error {
	return retry(ctx, idempotent, func(ctx context.Context) error { return r.Knowledge.Redact(ctx, id, red) })
}

func (r retrying) Redaction(ctx context.Context, id string) (red knowledge.Redaction, err error) {
	err = retry(ctx, read, func(ctx context.Context) error { red, err = r.Knowledge.Redaction(ctx, id); return err })
	return red, err
}

func (r retrying) Events(ctx context.Context, id string) (evs []knowledge.Event, err error) {
	err = retry(ctx, read, func(ctx context.Context) error { evs, err = r.Knowledge.Events(ctx, id); return err })
	return evs, err
}
