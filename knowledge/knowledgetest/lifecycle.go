package knowledgetest

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"testing"
	"time"

	"pumasi"
	"pumasi/knowledge"
)

// counts is what testKnowUnmerge compares of an entry.
type counts struct {
	contributions, citations, endorsements int64
	agents                                 string
}

func countsOf(e knowledge.Entry) counts {
	var agents []string
	for _, c := range e.Contributions {
		agents = append(agents, c.Agent)
	}
	sort.Strings(agents)
	return counts{e.ContributionCount, e.CitationCount, e.EndorsementCount, fmt.Sprint(agents)}
}

// testKnowUnmerge pins the lifecycle of a merge: the absorbed id answers
// with its survivor, counts on it go to the survivor, its exact text goes
// there too, history and recent merges list it, and unmerge restores it with
// exactly its own contributions and counts, idempotently, after which the
// sweep leaves the two apart.
func testKnowUnmerge(t *testing.T, s knowledge.Store) {
	ctx := context.Background()
	ai := knowIn("agent-a1", "life", "Redis KEEPTTL keeps the expiry", "`SET key v KEEPTTL` keeps the TTL on overwrite.", knowVec(1, 2, 0))
	bi := knowIn("agent-b1", "life", "Redis SET with KEEPTTL keeps TTL", "Overwrite with `SET ... KEEPTTL` and the TTL stays.", knowVec(1, 2, 0.05))
	bi.Threshold, bi.At = 1.01, ai.At.Add(time.Second)
	a, b := mustContribute(t, s, ai), mustContribute(t, s, bi)
	b2 := bi
	b2.Agent = "agent-b2"
	mustContribute(t, s, b2)
	bump := func(cite bool, id, who string) knowledge.Bump {
		t.Helper()
		f := s.Endorse
		if cite {
			f = s.Cite
		}
		r, err := f(ctx, id, who)
		if err != nil {
			t.Fatalf("bump %s by %s: %v", id, who, err)
		}
		return r
	}
	bump(true, a.Entry.ID, "citer-c1")
	bump(false, a.Entry.ID, "endorser-e1")
	for _, who := range []string{"citer-c1", "citer-c2"} {
		bump(true, b.Entry.ID, who)
	}
	for _, who := range []string{"endorser-e1", "endorser-e2"} {
		bump(false, b.Entry.ID, who)
	}
	wantA := counts{1, 1, 1, "[agent-a1]"}
	wantB := counts{2, 2, 2, "[agent-b1 agent-b2]"}
	if got := countsOf(mustEntry(t, s, a.Entry.ID)); got != wantA {
		t.Fatalf("A before = %+v, want %+v", got, wantA)
	}
	if got := countsOf(mustEntry(t, s, b.Entry.ID)); got != wantB {
		t.Fatalf("B before = %+v, want %+v", got, wantB)
	}

	if rep, err := s.SweepKnowledge(ctx, knowledge.DefaultMergeThreshold); err != nil || rep.Merged != 1 {
		t.Fatalf("sweep = %+v, %v; want B merged into A", rep, err)
	}
	got := mustEntry(t, s, b.Entry.ID)
	if got.ID != a.Entry.ID || got.MergedInto != a.Entry.ID {
		t.Fatalf("absorbed id answers %s merged_into %q, want %s", got.ID, got.MergedInto, a.Entry.ID)
	}
	// Distinct contributors and endorsers; citer-c1's one day on both counts once.
	if got := countsOf(got); got != (counts{3, 2, 2, "[agent-a1 agent-b1 agent-b2]"}) {
		t.Fatalf("survivor = %+v, want 3 contributors, 2 citations, 2 endorsers", got)
	}
	// Counts on the absorbed id go to the survivor.
	if r := bump(true, b.Entry.ID, "citer-c3"); !r.Counted || r.ID != a.Entry.ID || r.MergedInto != a.Entry.ID || r.CitationCount != 3 {
		t.Fatalf("cite on absorbed id = %s merged_into %q counted %v citations %d, want counted on %s (3)", r.ID, r.MergedInto, r.Counted, r.CitationCount, a.Entry.ID)
	}
	if r := bump(true, b.Entry.ID, "citer-c2"); r.Counted || r.CitationCount != 3 {
		t.Fatalf("citer-c2 again the same day through the absorbed id = counted %v (%d), want not counted", r.Counted, r.CitationCount)
	}
	if r := bump(false, b.Entry.ID, "endorser-e3"); !r.Counted || r.ID != a.Entry.ID || r.EndorsementCount != 3 {
		t.Fatalf("endorse on absorbed id = %s counted %v endorsements %d, want counted on %s (3)", r.ID, r.Counted, r.EndorsementCount, a.Entry.ID)
	}
	// The absorbed entry's exact text goes where it went.
	b3 := bi
	b3.Agent, b3.Threshold = "agent-b3", knowledge.DefaultMergeThreshold
	if r := mustContribute(t, s, b3); r.Verdict != knowledge.VerdictMerged || r.Entry.ID != a.Entry.ID {
		t.Fatalf("absorbed entry's exact text = %s into %s, want merged into %s", r.Verdict, r.Entry.ID, a.Entry.ID)
	}
	h, err := s.History(ctx, b.Entry.ID)
	if err != nil || len(h.Events) != 1 || h.Events[0].Kind != knowledge.EventMergedInto || h.Events[0].OtherID != a.Entry.ID ||
		h.Events[0].Via != knowledge.MergeViaSweep || h.Events[0].Similarity < 0.99 {
		t.Fatalf("history of B = %+v, %v; want one merged_into %s via sweep", h, err, a.Entry.ID)
	}
	if h, err := s.History(ctx, a.Entry.ID); err != nil || len(h.Events) != 1 || h.Events[0].Kind != knowledge.EventAbsorbed || h.Events[0].OtherID != b.Entry.ID {
		t.Fatalf("history of A = %+v, %v; want one absorbed %s", h, err, b.Entry.ID)
	}
	ms, err := s.RecentMerges(ctx, "life", 10)
	if err != nil || len(ms) != 1 || ms[0].EntryID != b.Entry.ID || ms[0].MergedInto != a.Entry.ID || ms[0].Title != bi.Title {
		t.Fatalf("recent merges = %+v, %v; want B into A", ms, err)
	}
	if ms, _ := s.RecentMerges(ctx, "other-hive", 10); len(ms) != 0 {
		t.Fatalf("recent merges of another hive = %+v, want none", ms)
	}

	knowClock.advance(t, time.Minute)
	r, err := s.Unmerge(ctx, b.Entry.ID, "admin-x")
	if err != nil {
		t.Fatalf("unmerge: %v", err)
	}
	if r.ID != b.Entry.ID || r.MergedInto != "" || r.Title != bi.Title || countsOf(r) != wantB {
		t.Fatalf("restored = %s %q merged_into %q %+v, want B with %+v", r.ID, r.Title, r.MergedInto, countsOf(r), wantB)
	}
	// A keeps its own and what was counted on it since (c3, e3, b3).
	wantA = counts{2, 2, 2, "[agent-a1 agent-b3]"}
	if got := countsOf(mustEntry(t, s, a.Entry.ID)); got != wantA {
		t.Fatalf("survivor after unmerge = %+v, want %+v", got, wantA)
	}
	r, err = s.Unmerge(ctx, b.Entry.ID, "admin-x")
	if err != nil || countsOf(r) != wantB {
		t.Fatalf("second unmerge = %+v, %v; want B unchanged", countsOf(r), err)
	}
	if got := countsOf(mustEntry(t, s, a.Entry.ID)); got != wantA {
		t.Fatalf("survivor after second unmerge = %+v, want %+v", got, wantA)
	}
	h, err = s.History(ctx, b.Entry.ID)
	if err != nil || len(h.Events) != 2 || h.Events[1].Kind != knowledge.EventUnmerged || h.Events[1].By != "admin-x" || h.Events[1].OtherID != a.Entry.ID {
		t.Fatalf("history of B after unmerge = %+v, %v; want merged_into then unmerged by admin-x", h, err)
	}
	if ms, _ := s.RecentMerges(ctx, "", 10); len(ms) != 0 {
		t.Fatalf("recent merges after unmerge = %+v, want none in effect", ms)
	}
	// Both are found again, and the sweep does not merge them back.
	if ids := hiveIDs(t, s, "life", knowVec(1, 2, 0)); !slices.Contains(ids, b.Entry.ID) || !slices.Contains(ids, a.Entry.ID) {
		t.Fatalf("query after unmerge = %v, want A and B", ids)
	}
	if rep, err := s.SweepKnowledge(ctx, knowledge.DefaultMergeThreshold); err != nil || rep.Merged != 0 {
		t.Fatalf("sweep after unmerge = %+v, %v; want nothing merged", rep, err)
	}
	if got := mustEntry(t, s, b.Entry.ID); got.ID != b.Entry.ID || countsOf(got) != wantB {
		t.Fatalf("B after the sweep = %s %+v", got.ID, countsOf(got))
	}
	if _, err := s.Unmerge(ctx, "no-such-entry", "admin-x"); pumasi.ErrorCode(err) != pumasi.ENotFound {
		t.Fatalf("unmerge of an unknown id = %v, want not_found", err)
	}
	if _, err := s.History(ctx, "no-such-entry"); pumasi.ErrorCode(err) != pumasi.ENotFound {
		t.Fatalf("history of an unknown id = %v, want not_found", err)
	}
}

