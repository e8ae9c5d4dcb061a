package knowledgetest

import (
	"bytes"
	"context"
	"testing"
	"time"

	"pumasi/knowledge"
)

// detailsModel is a bag-of-words model's name: under it the merge
// decision weighs the texts' details (knowledge.LexicalModelPrefix).
const detailsModel = knowledge.LexicalModelPrefix + "suite"

// The texts of the stored-details tests: an entry, a rewording of it that
// shares its details (merges below the threshold), and a text that reads
// almost alike with other numbers (never merges).
var (
	detailsEntry = [2]string{"pgbouncer 1.21 prepared statements in transaction pooling",
		"Transaction pooling in pgbouncer 1.21 keeps prepared statements with max_prepared_statements=100 in pgbouncer.ini."}
	detailsReword = [2]string{"Prepared statements under pgbouncer 1.21 transaction pooling",
		"Set max_prepared_statements=100 in pgbouncer.ini so that pgbouncer 1.21 keeps prepared statements when pooling transactions."}
	detailsRival = [2]string{"pgbouncer 1.22 prepared statements in transaction pooling",
		"Transaction pooling in pgbouncer 1.22 keeps prepared statements with max_prepared_statements=200 in pgbouncer.ini."}
)

// testKnowDetails pins the stored details (knowledge/details_store.go):
// the engine writes an entry's parsed details with it, Entries and
// NearestEntries give the driver's bytes back as they went in (opaque to
// a driver), and the merge decision reads them: an entry with none, or
// with a value the engine cannot read (another extractor's, not details at
// all), merges exactly as one with the right ones, its text parsed again;
// one whose stored details are another text's is judged by those (so a
// driver that dropped them would fail here).
func testKnowDetails(t *testing.T, newDriver func(t *testing.T) knowledge.Driver) {
	ctx := context.Background()
	d := newDriver(t)
	k := knowledge.New(d, knowledge.Options{Now: knowClock.now})

	in := knowIn("det-agent", "det", detailsEntry[0], detailsEntry[1], knowVec(1, 2, 0.1))
	in.Model = detailsModel
	res := mustContribute(t, k, in)
	want := knowledge.Details(in.Title, in.Content)
	got, err := d.Entries(ctx, []string{res.Entry.ID})
	if err != nil {
		t.Fatalf("Entries: %v", err)
	}
	if len(want) == 0 || !bytes.Equal(got[res.Entry.ID].Details, want) {
		t.Fatalf("stored details of a contribution = %x, want %x", got[res.Entry.ID].Details, want)
	}

	stale := knowledge.DetailsHeader()
	stale[1]++ // another extractor's version
	stale = append(stale, want[len(stale):]...)
	cases := []struct {
		hive    string
		details []byte
		// rival says that the stored details are the rival text's: then
		// the rival merges and the rewording, whose numbers they do not
		// give, does not.
		rival bool
	}{
		{"det-right", want, false},
		{"det-none", nil, false},
		{"det-stale", stale, false},
		{"det-bytes", []byte{0, 1, 2, 0, 255}, false},
		{"det-rivals", knowledge.Details(detailsRival[0], detailsRival[1]), true},
	}
	at := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	vec := knowVec(1, 2, 0.1)
	ids := map[string]string{}
	for _, c := range cases {
		title, content := detailsEntry[0], detailsEntry[1]
		ne := knowledge.NewEntry{ID: "det-" + c.hive, Hive: c.hive, Title: title, Content: content, Tags: []string{},
			NormHash: knowledge.Hash(title, content), Model: detailsModel, Vector: vec, Specificity: 0.8, At: at, Details: c.details}
		id, created, err := d.Insert(ctx, ne, knowledge.Contribution{Agent: "det-loader", Title: title, Content: content, At: at, Similarity: 1})
		if err != nil || !created {
			t.Fatalf("Insert(%s) = %v, %v", c.hive, created, err)
		}
		ids[c.hive] = id
	}
	check := func(how string, es map[string]knowledge.StoredEntry) {
		t.Helper()
		for _, c := range cases {
			if e, ok := es[ids[c.hive]]; ok && (!bytes.Equal(e.Details, c.details) || (c.details == nil) != (len(e.Details) == 0)) {
				t.Fatalf("%s: details of %s = %x, want %x", how, c.hive, e.Details, c.details)
			}
		}
	}
	var all []string
	for _, c := range cases {
		all = append(all, ids[c.hive])
	}
	es, err := d.Entries(ctx, all)
	if err != nil || len(es) != len(all) {
		t.Fatalf("Entries = %d entries, %v", len(es), err)
	}
	check("Entries", es)
	if r, ok := d.(knowledge.NearestReader); ok {
		for _, c := range cases {
			list, err := r.NearestEntries(ctx, c.hive, detailsModel, vec, 5)
			if err != nil || len(list) != 1 {
				t.Fatalf("NearestEntries(%s) = %d entries, %v", c.hive, len(list), err)
			}
			check("NearestEntries", map[string]knowledge.StoredEntry{list[0].ID: list[0]})
		}
	}

	// A rewording at cosine 0.61 merges by the details it shares; the
	// rival at 0.95 is kept apart by its numbers; unless the entry's
	// stored details are the rival's, which the decision then goes by.
	for _, c := range cases {
		for _, p := range []struct {
			text  [2]string
			vec   []float32
			merge bool
		}{{detailsReword, knowVec(1, 3, 1.3), !c.rival}, {detailsRival, knowVec(1, 3, 0.3), c.rival}} {
			in := knowIn("det-writer", c.hive, p.text[0], p.text[1], p.vec)
			// The offline embedder's threshold, at which details merge below it.
			in.Model, in.Tags, in.Threshold = detailsModel, nil, 0.80
			res := mustContribute(t, k, in)
			if merged := res.Verdict == knowledge.VerdictMerged; merged != p.merge || merged && res.Entry.ID != ids[c.hive] {
				t.Fatalf("%s: %q → %s into %s, want merged %v", c.hive, p.text[0], res.Verdict, res.Entry.ID, p.merge)
			}
		}
	}
}

