package knowledgetest

import (
	"context"
	"fmt"
	"math"
	"slices"
	"testing"
	"time"

	"pumasi"
	"pumasi/knowledge"
)

// Backend-specific checks share their setup here: what each driver's own
// test adds is where it looks (files under a home, rows of a database) and
// how it reaches its schema.

// RedactTrace says how a driver's test looks for what a redaction must
// remove (RedactAbsorbedLeavesNoTrace).
type RedactTrace struct {
	// Dim is the vectors' dimension (at least 16).
	Dim int
	// Fillers is how many unrelated entries to add first.
	Fillers int
	// Settle, when set, runs before the first search (a WAL checkpoint).
	Settle func(t *testing.T)
	// Found lists the places (files, tables) that hold word.
	Found func(t *testing.T, word string) []string
	// MinBefore is how many places must hold each redacted word before the
	// redactions, for the search to be shown able to find it (1 when 0).
	MinBefore int
}

// RedactAbsorbedLeavesNoTrace: an entry the sweep absorbed keeps its text
// in its record and its contributions (with their text) and flags in its
// survivor; redacting the absorbed id leaves its words in no place o.Found
// searches, the survivor's own words stay. Redacting a survivor takes the
// text of an entry absorbed into one it absorbed (a chain) as well. k is
// an engine over the driver under test.
func RedactAbsorbedLeavesNoTrace(t *testing.T, k *knowledge.Engine, o RedactTrace) {
	t.Helper()
	ctx := context.Background()
	// vec(axis, tilt): near-duplicates share an axis.
	vec := func(axis int, tilt float64) []float32 {
		v := make([]float32, o.Dim)
		n := float32(math.Sqrt(1 + tilt*tilt))
		v[axis], v[axis+1] = 1/n, float32(tilt)/n
		return v
	}
	t0 := time.Now().Add(-time.Hour).UTC()
	add := func(agent, title, content string, v []float32, at time.Time) string {
		t.Helper()
		r, err := k.Contribute(ctx, knowledge.ContributeInput{Hive: "academy", Agent: agent, Title: title, Content: content,
			NormHash: knowledge.Hash(title, content), Model: "test-model", Vector: v, Specificity: 0.8, Threshold: 1.01, At: at})
		if err != nil {
			t.Fatal(err)
		}
		return r.Entry.ID
	}
	// Fillers apart from each other (cosine 0.8 at most) and from the
	// entries below (axes 10 and up).
	span := o.Dim - 10
	for i := range o.Fillers {
		v := make([]float32, o.Dim)
		x, y := 10+i%span, 10+(i%span+1+i/span)%span
		v[x], v[y] = 1/float32(math.Sqrt(1.25)), 0.5/float32(math.Sqrt(1.25))
		add("filler", fmt.Sprintf("Filler finding %d", i), fmt.Sprintf("Filler content number %d about SQLite pages.", i), v, t0)
	}
	const secret, secret2, kept = "zqxvkwpmabsorbed", "zqxvkwpmchained", "zqxvkwpmsurvivor"
	a := add("author-a", "Curl with a bearer "+kept, "Call the API with a bearer header, "+kept+".", vec(1, 0), t0)
	b := add("author-b", "Curl with a bearer "+secret, "The header was "+secret+" in the example.", vec(1, 0.05), t0.Add(time.Second))
	add("author-b2", "Curl with a bearer "+secret, "The header was "+secret+" in the example.", vec(1, 0.05), t0.Add(time.Second))
	if _, _, err := k.Flag(ctx, knowledge.FlagInput{ID: b, Agent: "flagger-1", Reason: knowledge.FlagPII, Note: "it leaks " + secret}); err != nil {
		t.Fatal(err)
	}
	// The chain: C into D (older), then D into E (older still).
	c := add("author-c", "Token "+secret2+" in a header", "Chained "+secret2+" text.", vec(5, 0.05), t0.Add(2*time.Second))
	dd := add("author-d", "Token in a header", "The chain's middle entry.", vec(5, 0), t0.Add(time.Second))
	if rep, err := k.SweepKnowledge(ctx, knowledge.DefaultMergeThreshold); err != nil || rep.Merged != 2 {
		t.Fatalf("sweep = %+v, %v; want B into A and C into D", rep, err)
	}
	e := add("author-e", "Token in a header, first", "The chain's oldest entry.", vec(5, 0.02), t0.Add(-time.Minute))
	if rep, err := k.SweepKnowledge(ctx, knowledge.DefaultMergeThreshold); err != nil || rep.Merged != 1 {
		t.Fatalf("second sweep = %+v, %v; want D into E", rep, err)
	}
	if got, err := k.GetEntry(ctx, c); err != nil || got.ID != e {
		t.Fatalf("C answers %v, %v; want E %s (through D %s)", got.ID, err, e, dd)
	}
	if o.Settle != nil {
		o.Settle(t)
	}
	for _, w := range []string{secret, secret2, kept} {
		if found := o.Found(t, w); len(found) < max(o.MinBefore, 1) {
			t.Fatalf("before the redactions %q is in %v: the search is blind", w, found)
		}
	}
	if err := k.Redact(ctx, b, "admin", "a live token"); err != nil {
		t.Fatal(err)
	}
	if err := k.Redact(ctx, e, "admin", "the chain goes"); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{b, c, dd, e} {
		if _, err := k.GetEntry(ctx, id); pumasi.ErrorCode(err) != pumasi.EGone {
			t.Fatalf("GetEntry(%s) after the redactions = %v, want gone", id, err)
		}
	}
	if got, err := k.GetEntry(ctx, a); err != nil || got.ContributionCount != 1 {
		t.Fatalf("the survivor A = %+v, %v; want live with its own contribution", got, err)
	}
	for _, w := range []string{secret, secret2} {
		if found := o.Found(t, w); len(found) > 0 {
			t.Fatalf("after the redactions %q is still in %v", w, found)
		}
	}
	if found := o.Found(t, kept); len(found) == 0 {
		t.Fatalf("the survivor's own words (%q) are in no place searched: the search is blind", kept)
	}
}

