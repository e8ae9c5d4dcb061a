package main

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"pumasi/knowledge"
)

// timedDriver is a knowledge.Driver that times each call the engine makes
// on the request paths (query and contribute), to tell where a request's
// time goes: in the driver's round trips or above them. Every other method
// passes through untimed.
type timedDriver struct {
	knowledge.Driver
	mu    sync.Mutex
	calls map[string][]time.Duration
}

func newTimedDriver(d knowledge.Driver) *timedDriver {
	return &timedDriver{Driver: d, calls: map[string][]time.Duration{}}
}

func (t *timedDriver) rec(name string, start time.Time) {
	d := time.Since(start)
	t.mu.Lock()
	t.calls[name] = append(t.calls[name], d)
	t.mu.Unlock()
}

// take returns the calls timed since the last take, and forgets them.
func (t *timedDriver) take() map[string][]time.Duration {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := t.calls
	t.calls = map[string][]time.Duration{}
	return out
}

// rows turns one phase's calls into rows: each method's p50 per call (and
// calls per request) beside the phase's request p50 over HTTP.
func driverRows(phase, k string, calls map[string][]time.Duration, requests int, reqP50 float64) []row {
	names := make([]string, 0, len(calls))
	for n := range calls {
		names = append(names, n)
	}
	sort.Strings(names)
	var out []row
	for _, n := range names {
		d := sortDurations(calls[n])
		per := float64(len(d)) / float64(max(requests, 1))
		out = append(out, row{Metric: fmt.Sprintf("  driver %s p50 per call (%.1f/req) in %s @%s", n, per, phase, k),
			Value: percentile(d, 50), Unit: "ms", Baseline: phase + " p50 over HTTP", Base: reqP50})
	}
	return out
}

func callSummary(calls map[string][]time.Duration) string {
	var parts []string
	for n, d := range calls {
		d = sortDurations(d)
		parts = append(parts, fmt.Sprintf("%s n=%d p50=%.2fms p99=%.2fms", n, len(d), percentile(d, 50), percentile(d, 99)))
	}
	sort.Strings(parts)
	return strings.Join(parts, "; ")
}

func (t *timedDriver) FindExact(ctx context.Context, hive, normHash string) (string, error) {
	defer t.rec("FindExact", time.Now())
	return t.Driver.FindExact(ctx, hive, normHash)
}

func (t *timedDriver) Insert(ctx context.Context, e knowledge.NewEntry, first knowledge.Contribution) (string, bool, error) {
	defer t.rec("Insert", time.Now())
	return t.Driver.Insert(ctx, e, first)
}

func (t *timedDriver) AddContribution(ctx context.Context, id string, c knowledge.Contribution) (bool, error) {
	defer t.rec("AddContribution", time.Now())
	return t.Driver.AddContribution(ctx, id, c)
}

func (t *timedDriver) Entries(ctx context.Context, ids []string) (map[string]knowledge.StoredEntry, error) {
	defer t.rec("Entries", time.Now())
	return t.Driver.Entries(ctx, ids)
}

func (t *timedDriver) Contributions(ctx context.Context, id string) ([]knowledge.Contribution, error) {
	defer t.rec("Contributions", time.Now())
	return t.Driver.Contributions(ctx, id)
}

func (t *timedDriver) Nearest(ctx context.Context, hive, model string, v []float32, k int) ([]string, error) {
	defer t.rec("Nearest", time.Now())
	return t.Driver.Nearest(ctx, hive, model, v, k)
}

// NearestEntries times the driver's NearestEntries; a driver without one
// is asked as the engine would ask it, Nearest then Entries, each timed.
func (t *timedDriver) NearestEntries(ctx context.Context, hive, model string, v []float32, k int) ([]knowledge.StoredEntry, error) {
	r, ok := t.Driver.(knowledge.NearestReader)
	if !ok {
		ids, err := t.Nearest(ctx, hive, model, v, k)
		if err != nil {
			return nil, err
		}
		ents, err := t.Entries(ctx, ids)
		if err != nil {
			return nil, err
		}
		out := make([]knowledge.StoredEntry, 0, len(ids))
		for _, id := range ids {
			if e, ok := ents[id]; ok {
				out = append(out, e)
			}
		}
		return out, nil
	}
	defer t.rec("NearestEntries", time.Now())
	return r.NearestEntries(ctx, hive, model, v, k)
}

func (t *timedDriver) TermCounts(ctx context.Context, terms []knowledge.Term, limit int) ([]int, error) {
	defer t.rec("TermCounts", time.Now())
	return t.Driver.TermCounts(ctx, terms, limit)
}

func (t *timedDriver) Match(ctx context.Context, hive string, terms []knowledge.Term, k int) ([][]string, error) {
	defer t.rec("Match", time.Now())
	return t.Driver.Match(ctx, hive, terms, k)
}

func (t *timedDriver) ModStates(ctx context.Context, ids []string) (map[string]knowledge.ModState, error) {
	defer t.rec("ModStates", time.Now())
	return t.Driver.ModStates(ctx, ids)
}

// ReadsStates passes on whether the driver reads entries' moderation
// states with their rows (knowledge.StateReader), so the engine asks the
// timed driver as it would ask the driver.
func (t *timedDriver) ReadsStates() bool {
	r, ok := t.Driver.(knowledge.StateReader)
	return ok && r.ReadsStates()
}

// NearestScored and EntriesScored time the driver's scored reads
// (knowledge.ScoringReader); a driver without them is asked unscored.
func (t *timedDriver) NearestScored(ctx context.Context, hive, model string, v []float32, k int) ([]knowledge.StoredEntry, error) {
	r, ok := t.Driver.(knowledge.ScoringReader)
	if !ok {
		return t.NearestEntries(ctx, hive, model, v, k)
	}
	defer t.rec("NearestScored", time.Now())
	return r.NearestScored(ctx, hive, model, v, k)
}

func (t *timedDriver) EntriesScored(ctx context.Context, ids []string, model string, v []float32) (map[string]knowledge.StoredEntry, error) {
	r, ok := t.Driver.(knowledge.ScoringReader)
	if !ok {
		return t.Entries(ctx, ids)
	}
	defer t.rec("EntriesScored", time.Now())
	return r.EntriesScored(ctx, ids, model, v)
}