// testKnowRedetail: entries whose stored details are missing, another
// extractor's or not details at all get the current ones from
// Engine.Redetail, which leaves current ones alone; a second run has
// nothing to do. A driver that is no Redetailer is skipped.
func testKnowRedetail(t *testing.T, newDriver func(t *testing.T) knowledge.Driver) {
	ctx := context.Background()
	d := newDriver(t)
	if _, ok := d.(knowledge.Redetailer); !ok {
		t.Skip("the driver stores no details it can rewrite")
	}
	k := knowledge.New(d, knowledge.Options{Now: knowClock.now})
	at := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	title, content := "nginx 1.25 http2 directive", "nginx 1.25 deprecates `listen 443 ssl http2`; write `http2 on;` in the server block."
	right := knowledge.Details(title, content)
	stale := append([]byte{0xff}, right[1:]...)
	cases := []struct {
		hive    string
		details []byte
	}{
		{"redet-right", right}, {"redet-none", nil}, {"redet-stale", stale}, {"redet-bytes", []byte{0, 1, 2}},
	}
	var ids []string
	for _, c := range cases {
		ne := knowledge.NewEntry{ID: "redet-" + c.hive, Hive: c.hive, Title: title, Content: content, Tags: []string{"nginx"},
			NormHash: knowledge.Hash(title, content), Model: "test-model", Vector: knowVec(5, 6, 0.1), Specificity: 0.8, At: at, Details: c.details}
		if _, created, err := d.Insert(ctx, ne, knowledge.Contribution{Agent: "redet-loader", Title: title, Content: content, At: at, Similarity: 1}); err != nil || !created {
			t.Fatalf("Insert(%s) = %v, %v", c.hive, created, err)
		}
		ids = append(ids, ne.ID)
	}
	n, err := k.Redetail(ctx)
	if err != nil || n != 3 {
		t.Fatalf("Redetail = %d, %v; want the 3 entries without the current details", n, err)
	}
	es, err := d.Entries(ctx, ids)
	if err != nil || len(es) != len(ids) {
		t.Fatalf("Entries = %d entries, %v", len(es), err)
	}
	for _, id := range ids {
		if !bytes.Equal(es[id].Details, right) {
			t.Fatalf("details of %s after Redetail = %x, want %x", id, es[id].Details, right)
		}
	}
	if n, err := k.Redetail(ctx); err != nil || n != 0 {
		t.Fatalf("second Redetail = %d, %v; want nothing to do", n, err)
	}
}
