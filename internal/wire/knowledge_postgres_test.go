package wire

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"
	"time"

	"pumasi/internal/testpeer"
	"pumasi/knowledge"
)

// TestOpenKnowledgePostgres: PUMASI_KNOWLEDGE=postgres://… opens the
// Postgres engine (migrated on open), which takes a contribution and finds
// it again, and logs the URL without its password.
func TestOpenKnowledgePostgres(t *testing.T) {
	url := testpeer.Postgres(t)
	// The test peer trusts 127.0.0.1, so a password is accepted and unused:
	// what matters is that it never shows.
	withPassword := strings.Replace(url, "postgres@", "postgres:hunter2-secret@", 1)
	var logs bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	k, closeKnow, err := OpenKnowledge(ctx, nil, KnowledgeConfig{URL: withPassword, Log: slog.New(slog.NewTextHandler(&logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer closeKnow()
	if _, ok := k.(*knowledge.Engine); !ok {
		t.Fatalf("OpenKnowledge = %T, want the engine", k)
	}
	in := knowledge.ContributeInput{Hive: "academy", Agent: "wire-test", Title: "Postgres via PUMASI_KNOWLEDGE",
		Content: "the wired engine stores here", NormHash: knowledge.Hash("Postgres via PUMASI_KNOWLEDGE", "the wired engine stores here"),
		Model: "m", Vector: []float32{1, 0}, Threshold: 0.94}
	res, err := k.Contribute(ctx, in)
	if err != nil || res.Verdict != knowledge.VerdictAccepted {
		t.Fatalf("contribute = %+v, %v", res, err)
	}
	hits, err := k.Query(ctx, knowledge.QueryInput{Hive: "academy", Text: "wired engine", Model: "m", Vector: []float32{1, 0}})
	if err != nil || len(hits) != 1 || hits[0].ID != res.Entry.ID {
		t.Fatalf("query = %+v, %v; want the one entry", hits, err)
	}
	if !strings.Contains(logs.String(), "knowledge on postgres") || strings.Contains(logs.String(), "hunter2-secret") {
		t.Fatalf("log = %q, want the redacted URL", logs.String())
	}

	// A second open of the same database migrates nothing and sees the entry.
	k2, close2, err := OpenKnowledge(ctx, nil, KnowledgeConfig{URL: url})
	if err != nil {
		t.Fatal(err)
	}
	defer close2()
	if e, err := k2.GetEntry(ctx, res.Entry.ID); err != nil || e.ContributionCount != 1 {
		t.Fatalf("second engine reads %+v, %v", e, err)
	}
}

// TestOpenKnowledgePostgresErrorHidesPassword: a database that cannot be
// reached fails the open with the URL masked.
func TestOpenKnowledgePostgresErrorHidesPassword(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, _, err := OpenKnowledge(ctx, nil, KnowledgeConfig{URL: "postgres://pumasi:hunter2-secret@127.0.0.1:1/knowledge?sslmode=disable&connect_timeout=2"})
	if err == nil {
		t.Fatal("open of an unreachable database succeeded")
	}
	if strings.Contains(err.Error(), "hunter2-secret") || !strings.Contains(err.Error(), "127.0.0.1:1") {
		t.Fatalf("error = %v, want the address without the password", err)
	}
}
