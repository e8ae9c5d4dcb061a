package knowledgetest

import (
	"bytes"
	"context"
	"testing"
	"time"

	"pumasi/knowledge"
)

// testKnowAnalysis pins the stored analysis (knowledge/analysis.go): the
// engine writes its lexical analysis with a new entry, and every read a
// query makes gives the driver's bytes back as they went in (a driver
// stores them opaque); an entry with none, or with one the engine cannot
// read, ranks exactly as one with the right one, its text analysed again.
func testKnowAnalysis(t *testing.T, newDriver func(t *testing.T) knowledge.Driver) {
	ctx := context.Background()
	d := newDriver(t)
	k := knowledge.New(d, knowledge.Options{Now: knowClock.now})

	in := knowIn("ana-agent", "ana", "pgbouncer 1.21 prepared statements", "Transaction pooling in pgbouncer 1.21 keeps prepared statements with max_prepared_statements=100.", knowVec(1, 2, 0.1))
	res := mustContribute(t, k, in)
	got, err := d.Entries(ctx, []string{res.Entry.ID})
	if err != nil {
		t.Fatalf("Entries: %v", err)
	}
	want := knowledge.Analysis(in.Title, in.Content, in.Tags)
	if len(want) == 0 || !bytes.Equal(got[res.Entry.ID].Analysis, want) {
		t.Fatalf("stored analysis of a contribution = %x, want %x", got[res.Entry.ID].Analysis, want)
	}

	// Opaque bytes, none, and a value of another lexicon, in three hives
	// holding the same text, read back by every read a query may make.
	at := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	title, content := "redis 7.2 eviction under maxmemory", "Redis 7.2 evicts keys with allkeys-lru when maxmemory is reached; see /etc/redis/redis.conf."
	stale := append([]byte{0xff}, want...)
	cases := []struct {
		hive     string
		analysis []byte
	}{
		{"ana-right", knowledge.Analysis(title, content, []string{"redis"})},
		{"ana-none", nil},
		{"ana-stale", stale},
		{"ana-bytes", []byte{0, 1, 2, 0, 255}},
	}
	vec := knowVec(3, 4, 0.2)
	ids := map[string]string{}
	for _, c := range cases {
		ne := knowledge.NewEntry{ID: "ana-" + c.hive, Hive: c.hive, Title: title, Content: content, Tags: []string{"redis"},
			NormHash: knowledge.Hash(title, content), Model: "test-model", Vector: vec, Specificity: 0.8, At: at, Analysis: c.analysis}
		id, created, err := d.Insert(ctx, ne, knowledge.Contribution{Agent: "ana-loader", Title: title, Content: content, At: at, Similarity: 1})
		if err != nil || !created {
			t.Fatalf("Insert(%s) = %v, %v", c.hive, created, err)
		}
		ids[c.hive] = id
	}
	check := func(how string, es map[string]knowledge.StoredEntry) {
		t.Helper()
		for _, c := range cases {
			e, ok := es[ids[c.hive]]
			if !ok {
				continue
			}
			if !bytes.Equal(e.Analysis, c.analysis) || (c.analysis == nil) != (len(e.Analysis) == 0) {
				t.Fatalf("%s: analysis of %s = %x, want %x", how, c.hive, e.Analysis, c.analysis)
			}
		}
	}
	all := []string{ids["ana-right"], ids["ana-none"], ids["ana-stale"], ids["ana-bytes"]}
	es, err := d.Entries(ctx, all)
	if err != nil || len(es) != len(all) {
		t.Fatalf("Entries = %d entries, %v", len(es), err)
	}
	check("Entries", es)
	if r, ok := d.(knowledge.NearestReader); ok {
		for _, c := range cases {
			list, err := r.NearestEntries(ctx, c.hive, "test-model", vec, 5)
			if err != nil || len(list) != 1 {
				t.Fatalf("NearestEntries(%s) = %d entries, %v", c.hive, len(list), err)
			}
			check("NearestEntries", map[string]knowledge.StoredEntry{list[0].ID: list[0]})
		}
	}
	if r, ok := d.(knowledge.ScoringReader); ok {
		for _, c := range cases {
			list, err := r.NearestScored(ctx, c.hive, "test-model", vec, 5)
			if err != nil || len(list) != 1 {
				t.Fatalf("NearestScored(%s) = %d entries, %v", c.hive, len(list), err)
			}
			check("NearestScored", map[string]knowledge.StoredEntry{list[0].ID: list[0]})
		}
		es, err := r.EntriesScored(ctx, all, "test-model", vec)
		if err != nil || len(es) != len(all) {
			t.Fatalf("EntriesScored = %d entries, %v", len(es), err)
		}
		check("EntriesScored", es)
	}

	// The same text ranks alike whatever its stored analysis: by its
	// vector, and by its words alone.
	for _, q := range []knowledge.QueryInput{
		{Text: "redis maxmemory eviction allkeys-lru", Model: "test-model", Vector: vec},
		{Text: "redis maxmemory eviction allkeys-lru", Model: "test-model"},
	} {
		var first knowledge.Hit
		for i, c := range cases {
			q.Hive = c.hive
			hits, err := k.Query(ctx, q)
			if err != nil || len(hits) != 1 {
				t.Fatalf("Query(%s, vector %v) = %d hits, %v", c.hive, q.Vector != nil, len(hits), err)
			}
			h := hits[0]
			if h.Lexical <= 0 {
				t.Fatalf("Query(%s): lexical %v, want > 0", c.hive, h.Lexical)
			}
			if i == 0 {
				first = h
				continue
			}
			if h.Lexical != first.Lexical || h.Score != first.Score || h.Similarity != first.Similarity {
				t.Fatalf("Query(%s) = lexical %v score %v similarity %v, want %v %v %v as with the right analysis",
					c.hive, h.Lexical, h.Score, h.Similarity, first.Lexical, first.Score, first.Similarity)
			}
		}
	}
}

