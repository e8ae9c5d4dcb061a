package functions

import (
	"context"
	"net/http"
	"strings"

	"pumasi"
	"pumasi/knowledge"
)

func init() {
	addRoute("GET", "/livez", "health", (*API).livez)
	addRoute("GET", "/healthz", "health", (*API).health)
}

// livez answers while the process runs: a supervisor restarts a process
// that stops answering it, never one that is only not ready.
func (a *API) livez(w http.ResponseWriter, r *http.Request, _ params) {
	writeJSON(w, http.StatusOK, map[string]any{"ok": true})
}

// healthBody is GET /healthz's answer: every check by name, and when one
// fails the names of the failing ones and an unavailable error.
type healthBody struct {
	OK      bool                          `json:"ok"`
	Checks  map[string]pumasi.HealthCheck `json:"checks"`
	Failing []string                      `json:"failing,omitempty"`
	Error   *errorDetail                  `json:"error,omitempty"`
	// Serving says which storage, knowledge store, address and embedder
	// answer (API.Serving), so a probe or a person sees where they are.
	Serving *pumasi.Serving `json:"serving,omitempty"`
}

// health is readiness: 200 only when files can be written durably, the
// knowledge backend answers and the home's free space is above its floor;
// 503 naming each failing check otherwise, with Retry-After, so a load
// balancer sends traffic elsewhere until it passes again.
func (a *API) health(w http.ResponseWriter, r *http.Request, _ params) {
	checks := a.healthChecks(r.Context())
	body := healthBody{OK: true, Checks: map[string]pumasi.HealthCheck{}, Serving: a.Serving}
	var why []string
	for _, c := range checks {
		body.Checks[c.Name] = c
		if !c.OK {
			body.OK = false
			body.Failing = append(body.Failing, c.Name)
			why = append(why, c.Name+" ("+c.Message+")")
		}
	}
	if body.OK {
		writeJSON(w, http.StatusOK, body)
		return
	}
	body.Error = &errorDetail{Code: pumasi.EUnavailable, Message: "not ready: " + strings.Join(why, "; ")}
	w.Header().Set("Retry-After", RetryAfter)
	writeJSON(w, http.StatusServiceUnavailable, body)
}

// healthChecker is what a store or knowledge driver adds to report its
// readiness checks (pumasi.CheckDurable, CheckKnowledge, CheckDisk).
type healthChecker interface {
	HealthChecks(ctx context.Context) []pumasi.HealthCheck
}

// healthReporter is the older, narrower form: an error once the store can
// no longer serve writes.
type healthReporter interface {
	Healthy() error
}

// healthChecks runs the file store's and the knowledge driver's checks and
// folds them into one result per name of pumasi.HealthChecks: a check
// fails when any part reporting it fails. A check nothing reports (no
// local home in AWS) passes as not applicable.
func (a *API) healthChecks(ctx context.Context) []pumasi.HealthCheck {
	var got []pumasi.HealthCheck
	collect := func(v any) {
		switch h := v.(type) {
		case healthChecker:
			got = append(got, h.HealthChecks(ctx)...)
		case healthReporter:
			c := pumasi.HealthCheck{Name: pumasi.CheckDurable, OK: true}
			if h.Healthy() != nil {
				c.OK, c.Message = false, "the store can no longer make writes durable; restart the server"
			}
			got = append(got, c)
		}
	}
	if a.Store != nil {
		collect(a.Store)
	}
	knowledgeChecked := false
	if k, ok := a.Knowledge.(interface{ Driver() knowledge.Driver }); ok {
		d := k.Driver()
		if _, ok := d.(healthChecker); ok {
			knowledgeChecked = true
		}
		collect(d)
	}
	out := make([]pumasi.HealthCheck, 0, len(pumasi.HealthChecks))
	for _, name := range pumasi.HealthChecks {
		c := pumasi.HealthCheck{Name: name, OK: true}
		seen := false
		var msgs []string
		for _, g := range got {
			if g.Name != name {
				continue
			}
			if !seen || g.FreeBytes < c.FreeBytes {
				c.FreeBytes, c.FloorBytes = g.FreeBytes, g.FloorBytes
			}
			seen = true
			if !g.OK {
				c.OK = false
				if g.Message != "" && !contains(msgs, g.Message) {
					msgs = append(msgs, g.Message)
				}
			}
		}
		switch {
		case len(msgs) > 0:
			c.Message = strings.Join(msgs, "; ")
		case name == pumasi.CheckKnowledge && a.Knowledge == nil:
			c.Message = "no knowledge backend configured"
		case name == pumasi.CheckKnowledge && !knowledgeChecked:
			c.Message = "not checked by this backend"
		case !seen:
			c.Message = "not applicable here"
		}
		out = append(out, c)
	}
	return out
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