// LegacyFlag is a flag row of the schema before flags had an origin, as a
// flag-origin migration test seeds it (FlagBackfillSeed).
type LegacyFlag struct {
	Entry, Agent, Reason, Note string
	Admin                      bool
	At                         string
}

// LegacyModeration is a moderation row of that schema: distinct flaggers
// and how many of them the last restore cleared.
type LegacyModeration struct {
	Entry, Hive    string
	Flags, Cleared int
}

// FlagBackfillSeed is what a flag-origin migration test seeds: four flags
// of e1, two of them cleared by its last restore, and an admin's of e2.
func FlagBackfillSeed() ([]LegacyFlag, []LegacyModeration) {
	return []LegacyFlag{
			{"e1", "b", "wrong", "", false, "2026-01-01T00:00:02Z"},
			{"e1", "a", "wrong", "", false, "2026-01-01T00:00:02Z"},
			{"e1", "c", "wrong", "", false, "2026-01-01T00:00:01Z"},
			{"e1", "d", "wrong", "", false, "2026-01-01T00:00:03Z"},
			{"e2", "a", "pii", "x", true, "2026-01-01T00:00:01Z"},
		}, []LegacyModeration{
			{"e1", "h", 4, 2},
			{"e2", "h", 1, 0},
		}
}

// BackfilledFlag is a flag row as the migration left it (WantFlagBackfill).
type BackfilledFlag struct {
	Entry, Agent, Origin string
	Cleared              bool
}

// Rows is what database/sql's and pgx's rows have in common.
type Rows interface {
	Next() bool
	Scan(dest ...any) error
	Err() error
}

// WantFlagBackfill checks the flags a migration (named migration) left of
// FlagBackfillSeed, rows of (entry_id, agent, origin, cleared) in (entry,
// agent) order: each has its own entry as origin, and the first
// moderation.cleared flags of each entry (oldest first, by agent on a tie)
// are cleared: the ones its last restore counted.
func WantFlagBackfill(t *testing.T, migration string, rows Rows) {
	t.Helper()
	var got []string
	for rows.Next() {
		var r BackfilledFlag
		if err := rows.Scan(&r.Entry, &r.Agent, &r.Origin, &r.Cleared); err != nil {
			t.Fatal(err)
		}
		mark := " pending"
		if r.Cleared {
			mark = " cleared"
		}
		got = append(got, r.Entry+"/"+r.Agent+"@"+r.Origin+mark)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	// e1's first two: c (second 1), then a (second 2, a before b).
	want := []string{"e1/a@e1 cleared", "e1/b@e1 pending", "e1/c@e1 cleared", "e1/d@e1 pending", "e2/a@e2 pending"}
	if !slices.Equal(got, want) {
		t.Fatalf("flags after %s = %v, want %v", migration, got, want)
	}
}