// testKnowReanalyse: entries whose stored analysis is missing, another
// lexicon's or not an analysis at all get the current one from
// Engine.Reanalyse, which leaves current ones alone; a second run has
// nothing to do. A driver that is no Reanalyser is skipped.
func testKnowReanalyse(t *testing.T, newDriver func(t *testing.T) knowledge.Driver) {
	ctx := context.Background()
	d := newDriver(t)
	if _, ok := d.(knowledge.Reanalyser); !ok {
		t.Skip("the driver stores no analyses it can rewrite")
	}
	k := knowledge.New(d, knowledge.Options{Now: knowClock.now})
	at := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	title, content := "nginx 1.25 http2 directive", "nginx 1.25 deprecates `listen 443 ssl http2`; write `http2 on;` in the server block."
	right := knowledge.Analysis(title, content, []string{"nginx"})
	stale := append([]byte{0xff}, right...)
	cases := []struct {
		hive     string
		analysis []byte
	}{
		{"rean-right", right}, {"rean-none", nil}, {"rean-stale", stale}, {"rean-bytes", []byte{0, 1, 2}},
	}
	for _, c := range cases {
		ne := knowledge.NewEntry{ID: "rean-" + c.hive, Hive: c.hive, Title: title, Content: content, Tags: []string{"nginx"},
			NormHash: knowledge.Hash(title, content), Model: "test-model", Vector: knowVec(5, 6, 0.1), Specificity: 0.8, At: at, Analysis: c.analysis}
		if _, created, err := d.Insert(ctx, ne, knowledge.Contribution{Agent: "rean-loader", Title: title, Content: content, At: at, Similarity: 1}); err != nil || !created {
			t.Fatalf("Insert(%s) = %v, %v", c.hive, created, err)
		}
	}
	n, err := k.Reanalyse(ctx)
	if err != nil || n != 3 {
		t.Fatalf("Reanalyse = %d, %v; want the 3 entries without the current analysis", n, err)
	}
	var ids []string
	for _, c := range cases {
		ids = append(ids, "rean-"+c.hive)
	}
	es, err := d.Entries(ctx, ids)
	if err != nil || len(es) != len(ids) {
		t.Fatalf("Entries = %d entries, %v", len(es), err)
	}
	for _, id := range ids {
		if !bytes.Equal(es[id].Analysis, right) {
			t.Fatalf("analysis of %s after Reanalyse = %x, want %x", id, es[id].Analysis, right)
		}
	}
	if n, err := k.Reanalyse(ctx); err != nil || n != 0 {
		t.Fatalf("second Reanalyse = %d, %v; want nothing to do", n, err)
	}
}
