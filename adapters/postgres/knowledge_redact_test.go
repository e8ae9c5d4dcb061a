package postgres

import (
	"context"
	"fmt"
	"testing"

	"github.com/jackc/pgx/v5"

	"pumasi"
	"pumasi/knowledge"
)

// TestRedactionLeavesNoRow: after a redaction, no row of any table of the
// schema — entries (with their generated tsvector), contributions, flags,
// events, anything — holds the entry's unique words in any column, though
// before it several did; an entry not redacted is still found the same way.
func TestRedactionLeavesNoRow(t *testing.T) {
	ctx := context.Background()
	d := newKnowledgeDriver(t)
	k := knowledge.New(Retrying(d), knowledge.Options{})
	const secret, kept = "zqxvkwpmsecret", "zqxvkwpmkept"
	// An inflected word whose stem is not in its text: only the stored
	// analysis (bytea) and the full-text index's tsvector hold it.
	const inflected, stem = "zqxvkwpmhappy", "zqxvkwpmhappi"
	in := func(agent, title, content string, tags []string, axis int) knowledge.ContributeInput {
		v := make([]float32, 16)
		v[axis] = 1
		return knowledge.ContributeInput{Hive: "academy", Agent: agent, Title: title, Content: content, Tags: tags,
			NormHash: knowledge.Hash(title, content), Model: "test-model", Vector: v, Specificity: 0.8, Threshold: 1.01}
	}
	target := in("author-1", "Token "+secret+" in the title", "The content repeats "+secret+", "+inflected+".", []string{secret + "-tag"}, 1)
	res, err := k.Contribute(ctx, target)
	if err != nil {
		t.Fatal(err)
	}
	id := res.Entry.ID
	again := target
	again.Agent = "author-2"
	if _, err := k.Contribute(ctx, again); err != nil {
		t.Fatal(err)
	}
	if _, err := k.Contribute(ctx, in("author-1", "Kept "+kept, "This one stays: "+kept+".", nil, 2)); err != nil {
		t.Fatal(err)
	}
	if _, err := k.Cite(ctx, id, "citer-1"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := k.Flag(ctx, knowledge.FlagInput{ID: id, Agent: "flagger-1", Reason: knowledge.FlagPII, Note: "it leaks " + secret}); err != nil {
		t.Fatal(err)
	}
	if n := rowsHolding(t, d, secret); len(n) < 3 {
		t.Fatalf("before the redaction %q is in %v: the search is blind", secret, n)
	}
	if n := rowsHolding(t, d, stem); len(n) == 0 {
		t.Fatalf("before the redaction the stem %q is in no row: the search is blind to stored analyses", stem)
	}
	if err := k.Redact(ctx, id, "admin", "a secret the gate missed"); err != nil {
		t.Fatal(err)
	}
	if err := k.Redact(ctx, id, "admin", "again"); err != nil {
		t.Fatalf("redact again = %v, want a no-op", err)
	}
	if _, err := k.GetEntry(ctx, id); pumasi.ErrorCode(err) != pumasi.EGone {
		t.Fatalf("GetEntry after redaction = %v, want gone", err)
	}
	for _, w := range []string{secret, stem} {
		if n := rowsHolding(t, d, w); len(n) > 0 {
			t.Fatalf("after the redaction %q is still in %v", w, n)
		}
	}
	if n := rowsHolding(t, d, kept); len(n) == 0 {
		t.Fatalf("the entry not redacted (%q) is in no row: the search is blind", kept)
	}
}

// rowsHolding lists "table: rows" for every table of the schema with rows
// whose text form (every column, tsvectors and arrays included) holds s,
// as text or as the hex of its bytes (a bytea column's text form).
func rowsHolding(t *testing.T, d *Knowledge, s string) []string {
	t.Helper()
	ctx := context.Background()
	rows, err := d.Pool().Query(ctx, `SELECT table_name FROM information_schema.tables
		WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`)
	if err != nil {
		t.Fatal(err)
	}
	tables, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil || len(tables) < 5 {
		t.Fatalf("tables = %v, %v", tables, err)
	}
	var out []string
	for _, tb := range tables {
		var n int
		q := fmt.Sprintf(`SELECT COUNT(*) FROM %s x WHERE x::text ILIKE '%%' || $1 || '%%' OR x::text ILIKE '%%' || encode(convert_to($1, 'UTF8'), 'hex') || '%%'`, pgx.Identifier{tb}.Sanitize())
		if err := d.Pool().QueryRow(ctx, q, s).Scan(&n); err != nil {
			t.Fatalf("search %s: %v", tb, err)
		}
		if n > 0 {
			out = append(out, fmt.Sprintf("%s: %d", tb, n))
		}
	}
	return out
}
