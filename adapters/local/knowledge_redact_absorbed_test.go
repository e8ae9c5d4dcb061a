package local

import (
	"context"
	"fmt"
	"math"
	"testing"
	"time"

	"pumasi"
	"pumasi/knowledge"
)

// TestRedactionOfAbsorbedLeavesNoTrace: an entry the sweep absorbed keeps
// its text in its record and its contributions (with their text) and flags
// in its survivor; redacting the absorbed id leaves its words in no file
// under the home, the survivor's own words stay. Redacting a survivor takes
// the text of an entry absorbed into one it absorbed (a chain) as well.
func TestRedactionOfAbsorbedLeavesNoTrace(t *testing.T) {
	ctx := context.Background()
	home := t.TempDir()
	s, err := Open(ctx, home, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	d := NewKnowledgeDriver(s)
	defer d.Close()
	k := knowledge.New(d, knowledge.Options{})
	// vec(axis, tilt): near-duplicates share an axis.
	vec := func(axis int, tilt float64) []float32 {
		v := make([]float32, 32)
		v[axis%32], v[(axis+1)%32] = 1, float32(tilt)
		n := float32(math.Sqrt(1 + tilt*tilt))
		v[axis%32] /= n
		v[(axis+1)%32] /= n
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
	for i := range 200 {
		v := make([]float32, 32)
		x, y := 10+i%22, 10+(i%22+1+i/22)%22
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
	if err := s.truncateWAL(ctx); err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{secret, secret2, kept} {
		if found := filesHolding(t, home, w); len(found) == 0 {
			t.Fatalf("before the redactions no file holds %q: the search is blind", w)
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
		if found := filesHolding(t, home, w); len(found) > 0 {
			t.Fatalf("after the redactions %q is still in %v", w, found)
		}
	}
	if found := filesHolding(t, home, kept); len(found) == 0 {
		t.Fatalf("the survivor's own words (%q) are in no file: the search is blind", kept)
	}
}
