package knowledgetest

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"pumasi"
	"pumasi/knowledge"
)

// runModeration pins the lifecycle the engine decides and the driver keeps:
// flags and quarantine, restore, redaction and supersession.
func runModeration(t *testing.T, newDriver func(t *testing.T) knowledge.Driver) {
	engine := func(t *testing.T) (*knowledge.Engine, knowledge.Driver) {
		d := newDriver(t)
		return knowledge.New(d, knowledge.Options{Now: knowClock.now}), d
	}
	t.Run("ThreeFlagsQuarantineTwoDoNot", func(t *testing.T) { k, _ := engine(t); testFlagThreshold(t, k) })
	t.Run("AdminFlagQuarantinesAtOnce", func(t *testing.T) { k, _ := engine(t); testAdminFlag(t, k) })
	t.Run("FlagErrors", func(t *testing.T) { k, _ := engine(t); testFlagErrors(t, k) })
	t.Run("QuarantineThresholdIsAnOption", func(t *testing.T) {
		k := knowledge.New(newDriver(t), knowledge.Options{Now: knowClock.now, QuarantineFlags: 1})
		e := mustContribute(t, k, knowIn("agent-one", "academy", "One flag is enough here", "With QuarantineFlags 1.", knowVec(0, 1, 0))).Entry
		if got, _ := mustFlag(t, k, e.ID, "flagger-1", false); !got.Quarantined {
			t.Fatalf("one flag at threshold 1: quarantined = false")
		}
	})
	t.Run("RedactionLeavesATombstone", func(t *testing.T) { k, d := engine(t); testRedact(t, k, d) })
	t.Run("SupersedeLineage", func(t *testing.T) { k, _ := engine(t); testSupersede(t, k) })
	t.Run("ModerationView", func(t *testing.T) { k, _ := engine(t); testModerationView(t, k) })
	t.Run("ModerationViewFillsItsLists", func(t *testing.T) { k, _ := engine(t); testModerationViewFills(t, k) })
	t.Run("FlagsMoveWithMerge", func(t *testing.T) { k, _ := engine(t); testFlagsMoveWithMerge(t, k) })
}

func mustFlag(t *testing.T, k *knowledge.Engine, id, agent string, admin bool) (knowledge.Entry, bool) {
	t.Helper()
	e, counted, err := k.Flag(context.Background(), knowledge.FlagInput{ID: id, Agent: agent, Reason: knowledge.FlagWrong, Admin: admin})
	if err != nil {
		t.Fatalf("Flag(%s, %s): %v", id, agent, err)
	}
	return e, counted
}

// queried reports whether a query along probe (every hive, or an admin's
// review with include) returns id.
func queried(t *testing.T, k *knowledge.Engine, probe []float32, id string, include bool) bool {
	t.Helper()
	hits, err := k.Query(context.Background(), knowledge.QueryInput{Model: "test-model", Vector: probe,
		Limit: knowledge.MaxQueryLimit, IncludeQuarantined: include})
	if err != nil {
		t.Fatalf("Query: %v", err)
	}
	for _, h := range hits {
		if h.ID == id {
			return true
		}
	}
	return false
}

func eventKinds(t *testing.T, d knowledge.Moderation, id string) []string {
	t.Helper()
	evs, err := d.Events(context.Background(), id)
	if err != nil {
		t.Fatalf("Events(%s): %v", id, err)
	}
	var kinds []string
	for _, ev := range evs {
		kinds = append(kinds, ev.Kind)
	}
	return kinds
}

