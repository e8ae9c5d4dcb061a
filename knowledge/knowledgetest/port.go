package knowledgetest

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"pumasi"
	"pumasi/knowledge"
)

// RunPort pins a driver's knowledge.Porter: a corpus with every part of the
// lifecycle (a merge undone, one in effect with flags and shared citers
// and endorsers, one whose survivor was redacted) exports, imports into a
// fresh driver of the same kind as the same export, imports again as
// nothing, and behaves there as it did at home: unmerge gives back exactly
// what it gives back at home, a redacted survivor's absorbed id is gone,
// and the sweep merges nothing again.
//
//	knowledgetest.RunPort(t, func(t *testing.T) knowledge.Driver { ... })
func RunPort(t *testing.T, newDriver func(t *testing.T) knowledge.Driver) {
	t.Run("ExportImportKeepsTheLifecycle", func(t *testing.T) { testPort(t, newDriver) })
}

// portTwins contributes two near-duplicates of hive that only the sweep
// merges (the second as if it had raced the first).
func portTwins(t *testing.T, k *knowledge.Engine, hive string, axis int) (string, string) {
	a := knowIn("agent-"+hive+"-a", hive, "Redis KEEPTTL keeps the expiry", "`SET key v KEEPTTL` keeps the TTL on overwrite.", knowVec(axis, axis+1, 0))
	b := knowIn("agent-"+hive+"-b", hive, "Redis SET with KEEPTTL keeps TTL", "Overwrite with `SET ... KEEPTTL` and the TTL stays.", knowVec(axis, axis+1, 0.05))
	b.Threshold, b.At = 1.01, a.At.Add(time.Second)
	return mustContribute(t, k, a).Entry.ID, mustContribute(t, k, b).Entry.ID
}

// portExport returns k's export, its times cut to the microsecond (what
// every backend keeps), as JSON lines to compare.
func portExport(t *testing.T, k *knowledge.Engine) ([]knowledge.Record, []string) {
	t.Helper()
	var recs []knowledge.Record
	var lines []string
	us := func(tm *time.Time) { *tm = tm.Truncate(time.Microsecond).UTC() }
	lc := func(l *knowledge.Lifecycle) {
		for i := range l.Flags {
			us(&l.Flags[i].At)
		}
		for i := range l.Events {
			us(&l.Events[i].At)
		}
		if l.Moderation != nil {
			us(&l.Moderation.FlaggedAt)
		}
	}
	err := k.Export(context.Background(), "", func(r knowledge.Record) error {
		recs = append(recs, r)
		if x := r.Entry; x != nil {
			x = new(*x)
			us(&x.CreatedAt)
			us(&x.LastUsedAt)
			x.Contributions = append([]knowledge.ExportedContribution(nil), x.Contributions...)
			for i := range x.Contributions {
				us(&x.Contributions[i].At)
			}
			x.Endorsements = append([]knowledge.Endorsement(nil), x.Endorsements...)
			for i := range x.Endorsements {
				us(&x.Endorsements[i].At)
			}
			lc(&x.Lifecycle)
			r.Entry = x
		}
		if m := r.Merge; m != nil {
			m = new(*m)
			for _, tm := range []*time.Time{&m.At, &m.UnmergedAt, &m.CreatedAt, &m.LastUsedAt} {
				us(tm)
			}
			lc(&m.Lifecycle)
			r.Merge = m
		}
		if s := r.Tombstone; s != nil {
			s = new(*s)
			us(&s.At)
			lc(&s.Lifecycle)
			r.Tombstone = s
		}
		b, err := json.Marshal(r)
		lines = append(lines, string(b))
		return err
	})
	if err != nil {
		t.Fatalf("export: %v", err)
	}
	return recs, lines
}

