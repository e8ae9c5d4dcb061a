package knowledgetest

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"pumasi"
	"pumasi/knowledge"
)

// testSupersedeTargets: what a contribution may supersede. An absorbed id
// supersedes the entry that holds it; a quarantined entry may be
// superseded; a redacted one answers gone, another hive's invalid_request,
// an unknown id not_found, and a refused contribution writes nothing.
func testSupersedeTargets(t *testing.T, k *knowledge.Engine) {
	ctx := context.Background()
	a, b := mergedTwins(t, k, "probe-super", 1, nil)
	q := mustContribute(t, k, knowIn("agent-one", "probe-super", "Quarantined finding", "Taken out by an admin.", knowVec(5, 6, 0))).Entry.ID
	flagBy(t, k, q, "the-admin", true)
	red := mustContribute(t, k, knowIn("agent-one", "probe-super", "Redacted finding", "Gone for good.", knowVec(7, 8, 0))).Entry.ID
	if err := k.Redact(ctx, red, "the-admin", "wrong"); err != nil {
		t.Fatal(err)
	}
	other := mustContribute(t, k, knowIn("agent-one", "probe-elsewhere", "Other hive", "Elsewhere.", knowVec(9, 10, 0))).Entry.ID

	refused := []struct {
		name, target, code string
	}{
		{"redacted", red, pumasi.EGone},
		{"other hive", other, pumasi.EInvalidRequest},
		{"unknown", "no-such-entry", pumasi.ENotFound},
	}
	for i, c := range refused {
		in := knowIn("agent-two", "probe-super", "Refused successor", "Never written.", knowVec(11, 12, float64(i)/10))
		in.Supersedes = c.target
		if _, err := k.Contribute(ctx, in); pumasi.ErrorCode(err) != c.code {
			t.Errorf("supersedes %s: err = %v, want %s", c.name, err, c.code)
		}
	}
	if hits, err := k.Query(ctx, knowledge.QueryInput{Hive: "probe-super", Model: "test-model", Vector: knowVec(11, 12, 0), Limit: 10}); err != nil || len(hits) != 0 {
		t.Fatalf("refused contributions wrote %d entries (%v)", len(hits), err)
	}
	// The absorbed entry's exact text repeats its survivor.
	again := knowIn("agent-two", "probe-super", "Redis SET with KEEPTTL keeps TTL", "Overwrite with `SET ... KEEPTTL` and the TTL stays.", knowVec(1, 2, 0.05))
	again.Supersedes = b
	if _, err := k.Contribute(ctx, again); pumasi.ErrorCode(err) != pumasi.EInvalidRequest {
		t.Errorf("the absorbed entry's own text superseding it: err = %v, want invalid_request", err)
	}

	in := knowIn("agent-two", "probe-super", "Redis 7 SET KEEPTTL and GET", "From Redis 7 `SET k v KEEPTTL GET` returns the old value too.", knowVec(13, 14, 0))
	in.Supersedes = b
	res := mustContribute(t, k, in)
	if res.Verdict != knowledge.VerdictAccepted || res.Entry.Supersedes != a {
		t.Fatalf("superseding the absorbed id = %s supersedes %q, want accepted superseding its survivor %s", res.Verdict, res.Entry.Supersedes, a)
	}
	if g := mustEntry(t, k, b); g.ID != a || g.SupersededBy != res.Entry.ID {
		t.Fatalf("the absorbed id answers %s superseded_by %q, want %s superseded by %s", g.ID, g.SupersededBy, a, res.Entry.ID)
	}

	// A near-duplicate of the entry it supersedes lands beside it, not in it.
	ni := knowIn("agent-three", "probe-super", "Quarantined finding, restated", "Taken out by an admin, restated.", knowVec(5, 6, 0.03))
	ni.Supersedes = q
	if nr := mustContribute(t, k, ni); nr.Verdict != knowledge.VerdictAccepted || nr.Entry.ID == q || nr.Entry.Supersedes != q {
		t.Fatalf("a near-duplicate superseding its twin = %s into %s supersedes %q, want a new entry superseding %s", nr.Verdict, nr.Entry.ID, nr.Entry.Supersedes, q)
	}
	qi := knowIn("agent-two", "probe-super", "Corrected finding", "What the quarantined one should have said.", knowVec(15, 0, 0))
	qi.Supersedes = q
	qr := mustContribute(t, k, qi)
	if qr.Verdict != knowledge.VerdictAccepted || qr.Entry.Supersedes != q {
		t.Fatalf("superseding a quarantined entry = %s supersedes %q, want accepted", qr.Verdict, qr.Entry.Supersedes)
	}
	if g := mustEntry(t, k, q); !g.Quarantined || g.SupersededBy != qr.Entry.ID {
		t.Fatalf("the quarantined entry: quarantined %v superseded_by %q", g.Quarantined, g.SupersededBy)
	}
	if queried(t, k, knowVec(5, 6, 0), q, false) {
		t.Fatalf("the quarantined older entry is queried")
	}
	if got := historyKinds(t, k, q); !slices.Equal(got, []string{"flagged", "quarantined", "superseded", "superseded"}) {
		t.Errorf("history of the quarantined entry = %v", got)
	}
	if got := historyKinds(t, k, a); !slices.Equal(got, []string{"absorbed", "superseded"}) {
		t.Errorf("history of the superseded survivor = %v", got)
	}
	if got := historyKinds(t, k, red); !slices.Equal(got, []string{"redacted"}) {
		t.Errorf("history of the redacted entry = %v", got)
	}
}