// testKnowCiteOncePerDay pins that a cite counts once per agent, entry and
// UTC day: a repeat changes neither the count nor the last use.
func testKnowCiteOncePerDay(t *testing.T, s knowledge.Store) {
	ctx := context.Background()
	e := mustContribute(t, s, knowIn("agent-one", "cites", "Cited once a day", "An entry cited again and again.", knowVec(3, 4, 0))).Entry
	first, err := s.Cite(ctx, e.ID, "citer-same")
	if err != nil || !first.Counted || first.CitationCount != 1 {
		t.Fatalf("first cite = counted %v count %d, %v", first.Counted, first.CitationCount, err)
	}
	knowClock.advance(t, time.Hour)
	again, err := s.Cite(ctx, e.ID, "citer-same")
	if err != nil || again.Counted || again.CitationCount != 1 || !again.LastUsedAt.Equal(first.LastUsedAt) {
		t.Fatalf("same-day cite = counted %v count %d last use %v (was %v), %v; want uncounted and unchanged",
			again.Counted, again.CitationCount, again.LastUsedAt, first.LastUsedAt, err)
	}
	if other, err := s.Cite(ctx, e.ID, "citer-other"); err != nil || !other.Counted || other.CitationCount != 2 {
		t.Fatalf("another citer = counted %v count %d, %v", other.Counted, other.CitationCount, err)
	}
	knowClock.advance(t, 24*time.Hour)
	next, err := s.Cite(ctx, e.ID, "citer-same")
	if err != nil || !next.Counted || next.CitationCount != 3 || !next.LastUsedAt.Equal(knowClock.now()) {
		t.Fatalf("next day's cite = counted %v count %d, %v; want counted (3), used now", next.Counted, next.CitationCount, err)
	}
}

