package postgres

import (
	"context"
	"time"

	"pumasi"
)

// healthTimeout bounds the ping of a health check.
const healthTimeout = 2 * time.Second

// HealthChecks reports whether the database answers (knowledge): a ping on
// a pooled connection, or a fresh one when the pool holds none.
func (k *Knowledge) HealthChecks(ctx context.Context) []pumasi.HealthCheck {
	ctx, cancel := context.WithTimeout(ctx, healthTimeout)
	defer cancel()
	c := pumasi.HealthCheck{Name: pumasi.CheckKnowledge, OK: true}
	if err := k.pool.Ping(ctx); err != nil {
		c.OK, c.Message = false, "the knowledge database does not answer"
	}
	return []pumasi.HealthCheck{c}
}