// testRedactAbsorbed: DELETE of an absorbed id redacts that entry inside
// its survivor: the id (and one it had absorbed) answers gone to every
// call, its text and what it brought leave the survivor, whose own stay,
// the driver finds its words nowhere, and its text is a new entry after.
func testRedactAbsorbed(t *testing.T, k *knowledge.Engine) {
	ctx := context.Background()
	d := k.Driver()
	ai := knowIn("agent-a1", "probe-redact", "Curl with a bearer token", "`curl -H 'Authorization: Bearer TOKEN'` calls the API.", knowVec(3, 4, 0))
	bi := knowIn("agent-b1", "probe-redact", "Curl with a bearer token zqxabsorbedsecret", "`curl -H 'Authorization: Bearer zqxabsorbedsecret'` works.", knowVec(3, 4, 0.05))
	bi.Threshold, bi.At = 1.01, ai.At.Add(1)
	a := mustContribute(t, k, ai).Entry.ID
	b := mustContribute(t, k, bi).Entry.ID
	b2 := bi
	b2.Agent = "agent-b2"
	mustContribute(t, k, b2)
	for _, who := range []string{"citer-1", "citer-2"} {
		if _, err := k.Cite(ctx, b, who); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := k.Endorse(ctx, b, "endorser-1"); err != nil {
		t.Fatal(err)
	}
	if _, err := k.Cite(ctx, a, "citer-3"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := k.Flag(ctx, knowledge.FlagInput{ID: b, Agent: "flagger-1", Reason: knowledge.FlagPII, Note: "leaks zqxabsorbedsecret"}); err != nil {
		t.Fatal(err)
	}
	knowClock.advance(t, time.Minute)
	swept(t, k, 1)
	knowClock.advance(t, time.Minute)
	if got := countsOf(mustEntry(t, k, a)); got != (counts{3, 3, 1, "[agent-a1 agent-b1 agent-b2]"}) {
		t.Fatalf("survivor before the redaction = %+v", got)
	}

	if err := k.Redact(ctx, b, "the-admin", "a live token"); err != nil {
		t.Fatalf("Redact(absorbed) = %v", err)
	}
	if err := k.Redact(ctx, b, "the-admin", "again"); err != nil {
		t.Fatalf("Redact(absorbed) again = %v, want a no-op", err)
	}
	got := mustEntry(t, k, a)
	if countsOf(got) != (counts{1, 1, 0, "[agent-a1]"}) || got.Flags != 0 {
		t.Fatalf("survivor after the redaction = %+v flags %d, want only its own (1 contribution, 1 citation)", countsOf(got), got.Flags)
	}
	for _, c := range got.Contributions {
		if strings.Contains(c.Title+c.Content, "zqxabsorbedsecret") {
			t.Fatalf("the survivor still holds the redacted entry's contribution %+v", c)
		}
	}
	gone := map[string]func() error{
		"GetEntry": func() error { _, err := k.GetEntry(ctx, b); return err },
		"Cite":     func() error { _, err := k.Cite(ctx, b, "citer-9"); return err },
		"Endorse":  func() error { _, err := k.Endorse(ctx, b, "endorser-9"); return err },
		"Flag": func() error {
			_, _, err := k.Flag(ctx, knowledge.FlagInput{ID: b, Agent: "flagger-9", Reason: knowledge.FlagWrong})
			return err
		},
		"Restore": func() error { _, err := k.Restore(ctx, b, "the-admin"); return err },
		"Unmerge": func() error { _, err := k.Unmerge(ctx, b, "the-admin"); return err },
	}
	for name, f := range gone {
		if err := f(); pumasi.ErrorCode(err) != pumasi.EGone {
			t.Errorf("%s on the redacted absorbed id = %v, want gone", name, err)
		}
	}
	// The driver itself refuses to write it back from its blank record (an
	// unmerge that raced the engine's check).
	if err := d.Unmerge(ctx, knowledge.Unmerge{EntryID: b, Origins: []string{b}, At: knowClock.now(), By: "the-admin"}); pumasi.ErrorCode(err) != pumasi.EGone {
		t.Errorf("the driver's Unmerge of the redacted absorbed id = %v, want gone", err)
	}
	if got := historyKinds(t, k, b); !slices.Equal(got, []string{"flagged", "merged_into", "redacted"}) {
		t.Errorf("history of the redacted absorbed id = %v", got)
	}
	words := []knowledge.Term{{Text: "zqxabsorbedsecret"}, {Text: "zqxabsorbedsecret", Substring: true}}
	if ids, err := d.Match(ctx, "", words, 10); err != nil || len(ids[0])+len(ids[1]) != 0 {
		t.Fatalf("Match after the redaction = %v, %v", ids, err)
	}
	if ms, err := k.RecentMerges(ctx, "probe-redact", 10); err != nil || len(ms) != 0 {
		t.Fatalf("recent merges after the redaction = %+v, %v; want none (unmerge answers gone)", ms, err)
	}
	if ms, err := d.Merges(ctx, b); err != nil || len(ms) != 1 || ms[0].Title != "" {
		t.Fatalf("merge records after the redaction = %+v, %v; want the record with its title blanked", ms, err)
	}
	if v, err := k.Moderation(ctx, knowledge.ModerationQuery{Hive: "probe-redact", Limit: 10}); err != nil || len(v.Merges) != 0 {
		t.Fatalf("moderation view after the redaction = %+v, %v; want no merge to undo", v.Merges, err)
	}
	back := bi
	back.Agent, back.Threshold = "agent-b3", 1.01
	if r := mustContribute(t, k, back); r.Verdict != knowledge.VerdictAccepted || r.Entry.ID == a || r.Entry.ID == b {
		t.Fatalf("the redacted text contributed again = %s into %s, want a new entry", r.Verdict, r.Entry.ID)
	}
	if err := k.Redact(ctx, "no-such-entry", "the-admin", ""); pumasi.ErrorCode(err) != pumasi.ENotFound {
		t.Fatalf("Redact unknown = %v, want not_found", err)
	}
}

// testRedactInChain: B merged into A, then A into an older C. Redacting B
// gives back its citation on C and on A's record, so that unmerging A
// afterwards leaves each with exactly its own.
func testRedactInChain(t *testing.T, k *knowledge.Engine) {
	ctx := context.Background()
	cite := func(id, who string) {
		t.Helper()
		if _, err := k.Cite(ctx, id, who); err != nil {
			t.Fatal(err)
		}
	}
	a, b := mergedTwins(t, k, "probe-redchain", 3, func(a, b string) { cite(a, "citer-a"); cite(b, "citer-b") })
	ci := knowIn("agent-chain-c", "probe-redchain", "Redis KEEPTTL on SET keeps the expiry", "`SET k v KEEPTTL`: the TTL survives an overwrite.", knowVec(3, 4, 0.02))
	ci.Threshold, ci.At = 1.01, ci.At.Add(-time.Hour)
	c := mustContribute(t, k, ci).Entry.ID
	cite(c, "citer-c")
	swept(t, k, 1)
	if got := mustEntry(t, k, c); got.CitationCount != 3 {
		t.Fatalf("C holding A and B: %d citations, want 3", got.CitationCount)
	}
	if err := k.Redact(ctx, b, "the-admin", "wrong"); err != nil {
		t.Fatal(err)
	}
	if got := mustEntry(t, k, c); got.CitationCount != 2 || got.ContributionCount != 2 {
		t.Fatalf("C after B's redaction: %d citations, %d contributions; want 2, 2", got.CitationCount, got.ContributionCount)
	}
	ra, err := k.Unmerge(ctx, a, "the-admin")
	if err != nil || ra.CitationCount != 1 || ra.ContributionCount != 1 {
		t.Fatalf("unmerge of A after B's redaction = %d citations %d contributions, %v; want its own 1 and 1", ra.CitationCount, ra.ContributionCount, err)
	}
	if got := mustEntry(t, k, c); got.CitationCount != 1 || got.ContributionCount != 1 {
		t.Fatalf("C after A's unmerge: %d citations, %d contributions; want its own 1 and 1", got.CitationCount, got.ContributionCount)
	}
	if _, err := k.GetEntry(ctx, b); pumasi.ErrorCode(err) != pumasi.EGone {
		t.Fatalf("B after A's unmerge = %v, want gone", err)
	}
}