func testPort(t *testing.T, newDriver func(t *testing.T) knowledge.Driver) {
	ctx := context.Background()
	src := knowledge.New(newDriver(t), knowledge.Options{Now: knowClock.now})
	// undone: merged by the sweep, then unmerged by an admin.
	a1, b1 := portTwins(t, src, "undone", 0)
	// kept: merged, with a citer and an endorser on both, and a flag on
	// the absorbed one.
	a2, b2 := portTwins(t, src, "kept", 3)
	for _, id := range []string{a2, b2} {
		if _, err := src.Cite(ctx, id, "citer-c1"); err != nil {
			t.Fatal(err)
		}
		if _, err := src.Endorse(ctx, id, "endorser-e1"); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := src.Cite(ctx, b2, "citer-c2"); err != nil {
		t.Fatal(err)
	}
	flagged := b2
	if _, _, err := src.Flag(ctx, knowledge.FlagInput{ID: flagged, Agent: "flagger-f1", Reason: knowledge.FlagDuplicate, Note: "twin"}); err != nil {
		t.Fatal(err)
	}
	// gone: merged, then its survivor redacted (the record is blank).
	a3, b3 := portTwins(t, src, "gone", 6)
	if rep, err := src.SweepKnowledge(ctx, knowledge.DefaultMergeThreshold); err != nil || rep.Merged != 3 {
		t.Fatalf("sweep = %+v, %v; want the three pairs merged", rep, err)
	}
	knowClock.advance(t, time.Minute)
	survivor := func(k *knowledge.Engine, a, b string) (string, string) {
		if e := mustEntry(t, k, a); e.MergedInto != "" {
			return b, a
		}
		return a, b
	}
	a1, b1 = survivor(src, a1, b1)
	a2, b2 = survivor(src, a2, b2)
	a3, b3 = survivor(src, a3, b3)
	if _, err := src.Unmerge(ctx, b1, "admin-x"); err != nil {
		t.Fatal(err)
	}
	if err := src.Redact(ctx, a3, "admin-x", "a live token"); err != nil {
		t.Fatal(err)
	}

	recs, want := portExport(t, src)
	kinds := map[string]int{}
	for _, r := range recs {
		switch {
		case r.Entry != nil:
			kinds["entry"]++
		case r.Merge != nil:
			kinds["merge"]++
		case r.Tombstone != nil:
			kinds["tombstone"]++
		}
	}
	if w := map[string]int{"entry": 3, "merge": 3, "tombstone": 1}; !reflect.DeepEqual(kinds, w) {
		t.Fatalf("export holds %v, want %v", kinds, w)
	}
	dst := knowledge.New(newDriver(t), knowledge.Options{Now: knowClock.now})
	for pass, wantCreated := range []bool{true, false} {
		for _, r := range recs {
			created, err := dst.Import(ctx, r)
			if err != nil || created != wantCreated {
				b, _ := json.Marshal(r)
				t.Fatalf("import pass %d of %s = %v, %v; want created %v", pass+1, b, created, err, wantCreated)
			}
		}
	}
	if _, got := portExport(t, dst); !reflect.DeepEqual(got, want) {
		t.Fatalf("the target's export differs:\ngot  %q\nwant %q", got, want)
	}

	// The redacted survivor's absorbed id is gone and cannot come back.
	if _, err := dst.GetEntry(ctx, b3); pumasi.ErrorCode(err) != pumasi.EGone {
		t.Fatalf("GetEntry(%s) on the target = %v, want gone (its survivor was redacted)", b3, err)
	}
	if _, err := dst.Unmerge(ctx, b3, "admin-x"); pumasi.ErrorCode(err) != pumasi.EGone {
		t.Fatalf("unmerge out of a redacted survivor on the target = %v, want gone", err)
	}
	// The undone pair stays apart, so nothing merges again.
	if rep, err := dst.SweepKnowledge(ctx, knowledge.DefaultMergeThreshold); err != nil || rep.Merged != 0 {
		t.Fatalf("sweep on the target = %+v, %v; want nothing merged", rep, err)
	}
	h, err := dst.History(ctx, b1)
	if err != nil || len(h.Events) != 2 || h.Events[0].Kind != knowledge.EventMergedInto || h.Events[1].Kind != knowledge.EventUnmerged {
		t.Fatalf("history of the unmerged entry on the target = %+v, %v; want merged_into, unmerged", h, err)
	}
	// The absorbed entry's flag counts on its survivor, at home and on the
	// target, and goes back with it on unmerge.
	if flagged != b2 {
		t.Fatalf("the flagged entry %s survived the merge; the case needs its flag on the absorbed one", flagged)
	}
	other := a2
	for _, k := range []*knowledge.Engine{src, dst} {
		if got := mustEntry(t, k, a2).Flags; got != 1 {
			t.Fatalf("survivor's flags before the unmerge = %d, want flagger-f1's 1", got)
		}
	}
	// Unmerge gives back on the target exactly what it gives back at home.
	for _, k := range []*knowledge.Engine{src, dst} {
		if _, err := k.Unmerge(ctx, b2, "admin-x"); err != nil {
			t.Fatal(err)
		}
	}
	for _, id := range []string{a2, b2} {
		home, there := countsOf(mustEntry(t, src, id)), countsOf(mustEntry(t, dst, id))
		if home != there {
			t.Fatalf("%s after unmerge: target %+v, home %+v", id, there, home)
		}
	}
	if got := countsOf(mustEntry(t, dst, b2)); got != (counts{1, 2, 1, "[agent-kept-b]"}) && got != (counts{1, 1, 1, "[agent-kept-a]"}) {
		t.Fatalf("restored entry on the target = %+v, want its own contributor, citers and endorser", got)
	}
	for _, k := range []*knowledge.Engine{src, dst} {
		if f, o := mustEntry(t, k, flagged).Flags, mustEntry(t, k, other).Flags; f != 1 || o != 0 {
			t.Fatalf("after unmerge: flagged entry %d flags, the other %d; want 1 and 0 (the flag went back by its origin)", f, o)
		}
	}
	if _, counted, err := dst.Flag(ctx, knowledge.FlagInput{ID: flagged, Agent: "flagger-f1", Reason: knowledge.FlagDuplicate}); err != nil || counted {
		t.Fatalf("flagger-f1 flagging its entry again on the target: counted %v, %v; want not counted", counted, err)
	}
	for _, k := range []*knowledge.Engine{src, dst} {
		if r, err := k.Endorse(ctx, b2, "endorser-e1"); err != nil || r.Counted {
			t.Fatalf("endorser-e1 again on the restored entry: counted %v, %v; want not counted (its row went back)", r.Counted, err)
		}
	}
	if e := mustEntry(t, dst, a1); e.ID != a1 || e.MergedInto != "" {
		t.Fatalf("the undone pair's survivor on the target = %s merged_into %q, want itself", e.ID, e.MergedInto)
	}
}