func testFlagThreshold(t *testing.T, k *knowledge.Engine) {
	probe := knowVec(0, 1, 0)
	e := mustContribute(t, k, knowIn("agent-one", "academy", "Flag me", "An entry three agents find wrong.", probe)).Entry
	other := mustContribute(t, k, knowIn("agent-one", "academy", "Leave me", "An entry nobody flags.", knowVec(0, 2, 0.5))).Entry
	for i, agent := range []string{"flagger-1", "flagger-2"} {
		got, counted := mustFlag(t, k, e.ID, agent, false)
		if !counted || got.Flags != int64(i+1) || got.Quarantined {
			t.Fatalf("flag %d: counted %v flags %d quarantined %v, want counted, %d, not quarantined", i+1, counted, got.Flags, got.Quarantined, i+1)
		}
	}
	if got, counted := mustFlag(t, k, e.ID, "flagger-2", false); counted || got.Flags != 2 || got.Quarantined {
		t.Fatalf("repeat flag: counted %v flags %d quarantined %v, want not counted, 2", counted, got.Flags, got.Quarantined)
	}
	if !queried(t, k, probe, e.ID, false) {
		t.Fatalf("two flags hid the entry from query")
	}
	got, counted := mustFlag(t, k, e.ID, "flagger-3", false)
	if !counted || got.Flags != 3 || !got.Quarantined {
		t.Fatalf("third flag: counted %v flags %d quarantined %v, want quarantined", counted, got.Flags, got.Quarantined)
	}
	if queried(t, k, probe, e.ID, false) {
		t.Fatalf("a quarantined entry is still queried")
	}
	if !queried(t, k, probe, other.ID, false) {
		t.Fatalf("quarantine hid another entry")
	}
	if !queried(t, k, probe, e.ID, true) {
		t.Fatalf("an admin's review (include) misses the quarantined entry")
	}
	if g := mustEntry(t, k, e.ID); !g.Quarantined || g.Flags != 3 {
		t.Fatalf("GetEntry of a quarantined entry = quarantined %v flags %d", g.Quarantined, g.Flags)
	}
	r, err := k.Restore(context.Background(), e.ID, "admin")
	if err != nil || r.Quarantined || r.Flags != 3 {
		t.Fatalf("Restore = quarantined %v flags %d err %v, want lifted with the flags kept", r.Quarantined, r.Flags, err)
	}
	if !queried(t, k, probe, e.ID, false) {
		t.Fatalf("a restored entry is not queried")
	}
	// Only flags after the restore count toward the next quarantine.
	if got, _ := mustFlag(t, k, e.ID, "flagger-4", false); got.Quarantined {
		t.Fatalf("one flag after a restore quarantined again")
	}
	want := []string{"flagged", "flagged", "flagged", "quarantined", "restored", "flagged"}
	if got := eventKinds(t, k.Driver(), e.ID); !slices.Equal(got, want) {
		t.Fatalf("events = %v, want %v", got, want)
	}
}

func testAdminFlag(t *testing.T, k *knowledge.Engine) {
	probe := knowVec(3, 4, 0)
	e := mustContribute(t, k, knowIn("agent-one", "academy", "Harmful advice", "An entry an admin takes out.", probe)).Entry
	got, counted := mustFlag(t, k, e.ID, "the-admin", true)
	if !counted || !got.Quarantined || got.Flags != 1 {
		t.Fatalf("admin flag: counted %v quarantined %v flags %d, want quarantined at once", counted, got.Quarantined, got.Flags)
	}
	if queried(t, k, probe, e.ID, false) {
		t.Fatalf("an admin-flagged entry is still queried")
	}
	if _, err := k.Restore(context.Background(), e.ID, "the-admin"); err != nil {
		t.Fatal(err)
	}
	// An admin's flag quarantines again, though it is not counted twice,
	// and it is pending, with its own reason and note: the view shows the
	// flag behind the quarantine, and the history the second flag.
	ctx := context.Background()
	knowClock.advance(t, time.Minute)
	got, counted, err := k.Flag(ctx, knowledge.FlagInput{ID: e.ID, Agent: "the-admin", Reason: knowledge.FlagHarmful, Note: "again", Admin: true})
	if err != nil || counted || !got.Quarantined || got.Flags != 1 {
		t.Fatalf("admin's second flag: counted %v quarantined %v flags %d, %v; want not counted, quarantined, 1 flagger", counted, got.Quarantined, got.Flags, err)
	}
	sts, err := k.Driver().ModStates(ctx, []string{e.ID})
	if st := sts[e.ID]; err != nil || st.Flags-st.Cleared != 1 || !st.FlaggedAt.Equal(knowClock.now().Truncate(time.Microsecond)) {
		t.Fatalf("after the admin's second flag: state %+v, %v; want its flag pending, flagged now", st, err)
	}
	v, err := k.Moderation(ctx, knowledge.ModerationQuery{Hive: "academy"})
	if err != nil || !slices.Equal(ids(v.Quarantined), []string{e.ID}) {
		t.Fatalf("view after the admin's second flag = quarantined %v, %v", ids(v.Quarantined), err)
	}
	evs, err := k.Driver().Events(ctx, e.ID)
	var kinds []string
	for _, ev := range evs {
		kinds = append(kinds, ev.Kind)
	}
	if want := []string{"flagged", "quarantined", "restored", "flagged", "quarantined"}; err != nil || !slices.Equal(kinds, want) {
		t.Fatalf("events = %v, %v; want %v", kinds, err, want)
	}
	if last := evs[3]; last.Reason != knowledge.FlagHarmful || last.Note != "again" || last.By != "the-admin" {
		t.Fatalf("the second flag's event = %+v, want harmful, again, by the-admin", last)
	}
	// An agent's repeat after a restore stays a repeat: one flag per
	// contributor, and only an admin's quarantines on its own.
	o := mustContribute(t, k, knowIn("agent-one", "academy", "Flagged twice by one agent", "Restored between.", knowVec(9, 10, 0))).Entry
	mustFlag(t, k, o.ID, "flagger-1", false)
	if _, err := k.Restore(ctx, o.ID, "the-admin"); err != nil {
		t.Fatal(err)
	}
	if got, counted := mustFlag(t, k, o.ID, "flagger-1", false); counted || got.Quarantined {
		t.Fatalf("an agent's repeat: counted %v quarantined %v", counted, got.Quarantined)
	}
	if sts, _ := k.Driver().ModStates(ctx, []string{o.ID}); sts[o.ID].Flags != sts[o.ID].Cleared {
		t.Fatalf("an agent's repeat after a restore is pending: %+v", sts[o.ID])
	}
}

