package knowledgetest

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"pumasi"
	"pumasi/knowledge"
)

// runReview pins the moderation view's pages: filtered where the driver
// keeps the rows, paged by a cursor, so nothing waiting is lost behind
// reviewed entries, and each entry is listed once.
func runReview(t *testing.T, newDriver func(t *testing.T) knowledge.Driver) {
	engine := func(t *testing.T) *knowledge.Engine {
		return knowledge.New(newDriver(t), knowledge.Options{Now: knowClock.now})
	}
	t.Run("ModerationViewPagesEveryEntry", func(t *testing.T) { testReviewPages(t, engine(t)) })
	t.Run("ModerationViewMergesPage", func(t *testing.T) { testReviewMerges(t, engine(t)) })
	t.Run("ModerationViewCursors", func(t *testing.T) { testReviewCursors(t, engine(t)) })
}

// pageAll walks one list of the view a page of limit at a time and
// returns the ids it listed, in order.
func pageAll(t *testing.T, k *knowledge.Engine, hive, list string, limit int) []string {
	t.Helper()
	var got []string
	cursor := ""
	for pages := 0; ; pages++ {
		if pages > 1000 {
			t.Fatalf("%s: more than 1000 pages", list)
		}
		v, err := k.Moderation(context.Background(), knowledge.ModerationQuery{Hive: hive, List: list, Cursor: cursor, Limit: limit})
		if err != nil {
			t.Fatalf("Moderation(%s, cursor %q): %v", list, cursor, err)
		}
		var n int
		switch list {
		case knowledge.ListFlagged:
			for _, e := range v.Flagged {
				got = append(got, e.ID)
			}
			n, cursor = len(v.Flagged), v.Next.Flagged
		case knowledge.ListQuarantined:
			for _, e := range v.Quarantined {
				got = append(got, e.ID)
			}
			n, cursor = len(v.Quarantined), v.Next.Quarantined
		case knowledge.ListMerges:
			for _, m := range v.Merges {
				got = append(got, m.EntryID)
			}
			n, cursor = len(v.Merges), v.Next.Merges
		}
		if n > limit {
			t.Fatalf("%s: a page of %d at limit %d", list, n, limit)
		}
		if other := len(v.Flagged) + len(v.Quarantined) + len(v.Merges) - n; other != 0 {
			t.Fatalf("%s alone: %d entries of the other lists", list, other)
		}
		if cursor == "" {
			return got
		}
	}
}

// testReviewPages: a flag waiting behind many newer reviewed ones (flagged
// then restored) is listed, every flagged and quarantined entry exactly
// once in the order of its last flag, whatever the page size; the driver's
// lists hold no reviewed entry.
func testReviewPages(t *testing.T, k *knowledge.Engine) {
	ctx := context.Background()
	const hive = "review"
	var flagged, quarantined []string // the last flagged first
	n := 0
	add := func(title string) string {
		n++
		return mustContribute(t, k, knowIn("agent-one", hive, fmt.Sprintf("%s number %d", title, n), fmt.Sprintf("Finding %d for review.", n),
			knowVec(n%knowDim, (n/knowDim)%knowDim, 0.5))).Entry.ID
	}
	waiting := add("Waits behind reviewed ones")
	mustFlag(t, k, waiting, "flagger-1", false)
	flagged = append(flagged, waiting)
	for i := range 60 {
		// Every fourth step shares its flag's time with the one before:
		// ties are ordered by id, and a page may end inside them.
		if i%4 != 0 {
			knowClock.advance(t, time.Second)
		}
		id := add("Reviewed")
		switch i % 10 {
		case 3:
			mustFlag(t, k, id, "flagger-1", false)
			flagged = append(flagged, id)
		case 7:
			mustFlag(t, k, id, "the-admin", true)
			quarantined = append(quarantined, id)
		default:
			mustFlag(t, k, id, "flagger-1", false)
			if _, err := k.Restore(ctx, id, "the-admin"); err != nil {
				t.Fatal(err)
			}
		}
	}
	// The view's order: the last flagged first, ties by id.
	order := func(ids []string) []string {
		out := slices.Clone(ids)
		slices.Reverse(out)
		at := map[string]time.Time{}
		sts, err := k.Driver().ModStates(ctx, out)
		if err != nil {
			t.Fatal(err)
		}
		for id, st := range sts {
			at[id] = st.FlaggedAt
		}
		slices.SortStableFunc(out, func(a, b string) int {
			if c := at[b].Compare(at[a]); c != 0 {
				return c
			}
			if a < b {
				return -1
			}
			return 1
		})
		return out
	}
	wantFlagged, wantQuarantined := order(flagged), order(quarantined)
	for _, limit := range []int{1, 2, 5, knowledge.MaxQueryLimit} {
		if got := pageAll(t, k, hive, knowledge.ListFlagged, limit); !slices.Equal(got, wantFlagged) {
			t.Fatalf("flagged a page of %d at a time = %v, want %v", limit, got, wantFlagged)
		}
		if got := pageAll(t, k, hive, knowledge.ListQuarantined, limit); !slices.Equal(got, wantQuarantined) {
			t.Fatalf("quarantined a page of %d at a time = %v, want %v", limit, got, wantQuarantined)
		}
	}
	// The first page of the whole view holds the waiting flag too.
	v, err := k.Moderation(ctx, knowledge.ModerationQuery{Hive: hive, Limit: len(flagged)})
	if err != nil || !slices.Contains(ids(v.Flagged), waiting) || v.Next.Flagged != "" || v.Next.Quarantined != "" {
		t.Fatalf("view at limit %d = flagged %v next %+v, %v; want %s among them and no next page", len(flagged), ids(v.Flagged), v.Next, err, waiting)
	}
	// The driver filters where it keeps the rows: no reviewed entry, and
	// a flagged one has a flag pending.
	for _, q := range []bool{false, true} {
		sts, err := k.Driver().Moderated(ctx, knowledge.ModeratedQuery{Hive: hive, Quarantined: q, Limit: 1000})
		if err != nil {
			t.Fatal(err)
		}
		want := len(flagged)
		if q {
			want = len(quarantined)
		}
		for _, st := range sts {
			if st.Quarantined != q || !q && st.Flags <= st.Cleared {
				t.Fatalf("Moderated(quarantined %v) lists %+v", q, st)
			}
		}
		if len(sts) != want {
			t.Fatalf("Moderated(quarantined %v) = %d states, want %d", q, len(sts), want)
		}
	}
	if sts, err := k.Driver().Moderated(ctx, knowledge.ModeratedQuery{Hive: "another-hive", Limit: 1000}); err != nil || len(sts) != 0 {
		t.Fatalf("Moderated of another hive = %v, %v; want none", sts, err)
	}
}