// testKnowRedactSurvivor pins that redacting an entry that absorbed
// another takes the absorbed one's text too: its id answers gone, and
// neither it nor its exact text comes back.
func testKnowRedactSurvivor(t *testing.T, k *knowledge.Engine) {
	ctx := context.Background()
	ai := knowIn("agent-a1", "redact", "Token in a curl example", "`curl -H 'Authorization: Bearer sk-live-1'` works.", knowVec(5, 6, 0))
	bi := knowIn("agent-b1", "redact", "Token in a curl example again", "`curl -H 'Authorization: Bearer sk-live-1'` still works.", knowVec(5, 6, 0.05))
	bi.Threshold, bi.At = 1.01, ai.At.Add(time.Second)
	a, b := mustContribute(t, k, ai), mustContribute(t, k, bi)
	if rep, err := k.SweepKnowledge(ctx, knowledge.DefaultMergeThreshold); err != nil || rep.Merged != 1 {
		t.Fatalf("sweep = %+v, %v; want B merged into A", rep, err)
	}
	if err := k.Redact(ctx, a.Entry.ID, "admin-x", "a live token"); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{a.Entry.ID, b.Entry.ID} {
		if _, err := k.GetEntry(ctx, id); pumasi.ErrorCode(err) != pumasi.EGone {
			t.Fatalf("GetEntry(%s) after redacting the survivor = %v, want gone", id, err)
		}
	}
	if _, err := k.Unmerge(ctx, b.Entry.ID, "admin-x"); pumasi.ErrorCode(err) != pumasi.EGone {
		t.Fatalf("unmerge out of a redacted survivor = %v, want gone (its text went with it)", err)
	}
	// Its exact text is a new entry now, not a way back to the record.
	again := bi
	again.Agent, again.Threshold = "agent-b2", 1.01
	if r := mustContribute(t, k, again); r.Verdict != knowledge.VerdictAccepted {
		t.Fatalf("the absorbed entry's exact text after redaction = %s into %s, want a new entry", r.Verdict, r.Entry.ID)
	}
	// A merge that cannot be undone is not a recent merge to review; its
	// record stays, blank, in the history.
	if ms, err := k.RecentMerges(ctx, "redact", 10); err != nil || len(ms) != 0 {
		t.Fatalf("recent merges after redaction = %+v, %v; want none (unmerge answers gone)", ms, err)
	}
	if ms, err := k.Driver().Merges(ctx, b.Entry.ID); err != nil || len(ms) != 1 || ms[0].Title != "" {
		t.Fatalf("merge records after redaction = %+v, %v; want the record with its title blanked", ms, err)
	}
}