func testFlagErrors(t *testing.T, k *knowledge.Engine) {
	ctx := context.Background()
	e := mustContribute(t, k, knowIn("agent-one", "academy", "Some entry", "Flag it badly.", knowVec(5, 6, 0))).Entry
	cases := []struct {
		name string
		in   knowledge.FlagInput
		code string
	}{
		{"bad reason", knowledge.FlagInput{ID: e.ID, Agent: "flagger-1", Reason: "meh"}, pumasi.EInvalidRequest},
		{"long note", knowledge.FlagInput{ID: e.ID, Agent: "flagger-1", Reason: "pii", Note: strings.Repeat("é", 501)}, pumasi.EInvalidRequest},
		{"no agent", knowledge.FlagInput{ID: e.ID, Reason: "pii"}, pumasi.EAgentRequired},
		{"unknown entry", knowledge.FlagInput{ID: "no-such-entry", Agent: "flagger-1", Reason: "pii"}, pumasi.ENotFound},
	}
	for _, c := range cases {
		if _, _, err := k.Flag(ctx, c.in); pumasi.ErrorCode(err) != c.code {
			t.Errorf("%s: err = %v, want %s", c.name, err, c.code)
		}
	}
	if _, err := k.Restore(ctx, "no-such-entry", "admin"); pumasi.ErrorCode(err) != pumasi.ENotFound {
		t.Errorf("restore unknown = %v, want not_found", err)
	}
	if _, counted, err := k.Flag(ctx, knowledge.FlagInput{ID: e.ID, Agent: "flagger-1", Reason: "pii", Note: strings.Repeat("é", 500)}); err != nil || !counted {
		t.Errorf("a 500-character note: counted %v err %v", counted, err)
	}
}

