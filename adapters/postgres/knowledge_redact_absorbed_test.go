package postgres

import (
	"context"
	"math"
	"testing"
	"time"

	"pumasi"
	"pumasi/knowledge"
)

// TestRedactionOfAbsorbedLeavesNoRow: redacting an absorbed id leaves its
// words in no row of any table (its record, the contributions and flag it
// brought to its survivor), the survivor's own stay; redacting a survivor
// takes the text of an entry absorbed into one it absorbed (a chain) too.
func TestRedactionOfAbsorbedLeavesNoRow(t *testing.T) {
	ctx := context.Background()
	d := newKnowledgeDriver(t)
	k := knowledge.New(Retrying(d), knowledge.Options{})
	vec := func(axis int, tilt float64) []float32 {
		v := make([]float32, 16)
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
	const secret, secret2, kept = "zqxvkwpmabsorbed", "zqxvkwpmchained", "zqxvkwpmsurvivor"
	a := add("author-a", "Curl with a bearer "+kept, "Call the API with a bearer header, "+kept+".", vec(1, 0), t0)
	b := add("author-b", "Curl with a bearer "+secret, "The header was "+secret+" in the example.", vec(1, 0.05), t0.Add(time.Second))
	add("author-b2", "Curl with a bearer "+secret, "The header was "+secret+" in the example.", vec(1, 0.05), t0.Add(time.Second))
	if _, _, err := k.Flag(ctx, knowledge.FlagInput{ID: b, Agent: "flagger-1", Reason: knowledge.FlagPII, Note: "it leaks " + secret}); err != nil {
		t.Fatal(err)
	}
	c := add("author-c", "Token "+secret2+" in a header", "Chained "+secret2+" text.", vec(5, 0.05), t0.Add(2*time.Second))
	add("author-d", "Token in a header", "The chain's middle entry.", vec(5, 0), t0.Add(time.Second))
	if rep, err := k.SweepKnowledge(ctx, knowledge.DefaultMergeThreshold); err != nil || rep.Merged != 2 {
		t.Fatalf("sweep = %+v, %v; want B into A and C into D", rep, err)
	}
	e := add("author-e", "Token in a header, first", "The chain's oldest entry.", vec(5, 0.02), t0.Add(-time.Minute))
	if rep, err := k.SweepKnowledge(ctx, knowledge.DefaultMergeThreshold); err != nil || rep.Merged != 1 {
		t.Fatalf("second sweep = %+v, %v; want D into E", rep, err)
	}
	for _, w := range []string{secret, secret2} {
		if n := rowsHolding(t, d, w); len(n) < 2 {
			t.Fatalf("before the redactions %q is in %v: the search is blind", w, n)
		}
	}
	if err := k.Redact(ctx, b, "admin", "a live token"); err != nil {
		t.Fatal(err)
	}
	if err := k.Redact(ctx, e, "admin", "the chain goes"); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{b, c, e} {
		if _, err := k.GetEntry(ctx, id); pumasi.ErrorCode(err) != pumasi.EGone {
			t.Fatalf("GetEntry(%s) after the redactions = %v, want gone", id, err)
		}
	}
	if got, err := k.GetEntry(ctx, a); err != nil || got.ContributionCount != 1 {
		t.Fatalf("the survivor A = %+v, %v; want live with its own contribution", got, err)
	}
	for _, w := range []string{secret, secret2} {
		if n := rowsHolding(t, d, w); len(n) > 0 {
			t.Fatalf("after the redactions %q is still in %v", w, n)
		}
	}
	if n := rowsHolding(t, d, kept); len(n) == 0 {
		t.Fatalf("the survivor's own words (%q) are in no row: the search is blind", kept)
	}
}
