package main

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"pumasi/knowledge"
)

// trigramIndex is the migrations' trigram index over knowledge_text.
const trigramIndex = "knowledge_entries_trgm"

// trigramAB measures whether the trigram index pays (pgOpts.trigramAB):
// the queries again and 8 clients' contributions with the index dropped,
// beside the same figures with it (with: query p50, p99, contributions/s),
// then builds it again from its definition, timed.
func trigramAB(ctx context.Context, pool *pgxpool.Pool, client *http.Client, base string, qtexts []string, k string, with [3]float64, seed int) ([]row, error) {
	var def string
	if err := pool.QueryRow(ctx, `SELECT indexdef FROM pg_indexes WHERE indexname = $1`, trigramIndex).Scan(&def); err != nil {
		return nil, fmt.Errorf("trigram index definition: %w", err)
	}
	if _, err := pool.Exec(ctx, `DROP INDEX `+trigramIndex); err != nil {
		return nil, err
	}
	lat := make([]time.Duration, len(qtexts))
	for i, q := range qtexts {
		start := time.Now()
		if err := benchGet(ctx, client, base+"/knowledge/query?limit=5&q="+url.QueryEscape(q)); err != nil {
			return nil, err
		}
		lat[i] = time.Since(start)
	}
	sortDurations(lat)
	rate, _, err := benchContributeClients(ctx, client, base, 200, 8, seed)
	if err != nil {
		return nil, err
	}
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, `SET maintenance_work_mem = '1GB'`); err != nil {
		return nil, err
	}
	start := time.Now()
	if _, err := conn.Exec(ctx, def); err != nil {
		return nil, fmt.Errorf("rebuild %s: %w", trigramIndex, err)
	}
	build := time.Since(start)
	rows := []row{
		{Metric: "postgres knowledge query p50 without the trigram index @" + k, Value: percentile(lat, 50), Unit: "ms", Baseline: "with it", Base: with[0]},
		{Metric: "postgres knowledge query p99 without the trigram index @" + k, Value: percentile(lat, 99), Unit: "ms", Baseline: "with it", Base: with[1]},
		{Metric: "postgres knowledge contribute, 8 clients, without the trigram index @" + k, Value: rate, Unit: "/s", Baseline: "with it", Base: with[2], HigherIsBetter: true},
		{Metric: "postgres trigram index rebuilt (maintenance_work_mem 1GB) @" + k, Value: build.Seconds(), Unit: "s"},
	}
	progress(rows...)
	return rows, nil
}

// nearestAB times, query by query in alternating order (so the machine's
// load falls on both alike), a query's vector candidates read two ways:
// Nearest(100) then Entries of its ids, and NearestEntries(100) alone.
func nearestAB(ctx context.Context, d knowledge.Driver, emb benchEmbedder, qtexts []string) (two, one []time.Duration, err error) {
	r, ok := d.(knowledge.NearestReader)
	if !ok {
		return nil, nil, fmt.Errorf("driver %T has no NearestEntries", d)
	}
	for i, q := range qtexts {
		v := emb.Vector(q)
		a := func() error {
			start := time.Now()
			ids, err := d.Nearest(ctx, "academy", emb.Model(), v, 100)
			if err == nil {
				_, err = d.Entries(ctx, ids)
			}
			two = append(two, time.Since(start))
			return err
		}
		b := func() error {
			start := time.Now()
			_, err := r.NearestEntries(ctx, "academy", emb.Model(), v, 100)
			one = append(one, time.Since(start))
			return err
		}
		first, second := a, b
		if i%2 == 1 {
			first, second = b, a
		}
		if err := first(); err != nil {
			return nil, nil, err
		}
		if err := second(); err != nil {
			return nil, nil, err
		}
	}
	return sortDurations(two), sortDurations(one), nil
}

// separateStates is a driver that reads vectors back and does not read
// entries' moderation states with their rows (it hides
// knowledge.ScoringReader and knowledge.StateReader): the engine then
// rescores from the vectors and asks ModStates in a statement of its own,
// as before either change.
type separateStates struct{ knowledge.Driver }

func (s separateStates) NearestEntries(ctx context.Context, hive, model string, v []float32, k int) ([]knowledge.StoredEntry, error) {
	return s.Driver.(knowledge.NearestReader).NearestEntries(ctx, hive, model, v, k)
}

// vectorsBack is separateStates reading the states with the rows: it
// hides knowledge.ScoringReader only.
type vectorsBack struct{ separateStates }

func (v vectorsBack) ReadsStates() bool {
	r, ok := v.Driver.(knowledge.StateReader)
	return ok && r.ReadsStates()
}

// readsAB times the engine's queries (no HTTP) over d as it is, over d
// reading vectors back (vectorsBack) and over d as before (separateStates),
// query by query, in an order that turns with each query.
func readsAB(ctx context.Context, d knowledge.Driver, emb benchEmbedder, qtexts []string) (times [3][]time.Duration, err error) {
	engines := [3]*knowledge.Engine{knowledge.New(d, knowledge.Options{}),
		knowledge.New(vectorsBack{separateStates{d}}, knowledge.Options{}), knowledge.New(separateStates{d}, knowledge.Options{})}
	for i, q := range qtexts {
		in := knowledge.QueryInput{Hive: "academy", Text: q, Model: emb.Model(), Vector: emb.Vector(q), Limit: 5}
		for j := range engines {
			e := (i + j) % len(engines)
			start := time.Now()
			if _, err := engines[e].Query(ctx, in); err != nil {
				return times, err
			}
			times[e] = append(times[e], time.Since(start))
		}
	}
	for i := range times {
		sortDurations(times[i])
	}
	return times, nil
}