func testRedact(t *testing.T, k *knowledge.Engine, d knowledge.Driver) {
	ctx := context.Background()
	probe := knowVec(7, 8, 0)
	in := knowIn("agent-one", "academy", "zqxredactme title", "zqxredactme content to remove.", probe)
	e := mustContribute(t, k, in).Entry
	again := in
	again.Agent = "agent-two"
	mustContribute(t, k, again)
	keep := mustContribute(t, k, knowIn("agent-one", "academy", "Kept entry", "Stays after the redaction.", knowVec(7, 9, 0.4))).Entry
	if _, err := k.Cite(ctx, e.ID, "agent-three"); err != nil {
		t.Fatal(err)
	}
	mustFlag(t, k, e.ID, "flagger-1", false)
	if err := k.Redact(ctx, e.ID, "the-admin", "a secret the gate missed"); err != nil {
		t.Fatalf("Redact: %v", err)
	}
	if err := k.Redact(ctx, e.ID, "the-admin", ""); err != nil {
		t.Fatalf("Redact again = %v, want a no-op", err)
	}
	if err := k.Redact(ctx, "no-such-entry", "the-admin", ""); pumasi.ErrorCode(err) != pumasi.ENotFound {
		t.Fatalf("Redact unknown = %v, want not_found", err)
	}
	if _, err := k.GetEntry(ctx, e.ID); pumasi.ErrorCode(err) != pumasi.EGone {
		t.Fatalf("GetEntry after redaction = %v, want gone", err)
	}
	if _, err := k.Cite(ctx, e.ID, "agent-three"); pumasi.ErrorCode(err) != pumasi.EGone {
		t.Fatalf("Cite after redaction = %v, want gone", err)
	}
	if _, err := k.Endorse(ctx, e.ID, "agent-three"); pumasi.ErrorCode(err) != pumasi.EGone {
		t.Fatalf("Endorse after redaction = %v, want gone", err)
	}
	if _, _, err := k.Flag(ctx, knowledge.FlagInput{ID: e.ID, Agent: "flagger-2", Reason: "pii"}); pumasi.ErrorCode(err) != pumasi.EGone {
		t.Fatalf("Flag after redaction = %v, want gone", err)
	}
	if _, err := k.Restore(ctx, e.ID, "the-admin"); pumasi.ErrorCode(err) != pumasi.EGone {
		t.Fatalf("Restore after redaction = %v, want gone", err)
	}
	if queried(t, k, probe, e.ID, true) {
		t.Fatalf("a redacted entry is still queried")
	}
	if !queried(t, k, probe, keep.ID, false) {
		t.Fatalf("the redaction hid another entry")
	}
	// The driver itself finds it nowhere: no row, no vector, no term.
	if ents, err := d.Entries(ctx, []string{e.ID}); err != nil || len(ents) != 0 {
		t.Fatalf("Entries after redaction = %v, %v", ents, err)
	}
	if ids, err := d.Nearest(ctx, "academy", "test-model", probe, 10); err != nil || slices.Contains(ids, e.ID) {
		t.Fatalf("Nearest after redaction = %v, %v", ids, err)
	}
	gone := []knowledge.Term{{Text: "zqxredactme"}, {Text: "zqxredactme", Substring: true}}
	if ids, err := d.Match(ctx, "", gone, 10); err != nil || len(ids) != 2 || len(ids[0])+len(ids[1]) != 0 {
		t.Fatalf("Match after redaction = %v, %v", ids, err)
	}
	if n, err := d.TermCounts(ctx, gone, knowledge.CommonTerm); err != nil || len(n) != 2 || n[0]+n[1] != 0 {
		t.Fatalf("TermCounts after redaction = %v, %v", n, err)
	}
	if _, err := d.Contributions(ctx, e.ID); pumasi.ErrorCode(err) != pumasi.ENotFound {
		t.Fatalf("Contributions after redaction = %v, want not_found", err)
	}
	r, err := d.Redaction(ctx, e.ID)
	if err != nil || r.Hive != "academy" || r.By != "the-admin" || r.Reason != "a secret the gate missed" || !r.At.Equal(knowClock.now()) {
		t.Fatalf("tombstone = %+v, %v", r, err)
	}
	kinds := eventKinds(t, d, e.ID)
	if len(kinds) == 0 || kinds[len(kinds)-1] != knowledge.EventRedacted {
		t.Fatalf("events = %v, want the redaction last", kinds)
	}
	// The same text may be contributed again: a new entry, not the tombstone.
	back := mustContribute(t, k, knowIn("agent-four", "academy", in.Title, in.Content, probe))
	if back.Verdict != knowledge.VerdictAccepted || back.Entry.ID == e.ID {
		t.Fatalf("contribution after redaction = %s %s", back.Verdict, back.Entry.ID)
	}
}