func ids(es []knowledge.Entry) []string {
	out := []string{}
	for _, e := range es {
		out = append(out, e.ID)
	}
	return out
}

// testReviewMerges: the merges an unmerge can undo, newest first, a page at
// a time; a redacted one (blank) is not among them.
func testReviewMerges(t *testing.T, k *knowledge.Engine) {
	ctx := context.Background()
	var want []string
	for i := range 5 {
		_, b := mergedTwins(t, k, fmt.Sprintf("review-merge-%d", i), 2*i, nil)
		want = append(want, b)
	}
	if err := k.Redact(ctx, want[2], "the-admin", "wrong"); err != nil {
		t.Fatal(err)
	}
	want = slices.Delete(want, 2, 3)
	slices.Reverse(want)
	for _, limit := range []int{1, 3, 10} {
		if got := pageAll(t, k, "", knowledge.ListMerges, limit); !slices.Equal(got, want) {
			t.Fatalf("merges a page of %d at a time = %v, want %v", limit, got, want)
		}
	}
	ms, err := k.RecentMerges(ctx, "", 10)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range ms {
		got = append(got, m.EntryID)
		if m.Title == "" {
			t.Fatalf("RecentMerges lists a blank record %+v", m)
		}
	}
	if !slices.Equal(got, want) {
		t.Fatalf("RecentMerges = %v, want %v (not the redacted one)", got, want)
	}
}

// testReviewCursors: a cursor continues the list it came from, and nothing
// else is taken for one.
func testReviewCursors(t *testing.T, k *knowledge.Engine) {
	ctx := context.Background()
	for i := range 3 {
		id := mustContribute(t, k, knowIn("agent-one", "review-cursor", fmt.Sprintf("Cursor case %d", i), "Flagged.", knowVec(i, i+1, 0))).Entry.ID
		mustFlag(t, k, id, "flagger-1", false)
	}
	v, err := k.Moderation(ctx, knowledge.ModerationQuery{List: knowledge.ListFlagged, Limit: 1})
	if err != nil || v.Next.Flagged == "" {
		t.Fatalf("first page = %+v, %v; want a next cursor", v.Next, err)
	}
	for _, q := range []knowledge.ModerationQuery{
		{Cursor: v.Next.Flagged}, // no list named
		{List: knowledge.ListQuarantined, Cursor: v.Next.Flagged},
		{List: knowledge.ListMerges, Cursor: v.Next.Flagged},
		{List: knowledge.ListFlagged, Cursor: "not a cursor"},
		{List: knowledge.ListFlagged, Cursor: "ZmxhZ2dlZDo"}, // "flagged:" with no position
		{List: "everything"},
	} {
		if _, err := k.Moderation(ctx, q); pumasi.ErrorCode(err) != pumasi.EInvalidRequest {
			t.Errorf("Moderation(%+v) = %v, want invalid_request", q, err)
		}
	}
}