func testSupersede(t *testing.T, k *knowledge.Engine) {
	ctx := context.Background()
	oldVec := knowVec(9, 10, 0)
	old := mustContribute(t, k, knowIn("agent-one", "academy", "Use flag --legacy", "Tool v1 needs --legacy to start.", oldVec)).Entry
	other := mustContribute(t, k, knowIn("agent-one", "backend", "Elsewhere", "An entry of another hive.", knowVec(11, 12, 0))).Entry

	bad := []struct {
		name, supersedes string
		in               knowledge.ContributeInput
		code             string
	}{
		{"unknown", "no-such-entry", knowIn("agent-two", "academy", "New", "Newer text.", knowVec(13, 14, 0)), pumasi.ENotFound},
		{"other hive", other.ID, knowIn("agent-two", "academy", "New", "Newer text.", knowVec(13, 14, 0)), pumasi.EInvalidRequest},
		{"itself", old.ID, knowIn("agent-two", "academy", "Use flag --legacy", "Tool v1 needs --legacy to start.", oldVec), pumasi.EInvalidRequest},
	}
	for _, c := range bad {
		c.in.Supersedes = c.supersedes
		if _, err := k.Contribute(ctx, c.in); pumasi.ErrorCode(err) != c.code {
			t.Errorf("supersedes %s: err = %v, want %s", c.name, err, c.code)
		}
	}
	// Nothing was written by the refused contributions.
	if hits, err := k.Query(ctx, knowledge.QueryInput{Model: "test-model", Vector: knowVec(13, 14, 0), Limit: 10}); err != nil || len(hits) != 0 {
		t.Fatalf("refused contributions wrote %d entries (%v)", len(hits), err)
	}

	in := knowIn("agent-two", "academy", "Tool v2 starts without --legacy", "Since v2 the --legacy flag is gone; drop it.", knowVec(13, 14, 0))
	in.Supersedes = old.ID
	res := mustContribute(t, k, in)
	if res.Verdict != knowledge.VerdictAccepted || res.Entry.Supersedes != old.ID {
		t.Fatalf("superseding contribution = %s supersedes %q, want accepted superseding %s", res.Verdict, res.Entry.Supersedes, old.ID)
	}
	newer := res.Entry
	if g := mustEntry(t, k, old.ID); g.SupersededBy != newer.ID {
		t.Fatalf("older entry superseded_by = %q, want %s", g.SupersededBy, newer.ID)
	}
	if g := mustEntry(t, k, newer.ID); g.Supersedes != old.ID {
		t.Fatalf("newer entry supersedes = %q, want %s", g.Supersedes, old.ID)
	}
	// A query that finds the older entry answers the newer in its place.
	if queried(t, k, oldVec, old.ID, false) || !queried(t, k, oldVec, newer.ID, false) {
		t.Fatalf("query along the older entry: older %v newer %v, want only the newer",
			queried(t, k, oldVec, old.ID, false), queried(t, k, oldVec, newer.ID, false))
	}
	if got := eventKinds(t, k.Driver(), old.ID); !slices.Equal(got, []string{knowledge.EventSuperseded}) {
		t.Fatalf("older events = %v", got)
	}
	if got := eventKinds(t, k.Driver(), newer.ID); !slices.Equal(got, []string{knowledge.EventSupersedes}) {
		t.Fatalf("newer events = %v", got)
	}
	// A successor that is not live gives the place back.
	mustFlag(t, k, newer.ID, "the-admin", true)
	if !queried(t, k, oldVec, old.ID, false) {
		t.Fatalf("with its successor quarantined, the older entry is not queried")
	}
}

func testModerationView(t *testing.T, k *knowledge.Engine) {
	ctx := context.Background()
	a := mustContribute(t, k, knowIn("agent-one", "academy", "Flagged once", "Waits for review.", knowVec(0, 1, 0))).Entry
	b := mustContribute(t, k, knowIn("agent-one", "academy", "Taken out", "Quarantined by an admin.", knowVec(2, 3, 0))).Entry
	c := mustContribute(t, k, knowIn("agent-one", "backend", "Other hive", "Flagged in backend.", knowVec(4, 5, 0))).Entry
	mustContribute(t, k, knowIn("agent-one", "academy", "Untouched", "Nobody flagged it.", knowVec(6, 7, 0)))
	mustFlag(t, k, a.ID, "flagger-1", false)
	mustFlag(t, k, b.ID, "the-admin", true)
	mustFlag(t, k, c.ID, "flagger-1", false)
	v, err := k.Moderation(ctx, knowledge.ModerationQuery{Hive: "academy", Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	ids := func(es []knowledge.Entry) []string {
		out := []string{}
		for _, e := range es {
			out = append(out, e.ID)
		}
		return out
	}
	if !slices.Equal(ids(v.Flagged), []string{a.ID}) || !slices.Equal(ids(v.Quarantined), []string{b.ID}) || v.Merges == nil {
		t.Fatalf("moderation of academy = flagged %v quarantined %v, want [%s] [%s]", ids(v.Flagged), ids(v.Quarantined), a.ID, b.ID)
	}
	if v, err := k.Moderation(ctx, knowledge.ModerationQuery{Hive: "", Limit: 10}); err != nil || len(v.Flagged) != 2 {
		t.Fatalf("moderation of every hive = %d flagged, %v; want 2", len(v.Flagged), err)
	}
	// An admin's restore is a review: the entries leave both lists, their
	// flags kept, until a flag comes after it.
	for _, id := range []string{a.ID, b.ID} {
		if r, err := k.Restore(ctx, id, "the-admin"); err != nil || r.Quarantined || r.Flags != 1 {
			t.Fatalf("Restore(%s) = quarantined %v flags %d, %v; want lifted with its flag kept", id, r.Quarantined, r.Flags, err)
		}
	}
	if v, err := k.Moderation(ctx, knowledge.ModerationQuery{Hive: "academy", Limit: 10}); err != nil || len(v.Flagged)+len(v.Quarantined) != 0 {
		t.Fatalf("after restores, moderation of academy = flagged %v quarantined %v, %v; want both empty", ids(v.Flagged), ids(v.Quarantined), err)
	}
	mustFlag(t, k, a.ID, "flagger-2", false)
	if v, err := k.Moderation(ctx, knowledge.ModerationQuery{Hive: "academy", Limit: 10}); err != nil || !slices.Equal(ids(v.Flagged), []string{a.ID}) || v.Flagged[0].Flags != 2 {
		t.Fatalf("a flag after the restore: flagged %v, %v; want [%s] with 2 flags", ids(v.Flagged), err, a.ID)
	}
	if got := eventKinds(t, k.Driver(), a.ID); !slices.Equal(got, []string{"flagged", "restored", "flagged"}) {
		t.Fatalf("events of the reviewed entry = %v", got)
	}
	// Restoring an entry with nothing waiting changes nothing.
	if _, err := k.Restore(ctx, c.ID, "the-admin"); err != nil {
		t.Fatal(err)
	}
	if _, err := k.Restore(ctx, c.ID, "the-admin"); err != nil {
		t.Fatal(err)
	}
	if got := eventKinds(t, k.Driver(), c.ID); !slices.Equal(got, []string{"flagged", "restored"}) {
		t.Fatalf("events after two restores = %v, want one restored", got)
	}
}

// testModerationViewFills: the view shows as many as asked though the
// driver's lists hold rows it leaves out: merges a redaction blanked,
// entries whose flags a restore reviewed.
func testModerationViewFills(t *testing.T, k *knowledge.Engine) {
	ctx := context.Background()
	_, b := mergedTwins(t, k, "probe-view", 1, nil)
	_, d := mergedTwins(t, k, "probe-view-2", 3, nil)
	if err := k.Redact(ctx, d, "the-admin", "wrong"); err != nil {
		t.Fatal(err)
	}
	p := mustContribute(t, k, knowIn("agent-one", "probe-view", "Waits for review", "Flagged first.", knowVec(5, 6, 0))).Entry.ID
	mustFlag(t, k, p, "flagger-1", false)
	for i := range 5 {
		knowClock.advance(t, time.Minute)
		e := mustContribute(t, k, knowIn("agent-one", "probe-view", fmt.Sprintf("Reviewed %d", i), "Flagged, then restored.", knowVec(7+i, 13, 0))).Entry.ID
		mustFlag(t, k, e, "flagger-1", false)
		if _, err := k.Restore(ctx, e, "the-admin"); err != nil {
			t.Fatal(err)
		}
	}
	v, err := k.Moderation(ctx, knowledge.ModerationQuery{Hive: "", Limit: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Merges) != 1 || v.Merges[0].EntryID != b {
		t.Fatalf("moderation merges at limit 1 = %+v, want the one undoable (%s), not the redacted one", v.Merges, b)
	}
	if len(v.Flagged) != 1 || v.Flagged[0].ID != p {
		t.Fatalf("moderation flagged at limit 1 = %d entries, want %s, behind five reviewed ones", len(v.Flagged), p)
	}
}
